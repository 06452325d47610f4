"""The data of a diff page: :class:`DiffData` (made by :func:`cwlkit.rundiff.build.diff` as
a :class:`~cwlkit.rundiff.build.Diff`, drawn by :mod:`cwlkit.rundiff.html`)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["DiffData"]


@dataclass
class DiffData:
    """Two runs compared topic by topic (see the module for every definition).

    Attributes
    ----------
    measure : str
        The measure's canonical name.
    runs : tuple of str
        The names of run A and run B.
    depth : int
        Ranks shown per run.
    topics : list of str
        The topics both runs were scored on, in byte order.
    values : numpy.ndarray
        float64[2, T]: the measure of A and of B.
    rbo, tau_ap : numpy.ndarray
        float64[T]: agreements of the two rankings.
    low, high : numpy.ndarray
        float64[2, T]: each run's interval.
    interval : str
        ``"residual"`` or ``"unjudged"`` (how the intervals were made).
    docs : numpy.ndarray
        object[2, T, depth]: document ids (None past the ranking).
    labels, contributions : numpy.ndarray
        float64[2, T, depth]: the qrels label (NaN: unjudged or past the ranking) and the
        contribution of each shown rank.
    other_rank : numpy.ndarray
        int64[2, T, depth]: the rank of the document in the other run (0: not retrieved).
    queries, texts : dict of str to str
        Query texts by topic and document texts by id (empty when not given).
    p : float
        RBO's persistence.
    cwl : bool
        The measure is a C/W/L metric (contributions are ``W(i) g(i)``; else the change in
        the value when the rank is added).
    """

    measure: str
    runs: tuple[str, str]
    depth: int
    topics: list[str]
    values: np.ndarray
    rbo: np.ndarray
    tau_ap: np.ndarray
    low: np.ndarray
    high: np.ndarray
    interval: str
    docs: np.ndarray
    labels: np.ndarray
    contributions: np.ndarray
    other_rank: np.ndarray
    queries: dict[str, str] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    p: float = 0.9
    cwl: bool = False

    @property
    def delta(self) -> np.ndarray:
        """float64[T]: B - A."""
        return self.values[1] - self.values[0]

    @property
    def decided(self) -> np.ndarray:
        """bool[T]: the two intervals do not overlap (the judgements decide the order)."""
        return (self.low[0] > self.high[1]) | (self.low[1] > self.high[0])
