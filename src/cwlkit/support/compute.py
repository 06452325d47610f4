"""The few pyarrow compute kernels the evaluation path calls, without ``pyarrow.compute``.

``import pyarrow.compute`` builds a Python wrapper, with its docstring, for each of about
300 kernels: 20-25 ms of every command's start-up, more than a 50,000-line run takes to
parse. The kernels themselves live in ``pyarrow._compute`` and are reached here by name
through ``call_function``, with the same option classes, so the results are those of
``pyarrow.compute``'s functions of the same names. (Methods such as ``Array.take`` and
``Array.filter`` import ``pyarrow.compute`` on first use: call :func:`take` and
:func:`filter` instead.)
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa
from pyarrow._compute import (
    CastOptions,
    ScalarAggregateOptions,
    SetLookupOptions,
    SortOptions,
    call_function,
)

__all__ = [
    "binary_length",
    "cast",
    "dictionary_encode",
    "filter",
    "index_in",
    "invert",
    "is_in",
    "min",
    "not_equal",
    "sort_indices",
    "take",
    "unique",
]


def dictionary_encode(values: pa.Array) -> pa.DictionaryArray:
    """The values as a dictionary array (codes in first-seen order)."""
    return call_function("dictionary_encode", [values])


def index_in(values: pa.Array, value_set: pa.Array) -> pa.Array:
    """The position of each value in ``value_set`` (null where absent)."""
    return call_function("index_in", [values], SetLookupOptions(value_set=value_set))


def is_in(values: pa.Array, value_set: pa.Array) -> pa.Array:
    """Whether each value occurs in ``value_set``."""
    return call_function("is_in", [values], SetLookupOptions(value_set=value_set))


def cast(values: pa.Array, target: pa.DataType) -> pa.Array:
    """The values converted to ``target`` (safe: raises ``ArrowInvalid`` on a bad value)."""
    return call_function("cast", [values], CastOptions.safe(target))


def take(values: pa.Array | pa.Table, indices: pa.Array) -> pa.Array | pa.Table:
    """``values[indices]``."""
    return call_function("take", [values, indices])


def filter(values: pa.Array | pa.Table, mask: pa.Array) -> pa.Array | pa.Table:
    """The values where ``mask`` is true."""
    return call_function("filter", [values, mask])


def invert(mask: pa.Array) -> pa.Array:
    """Element-wise ``not mask``."""
    return call_function("invert", [mask])


def not_equal(a: pa.Array, b: pa.Array) -> pa.Array:
    """Element-wise ``a != b``."""
    return call_function("not_equal", [a, b])


def binary_length(values: pa.Array) -> pa.Array:
    """The length in bytes of each string."""
    return call_function("binary_length", [values])


def min(values: pa.Array) -> pa.Scalar:
    """The smallest value."""
    return call_function("min", [values], ScalarAggregateOptions())


def unique(values: pa.Array) -> pa.Array:
    """The distinct values, in first-seen order."""
    return call_function("unique", [values])


def sort_indices(
    values: pa.Array | pa.Table, sort_keys: Sequence[tuple[str, str]] | None = None
) -> pa.Array:
    """The permutation that sorts ``values`` (an array: ascending; a table: by
    ``sort_keys``, pairs of column name and ``"ascending"`` / ``"descending"``)."""
    keys = [("", "ascending")] if sort_keys is None else list(sort_keys)
    return call_function("sort_indices", [values], SortOptions(keys))
