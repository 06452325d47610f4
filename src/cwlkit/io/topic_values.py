"""Per-topic parameter files: ``topic value`` per line (inst_eval's ``-tpq`` T file).

inst_eval.py reads ``QueryId<TAB>T`` lines with integer T. Here the two fields may be separated
by any blanks, the value may be any finite number, blank lines and lines starting with ``#``
are skipped, and a malformed line or a topic given twice is an error naming the line.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from ..errors import FormatError, ParamError


def read_topic_values(path: str | os.PathLike[str], what: str = "value") -> dict[str, float]:
    """Read ``topic value`` lines into ``{topic: value}``.

    Parameters
    ----------
    path : str or Path
        The file.
    what : str
        What the value is, for messages (``"T"``).

    Raises
    ------
    FormatError
        A line without exactly two fields, a value that is not a finite number, a topic given
        twice, or a file without any value.
    """
    from .text import check_utf8, read_bytes

    data = read_bytes(path)  # (plain or gzipped; a missing file is one error)
    check_utf8(path, data)
    text = data.decode("utf-8")
    out: dict[str, float] = {}
    first: dict[str, int] = {}
    for no, line in enumerate(text.splitlines(), 1):
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if len(fields) != 2:
            raise FormatError(path, no, f"expected 2 fields (topic {what}), got {len(fields)}")
        topic, value = fields
        try:
            v = float(value)
        except ValueError:
            v = math.nan
        if not math.isfinite(v):
            raise FormatError(path, no, f"{what} must be a finite number; got {value!r}")
        if topic in out:
            raise FormatError(
                path, no, f"topic {topic!r} is given twice (first at line {first[topic]})"
            )
        out[topic] = v
        first[topic] = no
    if not out:
        raise FormatError(path, None, f"no 'topic {what}' lines")
    return out


def as_topic_values(obj: Any, what: str = "value") -> dict[str, float]:
    """``{topic: value}`` from a mapping or a file of ``topic value`` lines."""
    if isinstance(obj, (str, os.PathLike)):
        return read_topic_values(obj, what)
    if not isinstance(obj, Mapping):
        raise ParamError(
            f"per-topic {what} values must be a mapping {{topic: value}} or a file name; "
            f"got {type(obj).__name__}"
        )
    out: dict[str, float] = {}
    for k, v in obj.items():
        try:
            f = float(v)
        except (TypeError, ValueError):
            f = math.nan
        if not math.isfinite(f):
            raise ParamError(f"per-topic {what} of topic {k!r} must be a finite number; got {v!r}")
        out[str(k)] = f
    return out
