#!/usr/bin/env python3
"""The least work a run of the many-runs case costs in Python with pyarrow and numpy.

usage: python benchmarks/floor_per_run.py [--data bench-data/many-50x1000] [--runs 100]

Not an evaluation: each run file of ``bench_many_runs.py`` (50 topics x 1,000 documents,
1.6 MB) goes through the steps no trec_eval-style evaluation can skip, each done once with
the fastest kernel found, without cwlkit's checks (duplicates, empty fields, topic sets) and
without computing any measure: read the bytes; split them with pyarrow's CSV reader (the
topic, document and score columns); encode the topics; cast the scores; hash the documents
together with the judged documents of the run's topics (one ``dictionary_encode``) and find
each document's label; order each topic's tied scores whose labels differ by docno; scatter
the labels into a topics x ranks matrix. It assumes what cwlkit may not (every topic's lines
together, scores non-increasing within a topic, every run topic judged). One process, one
core: the time per run is the floor of a worker of ``cwlkit evaluate -j 2``, to which the
measures (about 1.5 ms for five) and the checks add.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

NAMES = ["topic", "q0", "doc", "rank", "score", "tag"]
PARSE = pacsv.ParseOptions(delimiter=" ", quote_char=False, ignore_empty_lines=True)
READ = pacsv.ReadOptions(column_names=NAMES, block_size=1 << 24, use_threads=False)
CONVERT = pacsv.ConvertOptions(
    column_types=dict.fromkeys(NAMES, pa.string()),
    include_columns=["topic", "doc", "score"],
    check_utf8=False,
)


class Judged:
    """The qrels, grouped by topic once (as cwlkit keeps them for every run)."""

    def __init__(self, path: Path) -> None:
        names = ["topic", "it", "doc", "rel"]
        opts = pacsv.ReadOptions(column_names=names)
        conv = pacsv.ConvertOptions(column_types={**dict.fromkeys(names, pa.string())})
        t = pacsv.read_csv(path, read_options=opts, parse_options=PARSE, convert_options=conv)
        enc = pc.dictionary_encode(t.column("topic").combine_chunks())
        topic = enc.indices.to_numpy().astype(np.int64)
        order = np.argsort(topic, kind="stable")
        self.topics = enc.dictionary
        self.topic = topic[order]
        self.docs = t.column("doc").combine_chunks().take(pa.array(order))
        self.rel = pc.cast(t.column("rel"), pa.float64()).to_numpy()[order]


def one(path: Path, q: Judged, stages: dict[str, float]) -> np.ndarray:
    def tick(name: str, t0: float) -> float:
        t1 = time.perf_counter()
        stages[name] = stages.get(name, 0.0) + t1 - t0
        return t1

    t = time.perf_counter()
    data = path.read_bytes()
    t = tick("read", t)
    table = pacsv.read_csv(
        pa.BufferReader(data), read_options=READ, parse_options=PARSE, convert_options=CONVERT
    )
    t = tick("csv", t)
    docs = table.column("doc").chunk(0)
    enc = pc.dictionary_encode(table.column("topic").chunk(0))
    tc, td = enc.indices.to_numpy().astype(np.int64), enc.dictionary
    t = tick("topics", t)
    s = pc.cast(table.column("score").chunk(0), pa.float64()).to_numpy().astype(np.float32)
    t = tick("scores", t)
    r2q = pc.index_in(td, value_set=q.topics).to_numpy(zero_copy_only=False).astype(np.int64)
    codes = pc.dictionary_encode(pa.concat_arrays([q.docs, docs])).indices.to_numpy()
    t = tick("hash", t)
    k = len(q.docs)
    qc, rc = codes[:k], codes[k:]
    width = int(qc.max()) + 1
    at = np.full(width + 1, -1, np.int64)
    at[qc] = np.arange(k)
    topic_at = np.full(width + 1, -2, np.int64)
    topic_at[qc] = q.topic
    code = np.minimum(rc, width)
    row = np.where(topic_at[code] == r2q[tc], at[code], -1)
    label = np.where(row >= 0, q.rel[row], np.nan)
    t = tick("labels", t)
    same = (s[1:] == s[:-1]) & (tc[1:] == tc[:-1])
    tie = np.zeros(s.size, bool)
    tie[1:] |= same
    tie[:-1] |= same
    pos = np.flatnonzero(tie)
    new = np.ones(pos.size, bool)
    new[1:] = ~same[pos[1:] - 1]
    group = np.cumsum(new, dtype=np.int32)
    bits = label[pos].view(np.int64)
    mixed = np.zeros(int(group[-1]) + 1 if group.size else 1, bool)
    mixed[group[1:][(bits[1:] != bits[:-1]) & ~new[1:]]] = True
    keep = np.flatnonzero(mixed[group])
    pos, group = pos[keep], group[keep]
    names = docs.take(pa.array(pos))
    by = pc.sort_indices(
        pa.table({"g": group, "d": names}), sort_keys=[("g", "ascending"), ("d", "descending")]
    ).to_numpy()
    perm = np.arange(s.size)
    perm[pos] = pos[by]
    t = tick("ties", t)
    label = label[perm]
    counts = np.bincount(tc, minlength=len(td))
    col = np.arange(s.size) - np.concatenate(([0], np.cumsum(counts)[:-1]))[tc]
    matrix = np.full((len(td), int(counts.max())), np.nan)
    matrix[tc, col] = label
    tick("matrix", t)
    return matrix


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--data", type=Path, default=Path("bench-data/many-50x1000"))
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    q = Judged(a.data / "qrels")
    runs = sorted(a.data.glob("run*"))[: a.runs]
    for r in runs[:5]:  # (warm: page cache, allocator)
        one(r, q, {})
    totals, stages = [], {}
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        for r in runs:
            one(r, q, stages)
        totals.append((time.perf_counter() - t0) / len(runs) * 1000)
    per = {k: v / (len(runs) * a.repeat) * 1000 for k, v in stages.items()}
    print(f"# {len(runs)} runs, median of {a.repeat}: {statistics.median(totals):.2f} ms a run")
    print(" ".join(f"{k} {v:.2f}" for k, v in per.items()))


if __name__ == "__main__":
    main()
