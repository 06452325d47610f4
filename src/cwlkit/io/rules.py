"""The reader contract: what a qrels or run line may hold, decided here for every reader.

Every reader of TREC qrels and runs (whole files, streamed files, diversity qrels, trec_eval's
``-R`` judgments, in-memory tables) takes a :class:`ReadRules`; every subcommand picks one by
name from :data:`RULES`. The default, ``"cwlkit"``, is what cwlkit's own subcommands, the
Python API and the subcommands whose anchor asks for nothing else read; a rule set differs
from it only where its anchor program reads differently:

========================  ================  =====================  ==============  ==========
rule set (who uses it)    run: 7th+ field   ``#`` lines            label syntax    label range
========================  ================  =====================  ==============  ==========
``cwlkit`` (default)      refused           data (refused unless   a number        |l| <= 2^53
                                            a well-formed line)
``trec_eval`` (9.0.8)     ignored           data                   C ``atol``      |l| <= 2^53
``trec_eval_10`` (10.0)   ignored           skipped (qrels: in     C ``atol``      |l| <= 2^53
                                            column 0; run: after
                                            blanks too)
``ndeval`` (4.5)          ignored           data                   a number        |l| <= 2^53
========================  ================  =====================  ==============  ==========

The same in every rule set: qrels lines have exactly 4 fields (``topic iteration document
label``), run lines 6 (``topic Q0 document rank score tag``; more as the table says); fields
are separated by runs of blanks (space, tab, CR, VT, FF); blank lines are skipped; a score is
a number (``inf`` is one; NaN is refused); a label is finite and at most 2^53 in magnitude (beyond,
float64 no longer holds every integer: 2^53 + 1 would be read as 2^53), refused with a
:class:`~cwlkit.errors.FormatError` naming the file and the line.

Why the default refuses a 7th run field: a run line of 7 fields is most often a shifted line
(a document id with a blank in it), whose 5th field would then be read as the score; the
two anchors that ignore the extra fields (trec_eval, ndeval) are followed in their own
subcommands. Why ``#`` lines are not comments by default: trec_eval 9.0.8, cwl_eval,
inst_eval.py, gdeval.pl, ndeval and rbp_eval all read them as (malformed) judgements or
results; trec_eval 10.0 alone skips them.

C ``atol`` (trec_eval's ``get_qrels.c``): an optional sign and the digits that follow it,
up to the first other character; 0 when there is none: ``5e-1`` is 5, ``1e1`` is 1,
``.5e1`` is 0, ``1.9`` is 1, ``2abc`` is 2, ``+3`` is 3, ``007`` is 7.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import TYPE_CHECKING

import numpy as np

from ..errors import FormatError

if TYPE_CHECKING:  # (pyarrow is imported when a file is read: not by Options' checks)
    import pyarrow as pa

    from .text import LineNumbers

__all__ = [
    "check_label_range",
    "DEFAULT",
    "INDENTED",
    "MAX_LABEL",
    "RULES",
    "ReadRules",
    "atol_labels",
    "reading_rules",
]

#: ``comments=INDENTED``: a line whose first non-blank character is ``#`` is a comment
#: (trec_eval 10.0's results reader); ``True``: only a ``#`` in the first column (its
#: qrels reader)
INDENTED = "indented"

#: the largest label magnitude any reader accepts: beyond it float64 is not every integer
MAX_LABEL = 2**53


@dataclass(frozen=True)
class ReadRules:
    """What a qrels or run line may hold (see the module's table).

    Attributes
    ----------
    name : str
        The rule set's name (a key of :data:`RULES`).
    anchor : str
        The program whose reading it follows.
    qrels_comments : bool
        Skip qrels lines whose first character is ``#``.
    run_comments : bool or str
        Skip run lines whose first character is ``#`` (True), or whose first non-blank
        character is (:data:`~cwlkit.io.text.INDENTED`).
    run_extra_fields : bool
        Accept run lines of more than 6 fields and ignore the fields after the sixth.
    labels : {"number", "atol"}
        How a label is read: a decimal number (``1``, ``-2``, ``0.5``, ``1e1``; not
        ``2abc``), or as C's ``atol`` reads it (sign and leading digits; see the module).
    """

    name: str
    anchor: str
    qrels_comments: bool = False
    run_comments: bool | str = False
    run_extra_fields: bool = False
    labels: str = "number"

    def parse_labels(
        self, path: str | os.PathLike[str], column: pa.Array | pa.ChunkedArray, lines: LineNumbers
    ) -> np.ndarray:
        """float64 labels of a string column, read by these rules and checked: finite, at
        most :data:`MAX_LABEL` in magnitude (a FormatError names the file and line)."""
        from .text import parse_floats

        if self.labels == "atol":
            values = atol_labels(column)
        else:
            values = parse_floats(path, column, lines, "the relevance label")
        check_label_range(path, values, column, lines)
        return values


def atol_labels(column: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """float64: each string of ``column`` as C's ``atol`` reads it (an optional sign and the
    digits after it, up to the first other character; 0 when there is none)."""
    import pyarrow as pa
    from pyarrow._compute import ExtractRegexOptions, StructFieldOptions, call_function

    from ..support import compute as pc
    from .text import to_numpy

    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    got = call_function("extract_regex", [column], ExtractRegexOptions(r"^(?P<n>[+-]?[0-9]+)"))
    digits = call_function("struct_field", [got], StructFieldOptions([0]))
    # (a field that does not match is null: 0, as atol gives)
    return np.asarray(to_numpy(pc.cast(digits, pa.float64()), null=0.0), dtype=np.float64)


def check_label_range(
    path: str | os.PathLike[str],
    values: np.ndarray,
    column: pa.Array | pa.ChunkedArray | None,
    lines: LineNumbers,
) -> None:
    """Raise a FormatError at the first label whose magnitude exceeds :data:`MAX_LABEL`
    (checked on the text when given: 2^53 + 1 reads as 2^53 in float64)."""
    near = np.abs(values) >= MAX_LABEL
    if not near.any():
        return
    for i in np.flatnonzero(near).tolist():
        text = None if column is None else column[i].as_py()
        if _beyond(text, float(values[i])):
            shown = repr(text) if text is not None else repr(float(values[i]))
            raise FormatError(
                path,
                int(lines[i]),
                f"expected a relevance label of magnitude at most 2^53 = {MAX_LABEL}, got "
                f"{shown} (float64 holds no larger label exactly; rescale the labels)",
            )


def _beyond(text: str | None, value: float) -> bool:
    """Whether the label written ``text`` (read as ``value``) is beyond 2^53 in magnitude."""
    if text is not None:
        head = text.strip()
        try:
            return abs(Decimal(head)) > MAX_LABEL
        except InvalidOperation:  # (atol's reading of '2e99x'...: its digits)
            sign = head[:1] if head[:1] in "+-" else ""
            digits = head[len(sign) :]
            n = len(digits) - len(digits.lstrip("0123456789"))
            return n > 0 and abs(int(sign + digits[:n])) > MAX_LABEL
    return abs(value) > MAX_LABEL


#: the default rule set
DEFAULT = ReadRules("cwlkit", "cwlkit (no anchor asks for more)")

#: every rule set, by name
RULES: dict[str, ReadRules] = {
    r.name: r
    for r in (
        DEFAULT,
        ReadRules("trec_eval", "trec_eval 9.0.8", run_extra_fields=True, labels="atol"),
        ReadRules(
            "trec_eval_10",
            "trec_eval 10.0",
            qrels_comments=True,
            run_comments=INDENTED,
            run_extra_fields=True,
            labels="atol",
        ),
        ReadRules("ndeval", "ndeval 4.5", run_extra_fields=True),
    )
}


def reading_rules(rules: str | ReadRules | None) -> ReadRules:
    """The rule set named ``rules`` (None: the default; a ReadRules as it is)."""
    if rules is None:
        return DEFAULT
    if isinstance(rules, ReadRules):
        return rules
    from ..support.checks import check_choice

    return RULES[check_choice("reading", rules, tuple(RULES))]
