"""ERR-inspired C/W/L metrics (Azzopardi, Mackenzie, Moffat 2021): C_E5, C_E6, C_E8..C_E11.

Each multiplies a stopping model by (1 - r_i), where r_i in [0, 1] is the probability that
document i satisfies the user. ERR itself (``ERR@k``) is *not* C/W/L: for a ranking with
every r_i = alpha, every C/W/L metric has EU = alpha (the weights sum to one) while ERR scores
alpha + sum_{i>=2} (alpha/i)(1-alpha)^(i-1) > alpha.

C_E5 and C_E6 diverge: past the last judged document r = 0, C_E5 = 1 and C_E6 = i/(i+1),
so sum V is infinite (harmonically so for C_E6) unless some r_i = 1. cwlkit reports them
exactly: ED = inf, EU = 0, unless a document with r = 1 stops every user. C_E8/C_E9 cut at k;
C_E10 and C_E11 converge (geometric and trigamma tails, summed exactly).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from ..base import measure, param
from .base import CWLMetric, register_cwl
from .engine import CWLContext, c_pow, geometric_tail, trigamma_tail
from .inst import _t_derived


@register_cwl
@measure
class CE5(CWLMetric):
    """C_E5: C(i) = 1 - r_i (the ERR paper's Equation 5). Diverges; see the module notes."""

    family = "C_E5"
    aliases = ("CE5",)
    gain_domain = (0.0, 1.0)

    def continuation(self, x: CWLContext) -> np.ndarray:
        return 1.0 - x.gain

    def tail(self, x: CWLContext) -> np.ndarray:
        return np.full(x.gain.shape[0], geometric_tail(1.0 - x.pad_gain))


@register_cwl
@measure
class CE6(CWLMetric):
    """C_E6: C(i) = i/(i+1) (1 - r_i) (Equation 6).

    Diverges (harmonically) when r = 0 past the run.
    """

    family = "C_E6"
    aliases = ("CE6",)
    gain_domain = (0.0, 1.0)

    def continuation(self, x: CWLContext) -> np.ndarray:
        return x.rank / (x.rank + 1.0) * (1.0 - x.gain)

    def tail(self, x: CWLContext) -> np.ndarray | None:
        n = x.gain.shape[0]
        if x.pad_gain == 0.0:
            return np.full(n, np.inf)
        if x.pad_gain == 1.0:
            return np.ones(n)
        return None


@dataclass(frozen=True)
class Equation:
    """One of the ERR paper's Equations 8 to 11, as cwl_eval's ``NERReq{eq}CWLMetric``.

    Attributes
    ----------
    eq : int
        The equation's number: the metric is ``C_E{eq}`` (aliases ``CE{eq}``, ``NERR{eq}``).
    param, type : str
        Its one parameter (``k``, ``phi`` or ``T``) and the parameter's annotation.
    field : dataclasses.Field
        The parameter's declaration (:func:`~cwlkit.measures.base.param`).
    cwl_default : str
        cwl_eval's default for it, as written in cwl_eval's source ("": none).
    doc : str
        The metric's docstring.
    """

    eq: int
    param: str
    type: str
    field: Any
    cwl_default: str
    doc: str


def _cutoff() -> Any:
    return param(ge=1, integer=True, doc="cutoff")


EQUATIONS = (
    Equation(
        8,
        "k",
        "int",
        _cutoff(),
        "",
        "C_E8@k: C(i) = 1 - r_i for i < k, 0 from k on (cwl_eval's NERReq8CWLMetric).",
    ),
    Equation(
        9,
        "k",
        "int",
        _cutoff(),
        "",
        "C_E9@k: C(i) = i/(i+1) (1 - r_i) for i < k, 0 from k on (NERReq9CWLMetric).",
    ),
    Equation(
        10,
        "phi",
        "float",
        param(0.9, gt=0.0, lt=1.0, doc="RBP-like persistence"),
        "0.9",
        "C_E10: C(i) = phi (1 - r_i) (NERReq10CWLMetric); geometric tail phi (1 - r_pad).",
    ),
    Equation(
        11,
        "T",
        "float",
        param(1.0, gt=0.0, doc="INSQ's T"),
        "1.0",
        "C_E11: C(i) = ((i + 2T - 1)/(i + 2T))^2 (1 - r_i) (NERReq11CWLMetric); INSQ-like tail.",
    ),
)
"""The metrics :class:`NERR` is, one registered class each (``CE8`` ... ``CE11``)."""


class NERR(CWLMetric):
    """C_E{eq}: C(i) = f(i) (1 - r_i) for equation ``eq`` of :data:`EQUATIONS` (f = 1 and
    i/(i+1) cut at k, phi, ((i + 2T - 1)/(i + 2T))^2). Its registered classes, made by
    :func:`_equation`, declare the one parameter of their equation."""

    eq: ClassVar[int]
    gain_domain = (0.0, 1.0)
    k: int
    phi: float
    T: float

    def factor(self, rank: np.ndarray) -> np.ndarray | float:
        """f(i), the continuation at gain 0."""
        if self.eq == 8:
            return 1.0
        if self.eq == 9:
            return rank / (rank + 1.0)
        if self.eq == 10:
            return self.phi
        b = rank + 2.0 * self.T
        return ((b - 1.0) / b) ** 2

    def derived(self) -> list[tuple[str, str, float]]:
        """C_E11's T is checked as INSQ's (:func:`~cwlkit.measures.cwl.inst._t_derived`)."""
        return _t_derived(self.T) if self.eq == 11 else []

    def continuation(self, x: CWLContext) -> np.ndarray:
        c = self.factor(x.rank) * (1.0 - x.gain)
        return np.where(x.rank < self.k, c, 0.0) if self.eq in (8, 9) else c

    def cwl_eval_vectors(self, x: CWLContext) -> tuple[np.ndarray, None]:
        """cwl_eval's C: Equation 11's square is C's ``pow`` (``**2.0``), times 1 - r_i;
        Equations 8 to 10 are :meth:`continuation`'s operations already."""
        if self.eq != 11:
            return self.continuation(x), None
        b = x.rank + 2.0 * self.T
        return c_pow((b - 1.0) / b, 2.0) * (1.0 - x.gain), None

    def tail(self, x: CWLContext) -> np.ndarray | None:
        n = x.gain.shape[0]
        if self.eq == 10:
            return np.full(n, geometric_tail(self.phi * (1.0 - x.pad_gain)))
        if self.eq == 11 and x.pad_gain == 0.0:
            return trigamma_tail(np.full(n, x.horizon + 2.0 * self.T))
        if self.eq == 11 and x.pad_gain == 1.0:
            return np.ones(n)
        return None


def _equation(e: Equation) -> type[NERR]:
    """The registered class of equation ``e``."""
    name = f"CE{e.eq}"
    body = {
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": e.doc,
        "__annotations__": {e.param: e.type},
        e.param: e.field,
        "eq": e.eq,
        "family": f"C_E{e.eq}",
        "aliases": (name, f"NERR{e.eq}"),
        "cwl_class": f"NERReq{e.eq}CWLMetric",
        "cwl_params": ((e.param, e.param, e.cwl_default),),
        "cwl_format": f"NERR-EQ{e.eq}@{e.param}={{{e.param}}}",
    }
    made: type[NERR] = measure(type(name, (NERR,), body))
    register_cwl(made)
    return made


CE8, CE9, CE10, CE11 = (_equation(e) for e in EQUATIONS)
