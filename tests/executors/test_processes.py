"""cwlkit.executors.processes: a pool worker's share of the cores, tasks in order."""

from __future__ import annotations

import pytest

from cwlkit.executors import processes as _parallel
from cwlkit.support.threads import cores


def _share(state, item):
    return cores()


@pytest.mark.skipif(cores() < 2, reason="needs two cores")
def test_each_worker_of_a_pool_uses_its_share_of_the_cores():
    """Two workers on two cores run no threads of their own (thread_map runs in place)."""
    n = cores()
    assert list(_parallel.imap(_share, None, [1, 2, 3], jobs=2)) == [n // 2] * 3
    assert list(_parallel.imap(_share, None, [1, 2, 3], jobs=1)) == [n] * 3
    assert cores() == n  # (this process keeps every core)


def _square(state, item):
    if item == state:
        raise ValueError(f"bad item {item}")
    return item * item


@pytest.mark.parametrize("chunk", [1, 2, 3, 8, 50])
def test_chunked_tasks_keep_the_order(chunk):
    items = list(range(23))
    got = list(_parallel.imap(_square, None, items, jobs=2, chunk=chunk))
    assert got == [i * i for i in items]


@pytest.mark.parametrize("chunk", [1, 3, 4])
def test_an_error_comes_when_its_item_s_turn_comes(chunk):
    """The items before the bad one are yielded (also those of its own task), then its
    exception is raised; nothing after it is yielded."""
    got = []
    with pytest.raises(ValueError, match="bad item 9"):
        for r in _parallel.imap(_square, 9, list(range(20)), jobs=2, chunk=chunk):
            got.append(r)
    assert got == [i * i for i in range(9)]


def test_chunk_for(tmp_path):
    small = []
    for i in range(40):
        p = tmp_path / f"run{i}"
        p.write_text("1 Q0 d 1 1 x\n")
        small.append(str(p))
    assert _parallel.chunk_for(small, 2) == 5  # about four tasks a worker
    assert _parallel.chunk_for(small * 10, 2) == _parallel.MAX_CHUNK
    assert _parallel.chunk_for(small[:5], 2) == 1
    assert _parallel.chunk_for(small, 1) == 1  # one process: no tasks at all
    big = tmp_path / "big"
    with open(big, "wb") as f:
        f.truncate(_parallel.SMALL_FILE)  # (sparse)
    assert _parallel.chunk_for([*small, str(big)], 2) == 1  # big results: one a task
    assert _parallel.chunk_for([*small, object()], 2) == 1  # not files
    assert _parallel.chunk_for([*small, str(tmp_path / "missing")], 2) == 1
