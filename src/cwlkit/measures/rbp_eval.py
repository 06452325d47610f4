"""Rank-biased precision as Webber and Moffat's ``rbp_eval`` computes it: ``RBP_eval``.

``RBP_eval(p=0.8)@k`` is RBP (Moffat and Zobel 2008), ``sum_i w_i g_i`` with
``w_i = (1 - p) p^(i-1)``, with rbp_eval's habits:

* **ties averaged**: the documents of a group of equal scores (in the batch's order: equal
  adjacent ``batch.scores``) each get the group's average weight, the mean of ``w_i`` over the
  ranks the group spans. For RBP that equals giving each the group's mean gain (the INST
  paper's rule), and the score does not depend on how the tie was broken. ``ties="none"``
  weighs each rank on its own (rbp_eval's ``-o``).
* **a depth** ``@k``: only the first k ranks count. A tie that straddles rank k counts with
  the part of it that fits: each of its documents contributes its average weight times
  (ranks of the group up to k) / (group size). Without ``@k`` the whole run counts.
* **a residual** (``residual()``; ``ResEU`` with ``residuals=True``): the weight of the
  unjudged documents within the depth (their average weights, same fractions) plus
  ``p^d``, ``d = min(k, n)``, the weight of every rank past the depth or the run's end: how
  much RBP could still rise if every unjudged and unseen document were relevant with gain 1.
* **gains**: binary by default, 1 for a label ``>= rel`` (``rel`` 1; rbp_eval ``-B``,
  ``-b rel``), or the label times ``scale`` (``scale=1``: rbp_eval ``-F``; ``-f scale``).
  Unjudged documents have gain 0 in the score; negative labels gain 0.

The arithmetic follows rbp_eval's order (weights by repeated multiplication, group weights
summed rank by rank, contributions accumulated in rank order), so its printed digits agree.
``cwlkit rbp_eval`` is rbp_eval's command line over this measure.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from ..errors import CwlkitError, ParamError
from .base import MAX_COUNT, Measure, format_value, measure, param
from .registry import register

if TYPE_CHECKING:  # pragma: no cover
    from ..core.batch import RankingBatch


@register
@measure
class RBP_eval(Measure):  # noqa: N801 (the registry's family name)
    """RBP with rbp_eval's tie averaging, depth cut and residual (base + residual per topic).

    Parameters
    ----------
    p : float, default 0.8
        Persistence, in [0, 1] (rbp_eval's ``-p``).
    rel : float, optional
        Binary gains: labels >= rel have gain 1, others 0. Default (neither ``rel`` nor
        ``scale``): 1.
    k : int, optional
        Depth: only ranks 1..k count (rbp_eval's ``-d``); none: the whole run.
    scale : float, optional
        Fractional gains instead: gain = label x scale (``scale=1``: the labels as they are).
        Give ``rel`` or ``scale``, not both.
    ties : {"average", "none"}, default "average"
        ``average``: documents with equal scores share the group's average weight (rbp_eval's
        ``-s`` and ``-r``); ``none``: each rank its own weight (``-o``).
    after : str, default ""
        rbp_eval's multi-depth habit: the smaller depths it computed first in the same call
        (``"5,10"`` for the full depth of ``-d 5,10,0``). It continues each sum from the
        previous depth's, adding the part of a tie that straddles that depth in two pieces,
        which can move the last bit of the float (and, rarely, the 4th printed decimal, e.g.
        0.11625 printed 0.1162 alone and 0.1163 after depth 1). The value is the same number
        otherwise.

    Notes
    -----
    A tie group is a run of adjacent documents with equal ``batch.scores``; rank the run by
    score (``order="score"``, ``trec_version=10`` for rbp_eval's double-precision scores).
    For rbp_eval's ``-r`` (ties between equal rank numbers) give the run scores ``-rank`` and
    ``order="rank"``, as ``cwlkit rbp_eval`` does.

    With ``ties="none"`` and no depth, ``RBP_eval(p=p)`` is ``RBP(p=p,rel=1)``: the C/W/L
    metric's EU, and, with ``residuals=True``, its ``ResEU`` too (binary gains: an unjudged
    document could have gain 1).
    """

    family: ClassVar[str] = "RBP_eval"
    anchors: ClassVar[dict[str, tuple[str, ...]]] = {"rbp_eval": ("rbp",)}

    p: float = param(0.8, ge=0.0, le=1.0, doc="persistence")
    rel: float | None = param(None, doc="binary gains: labels >= rel count 1 (default 1)")
    k: int | None = param(None, ge=1, integer=True, doc="depth (None: the whole run)")
    scale: float | None = param(None, gt=0.0, doc="fractional gains: label x scale, not rel")
    ties: str = param(
        "average", choices=("average", "none"), doc="average: equal scores share their weight"
    )
    after: str = param("", doc="rbp_eval's earlier depths in the same call, e.g. '5,10'")

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.rel is not None and self.scale is not None:
            raise ParamError(
                "RBP_eval takes rel (binary gains) or scale (fractional gains), not both; "
                f"got rel={self.rel!r}, scale={self.scale!r}."
            )
        if self.rel is not None and float(self.rel) == 1.0:
            object.__setattr__(self, "rel", None)  # the default, one spelling
        self.earlier_depths()  # validates

    def derived(self) -> list[tuple[str, str, float]]:
        """The fractional gain, label x scale, must be finite for labels up to 2^53."""
        if self.scale is None:
            return []
        return [("scale", "scale x 2^53 (a label's gain)", float(self.scale) * MAX_COUNT)]

    def earlier_depths(self) -> list[int]:
        """``after`` as ascending integers, each below ``k``."""
        try:
            out = [int(t) for t in self.after.split(",") if t.strip()] if self.after else []
        except ValueError:
            raise ParamError(
                f"The 'after' parameter of RBP_eval lists depths, e.g. '5,10'; got {self.after!r}."
            ) from None
        limit = math.inf if self.k is None else self.k
        ascending = sorted(set(out)) == out
        if not ascending or any(d < 1 for d in out) or (out and out[-1] >= limit):
            raise ParamError(
                "The 'after' parameter of RBP_eval must list ascending depths >= 1 below "
                f"k={self.k}; got {self.after!r}."
            )
        return out

    @property
    def name(self) -> str:
        """Canonical spelling; the persistence is always spelled (``RBP_eval(p=0.8)@10``)."""
        base = super().name
        if "(p=" in base:
            return base
        rest = base[len(self.family) :]
        inner = f"p={format_value(self.p)}"
        if rest.startswith("("):
            return f"{self.family}({inner},{rest[1:]}"
        return f"{self.family}({inner}){rest}"

    @property
    def needs_scores(self) -> bool:
        """Whether the batch must keep the run's scores (tie groups)."""
        return self.ties == "average"

    def compute(self, batch: RankingBatch) -> np.ndarray:
        """RBP (the base score) of every topic, float64[T]."""
        return self.base_and_residual(batch)[0]

    def residual(self, batch: RankingBatch) -> np.ndarray:
        """RBP's residual of every topic, float64[T]."""
        return self.base_and_residual(batch)[1]

    def gains(self, batch: RankingBatch) -> np.ndarray:
        """float64[T, D] gain of each ranked document (0 when unjudged or past the run)."""
        lab = batch.labels
        ok = batch.judged & batch.valid
        with np.errstate(invalid="ignore"):
            if self.scale is not None:
                g = np.where(ok, np.maximum(np.nan_to_num(lab), 0.0) * float(self.scale), 0.0)
            else:
                t = 1.0 if self.rel is None else float(self.rel)
                g = np.where(ok & (lab >= t), 1.0, 0.0)
        return g

    def base_and_residual(self, batch: RankingBatch) -> tuple[np.ndarray, np.ndarray]:
        """(RBP, residual) of every topic, float64[T] each (cached on the batch)."""
        key = ("RBP_eval", self)
        got = batch.memo.get(key)
        if got is None:
            got = _rbp(self, batch)
            batch.memo[key] = got
        return got


def _rbp(m: RBP_eval, batch: RankingBatch) -> tuple[np.ndarray, np.ndarray]:
    """rbp_eval's calculation (librbp's rbp_calc_to_depth), for all topics at once."""
    T, D = batch.labels.shape
    p = float(m.p)
    n = np.asarray(batch.depth, dtype=np.int64)
    base = np.zeros(T)
    cumerr = np.zeros(T)
    if D == 0:
        return base, np.power(p, np.zeros(T))
    valid = batch.valid
    # w_i by repeated multiplication, as rbp_eval: (1 - p), (1 - p) p, ...
    w = np.cumprod(np.concatenate(([1.0 - p], np.full(D - 1, p))))
    # tie groups: a new group at every valid rank whose score differs from the rank above
    start = np.ones((T, D), dtype=bool)
    if m.ties == "average":
        s = batch.scores
        if s.shape != (T, D):
            raise CwlkitError(
                f"{m.name} averages ties by score: it needs the run's scores (build the batch "
                "with light=False; the Evaluator does so for this measure)"
            )
        start[:, 1:] = s[:, 1:] != s[:, :-1]
    start &= valid
    cells = np.flatnonzero(valid.ravel())
    gid = (np.cumsum(start.ravel()) - 1)[cells]
    size = np.bincount(gid).astype(np.float64)
    # a group's weight: its ranks' weights added one by one from 0 (bincount adds in order),
    # divided by its size
    wbar = (np.bincount(gid, weights=np.broadcast_to(w, (T, D)).ravel()[cells]) / size)[gid]
    col = cells % D
    first = np.full(size.size, D, dtype=np.int64)
    np.minimum.at(first, gid, col)
    a = first[gid].astype(np.float64)  # where each document's group starts
    end = a + size[gid]
    length = size[gid]
    topic = cells // D
    gains = m.gains(batch).ravel()[cells]
    judged = (batch.judged & valid).ravel()[cells]
    reached = np.zeros(T)
    # rbp_eval computes depth after depth, each continuing the sums of the one before
    for stop in [*map(float, m.earlier_depths()), math.inf if m.k is None else float(m.k)]:
        actual = np.minimum(n, stop)
        lo = reached[topic]
        # the groups not finished at the previous depth and starting before this one, each
        # with the share of it between the two depths
        live = (end > lo) & (a < actual[topic])
        frac = np.where(live, (np.minimum(end, stop) - np.maximum(a, lo)) / length, 0.0)
        part = wbar * frac
        seg_base = np.zeros((T, D))
        seg_err = np.zeros((T, D))
        seg_base.ravel()[cells] = np.where(judged, wbar * gains * frac, 0.0)
        seg_err.ravel()[cells] = np.where(judged, 0.0, part)
        # added rank by rank onto the sums so far (cumsum adds in order; a sum would pair)
        base = np.cumsum(np.concatenate([base[:, None], seg_base], axis=1), axis=1)[:, -1]
        cumerr = np.cumsum(np.concatenate([cumerr[:, None], seg_err], axis=1), axis=1)[:, -1]
        reached = actual
    return base, cumerr + np.power(p, reached)
