"""Topic buckets of a file (cwlkit.io.partition): each bucket holds exactly its topics' lines,
in file order, whatever the block size; buckets by first appearance; errors name the line."""

from __future__ import annotations

import numpy as np
import pytest

from cwlkit.errors import FormatError
from cwlkit.io import partition as part
from cwlkit.io.partition import Buckets, first_error, partition
from cwlkit.io.trec import read_run


def _run_text(topics: int, depth: int, seed: int, shuffle: bool) -> list[str]:
    rng = np.random.default_rng(seed)
    lines = [
        f"t{t} Q0 d{t}_{i} {i + 1} {rng.integers(0, 50) / 4} tag{t % 3}\n"
        for t in range(topics)
        for i in range(int(rng.integers(1, depth)))
    ]
    if shuffle:
        rng.shuffle(lines)
    return lines


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("block", [60, 1000, 1 << 20])
@pytest.mark.parametrize("buckets", [5, "rows", "topics"])
def test_buckets_hold_their_topics_lines_in_file_order(tmp_path, shuffle, block, buckets):
    lines = _run_text(40, 30, 1, shuffle)
    path = tmp_path / "run"
    path.write_text("".join(lines))
    how = {"rows": Buckets(rows=100), "topics": Buckets(topics=7)}.get(buckets, buckets)
    parts = partition(str(path), "run", how, tmp_path, counts=True, block=block)
    n = how if isinstance(how, int) else how.n
    # reference: the lines of each topic, with their 1-based line numbers, by hand
    want: dict[str, list[tuple[int, str, float]]] = {}
    for i, ln in enumerate(lines, 1):
        t, _, d, _, s, _ = ln.split()
        want.setdefault(t, []).append((i, d, float(s)))
    seen: set[str] = set()
    for k in range(n):
        r = parts.read(k)
        if r is None:
            continue
        topics = r.table.column("topic").to_pylist()
        for t in set(topics):
            rows = [i for i, x in enumerate(topics) if x == t]
            got = [
                (
                    int(r.lines[i]),
                    r.table.column("doc")[i].as_py(),
                    r.table.column("score")[i].as_py(),
                )
                for i in rows
            ]
            assert got == want[t]
            assert t not in seen  # a topic lies in one bucket
            seen.add(t)
        assert r.runid == lines[-1].split()[5]  # the file's last tag
    assert seen == set(want)
    assert parts.counts == {t: len(v) for t, v in want.items()}
    assert parts.rows == len(lines)


def test_buckets_fill_in_order_of_first_appearance():
    b = Buckets(rows=5)
    # (topic, lines) in order: a bucket closes once it holds 5 lines or more
    got = b.assign(["a", "b", "c"], [3, 3, 9]).tolist()
    assert got == [0, 0, 1]  # a: 3 lines, b joins (3 < 5), c opens bucket 1 (6 >= 5)
    assert b.assign(["a", "d"], [2, 1]).tolist() == [0, 2]  # a again: its bucket; d: a new one
    b.frozen = True
    assert b.assign(["e", "c"], [1, 1]).tolist() == [-1, 1]  # frozen: unseen topics dropped
    t = Buckets(topics=2)
    assert t.assign(["x", "y", "z", "w", "v"], [1] * 5).tolist() == [0, 0, 1, 1, 2]


def test_frozen_buckets_drop_other_topics(tmp_path):
    run = tmp_path / "run"
    run.write_text("1 Q0 a 1 1 x\n2 Q0 b 1 1 x\n")
    qrels = tmp_path / "qrels"
    qrels.write_text("3 0 z 1\n2 0 b 1\n1 0 a 0\n9 0 y 2\n")
    b = Buckets(topics=1)
    partition(str(run), "run", b, tmp_path, counts=True)
    b.frozen = True
    qp = partition(str(qrels), "qrels", b, tmp_path, counts=True)
    assert b.n == 2
    assert [qp.read(k).table.column("topic").to_pylist() for k in range(2)] == [["1"], ["2"]]
    assert qp.labels == {0.0, 1.0, 2.0}  # the labels of the whole file, dropped topics too
    assert qp.counts == {"3": 1, "2": 1, "1": 1, "9": 1}


@pytest.mark.parametrize("block", [40, 1 << 20])
@pytest.mark.parametrize(
    ("line", "text", "message"),
    [
        (7, "t1 Q0 dx 1 1.0\n", "expected 6 fields"),
        (12, "t1 Q0 dx 1 abc x\n", "expected a number for the score"),
        (15, None, "appears twice"),
    ],
)
def test_first_error_is_what_reading_the_whole_file_says(tmp_path, block, line, text, message):
    lines = _run_text(6, 8, 2, False)
    lines[line - 1] = text if text is not None else lines[2]  # None: a duplicate document
    path = tmp_path / "bad.run"
    path.write_text("".join(lines))
    with pytest.raises(FormatError) as whole:
        read_run(path)
    got = first_error(str(path), "run", block=block)
    assert got is not None and str(got) == str(whole.value)
    assert f"{path}:{line}:" in str(got) and message in str(got)


def test_first_error_none_for_a_good_file(tmp_path):
    path = tmp_path / "good.run"
    path.write_text("".join(_run_text(6, 8, 3, True)))
    assert first_error(str(path), "run", block=50) is None


def test_blocks_end_on_whole_lines(tmp_path):
    path = tmp_path / "f"
    path.write_bytes(b"a b\nc d\n\ne f")  # a blank line and no final newline
    got = list(part._blocks(str(path), 3))
    assert b"".join(t for t, _, _ in got) == path.read_bytes()
    assert all(t.endswith(b"\n") for t, _, _ in got[:-1])
    starts = [first for _, first, _ in got]
    counts = [n for _, _, n in got]
    assert starts == [1 + sum(counts[:i]) for i in range(len(got))]
    assert sum(counts) == 4
