"""trec_eval 10.0's rbp rescales gains by the least and greatest gain of the topic's levels
0..max label (a level's gain is its ``gain.L=`` parameter, else the level itself). Those
bounds come from the few parameter levels, not from a list of every level: a label of 1e10
made a 75 GB array (found by fuzzing against the C program)."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from cwlkit.measures.trec.dcg import _unlisted_bounds


def _listed_bounds(maxlvl: np.ndarray, keys: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """The bounds by listing every level of every topic (the definition)."""
    lo, hi = [], []
    for m in maxlvl.tolist():
        free = [float(i) for i in range(m + 1) if i not in keys]
        lo.append(min(free, default=np.inf))
        hi.append(max(free, default=-np.inf))
    return np.array(lo), np.array(hi)


@given(
    st.lists(st.integers(-1, 12), min_size=1, max_size=6),
    st.sets(st.integers(-2, 14), max_size=6),
)
def test_bounds_are_those_of_the_listed_levels(maxlvl, keys):
    m = np.array(maxlvl, dtype=np.int64)
    got, want = _unlisted_bounds(m, sorted(keys)), _listed_bounds(m, sorted(keys))
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_array_equal(got[1], want[1])


def test_a_huge_label_is_scored(cli, tmp_path):
    """The same values as with a label of 3 but for the rescaling: both judged relevant."""
    q, r = tmp_path / "q", tmp_path / "r"
    r.write_text("1 Q0 a 1 2 t\n1 Q0 b 2 1 t\n")
    out = {}
    for label in ("3", "10000000000"):
        q.write_text(f"1 0 a {label}\n1 0 b 0\n")
        rc, out[label], err = cli("trec_eval", "--trec-version", "10", "-m", "rbp", q, r)
        assert (rc, err) == (0, "")
    assert out["3"] == out["10000000000"] != ""
