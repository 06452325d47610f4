"""How a run is evaluated: whole, in topic chunks, streamed from disk, on Dask.

Every choice the executors make from an input's size is made here, for the API and for
every subcommand: which runs are streamed (``chunk_topics="auto"``) and in buckets of how
many topics or lines.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

#: ``chunk_topics="auto"`` (the API, ``cwlkit evaluate``, ``cwlkit cwl``): a run file larger
#: than this is streamed (a smaller one is read whole), in buckets of topics holding about
#: AUTO_ROWS lines each
AUTO_BYTES = 1 << 23
AUTO_ROWS = 24576
#: ``cwlkit trec_eval --chunk-topics auto``: a run file larger than this is streamed, in
#: ranges of topics holding about TREC_AUTO_ROWS lines each. Measured with ``-q -m all_trec``
#: (benchmarks/README.md): at 1M lines (32 MB) reading whole is faster; at 3M lines (100 MB)
#: streaming in ranges of 300,000 lines is faster and holds a fifth of the memory
TREC_AUTO_BYTES = 1 << 26
TREC_AUTO_ROWS = 1 << 18
#: a run held in Python (pytrec_eval dict, pandas DataFrame) is ranked with numpy alone
#: (:func:`cwlkit.core.direct.direct_batch`: no pyarrow, no process pool) whatever its size
#: when scored whole, and with ``chunk_topics`` (topic chunks over processes) when it has at
#: most this many rows: below it, starting worker processes costs more than it saves
DIRECT_CHUNKED_ROWS = 50_000


#: a pytrec_eval dict of at most SMALL_TOPICS topics and SMALL_ROWS rows is ranked and
#: scored a topic at a time (:meth:`cwlkit.plan.Plan.small`: a few numpy calls on each
#: topic's scores, no batch) when its measures have one-topic forms: a batch's fixed cost (a
#: few dozen numpy calls, about 0.1 ms) is then most of the time. Measured on
#: benchmarks/bench_api.py's data (AP, nDCG@10, P@10), one topic at a time costs 4.5x less
#: at 1 x 100 and 2 x 3, 1.9x less at 5 x 100, 1.2x less at 12 x 100, 12 x 250 and 3 x
#: 1,000, the same at 16 x 100, 1.2x more at 12 x 500 and 4 x 5,000, 1.4x more at 50 x 100
SMALL_TOPICS = 12
SMALL_ROWS = 3_000


def small_dict(obj: Any) -> bool:
    """Whether ``obj`` is a pytrec_eval dict of at most :data:`SMALL_TOPICS` topics and
    :data:`SMALL_ROWS` rows."""
    if type(obj) is not dict or len(obj) > SMALL_TOPICS:
        return False
    try:
        return sum(map(len, obj.values())) <= SMALL_ROWS
    except TypeError:  # (a topic's documents without a length: the batch path says why)
        return False


#: ``evaluate_many`` without ``jobs``: runs held in Python (dicts, DataFrames, tables, lists
#: of tuples) of at most this many rows in all are scored in this process, one after the
#: other: a process pool would pickle each run to its worker and back, and starting it costs
#: more than scoring them (a million rows take about 0.3 s here)
HELD_POOL_ROWS = 1_000_000


def held_rows(obj: Any) -> int | None:
    """The number of rows of a run held in Python (a pytrec_eval dict, a pandas or polars
    DataFrame, a pyarrow Table, a list of tuples), or None (a path, an ``irds:`` id, a lazy
    frame: anything that is read, or whose size is not known without reading it)."""
    from collections.abc import Mapping

    if isinstance(obj, (str, os.PathLike)) or is_dask_frame(obj):
        return None
    if isinstance(obj, Mapping):
        try:
            return sum(map(len, obj.values()))
        except TypeError:
            return None
    if isinstance(obj, (list, tuple)):
        return len(obj)
    rows = getattr(obj, "num_rows", None)  # (pyarrow)
    if isinstance(rows, int):
        return rows
    shape = getattr(obj, "shape", None)  # (pandas, polars)
    if isinstance(shape, tuple) and shape and isinstance(shape[0], int):
        return shape[0]
    return None


def held_in_process(runs: list[Any], jobs: int | None) -> bool:
    """Whether :func:`cwlkit.executors.evaluate_runs` scores ``runs`` here, one after the
    other, without a pool: ``jobs`` not given and every run held in Python, with at most
    :data:`HELD_POOL_ROWS` rows in all."""
    if jobs is not None:
        return False
    total = 0
    for r in runs:
        n = held_rows(r)
        if n is None:
            return False
        total += n
        if total > HELD_POOL_ROWS:
            return False
    return True


def text_file(obj: Any) -> str | None:
    """The path of ``obj`` if it is a local text file, plain or gzipped (not Parquet)."""
    if not isinstance(obj, (str, os.PathLike)):
        return None
    path = os.fsdecode(os.fspath(obj))
    if path == "-" or path.startswith("irds:") or "://" in path:
        return None
    if Path(path).suffix.lower() in (".parquet", ".pq") or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError:
        return None  # the whole-file reader names the problem
    return None if head == b"PAR1" else path


def buckets_for(run_path: str, chunk_topics: int | str) -> Any:
    """How to bucket ``run_path``'s topics (a :class:`~cwlkit.io.partition.Buckets`), or
    None: read it whole (``"auto"`` and a file of at most :data:`AUTO_BYTES` of text)."""
    from ..io.partition import Buckets

    if chunk_topics == "auto":
        from ..io.estimate import text_size

        return None if text_size(run_path) <= AUTO_BYTES else Buckets(rows=AUTO_ROWS)
    return Buckets(topics=int(chunk_topics))


def trec_stream_sizes(
    chunk: int | str | None, qrels_path: str, run_paths: list[str]
) -> list[int | None] | None:
    """``cwlkit trec_eval``'s choice: per run, about how many topics each bucket of its
    streamed evaluation holds (None: the run is read whole), or None when no run is
    streamed. Streamed: local files (plain or gzipped), with ``--chunk-topics N``, or with
    ``auto`` a run of over :data:`TREC_AUTO_BYTES` of text."""
    if chunk is None or not _local_file(qrels_path):
        return None
    sizes: list[int | None] = []
    for path in run_paths:
        if not _local_file(path):
            sizes.append(None)
        elif chunk == "auto":
            sizes.append(auto_chunk_topics(path))
        else:
            sizes.append(int(chunk))
    return sizes if any(s is not None for s in sizes) else None


def auto_chunk_topics(run_path: str) -> int | None:
    """Topics per range for streaming the plain run file ``run_path`` (about
    :data:`TREC_AUTO_ROWS` lines each), or None: read it whole (at most
    :data:`TREC_AUTO_BYTES` of text)."""
    from ..io.estimate import rows_per_topic, text_size

    if text_size(run_path) <= TREC_AUTO_BYTES:
        return None
    return max(1, round(TREC_AUTO_ROWS / rows_per_topic(run_path)))


def _local_file(path: str) -> bool:
    """Whether ``path`` is a local file (plain or gzipped) that can be streamed in blocks."""
    return path != "-" and os.path.isfile(path)


def is_dask_frame(obj: Any) -> bool:
    """A dask DataFrame (tested without importing dask)."""
    return (type(obj).__module__ or "").startswith("dask") and hasattr(obj, "to_delayed")
