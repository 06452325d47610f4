"""The C/W/L engine's sums are grouped by rank alone (issue 20, item 3): a topic's row gives
the same bits whatever the width of its batch and whatever the other rows, and a topic scored
alone gives the bits of its row in a batch."""

from __future__ import annotations

import numpy as np
import pytest

from cwlkit.measures.cwl import score_metric
from cwlkit.measures.cwl.base import SUM_BLOCK, CWLMetric, _rank_order_dots
from cwlkit.measures.registry import entries


def _rank_order_dot1(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return _rank_order_dots([(a, b)])[0]


@pytest.mark.parametrize("m", [1, 7, 8, 9, SUM_BLOCK - 1, SUM_BLOCK, SUM_BLOCK + 1, 200, 1000])
def test_rank_order_dot_ignores_zero_padding_and_other_rows(m):
    """A row's sum is the same alone or among others, and with zeros (of ``a``) appended."""
    rng = np.random.default_rng(m)
    a = rng.random((5, m)) * 10.0 ** rng.integers(-8, 8, size=(5, m))
    b = rng.random((5, m))
    alone = [
        (
            _rank_order_dot1(a[i : i + 1], np.ones((1, m))),
            _rank_order_dot1(a[i : i + 1], b[i : i + 1]),
        )
        for i in range(5)
    ]
    for extra in (0, 1, 5, SUM_BLOCK, 3 * SUM_BLOCK + 7):
        wa = np.zeros((5, m + extra))
        wa[:, :m] = a
        wb = rng.random((5, m + extra))  # past the row's terms, a is 0: b does not matter
        wb[:, :m] = b
        got = _rank_order_dot1(wa, np.ones_like(wa))
        dot = _rank_order_dot1(wa, wb)
        for i in range(5):
            assert got[i] == alone[i][0][0] and dot[i] == alone[i][1][0]
    # and exactly the sum of the blocks, in rank order
    full = -(-m // SUM_BLOCK) * SUM_BLOCK
    pad = np.zeros((5, full))
    pad[:, :m] = a
    pb = np.zeros((5, full))
    pb[:, :m] = b
    blocks = np.einsum("ijk,ijk->ij", pad.reshape(5, -1, SUM_BLOCK), pb.reshape(5, -1, SUM_BLOCK))
    want = blocks[:, 0].copy()
    for j in range(1, blocks.shape[1]):
        want += blocks[:, j]
    assert np.array_equal(_rank_order_dot1(a, b), want)


def _cwl_metrics() -> list[CWLMetric]:
    out = []
    for cls in entries():
        if issubclass(cls, CWLMetric):
            try:
                out.append(cls())
            except TypeError:  # required parameters
                continue
    return out


@pytest.mark.parametrize("metric", _cwl_metrics(), ids=lambda m: m.name)
@pytest.mark.parametrize("pad_gain", [0.0, 0.5, 1.0])
@pytest.mark.parametrize("max_depth", [None, 20])
def test_score_metric_rows_are_their_own(metric, pad_gain, max_depth):
    """Each row of a batch of rankings of different depths (shorter rows padded with junk past
    their depth) scores as that ranking alone, in an array only as wide as it."""
    if not metric.upper_tail and pad_gain > 0 and max_depth is None:
        pytest.skip("AP's C reads the gains to the grid's end; it is never padded with gain")
    rng = np.random.default_rng(7)
    T, D = 9, 150
    depth = np.array([0, 1, 3, 9, 10, 11, 64, 65, 150])
    gain = rng.integers(0, 3, size=(T, D)) / 2.0
    cost = rng.integers(1, 4, size=(T, D)).astype(np.float64)
    opts = {"pad_gain": pad_gain, "max_depth": max_depth}
    batch = score_metric(metric, gain, cost, depth, **opts).as_array()
    for t in range(T):
        d = int(depth[t])
        alone = score_metric(
            metric, gain[t : t + 1, :d], cost[t : t + 1, :d], depth[t : t + 1], **opts
        ).as_array()[:, 0]
        assert np.array_equal(alone, batch[:, t], equal_nan=True), (t, alone, batch[:, t])
