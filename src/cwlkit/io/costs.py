"""Cost files: cwl_eval's element-type costs (``type cost``) and per-document costs
(``topic doc cost``)."""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..errors import FormatError
from .text import first_duplicate, from_numpy, parse_floats, read_bytes, split_columns


@dataclass(frozen=True)
class Costs:
    """Element-type costs: ``costs[type]`` for the run's second column (``Q0``...)."""

    types: dict[str, float]
    path: str = "<costs>"


@dataclass(frozen=True, eq=False)
class DocCosts:
    """Per-document costs as columns ``topic``, ``doc``, ``cost``."""

    table: pa.Table
    path: str = "<doc costs>"


def read_costs(path: str | os.PathLike[str]) -> Costs:
    """Read a cwl_eval cost file: one ``element_type cost`` pair per line (blank lines and
    ``#`` comments allowed). Costs must be finite and non-negative."""
    data = read_bytes(path)
    table, lines = split_columns(
        path, data, ("type", "cost_text"), "element_type cost", comments=True
    )
    costs = parse_floats(path, table.column("cost_text"), lines, "the cost")
    if (costs < 0).any():
        i = int(np.flatnonzero(costs < 0)[0])
        raise FormatError(path, int(lines[i]), f"cost must be >= 0, got {costs[i]:g}")
    types = table.column("type").to_pylist()
    seen: dict[str, int] = {}
    for i, t in enumerate(types):
        if t in seen:
            raise FormatError(
                path, int(lines[i]), f"element type {t!r} given twice (first at line {seen[t]})"
            )
        seen[t] = int(lines[i])
    return Costs(dict(zip(types, costs.tolist(), strict=True)), str(path))


def read_doc_costs(path: str | os.PathLike[str]) -> DocCosts:
    """Read per-document costs: ``topic doc cost`` per line."""
    data = read_bytes(path)
    table, lines = split_columns(
        path, data, ("topic", "doc", "cost_text"), "topic document cost", comments=True
    )
    costs = parse_floats(path, table.column("cost_text"), lines, "the cost")
    if (costs < 0).any():
        i = int(np.flatnonzero(costs < 0)[0])
        raise FormatError(path, int(lines[i]), f"cost must be >= 0, got {costs[i]:g}")
    from .text import encode

    (t,), _ = encode(table.column("topic"))
    (d,), _ = encode(table.column("doc"))
    dup = first_duplicate(t * (int(d.max(initial=0)) + 1) + d)
    if dup is not None:
        raise FormatError(path, int(lines[dup[1]]), "document given twice for its topic")
    return DocCosts(
        table.append_column("cost", from_numpy(np.asarray(costs, dtype=np.float64))), str(path)
    )
