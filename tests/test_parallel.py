"""cwlkit._parallel: a pool worker's share of the cores."""

from __future__ import annotations

import pytest

from cwlkit import _parallel


def _share(state, item):
    return _parallel.cores()


@pytest.mark.skipif(_parallel.cores() < 2, reason="needs two cores")
def test_each_worker_of_a_pool_uses_its_share_of_the_cores():
    """Two workers on two cores run no threads of their own (thread_map runs in place)."""
    n = _parallel.cores()
    assert list(_parallel.imap(_share, None, [1, 2, 3], jobs=2)) == [n // 2] * 3
    assert list(_parallel.imap(_share, None, [1, 2, 3], jobs=1)) == [n] * 3
    assert _parallel.cores() == n  # (this process keeps every core)
