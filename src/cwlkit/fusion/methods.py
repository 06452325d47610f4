"""The fusion methods' names (ranx's and readable ones) and parameters."""

from __future__ import annotations

from dataclasses import dataclass

from ..support.checks import check_choice


@dataclass(frozen=True)
class Method:
    """A fusion method: its ranx name, readable name, and parameters."""

    name: str
    readable: str
    family: str
    #: scalar parameters and their defaults
    params: tuple[tuple[str, float], ...] = ()
    #: takes one weight per run
    weighted: bool = False
    #: learns per-run arrays from training qrels and runs
    trained: str | None = None


METHODS: dict[str, Method] = {
    m.name: m
    for m in (
        Method("sum", "CombSUM", "score"),
        Method("mnz", "CombMNZ", "score"),
        Method("anz", "CombANZ", "score"),
        Method("gmnz", "CombGMNZ", "score", (("gamma", 1.0),)),
        Method("max", "CombMAX", "score"),
        Method("min", "CombMIN", "score"),
        Method("med", "CombMED", "score"),
        Method("wsum", "WeightedSUM", "score", weighted=True),
        Method("wmnz", "WeightedMNZ", "score", weighted=True),
        Method("mixed", "Mixed", "score", weighted=True),
        Method("isr", "ISR", "rank"),
        Method("log_isr", "LogISR", "rank"),
        Method("logn_isr", "LogNISR", "rank", (("sigma", 0.01),)),
        Method("rrf", "RRF", "rank", (("k", 60.0),)),
        Method("rbc", "RBC", "rank", (("phi", 0.8),)),
        Method("bordafuse", "BordaFuse", "rank"),
        Method("w_bordafuse", "WeightedBordaFuse", "rank", weighted=True),
        Method("condorcet", "Condorcet", "voting"),
        Method("w_condorcet", "WeightedCondorcet", "voting", weighted=True),
        Method("posfuse", "PosFuse", "probabilistic", trained="probs"),
        Method("probfuse", "ProbFuse", "probabilistic", (("n_segments", 10),), trained="probs"),
        Method("segfuse", "SegFuse", "probabilistic", trained="probs"),
        Method("slidefuse", "SlideFuse", "probabilistic", (("w", 1),), trained="probs"),
        Method("bayesfuse", "BayesFuse", "probabilistic", trained="log_odds"),
        Method("mapfuse", "MAPFuse", "probabilistic", trained="map_scores"),
    )
}

#: every accepted spelling (compared case-insensitively) -> the ranx name
ALIASES: dict[str, str] = {}
for _m in METHODS.values():
    ALIASES[_m.name] = _m.name
    ALIASES[_m.readable.lower()] = _m.name
ALIASES.update(
    {
        "comb_sum": "sum",
        "comb_mnz": "mnz",
        "comb_anz": "anz",
        "comb_gmnz": "gmnz",
        "comb_max": "max",
        "comb_min": "min",
        "comb_med": "med",
        "weighted_sum": "wsum",
        "weighted_mnz": "wmnz",
        "weighted_bordafuse": "w_bordafuse",
        "weighted_condorcet": "w_condorcet",
        "borda": "bordafuse",
        "combsum": "sum",
        "combmnz": "mnz",
    }
)


def method_of(name: object) -> Method:
    """The method named ``name`` (any spelling of :data:`ALIASES`, any case)."""
    if isinstance(name, str) and name.lower() in ALIASES:
        return METHODS[ALIASES[name.lower()]]
    names = [*METHODS, *(m.readable.lower() for m in METHODS.values())]
    check_choice("method", name.lower() if isinstance(name, str) else name, names)
    raise AssertionError  # pragma: no cover - check_choice raised
