"""Judgements: pools (what to judge, in which order), simulated judging budgets against
complete qrels, leave-one-group-out reusability, and the C/W/L residual as the guide to
what to judge next."""

from __future__ import annotations

from .agreement import compare_runs
from .pool import Pool, pool
from .reusability import Reusability, reusability
from .simulate import Simulation, plot_simulations, simulate_judging

__all__ = [
    "Pool",
    "Reusability",
    "Simulation",
    "compare_runs",
    "plot_simulations",
    "pool",
    "reusability",
    "simulate_judging",
]
