"""Score normalisations, per run and topic, as ranx applies them before fusing.

For the scores :math:`s_d` of one run for one topic (:math:`n` documents):

=====================  ==============================================================
``min-max``            :math:`(s_d - \\min s) / \\max(\\max s - \\min s, 10^{-9})`
``min-max-inverted``   :math:`(\\max s - s_d) / \\max(\\max s - \\min s, 10^{-9})`
``max``                :math:`s_d / \\max(\\max s, 10^{-9})`
``sum``                :math:`(s_d - \\min s) / \\max(\\sum s - n \\min s, 10^{-9})`
``zmuv``               :math:`(s_d - \\bar s) / \\max(\\sigma_s, 10^{-9})` (population sd)
``rank``               :math:`1 - r_d / n` (:math:`r_d` the 0-based rank)
``borda``              :math:`1 - r_d / C` for a retrieved document, and
                       :math:`1/2 - (n - 1) / (2C)` for each of the topic's :math:`C`
                       candidates (documents any run retrieved) that this run did not
                       retrieve: after ``borda`` every run holds every candidate
``none``               the scores as they are
=====================  ==============================================================

(Montague and Aslam, "Relevance score normalization for metasearch", CIKM 2001, for
min-max, sum and zmuv; Renda and Straccia, SAC 2003, for rank and borda.)
"""

from __future__ import annotations

import numpy as np

from ..errors import InputError
from .layout import Aligned

NORMS = ("min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", "none")
#: other spellings accepted (ranx's)
NORM_ALIASES = {"min_max": "min-max", "min_max_inverted": "min-max-inverted", "minmax": "min-max"}

_FLOOR = 1e-9


def normalise(al: Aligned, norm: str) -> Aligned:
    """The rows of ``al`` with their values normalised by ``norm`` (one of :data:`NORMS`),
    ranked again where the normalisation changes the order.

    Raises
    ------
    InputError
        An infinite score that ``norm`` scales (``min-max``, ``min-max-inverted``, ``max``,
        ``sum``, ``zmuv``): ``inf - inf`` and ``inf / inf`` are not numbers. ``rank``,
        ``borda`` and ``none`` take infinite scores (they rank them first or last).
    """
    with np.errstate(invalid="ignore", over="ignore"):
        out = _normalised(al, norm)
    if norm not in ("none", "rank", "borda") and np.isnan(out.value).any():
        row = int(np.flatnonzero(np.isnan(out.value))[0])
        run, topic = int(out.run[row]), int(out.topic[row])
        scores = al.value[(al.run == run) & (al.topic == topic)]
        raise InputError(
            f"run {run + 1}, topic {al.topics[topic].as_py()!r}: the {norm!r} normalisation "
            f"of scores from {scores.min()} to {scores.max()} is not a number (it needs "
            f"finite scores less than 1.8e308 apart; norm='rank' or 'borda' ranks them)"
        )
    return out


def _normalised(al: Aligned, norm: str) -> Aligned:
    if norm == "none":
        return al
    if norm == "borda":
        return _borda(al)
    starts = al.block_starts()
    sizes = np.diff(np.append(starts, al.value.size))
    if norm == "rank":
        out = al.rank / np.repeat(sizes.astype(np.float64), sizes)
        return al.with_values(np.subtract(1.0, out, out=out), reorder=False)
    # per (run, topic) block: its statistics, repeated over its rows only where used, and the
    # rows' arithmetic done in place (the same operations, element by element, as
    # ``(v - lo) / max(hi - lo, 1e-9)`` written out: the same bits, a third of the memory)
    v = al.value
    n = sizes.astype(np.float64)
    lo = np.minimum.reduceat(v, starts)
    if norm in ("min-max", "min-max-inverted"):
        hi = np.maximum.reduceat(v, starts)
        if norm == "min-max":
            out = v - np.repeat(lo, sizes)
        else:
            out = np.repeat(hi, sizes) - v
        out /= np.repeat(np.maximum(hi - lo, _FLOOR), sizes)
        return al.with_values(out, reorder=norm == "min-max-inverted")
    if norm == "max":
        hi = np.maximum.reduceat(v, starts)
        return al.with_values(v / np.repeat(np.maximum(hi, _FLOOR), sizes), reorder=False)
    if norm == "sum":
        total = np.add.reduceat(v, starts)
        out = v - np.repeat(lo, sizes)
        out /= np.repeat(np.maximum(total - n * lo, _FLOOR), sizes)
        return al.with_values(out, reorder=False)
    if norm == "zmuv":
        dev = v - np.repeat(np.add.reduceat(v, starts) / n, sizes)
        sd = np.sqrt(np.add.reduceat(dev * dev, starts) / n)
        dev /= np.repeat(np.maximum(sd, _FLOOR), sizes)
        return al.with_values(dev, reorder=False)
    raise AssertionError(norm)  # pragma: no cover - checked by the caller


def _borda(al: Aligned) -> Aligned:
    """Borda normalisation: every run scores every candidate of the topic."""
    cand = al.candidates().astype(np.float64)
    lengths = al.lengths()
    # every (run, cell) pair of the topics the run ... all runs score all candidates
    n_cells = al.n_cells
    run = np.repeat(np.arange(al.n_runs, dtype=np.int64), n_cells)
    cell = np.tile(np.arange(n_cells, dtype=np.int64), al.n_runs)
    topic = al.cell_topic[cell]
    n = lengths[run, topic].astype(np.float64)
    value = 0.5 - (n - 1.0) / (2.0 * cand[topic])
    present = al.run * n_cells + al.cell
    value[present] = 1.0 - al.rank / cand[al.topic]
    out = Aligned(
        al.topics,
        al.docs,
        al.n_runs,
        run,
        topic,
        cell,
        value,
        al.rank,
        al.cell_topic,
        al.cell_doc,
    )
    return out.ranked()
