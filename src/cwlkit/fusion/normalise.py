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

from .layout import Aligned

NORMS = ("min-max", "min-max-inverted", "max", "sum", "zmuv", "rank", "borda", "none")
#: other spellings accepted (ranx's)
NORM_ALIASES = {"min_max": "min-max", "min_max_inverted": "min-max-inverted", "minmax": "min-max"}

_FLOOR = 1e-9


def normalise(al: Aligned, norm: str) -> Aligned:
    """The rows of ``al`` with their values normalised by ``norm`` (one of :data:`NORMS`),
    ranked again where the normalisation changes the order."""
    if norm == "none":
        return al
    if norm == "borda":
        return _borda(al)
    starts = al.block_starts()
    sizes = np.diff(np.append(starts, al.value.size))
    v = al.value
    if norm == "rank":
        n = np.repeat(sizes, sizes).astype(np.float64)
        return al.with_values(1.0 - al.rank / n, reorder=False)
    lo = np.repeat(np.minimum.reduceat(v, starts), sizes)
    hi = np.repeat(np.maximum.reduceat(v, starts), sizes)
    if norm == "min-max":
        return al.with_values((v - lo) / np.maximum(hi - lo, _FLOOR), reorder=False)
    if norm == "min-max-inverted":
        return al.with_values((hi - v) / np.maximum(hi - lo, _FLOOR), reorder=True)
    if norm == "max":
        return al.with_values(v / np.maximum(hi, _FLOOR), reorder=False)
    if norm == "sum":
        total = np.repeat(np.add.reduceat(v, starts), sizes)
        n = np.repeat(sizes, sizes).astype(np.float64)
        return al.with_values((v - lo) / np.maximum(total - n * lo, _FLOOR), reorder=False)
    if norm == "zmuv":
        n = np.repeat(sizes, sizes).astype(np.float64)
        mean = np.repeat(np.add.reduceat(v, starts), sizes) / n
        dev = v - mean
        sd = np.sqrt(np.repeat(np.add.reduceat(dev * dev, starts), sizes) / n)
        return al.with_values(dev / np.maximum(sd, _FLOOR), reorder=False)
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
