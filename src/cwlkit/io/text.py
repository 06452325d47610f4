"""Shared machinery for whitespace-separated text formats.

The happy path is columnar: the bytes are normalised with a few C-level regular expression
passes (tabs and CR to spaces, runs of spaces folded, lines stripped, optional ``#`` comment
lines blanked), then pyarrow's CSV reader splits them on single spaces. Only when that fails
does a Python scan walk the lines to name the first bad one (the error path may be slow; the
happy path may not).
"""

from __future__ import annotations

import codecs
import functools
import gzip
import mmap
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from ..errors import CwlkitError, FormatError
from ..support.arrays import unique
from .estimate import GZIP_MAGIC

_WS = bytes.maketrans(b"\t\r\v\f", b"    ")
_MULTI = re.compile(rb" {2,}")
_EDGE = re.compile(rb"(?m)^ +| +$")
_COMMENT = re.compile(rb"(?m)^#[^\n]*")
_INDENTED_COMMENT = re.compile(rb"(?m)^ *#[^\n]*")  # (after _WS: tabs are spaces)
#: ``comments=INDENTED``: a line whose first non-blank character is ``#`` is a comment
#: (trec_eval 10.0's results reader); ``True``: only a ``#`` in the first column. The same
#: string as :data:`cwlkit.io.rules.INDENTED` (rules imports this module, not the reverse)
INDENTED = "indented"
_NONBLANK = re.compile(rb"[^ \n]")


# ---- numpy <-> arrow without pandas ------------------------------------------------------
# pyarrow's own conversions (``pa.array``, ``Array.to_numpy``, ``pa.scalar``) import pandas
# when it is installed (0.2-0.3 s); these go through the arrays' buffers instead.

_ARROW_OF: dict[np.dtype, pa.DataType] = {
    np.dtype(np.int8): pa.int8(),
    np.dtype(np.int16): pa.int16(),
    np.dtype(np.int32): pa.int32(),
    np.dtype(np.int64): pa.int64(),
    np.dtype(np.uint8): pa.uint8(),
    np.dtype(np.uint16): pa.uint16(),
    np.dtype(np.uint32): pa.uint32(),
    np.dtype(np.uint64): pa.uint64(),
    np.dtype(np.float32): pa.float32(),
    np.dtype(np.float64): pa.float64(),
}
_NUMPY_OF = {v: k for k, v in _ARROW_OF.items()}


def to_numpy(arr: pa.Array | pa.ChunkedArray, null=None) -> np.ndarray:
    """A numpy array with the values of a numeric or boolean arrow array.

    Zero-copy for numeric arrays without nulls (the result is then read-only); booleans are
    unpacked. Null entries are replaced by ``null`` (required when there are nulls).

    Parameters
    ----------
    arr : pyarrow.Array or pyarrow.ChunkedArray
        Integer, floating point or boolean values.
    null : scalar, optional
        Value that stands for a null.
    """
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    n, off = len(arr), arr.offset
    validity, buf = arr.buffers()[:2]
    if pa.types.is_boolean(arr.type):
        out = _bits(buf, off, n)
    else:
        dtype = _NUMPY_OF.get(arr.type)
        if dtype is None:
            raise TypeError(f"no numpy conversion for arrow type {arr.type}")
        out = (
            np.frombuffer(buf, dtype=dtype, count=n, offset=off * dtype.itemsize)
            if n
            else np.zeros(0, dtype)
        )
    if arr.null_count:
        if null is None:
            raise ValueError("array has nulls and no value was given for them")
        out = np.where(_bits(validity, off, n), out, null)
    return out


def _bits(buf: pa.Buffer, off: int, n: int) -> np.ndarray:
    """bool[n]: the LSB-first bitmap ``buf`` from bit ``off``."""
    if n == 0:
        return np.zeros(0, bool)
    bits = np.unpackbits(np.frombuffer(buf, dtype=np.uint8), count=off + n, bitorder="little")
    return bits[off:].view(bool)


def from_numpy(values: np.ndarray) -> pa.Array:
    """An arrow array over a 1-d numeric or boolean numpy array (no copy for numbers)."""
    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        buf = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), values.size, [None, pa.py_buffer(buf)])
    if values.dtype not in _ARROW_OF:
        values = values.astype(np.float64 if values.dtype.kind == "f" else np.int64)
    return pa.Array.from_buffers(_ARROW_OF[values.dtype], values.size, [None, pa.py_buffer(values)])


def from_strings(items) -> pa.Array:
    """An arrow string array holding the Python strings ``items`` (UTF-8)."""
    enc = [str(s).encode("utf-8", "surrogateescape") for s in items]
    offsets = np.zeros(len(enc) + 1, dtype=np.int64)
    np.cumsum(np.fromiter(map(len, enc), dtype=np.int64, count=len(enc)), out=offsets[1:])
    data = pa.py_buffer(b"".join(enc))
    if offsets[-1] < 2**31:
        return pa.Array.from_buffers(
            pa.string(), len(enc), [None, pa.py_buffer(offsets.astype(np.int32)), data]
        )
    return pa.Array.from_buffers(pa.large_string(), len(enc), [None, pa.py_buffer(offsets), data])


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]+://")


def is_url(path: object) -> bool:
    """Whether ``path`` is a URL with a scheme (``file://``, ``s3://``, ``memory://``...)."""
    return isinstance(path, str) and _URL.match(path) is not None


def read_url(url: str) -> bytes:
    """The bytes of an fsspec URL (fsspec imported here; ``pip install fsspec``)."""
    try:
        import fsspec
    except ImportError:
        raise CwlkitError(f"{url}: reading URLs needs fsspec; pip install fsspec") from None
    try:
        with fsspec.open(url, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise CwlkitError(f"{url}: no such file") from None
    except IsADirectoryError:
        raise CwlkitError(f"{url}: is a directory, expected a file") from None
    except (ImportError, ValueError) as exc:  # unknown protocol, or its package is missing
        msg = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CwlkitError(f"{url}: cannot read this URL ({msg})") from None


#: plain files from this size on are memory-mapped by :func:`read_text` (smaller ones are
#: read: mapping them costs more than the copy it saves)
MAP_BYTES = 1 << 23


def _check_name(path: str | os.PathLike[str]) -> None:
    """A file name is a str or a path (not bytes, None, a table...; the readers of objects
    are :func:`cwlkit.as_qrels` and :func:`cwlkit.as_run`), and an empty one is no file
    (``Path("")`` would be the working directory)."""
    if not isinstance(path, (str, os.PathLike)) or not isinstance(os.fspath(path), str):
        from ..errors import InputError

        shown = " ".join(repr(path).split())  # (one line, whatever the object prints)
        shown = shown if len(shown) <= 60 else shown[:55] + " ..."
        raise InputError(
            f"expected a file name (a str or a path; cwlkit.as_qrels and cwlkit.as_run read "
            f"objects); got {type(path).__name__} {shown}"
        )
    if not os.fspath(path):
        raise CwlkitError("an empty file name: expected the path of a qrels or run file")


def read_text(path: str | os.PathLike[str]) -> bytes | mmap.mmap:
    """:func:`read_bytes`, but a plain local file of at least ``MAP_BYTES`` bytes is
    memory-mapped (read-only) instead of copied: its pages are the page cache's, so the
    text costs neither a copy nor fresh memory (32 MB of run: about 20 ms). The map is
    released when the last object using it (the text, or arrow buffers over it) goes. (As
    with any mapped file, one that another process truncates while it is read ends this
    process with SIGBUS.)"""
    _check_name(path)
    if str(path) != "-" and not is_url(path):
        try:
            with open(path, "rb") as f:
                st = os.fstat(f.fileno())
                if stat.S_ISREG(st.st_mode) and st.st_size and st.st_size >= MAP_BYTES:
                    data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                    if data[:2] != GZIP_MAGIC:
                        return data
        except OSError:
            pass  # (read_bytes names the problem)
    return read_bytes(path)


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Return the bytes of ``path`` (``-`` is standard input; a URL such as ``s3://b/run``
    is read with fsspec), un-gzipped if it is gzip."""
    _check_name(path)
    try:
        if str(path) == "-":
            data = sys.stdin.buffer.read()
        elif is_url(path):
            data = read_url(str(path))
        else:
            data = Path(path).read_bytes()
    except FileNotFoundError:
        raise CwlkitError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CwlkitError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise CwlkitError(f"{path}: permission denied") from None
    if data[:2] == GZIP_MAGIC:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise FormatError(path, None, f"not a valid gzip file ({exc})") from None
    return data


def normalise(data: bytes | mmap.mmap, *, comments: bool | str = False, full: bool = True):
    """Make ``data`` single-space separated.

    Tabs, CR, VT and FF become spaces and, with ``comments``, ``#`` lines are blanked (see
    :data:`INDENTED`); with
    ``full`` runs of blanks are also folded and lines stripped. Each pass runs only when its
    character occurs (single-byte membership tests are memchr-fast; the regular expressions
    are not). Line count and order never change. A memory map (:func:`read_text`) comes
    back as it is when no pass changes it, as bytes otherwise (always bytes with ``full``).
    """
    # (find, not `in`: a memory map's `in` compares byte by byte)
    if any(data.find(c) >= 0 for c in (b"\t", b"\r", b"\v", b"\f")):
        data = bytes(data).translate(_WS)
    if comments == INDENTED and data.find(b"#") >= 0:
        data = _INDENTED_COMMENT.sub(b"", data)
    elif comments and data.find(b"#") >= 0 and (data[:1] == b"#" or data.find(b"\n#") >= 0):
        data = _COMMENT.sub(b"", data)
    if not full:
        return data
    data = bytes(data)  # (no copy of bytes)
    if b"  " in data:
        data = _MULTI.sub(b" ", data)
    if data.startswith(b" ") or data.endswith(b" ") or b"\n " in data or b" \n" in data:
        data = _EDGE.sub(b"", data)
    return data


def line_numbers(data: bytes) -> np.ndarray:
    """1-based numbers of the non-empty lines of normalised ``data``, in file order."""
    arr = np.frombuffer(data, dtype=np.uint8)
    nl = np.flatnonzero(arr == 10)
    starts = np.concatenate(([0], nl + 1))
    ends = np.concatenate((nl, [arr.size]))
    return np.flatnonzero(ends > starts).astype(np.int64) + 1


class LineNumbers(Protocol):
    """The 1-based line numbers of a file's rows: an int64 array, or a stand-in for one that
    is computed on first use (:class:`LazyLines`); indexing gives line numbers,
    ``numpy.asarray`` the whole array."""

    def __getitem__(self, i: Any, /) -> Any: ...

    def __len__(self) -> int: ...

    @property
    def size(self) -> int: ...


class LazyLines:
    """1-based line numbers of a file's rows, computed from its text on first use.

    Behaves like the int64 array it stands for (indexing, ``len``, ``numpy.asarray``); the
    happy path never needs it, error messages do.
    """

    def __init__(self, data: bytes | None, reload: Callable[[], bytes] | None = None) -> None:
        self._data: bytes | None = None if reload is not None else data
        self._reload = reload
        self._arr: np.ndarray | None = None

    @property
    def array(self) -> np.ndarray:
        """The line numbers."""
        if self._arr is None:
            data = self._reload() if self._reload is not None else self._data
            self._arr = line_numbers(data or b"")
            self._data = None
            self._reload = None
        return self._arr

    def __getitem__(self, i: Any) -> Any:
        return self.array[i]

    def __len__(self) -> int:
        return int(self.array.size)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return self.array if dtype is None else self.array.astype(dtype)

    @property
    def size(self) -> int:
        """Number of rows."""
        return int(self.array.size)


def split_columns(
    path: str | os.PathLike[str],
    data: bytes | mmap.mmap,
    names: Sequence[str],
    expected: str,
    *,
    comments: bool | str = False,
    extra: bool = False,
    keep: Sequence[str] | None = None,
) -> tuple[pa.Table, LazyLines]:
    """Split the text of a whitespace-separated file into string columns ``names``.

    Parameters
    ----------
    path : str or Path
        Used in error messages only.
    data : bytes or mmap.mmap
        The file's text as read (:func:`read_bytes`) or mapped (:func:`read_text`).
    names : sequence of str
        Column names; every non-empty line must have exactly this many fields.
    expected : str
        Human description of a line, e.g. ``"topic Q0 doc rank score tag"``.
    comments : bool or str
        Skip lines starting with ``#`` (:data:`INDENTED`: after blanks too).
    extra : bool
        Accept lines with more than ``len(names)`` fields and ignore the fields after the
        last name (trec_eval's results reader does).
    keep : sequence of str, optional
        Only materialise these columns (the others are still checked for presence).

    Returns
    -------
    table : pyarrow.Table
        One string column per name.
    lines : LazyLines
        The 1-based line number of each row (computed when first used).

    Notes
    -----
    The usual file is already single-space separated, so the text is first parsed as it is;
    an empty field (from a doubled, leading or trailing blank) or a parse failure sends it
    through the full normalisation and a second parse, and only if that fails too does a
    Python scan look for the first bad line.
    """

    # a file that can be read again is not kept in memory for the line numbers of errors
    def reload(full: bool) -> Callable[[], bytes] | None:
        if str(path) == "-":
            return None
        # (a partial, not a lambda: a Run or Qrels pickles to be sent to another process)
        return functools.partial(_reread, path, comments, full)

    quick = normalise(data, comments=comments, full=False)
    if _NONBLANK.search(quick) is None:  # (no stripped copy of the whole text)
        raise FormatError(path, None, f"empty file: expected lines of the form '{expected}'")
    check_utf8(path, quick)
    table = _read(quick, names)  # (every column: an empty field may be in any)
    if table is not None and not _has_empty_field(table):
        return _combine(_kept(table, keep)), LazyLines(quick, reload(False))
    full = normalise(quick)
    table = _read(full, names, keep)
    if table is None and extra:
        n = len(names)
        cut = re.compile(rb"(?m)^((?:[^ \n]+ ){%d}[^ \n]+) [^\n]*$" % (n - 1))
        full = cut.sub(rb"\1", full)
        table = _read(full, names, keep)
    if table is None:
        _scan_field_counts(path, full, len(names), expected)
        raise FormatError(path, None, f"could not parse: expected '{expected}'")
    return _combine(table), LazyLines(full, reload(True))


def last_field(data: bytes | mmap.mmap, index: int, *, comments: bool = False) -> str:
    """Field ``index`` (0-based) of the last line of ``data`` that holds any field (with
    ``comments``, that is not a ``#`` line), as :func:`split_columns` would read it: the
    fields are split at runs of blanks (space, tab, CR, VT, FF). Call it on a text that
    :func:`split_columns` accepted (the line then has the field)."""
    end = len(data)
    while end > 0:
        start = data.rfind(b"\n", 0, end) + 1
        fields = bytes(data[start:end]).split()
        if fields and not (comments and fields[0][:1] == b"#"):
            return fields[index].decode("utf-8", "surrogateescape")
        end = start - 1
    raise ValueError("no line with fields")


def _reread(path: str | os.PathLike[str], comments: bool | str, full: bool) -> bytes:
    """The normalised text of ``path`` read again (for the line numbers of an error)."""
    return normalise(read_bytes(path), comments=comments, full=full)


#: bytes per block of pyarrow's CSV reader (each block is parsed by one thread)
BLOCK = 1 << 24
#: texts up to this size are parsed by one thread, in one block: the thread pool's start-up
#: costs a process about 20 ms on its first read, more than such a text takes to parse
ONE_THREAD = 1 << 22


def _read(
    data: bytes | mmap.mmap, names: Sequence[str], keep: Sequence[str] | None = None
) -> pa.Table | None:
    # above ONE_THREAD bytes, blocks of 1 MiB up to 16 MiB of text (so that a few MiB of
    # qrels are still parsed by every core), of BLOCK beyond
    threads = len(data) > ONE_THREAD
    block = BLOCK if not threads or len(data) > BLOCK else 1 << 20
    try:
        table = pacsv.read_csv(
            pa.BufferReader(data),  # (no copy of the text, unlike io.BytesIO)
            read_options=pacsv.ReadOptions(
                column_names=list(names), block_size=block, use_threads=threads
            ),
            parse_options=pacsv.ParseOptions(
                delimiter=" ", quote_char=False, escape_char=False, ignore_empty_lines=True
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={c: pa.string() for c in names},
                include_columns=list(keep) if keep is not None else None,
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
                # (checked before, every column: see check_utf8)
                check_utf8=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    return table


def _is_ascii(data: bytes | mmap.mmap) -> bool:
    """Whether every byte of ``data`` is below 128."""
    if isinstance(data, bytes):
        return data.isascii()
    return len(data) == 0 or int(np.frombuffer(data, dtype=np.uint8).max()) < 128


def _combine(table: pa.Table) -> pa.Table:
    """``table.combine_chunks()`` one column at a time: each column's chunks are released
    before the next column is copied, so the peak is the table plus one column (not twice
    the table)."""
    names = table.column_names
    arrays = []
    for name in names:
        col = table.column(name)
        # (one chunk is taken as it is: combine_chunks would copy it)
        arrays.append(col.chunk(0) if col.num_chunks == 1 else col.combine_chunks())
        table = table.drop_columns([name])
    return pa.Table.from_arrays(arrays, names=names)


def _has_empty_field(table: pa.Table) -> bool:
    """Whether a column of ``table`` holds an empty string: from a doubled blank, or a blank
    at the start or end of a line (every column is checked: a line one field short by a
    doubled blank has its empty field in any column, kept or not)."""
    from ..support import compute as pc

    return (
        any(pc.min(pc.binary_length(table.column(c))).as_py() == 0 for c in table.column_names)
        if table.num_rows
        else False
    )


def _kept(table: pa.Table, keep: Sequence[str] | None) -> pa.Table:
    """``table`` with only the columns ``keep`` (all with None), in their order."""
    return table if keep is None else table.select(list(keep))


def check_utf8(path: str | os.PathLike[str], data: bytes | mmap.mmap, step: int = 1 << 26) -> None:
    """Raise a FormatError naming the first line that is not UTF-8 text, if any (every
    field: trec_eval takes bytes as they are, but cwlkit's columns are UTF-8 strings). A
    memory map is decoded ``step`` bytes at a time, not copied whole."""
    if _is_ascii(data):
        return
    decoder = codecs.getincrementaldecoder("utf-8")()
    for at in range(0, len(data), step):
        try:
            decoder.decode(data[at : at + step], final=at + step >= len(data))
        except UnicodeDecodeError as exc:
            start = max(at + exc.start - len(decoder.getstate()[0]), 0)
            line = data[:start].count(b"\n") + 1  # (a map has no count: a slice is bytes)
            got = data[start : start + 1].hex()
            raise FormatError(path, line, f"expected UTF-8 text, got the byte 0x{got}") from None


def _scan_field_counts(path: str | os.PathLike[str], data: bytes, n: int, expected: str) -> None:
    for i, line in enumerate(data.split(b"\n"), 1):
        if not line:
            continue
        got = line.count(b" ") + 1
        if got != n:
            raise FormatError(path, i, f"expected {n} fields ({expected}), got {got}")


def parse_floats(
    path: str | os.PathLike,
    column: pa.Array,
    lines: LineNumbers,
    what: str,
    *,
    finite: bool = True,
    allow_nan: bool = False,
) -> np.ndarray:
    """Parse a string column as float64; name the first bad line on failure.

    ``finite`` rejects infinities and NaN; otherwise NaN alone is rejected unless
    ``allow_nan``.
    """
    from ..support import compute as pc

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    try:
        values = to_numpy(pc.cast(column, pa.float64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        values = None
    if values is not None:
        if finite:
            bad = ~np.isfinite(values)
        else:
            bad = np.zeros(values.shape, bool) if allow_nan else np.isnan(values)
        if not bad.any():
            return values
        i = int(np.flatnonzero(bad)[0])
        raise FormatError(
            path, int(lines[i]), f"expected a finite number for {what}, got {column[i].as_py()!r}"
        )
    i = first_unparsed(column)
    got = column[i].as_py()
    raise FormatError(path, int(lines[i]), f"expected a number for {what}, got {got!r}")


def first_unparsed(column: pa.Array, target: pa.DataType | None = None) -> int:
    """Index of the first string of ``column`` that pyarrow's cast to ``target`` (default
    float64) refuses (one must), found by halving: about twice the cost of one cast."""
    from ..support import compute as pc

    target = pa.float64() if target is None else target
    lo, hi = 0, len(column)  # no refused string before lo; one in lo:hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        try:
            pc.cast(column.slice(lo, mid - lo), target)
            lo = mid
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            hi = mid
    return lo


def first_duplicate(keys: np.ndarray) -> tuple[int, int] | None:
    """Indices (first, second) of the first repeated key in file order, or None."""
    if keys.size < 2:
        return None
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    dup = np.flatnonzero(sk[1:] == sk[:-1])
    if dup.size == 0:
        return None
    second = order[dup + 1]
    j = int(np.argmin(second))
    return int(order[dup[j]]), int(second[j])


def encode(*arrays: pa.Array) -> tuple[list[np.ndarray], pa.Array]:
    """Encode several string arrays with one shared dictionary.

    Returns the int32 codes of each array and the dictionary (unique strings, in first-seen
    order).
    """
    from ..support import compute as pc

    lengths = [len(a) for a in arrays]
    combined = pa.concat_arrays(
        [a.combine_chunks() if isinstance(a, pa.ChunkedArray) else a for a in arrays]
    )
    enc = pc.dictionary_encode(combined)
    idx = to_numpy(enc.indices).astype(np.int64)
    out: list[np.ndarray] = []
    start = 0
    for n in lengths:
        out.append(idx[start : start + n])
        start += n
    return out, enc.dictionary


def encode_runs(column: pa.Array | pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """Encode a column whose equal values mostly come in runs (topic ids): compare neighbours,
    dictionary-encode only the first value of each run. Same result as :func:`encode`."""
    from ..support import compute as pc

    col = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    n = len(col)
    if n == 0:
        return np.zeros(0, dtype=np.int64), from_strings([])
    change = to_numpy(pc.not_equal(col.slice(1), col.slice(0, n - 1)))
    starts = np.concatenate(([0], np.flatnonzero(change) + 1))
    heads = pc.take(col, from_numpy(starts))
    (codes,), dictionary = encode(heads)
    lengths = np.diff(np.concatenate((starts, [n])))
    return np.repeat(codes, lengths), dictionary


#: rows per block of :func:`encode_blocks`
BLOCK_ROWS = 1 << 15


def encode_blocks(
    column: pa.Array | pa.ChunkedArray, groups: np.ndarray, block: int | None = None
) -> tuple[np.ndarray, pa.Array]:
    """Dictionary-encode ``column`` in blocks of about ``block`` rows that never split a run
    of equal ``groups`` codes (small hash tables stay in cache: several times faster than one
    table over millions of distinct strings).

    Equal strings inside a block share a code; the same string in two blocks gets two codes
    (the dictionary is the concatenation of the blocks' dictionaries). When a group's rows
    are not contiguous, falls back to :func:`encode` (one code per distinct string).
    """
    from ..support import compute as pc

    block = BLOCK_ROWS if block is None else block
    col = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    n = len(col)
    change = np.flatnonzero(groups[1:] != groups[:-1]) + 1
    if n <= block or unique(groups[np.concatenate(([0], change))]).size != change.size + 1:
        (codes,), dictionary = encode(col)
        return codes, dictionary
    bounds = np.concatenate(([0], change, [n]))
    cuts = unique(bounds[np.searchsorted(bounds, np.arange(0, n, block))])
    cuts = np.concatenate((cuts, [n])) if cuts[-1] != n else cuts
    from ..support.threads import thread_map

    spans = list(zip(cuts[:-1].tolist(), cuts[1:].tolist(), strict=True))
    encoded = thread_map(lambda ab: pc.dictionary_encode(col.slice(ab[0], ab[1] - ab[0])), spans)
    codes = np.empty(n, dtype=np.int64)
    offset = 0
    for (a, b), enc in zip(spans, encoded, strict=True):
        codes[a:b] = to_numpy(enc.indices) + offset
        offset += len(enc.dictionary)
    return codes, pa.concat_arrays([enc.dictionary for enc in encoded])


def sort_rank(dictionary: pa.Array) -> np.ndarray:
    """Rank of each dictionary entry in byte (strcmp) order: ``rank[code]``."""
    from ..support import compute as pc

    order = to_numpy(pc.sort_indices(dictionary))
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank


Check = Callable[[pa.Table, np.ndarray], None]
