"""masked_seqsum adds the same terms in the same order as the dense seqsum: same bits."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from cwlkit.measures.trec._ctx import masked_seqsum, seqsum

TERMS = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.sampled_from(
    [0.0, -0.0, 1e-300, -1e300, 0.1, 1 / 3]
)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda t: st.integers(0, 9).flatmap(
            lambda d: st.tuples(
                hnp.arrays(np.bool_, (t, d)),
                hnp.arrays(np.float64, (t, d), elements=TERMS),
            )
        )
    )
)
def test_same_bits_as_the_dense_sum(case):
    mask, terms = case
    asked = []

    def term(rows, cols):
        asked.append((rows.copy(), cols.copy()))
        return terms[rows, cols]

    with np.errstate(over="ignore", invalid="ignore"):
        got = masked_seqsum(mask, term)
        want = seqsum(np.where(mask, terms, 0.0))
    assert got.tobytes() == want.tobytes()  # (NaN payloads and the sign of zeros too)
    rows, cols = asked[0]
    assert mask[rows, cols].all() and rows.size == mask.sum()  # only the masked cells


def test_sign_of_zero_sums():
    neg = np.full((3, 3), -0.0)
    full = np.ones((3, 3), bool)
    partial = full.copy()
    partial[:, 1] = False
    for mask in (full, partial):
        got = masked_seqsum(mask, lambda r, c: neg[r, c])
        assert got.tobytes() == seqsum(np.where(mask, neg, 0.0)).tobytes()
    assert np.signbit(masked_seqsum(full, lambda r, c: neg[r, c])).all()
    assert not np.signbit(masked_seqsum(partial, lambda r, c: neg[r, c])).any()
