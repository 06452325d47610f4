"""inst_eval.py's arithmetic for INST (``compat="inst_eval"``; ``cwlkit inst_eval --compat``).

The INST paper's companion tool (ielab/inst_eval, c04958b) implements Algorithm 1 with these
choices, which differ from the paper's definition as cwlkit computes it by default:

* **finite N**: W is summed and normalised over ranks 1 .. max(n, N) - 1 only, N = 2*10^4
  when T <= 5 and 2*10^5 otherwise (Algorithm 1's ``limit(T)``; its loop stops one rank short
  of max(n, N)); nothing is added for the rest of the tail;
* **depth**: ranks past the evaluation depth n (``-n``) count as not provided (gain 0 in the
  lower bound, 1 in the upper one) even where the run has documents there;
* **gains**: label / largest label of the qrels, negative labels included (a spam label -2
  with a top label of 4 is a gain of -0.5); a judged document whose gain is exactly -1 (label
  = -largest label) is taken for unjudged, since -1 is its marker for unjudged documents;
* **empty rankings** score 0 in both bounds;
* Equation 1 is computed as written (no floor on its numerator; for integer T >= 1 it never
  matters).

The ranking order (file order), the topics evaluated and the output conventions are the
command line's (:mod:`cwlkit.cli.inst_eval`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np

from ...core.gains import GainMap
from ...errors import ParamError
from ..base import measure
from ..parse import MAX_INT
from .engine import CWLScores
from .evaluate import CWLInput, score
from .inst import INST

#: inst_eval.py's N for T <= 5 and for larger T
LIMITS = (20_000, 200_000)
#: topics x ranks per block (bounds the memory of the 2*10^5-rank grids)
BLOCK_CELLS = 1 << 21


def inst_eval_limit(T: float) -> int:
    """inst_eval.py's ``N``: 2*10^4 for T <= 5, else 2*10^5 (the paper's limit(T), chosen so
    that the neglected tail is below 5*10^-4 for T <= 5 and T <= 50)."""
    return LIMITS[0] if T <= 5 else LIMITS[1]


@dataclass(frozen=True)
class InstEvalGain(GainMap):
    """inst_eval.py's gains: label / largest label, negative labels kept (-1 marks unjudged)."""

    spec: str = "inst_eval"

    @property
    def is_table(self) -> bool:
        return False

    @property
    def threshold(self) -> float | None:
        return None

    def __call__(self, labels: np.ndarray, data_max: float | None = None) -> np.ndarray:
        lab = np.asarray(labels, dtype=np.float64)
        top = self.max_label if self.max_label is not None else data_max
        if top is None or not np.isfinite(top) or top == 0:
            top = 1.0  # inst_eval.py divides by zero here
        return lab / top


@measure
class _AnyGain(INST):
    """INST without the gain-domain check (inst_eval.py accepts negative gains)."""

    gain_domain: ClassVar[tuple[float, float] | None] = None


def score_inst_eval(
    metric, inp: CWLInput, *, residuals: bool, depth: int | None
) -> tuple[CWLScores, CWLScores | None]:
    """Lower bound and residuals of ``metric`` (INST) as inst_eval.py computes them.

    ``depth`` is inst_eval.py's ``-n`` (None: each topic's own ranking length, the paper's n;
    inst_eval.py itself then uses the first topic's length for every topic, which the command
    line reproduces by passing it here). ``inp`` must hold :class:`InstEvalGain` gains.
    """
    if not isinstance(metric, INST):
        raise ParamError(f"compat='inst_eval' computes INST only; got {metric.name}")
    n_run = np.asarray(inp.depth, dtype=np.int64)
    if depth is None:
        n = int(n_run.max(initial=0))
        cut = n_run
    else:
        n = int(depth)
        if n > MAX_INT:
            raise ParamError(f"depth must be at most {MAX_INT:,}; got {n:,}")
        cut = np.minimum(n_run, n)
    H = max(n, inst_eval_limit(metric.T)) - 1
    marker_lo = inp.gain_lo == -1.0
    g_lo = np.where(marker_lo, 0.0, inp.gain_lo)
    g_hi = np.where(inp.gain_hi == -1.0, inp.max_gain, inp.gain_hi)
    m = _AnyGain(T=metric.T)
    T = n_run.size
    rows = max(1, BLOCK_CELLS // max(H, 1))
    los, ress = [np.zeros((5, 0))], [np.zeros((5, 0))] if residuals else []
    for s in range(0, T, rows):
        sl = slice(s, s + rows)
        part = replace(
            inp,
            gain_lo=g_lo[sl],
            gain_hi=g_hi[sl],
            cost_lo=inp.cost_lo[sl],
            cost_hi=inp.cost_hi[sl],
            depth=cut[sl],
            ideal=inp.ideal[sl],
            unjudged=None if inp.unjudged is None else inp.unjudged[sl],
            cache={},
        )
        lo, res = score(m, part, residuals=residuals, max_depth=H)
        los.append(lo.as_array())
        if res is not None:
            ress.append(res.as_array())
    lo = CWLScores(*np.concatenate(los, axis=1))
    res = CWLScores(*np.concatenate(ress, axis=1)) if ress else None
    empty = n_run == 0  # inst_eval.py: "assume score is 0.0000 if there are no results"
    lo.EU[empty] = 0.0
    if res is not None:
        res.EU[empty] = 0.0
    return lo, res
