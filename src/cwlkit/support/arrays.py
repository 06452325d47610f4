"""Small numpy helpers shared by the hot paths."""

from __future__ import annotations

import numpy as np


def unique(a: np.ndarray) -> np.ndarray:
    """The sorted distinct values of an integer array or a float array without NaN.

    The same values as ``numpy.unique(a)``, without its ``numpy.ma`` check: numpy 2 imports
    ``numpy.ma`` on the first plain ``numpy.unique`` call, several milliseconds of every
    command's start-up.
    """
    s = np.sort(np.asarray(a).ravel())
    if s.size <= 1:
        return s
    keep = np.empty(s.size, bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]
