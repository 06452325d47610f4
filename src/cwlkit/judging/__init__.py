"""Judgements: pools (what to judge, in which order), simulated judging budgets against
complete qrels, and the C/W/L residual as the guide to what to judge next."""

from __future__ import annotations

from .agreement import compare_runs
from .pool import Pool, pool
from .simulate import Simulation, simulate_judging

__all__ = ["Pool", "Simulation", "compare_runs", "pool", "simulate_judging"]
