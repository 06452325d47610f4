"""TREC qrels and runs read with rbp_eval's habits (Webber and Moffat's ``rbp_eval``).

* Topic and document ids are compared in lower case (rbp_eval folds them, and prints the
  folded topic ids).
* A run score of NaN reads as 0.0, with a warning; a rank with commas (``1,000``) loses them,
  with a warning (once); a change of the run tag is warned about (once).
* Whether the qrels are "integral" (rbp_eval's automatic gain choice, ``-a``): no label is
  written with a decimal point.

The files are otherwise read as :func:`cwlkit.io.trec.read_qrels` and
:func:`~cwlkit.io.trec.read_run` read them, except that a document a run retrieves twice for a
topic is kept twice, as rbp_eval counts it (a qrels document judged twice is an error in
both).
"""

from __future__ import annotations

import os

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..errors import FormatError
from .text import LineNumbers, from_numpy, parse_floats, read_bytes, split_columns, to_numpy
from .trec import RUN_COLUMNS, Qrels, Run, check_duplicates, read_qrels


def _lower(col: pa.ChunkedArray | pa.Array) -> pa.Array:
    arr = col.combine_chunks() if isinstance(col, pa.ChunkedArray) else col
    return pc.utf8_lower(arr)


def read_rbp_qrels(path: str | os.PathLike[str]) -> tuple[Qrels, bool, float]:
    """The qrels with ids in lower case, whether they are integral, and the largest label.

    Raises
    ------
    FormatError
        As :func:`~cwlkit.io.trec.read_qrels`, and when two lines judge the same document of a
        topic once ids are in lower case (rbp_eval: "duplicate relevance").
    """
    q = read_qrels(path)
    t = q.table
    t = t.set_column(t.schema.get_field_index("topic"), "topic", _lower(t.column("topic")))
    t = t.set_column(t.schema.get_field_index("doc"), "doc", _lower(t.column("doc")))
    folded = Qrels(t, q.lines, q.path)
    check_duplicates(folded.path, t, folded.lines, "qrels (ids in lower case)")
    dotted = pc.any(pc.match_substring(t.column("label_text"), ".")).as_py()
    labels = folded.labels
    max_label = float(labels.max()) if labels.size else 0.0
    return folded, not dotted, max_label


def read_rbp_run(
    path: str | os.PathLike[str], *, by_rank: bool = False
) -> tuple[Run, list[str], list[str]]:
    """The run with ids in lower case, its topics in file order, and rbp_eval's warnings.

    With ``by_rank`` the rank column is read as rbp_eval reads it (a non-negative integer,
    commas dropped) and the scores become ``-rank``: ranked by score, equal ranks tie.

    Raises
    ------
    FormatError
        As :func:`~cwlkit.io.trec.read_run` (NaN scores aside), and with ``by_rank`` for a rank
        that is not a non-negative integer.
    """
    data = read_bytes(path)
    table, lines = split_columns(path, data, RUN_COLUMNS, "topic Q0 document rank score tag")
    del data
    score_text = table.column("score_text")
    scores = parse_floats(path, score_text, lines, "the score", finite=False, allow_nan=True)
    topic = _lower(table.column("topic"))
    raw_doc = table.column("doc")
    doc = _lower(raw_doc)
    notes: list[tuple[int, int, str]] = []  # (row, order within the line, message)
    for i in np.flatnonzero(np.isnan(scores)).tolist():
        notes.append(
            (
                i,
                0,
                f"score for qid {topic[i].as_py()}, docid {raw_doc[i].as_py()}, on line "
                f"{int(lines[i])} of run file is NaN, converting to 0.0",
            )
        )
    scores = np.where(np.isnan(scores), 0.0, scores)
    tags = table.column("tag").combine_chunks()
    changed = np.flatnonzero(to_numpy(pc.not_equal(tags, tags[0])))
    if changed.size:
        i = int(changed[0])
        notes.append(
            (
                i,
                2,
                f"runid changes on line {int(lines[i])} of run file: was "
                f"'{tags[0].as_py()}', is now '{tags[i].as_py()}'",
            )
        )
    rank_text = table.column("rank").combine_chunks()
    commas = to_numpy(pc.match_substring(rank_text, ","))
    if commas.any():  # rbp_eval reads the ranks whatever the order
        i = int(np.flatnonzero(commas)[0])
        notes.append((i, 1, f"comma(s) in rank on line {int(lines[i])} of run file, stripping"))
    if by_rank:
        rank_text = pc.replace_substring(rank_text, ",", "")
        ranks = _ranks(path, rank_text, lines)
        rank_text = pc.cast(pa.array(ranks), pa.string())  # "+5", "05": what the batch reads
        scores = -ranks.astype(np.float64)
    run = Run(
        pa.table(
            {
                "topic": topic,
                "q0": table.column("q0"),
                "doc": doc,
                "rank": rank_text,
                "score_text": score_text,
                "tag": tags,
                "score": from_numpy(scores),
            }
        ),
        lines,
        str(path),
    )
    topics = [str(x) for x in pc.unique(topic).to_pylist()]
    return run, topics, [msg for _, _, msg in sorted(notes)]


def _ranks(path: str | os.PathLike[str], rank_text: pa.Array, lines: LineNumbers) -> np.ndarray:
    """The rank column as non-negative integers (rbp_eval's ``int(rank)``)."""
    try:
        out = to_numpy(pc.cast(rank_text, pa.int64()))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        out = np.empty(len(rank_text), dtype=np.int64)
        for i, s in enumerate(rank_text.to_pylist()):
            try:
                out[i] = int(s)
            except ValueError:
                out[i] = -1
    bad = np.flatnonzero(out < 0)
    if bad.size:
        i = int(bad[0])
        raise FormatError(
            path,
            int(lines[i]),
            f"expected a non-negative integer rank, got {rank_text[i].as_py()!r}",
        )
    return out


def qrels_topics(qrels: Qrels) -> set[str]:
    """The topics the qrels judge."""
    return {str(x) for x in pc.unique(qrels.table.column("topic")).to_pylist()}
