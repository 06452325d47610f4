"""What a text file holds, estimated from its size and first block (no numpy, no pyarrow:
the command line decides how to read a file before it loads them). A gzipped file is read
through its decompressed text (its size: estimated from its first block's ratio)."""

from __future__ import annotations

import gzip
import io
import os
import zlib

#: the first bytes of a gzip file
GZIP_MAGIC = b"\x1f\x8b"

#: bytes read to estimate from
HEAD = 1 << 22


def is_gzip(path: str) -> bool:
    """Whether the file starts as a gzip file does."""
    with open(path, "rb") as f:
        return f.read(2) == GZIP_MAGIC


def open_text(path: str) -> io.BufferedIOBase:
    """The file's text, opened for reading: decompressed as it is read if it is gzipped."""
    return gzip.open(path, "rb") if is_gzip(path) else open(path, "rb")  # noqa: SIM115


def text_size(path: str) -> int:
    """The size of the file's text: its size, or for a gzipped file the size of its first
    ``HEAD`` bytes of text over the compressed bytes they took, times the file's size
    (exact when the text is shorter than ``HEAD``)."""
    size = os.path.getsize(path)
    if not is_gzip(path):
        return size
    try:
        with open(path, "rb") as raw, gzip.GzipFile(fileobj=raw) as f:
            head = len(f.read(HEAD))
            return head if head < HEAD else int(size * head / max(raw.tell(), 1))
    except (OSError, EOFError, zlib.error):  # not valid gzip: the reader names the problem
        return size


def _head_lines(path: str) -> tuple[list[bytes], int]:
    """The non-blank whole lines of the file's first block, and the block's length."""
    try:
        with open_text(path) as f:
            head = f.read(HEAD)
    except (OSError, EOFError, zlib.error):  # not valid gzip: the reader names the problem
        head = b""
    cut = head.rfind(b"\n") + 1 or len(head)
    return [ln for ln in head[:cut].splitlines() if ln.strip()], cut


def estimate_topics(path: str) -> int:
    """About how many topics the file holds (from its first block and its size)."""
    lines, cut = _head_lines(path)
    first = {ln.split(None, 1)[0] for ln in lines}
    return max(1, int(len(first) * text_size(path) / max(cut, 1)))


def rows_per_topic(path: str) -> float:
    """About how many lines a topic has in the file (from its first block)."""
    lines, _ = _head_lines(path)
    return len(lines) / max(1, len({ln.split(None, 1)[0] for ln in lines}))
