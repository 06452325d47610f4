"""Mappings from relevance labels to gains.

* ``identity``: g = label (negative labels give 0).
* ``linear``: g = label / max_label.
* ``exp``: g = (2^label - 1) / (2^max_label - 1).
* ``err``: g = (2^label - 1) / 2^max_label (the ERR paper's Equation 2; never reaches 1).
* ``auto``: ``linear`` when the qrels hold a label above 1 (graded labels: 0..4 gives
  0, 0.25, ... 1), else ``identity`` (binary labels, and gains already in [0, 1]): the
  default everywhere (the API and every subcommand): C/W/L metrics want gains in [0, 1].
* ``binary`` or ``binary:R``: g = 1 if the label truncated to an integer is >= R (default 1),
  else 0: trec_eval's binary relevance (it reads labels with ``atol``), the gains of the
  C/W/L form of a binary measure (``P@k`` is ``P_cwl@k`` on these gains).
* a table ``"0:0,1:0.5,2:1"``: labels not in the table are an error.

Negative labels (spam, "pooled but unjudged") always map to gain 0. ``max_label`` is the
largest label in the whole qrels file (every topic, evaluated or not) unless given.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import ParamError

_NAMED = ("identity", "linear", "exp", "err", "auto")


@dataclass(frozen=True)
class GainMap:
    """A label -> gain mapping; ``spec`` is one of the named mappings or a table."""

    spec: str = "identity"
    max_label: float | None = None

    def __post_init__(self) -> None:
        if self.is_table:
            self.table  # validates  # noqa: B018

    @property
    def is_table(self) -> bool:
        """Whether the spec is an explicit table ``"0:0,1:0.5"``."""
        return self.spec not in _NAMED and self.threshold is None

    @property
    def threshold(self) -> float | None:
        """R of a ``binary:R`` spec (None for the other mappings)."""
        if self.spec == "binary":
            return 1.0
        if not self.spec.startswith("binary:"):
            return None
        try:
            return float(self.spec[len("binary:") :])
        except ValueError:
            raise ParamError(
                f"binary gains take a number, e.g. binary:2; got {self.spec!r}"
            ) from None

    @property
    def table(self) -> dict[float, float]:
        """The explicit table (only for table specs)."""
        out: dict[float, float] = {}
        for part in self.spec.split(","):
            m = re.match(r"^\s*([-+]?[\d.eE+-]+)\s*:\s*([-+]?[\d.eE+-]+)\s*$", part)
            if not m:
                raise ParamError(
                    "--gain must be identity, linear, exp, err, auto, binary[:R] or a table like "
                    f"'0:0,1:0.5,2:1'; got {self.spec!r}"
                )
            try:
                out[float(m.group(1))] = float(m.group(2))
            except ValueError:
                raise ParamError(f"bad number in gain table {self.spec!r}") from None
        return out

    def __call__(self, labels: np.ndarray, data_max: float | None = None) -> np.ndarray:
        """Gains for ``labels`` (NaN stays NaN: unjudged)."""
        lab = np.asarray(labels, dtype=np.float64)
        top = self.max_label if self.max_label is not None else data_max
        with np.errstate(invalid="ignore"):
            pos = np.where(lab < 0, 0.0, lab)
            if self.spec == "auto":  # (graded labels above 1: linear, else the labels)
                return pos / top if top is not None and np.isfinite(top) and top > 1 else pos
            if self.spec == "identity":
                return pos
            if self.threshold is not None:
                rel = (np.trunc(lab) >= self.threshold).astype(np.float64)
                return np.where(np.isnan(lab), np.nan, rel)
            if self.spec in ("exp", "err"):
                _check_exponent(pos, top)
            if self.spec in ("linear", "exp", "err"):
                if top is None or not np.isfinite(top) or top <= 0:
                    top = 1.0
                if self.spec == "linear":
                    return pos / top
                if self.spec == "exp":
                    return (np.exp2(pos) - 1.0) / (2.0**top - 1.0)
                return (np.exp2(pos) - 1.0) / 2.0**top
            table = self.table
            keys = np.array(sorted(table))
            vals = np.array([table[k] for k in keys])
            idx = np.searchsorted(keys, lab)
            idx_c = np.minimum(idx, keys.size - 1)
            hit = keys[idx_c] == lab
            bad = ~hit & ~np.isnan(lab) & (lab >= 0)
            if bad.any():
                raise ParamError(
                    f"label {format(float(lab[bad][0]), 'g')} is not in the gain table "
                    f"{self.spec!r}"
                )
            return np.where(hit, vals[idx_c], np.where(np.isnan(lab), np.nan, 0.0))

    def top_gain(self, labels: np.ndarray, data_max: float | None = None) -> float | None:
        """The largest gain of the finite ``labels`` (None when there is none).

        A table skips the labels it does not list (they are an error only where mapped).
        """
        lab = np.asarray(labels, dtype=np.float64)
        lab = lab[np.isfinite(lab)]
        if self.is_table:
            lab = lab[(lab < 0) | np.isin(lab, list(self.table))]
        return float(self(lab, data_max).max()) if lab.size else None


#: the largest exponent whose 2^x is a finite double
MAX_EXPONENT = 1023


def _check_exponent(pos: np.ndarray, top: float | None) -> None:
    """Exponential gains overflow past 2^1023: a label that large is an error, not inf."""
    big = max(float(np.nanmax(pos, initial=0.0)), float(top or 0.0))
    if big > MAX_EXPONENT:
        raise ParamError(
            f"label {big:g} is too large for exponential gains (2^{big:g} overflows); "
            f"labels must be at most {MAX_EXPONENT}"
        )
