"""Judgements: pools (what to judge, in which order), simulated judging budgets against
complete qrels, leave-one-group-out reusability, and the C/W/L residual as the guide to
what to judge next."""

from __future__ import annotations

from .agreement import compare_runs
from .pool import Pool, pool
from .reusability import Reusability, reusability
from .simulate import Simulation, simulate_judging

__all__ = [
    "Pool",
    "Reusability",
    "Simulation",
    "compare_runs",
    "pool",
    "reusability",
    "simulate_judging",
]
