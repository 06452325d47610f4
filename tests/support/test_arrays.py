"""support/arrays.py: smaller_before against a double loop."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from cwlkit.support.arrays import smaller_before


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.lists(st.integers(0, 12), max_size=9), min_size=1, max_size=5))
def test_smaller_before_is_the_double_loop(rows):
    width = max(len(r) for r in rows)
    seq = np.zeros((len(rows), width), dtype=np.int64)
    for t, r in enumerate(rows):
        seq[t, : len(r)] = r
    got = smaller_before(seq)
    for t in range(len(rows)):
        for i in range(width):
            v = seq[t, i]
            want = 0 if v == 0 else sum(1 for j in range(i) if 0 < seq[t, j] < v)
            assert got[t, i] == want
