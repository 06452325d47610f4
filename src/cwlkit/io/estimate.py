"""What a text file holds, estimated from its size and first block (no numpy, no pyarrow:
the command line decides how to read a file before it loads them)."""

from __future__ import annotations

import os

#: ``cwlkit trec_eval --chunk-topics auto``: a run file larger than this is streamed, in
#: ranges of topics holding about TREC_AUTO_ROWS lines each. Measured with ``-q -m all_trec``
#: (benchmarks/README.md): at 1M lines (32 MB) reading whole is faster; at 3M lines (100 MB)
#: streaming in ranges of 300,000 lines is faster and holds a fifth of the memory
TREC_AUTO_BYTES = 1 << 26
TREC_AUTO_ROWS = 1 << 18
#: bytes read to estimate from
HEAD = 1 << 22


def _head_lines(path: str) -> tuple[list[bytes], int]:
    """The non-blank whole lines of the file's first block, and the block's length."""
    with open(path, "rb") as f:
        head = f.read(HEAD)
    cut = head.rfind(b"\n") + 1 or len(head)
    return [ln for ln in head[:cut].splitlines() if ln.strip()], cut


def estimate_topics(path: str) -> int:
    """About how many topics the file holds (from its first block and its size)."""
    lines, cut = _head_lines(path)
    first = {ln.split(None, 1)[0] for ln in lines}
    return max(1, int(len(first) * os.path.getsize(path) / max(cut, 1)))


def rows_per_topic(path: str) -> float:
    """About how many lines a topic has in the file (from its first block)."""
    lines, _ = _head_lines(path)
    return len(lines) / max(1, len({ln.split(None, 1)[0] for ln in lines}))


def auto_chunk_topics(run_path: str) -> int | None:
    """Topics per range for streaming the plain run file ``run_path`` (about
    :data:`TREC_AUTO_ROWS` lines each), or None: read it whole (at most
    :data:`TREC_AUTO_BYTES`)."""
    if os.path.getsize(run_path) <= TREC_AUTO_BYTES:
        return None
    return max(1, round(TREC_AUTO_ROWS / rows_per_topic(run_path)))
