"""The C/W/L engine's sums are grouped by rank alone (issue 20, item 3): a topic's row gives
the same bits whatever the width of its batch and whatever the other rows, and a topic scored
alone gives the bits of its row in a batch."""

from __future__ import annotations

import numpy as np
import pytest

from cwlkit.measures.cwl import score_metric
from cwlkit.measures.cwl.base import CWLMetric
from cwlkit.measures.cwl.engine import SUM_BLOCK, _block_sums
from cwlkit.measures.registry import entries


def _sums(V: np.ndarray, L: np.ndarray, ops: np.ndarray) -> np.ndarray:
    """_block_sums of V and L against the operands ops [5, n, w]; float64[5, n]."""
    return _block_sums(V, L, ops[:3], ops[3:])


def _padded(a: np.ndarray, width: int, fill: np.ndarray | None = None) -> np.ndarray:
    out = np.zeros(a.shape[:-1] + (width,)) if fill is None else fill.copy()
    out[..., : a.shape[-1]] = a
    return out


@pytest.mark.parametrize("m", [1, 7, 9, SUM_BLOCK - 1, SUM_BLOCK, SUM_BLOCK + 1, 200, 1000])
def test_block_sums_ignore_zero_padding_and_other_rows(m):
    """A row's sums are the same alone or among others, and with zero columns (of V and L)
    appended: whatever the operands there."""
    rng = np.random.default_rng(m)
    n = 5
    V = rng.random((n, m)) * 10.0 ** rng.integers(-8, 8, size=(n, m))
    L = rng.random((n, m))
    ops = rng.random((5, n, m))
    base = -(-m // SUM_BLOCK) * SUM_BLOCK
    alone = [
        _sums(
            _padded(V[i : i + 1], base),
            _padded(L[i : i + 1], base),
            _padded(ops[:, i : i + 1], base),
        )
        for i in range(n)
    ]
    for extra in (0, 1, 3):
        w = base + extra * SUM_BLOCK
        junk = rng.random((5, n, w))  # past the rows' terms V and L are 0: ops do not matter
        got = _sums(_padded(V, w), _padded(L, w), _padded(ops, w, junk))
        for i in range(n):
            assert np.array_equal(got[:, i], alone[i][:, 0])
    # exactly the einsum of each block, the blocks then added in rank order
    Vp, Lp, Op = _padded(V, base), _padded(L, base), _padded(ops, base)
    a = np.stack([Vp, Vp, Vp, Lp, Lp]).reshape(5, n, -1, SUM_BLOCK)
    blocks = np.stack(
        [np.einsum("ijk,ijk->ij", a[s], Op[s].reshape(n, -1, SUM_BLOCK)) for s in range(5)]
    )
    want = blocks[:, :, 0].copy()
    for j in range(1, blocks.shape[2]):
        want += blocks[:, :, j]
    assert np.array_equal(_sums(Vp, Lp, Op), want)
    # sum V is the dot product with 1: with unit costs sum V c is sum V to the bit
    Op[0] = Op[2] = 1.0
    s = _sums(Vp, Lp, Op)
    assert np.array_equal(s[0], s[2])


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


@pytest.mark.parametrize("max_depth", [None, 400])
def test_rows_are_their_own_when_v_underflows(max_depth):
    """RBP with a small p: V underflows to 0 within the grid, whose zero blocks are skipped
    (for every topic at once); each row still scores as its ranking alone."""
    from cwlkit.measures.cwl.rbp import RBP

    rng = np.random.default_rng(3)
    depth = np.array([0, 5, 170, 400])
    gain = rng.integers(0, 3, size=(4, 400)) / 2.0
    cost = np.ones((4, 400))
    for metric in (RBP(p=0.01), RBP(p=0.2)):
        batch = score_metric(metric, gain, cost, depth, max_depth=max_depth).as_array()
        for t, d in enumerate(depth):
            alone = score_metric(
                metric,
                gain[t : t + 1, :d],
                cost[t : t + 1, :d],
                depth[t : t + 1],
                max_depth=max_depth,
            ).as_array()[:, 0]
            assert np.array_equal(alone, batch[:, t], equal_nan=True)
