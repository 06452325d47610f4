"""trec_eval's preference and judgment-group files, read into columns.

Three formats, selected in trec_eval with ``-R``:

``prefs``
    ``topic jg jsg document rel_level``: preference judgments. Within one judgment sub-group
    (``jsg``) of a judgment group (``jg``, one user's information need) a document with a
    higher ``rel_level`` (a real number) is preferred to one with a lower level; ``0``
    conventionally means non-relevant.
``qrels_prefs``
    An ordinary qrels file ``topic iteration document label`` read as preferences: the
    iteration column is the judgment group and every line is in sub-group ``"0"``.
``qrels_jg``
    ``topic jg document label``: one set of ordinary relevance judgments per judgment group
    (user). The label is read as C's ``atol`` reads it, i.e. truncated toward zero.

Fields are separated by any run of blanks; gzip is detected; ``-`` reads standard input;
with ``comments`` (trec_eval 10.0) lines starting with ``#`` are skipped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from ..errors import FormatError
from .rules import ReadRules, check_label_range, reading_rules
from .text import (
    LineNumbers,
    encode,
    first_duplicate,
    from_numpy,
    from_strings,
    parse_floats,
    read_bytes,
    split_columns,
    to_numpy,
)

PREFS_COLUMNS = ("topic", "jg", "jsg", "doc", "level_text")
QRELS_PREFS_COLUMNS = ("topic", "jg", "doc", "level_text")


@dataclass(frozen=True, eq=False)
class Judgments:
    """Preference or judgment-group judgments as columns.

    Attributes
    ----------
    table : pyarrow.Table
        String columns ``topic``, ``jg``, ``jsg`` (``"0"`` when the format has none), ``doc``
        and ``level`` (float64: the preference level, or the integer label of ``qrels_jg``).
    lines : numpy.ndarray or LazyLines
        1-based line number of each row in ``path``.
    path : str
        Where the judgments came from (for messages).
    kind : str
        ``"prefs"``, ``"qrels_prefs"`` or ``"qrels_jg"``.
    """

    table: pa.Table
    lines: LineNumbers
    path: str
    kind: str

    def __len__(self) -> int:
        return self.table.num_rows

    @property
    def levels(self) -> np.ndarray:
        """The levels (labels) as float64."""
        return to_numpy(self.table.column("level"))


def read_prefs(path: str | os.PathLike[str], *, comments: bool = False) -> Judgments:
    """Read a trec_eval preferences file (``topic jg jsg document rel_level``).

    Raises
    ------
    FormatError
        Empty file, a line without exactly 5 fields, or a level that is not a finite number.
    """
    data = read_bytes(path)
    table, lines = split_columns(
        path,
        data,
        PREFS_COLUMNS,
        "topic judgment-group sub-group document rel_level",
        comments=comments,
    )
    levels = parse_floats(path, table.column("level_text"), lines, "the rel_level")
    check_label_range(path, levels, table.column("level_text"), lines)
    table = table.append_column("level", from_numpy(levels))
    return Judgments(table, lines, str(path), "prefs")


def read_qrels_prefs(path: str | os.PathLike[str], *, comments: bool = False) -> Judgments:
    """Read a qrels file as preferences (``topic iteration document label``).

    The iteration column becomes the judgment group, the sub-group is ``"0"`` on every line.

    Raises
    ------
    FormatError
        Empty file, a line without exactly 4 fields, or a label that is not a finite number.
    """
    data = read_bytes(path)
    table, lines = split_columns(
        path, data, QRELS_PREFS_COLUMNS, "topic iteration document label", comments=comments
    )
    levels = parse_floats(path, table.column("level_text"), lines, "the relevance label")
    check_label_range(path, levels, table.column("level_text"), lines)
    table = _with_constant_jsg(table).append_column("level", from_numpy(levels))
    return Judgments(table, lines, str(path), "qrels_prefs")


def read_qrels_jg(path: str | os.PathLike[str], *, comments: bool = False) -> Judgments:
    """Read a judgment-group qrels file (``topic jg document label``).

    The label is truncated toward zero (trec_eval reads it with ``atol``).

    Raises
    ------
    FormatError
        Empty file, a line without exactly 4 fields, a label that is not a finite number, or
        the same document judged twice in one judgment group of a topic.
    """
    data = read_bytes(path)
    table, lines = split_columns(
        path, data, QRELS_PREFS_COLUMNS, "topic judgment-group document label", comments=comments
    )
    levels = np.trunc(parse_floats(path, table.column("level_text"), lines, "the relevance label"))
    check_label_range(path, levels, table.column("level_text"), lines)
    table = _with_constant_jsg(table).append_column("level", from_numpy(levels))
    (t, g, d), _ = encode(table.column("topic"), table.column("jg"), table.column("doc"))
    n = int(max(t.max(initial=0), g.max(initial=0), d.max(initial=0))) + 1
    dup = first_duplicate((t * n + g) * n + d)
    if dup is not None:
        first, second = dup
        raise FormatError(
            path,
            int(lines[second]),
            f"document {table.column('doc')[second].as_py()!r} appears twice in judgment group "
            f"{table.column('jg')[second].as_py()!r} "
            f"of topic {table.column('topic')[second].as_py()!r} "
            f"(first at line {int(lines[first])})",
        )
    return Judgments(table, lines, str(path), "qrels_jg")


def read_judgments(
    kind: str, path: str | os.PathLike[str], *, rules: str | ReadRules | None = None
) -> Judgments:
    """Read ``path`` in trec_eval's ``-R kind`` format (``prefs``, ``qrels_prefs``,
    ``qrels_jg``), ``#`` lines skipped when the reader ``rules`` skip those of qrels
    (:mod:`cwlkit.io.rules`)."""
    readers = {"prefs": read_prefs, "qrels_prefs": read_qrels_prefs, "qrels_jg": read_qrels_jg}
    try:
        reader = readers[kind]
    except KeyError:
        from ..errors import ParamError

        raise ParamError(
            f"unknown judgments format {kind!r}; expected one of {', '.join(readers)}"
        ) from None
    return reader(path, comments=reading_rules(rules).qrels_comments)


def _with_constant_jsg(table: pa.Table) -> pa.Table:
    jsg = from_strings(["0"]).take(from_numpy(np.zeros(table.num_rows, dtype=np.int64)))
    return table.add_column(2, "jsg", jsg)
