"""TREC qrels and run files, read into columns.

Qrels lines are ``topic iteration document label`` (label: integer, negative or fractional).
Run lines are ``topic Q0 document rank score tag`` (the ``Q0`` column is the element type that
cwl_eval's cost files key on; trec_eval ignores it and the rank column). Fields are separated by
any run of blanks; lines of a topic may be anywhere in the file; gzip is detected from the
file's first bytes; ``-`` reads standard input. Duplicate documents within a topic are an error
in both files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from ..errors import FormatError
from .rules import ReadRules, reading_rules
from .text import (
    INDENTED,
    LineNumbers,
    first_duplicate,
    from_numpy,
    from_strings,
    last_field,
    parse_floats,
    read_bytes,
    read_text,
    split_columns,
    to_numpy,
)

if TYPE_CHECKING:
    from .joint import JudgedByTopic

QRELS_COLUMNS = ("topic", "iter", "doc", "label_text")


class _Coded:
    """Integer codes of the topic and document columns, computed once and cached."""

    table: pa.Table
    memo: dict

    #: encode documents topic block by topic block (the dictionary may then repeat a string
    #: that occurs in several topics; within a topic, equal strings share a code)
    _per_topic_docs: bool = False

    def topic_codes(self) -> tuple[np.ndarray, pa.Array]:
        """(topic codes, topic dictionary); codes are int64."""
        got = self.memo.get("topics")
        if got is None:
            from .text import encode_runs

            got = self.memo["topics"] = encode_runs(self.table.column("topic"))
        return got

    def codes(self) -> tuple[np.ndarray, pa.Array, np.ndarray, pa.Array]:
        """(topic codes, topic dictionary, doc codes, doc dictionary); codes are int64."""
        got = self.memo.get("codes")
        if got is None:
            from .text import encode, encode_blocks

            t, td = self.topic_codes()
            if self._per_topic_docs:
                d, dd = encode_blocks(self.table.column("doc"), t)
            else:
                (d,), dd = encode(self.table.column("doc"))
            got = (t, td, d, dd)
            self.memo["codes"] = got
        return got

    def check_codes(self) -> tuple[np.ndarray, pa.Array, np.ndarray, pa.Array]:
        """Codes for finding a document twice in a topic: :meth:`codes` when computed or
        encoded topic block by topic block, otherwise (not kept) document codes of each block
        of whole topics (equal strings of one topic share a code)."""
        if "codes" in self.memo or self._per_topic_docs:
            return self.codes()
        from .text import encode_blocks

        t, td = self.topic_codes()
        return (t, td, *encode_blocks(self.table.column("doc"), t))

    def release_codes(self) -> None:
        """Forget the cached codes (they are recomputed if asked for again): lets a one-shot
        caller free their memory once the batch is built."""
        self.memo.clear()


RUN_COLUMNS = ("topic", "q0", "doc", "rank", "score_text", "tag")


@dataclass(frozen=True, eq=False)
class Qrels(_Coded):
    """Relevance judgements as columns.

    Attributes
    ----------
    table : pyarrow.Table
        Columns ``topic``, ``iter``, ``doc``, ``label_text`` (strings) and ``label`` (float64).
    lines : numpy.ndarray or LazyLines
        1-based line number in ``path`` of each row.
    path : str
        Where the judgements came from (for messages).
    """

    table: pa.Table
    lines: LineNumbers
    path: str = "<qrels>"
    memo: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return self.table.num_rows

    @property
    def labels(self) -> np.ndarray:
        """The labels as float64."""
        return to_numpy(self.table.column("label"))

    def by_topic(self) -> JudgedByTopic:
        """The rows grouped by topic, for encoding runs with them (cached)."""
        got = self.memo.get("by_topic")
        if got is None:
            from .joint import JudgedByTopic

            t, td = self.topic_codes()
            got = JudgedByTopic.of(t, td, self.table.column("doc").combine_chunks())
            self.memo["by_topic"] = got
        return got

    @classmethod
    def from_records(cls, records: list[tuple[str, str, float]], path: str = "<qrels>") -> Qrels:
        """Build from ``(topic, doc, label)`` tuples (for tests and the API)."""
        topics, docs, labels = zip(*records, strict=True) if records else ((), (), ())
        labels_f = np.asarray(labels, dtype=np.float64)
        table = pa.table(
            {
                "topic": from_strings([str(t) for t in topics]),
                "iter": from_strings(["0"] * len(topics)),
                "doc": from_strings([str(d) for d in docs]),
                "label_text": from_strings([repr(x) for x in labels]),
                "label": from_numpy(labels_f),
            }
        )
        return cls(table, np.arange(1, len(topics) + 1, dtype=np.int64), path)


@dataclass(frozen=True, eq=False)
class Run(_Coded):
    """A ranked result list as columns.

    Attributes
    ----------
    table : pyarrow.Table
        Columns ``topic``, ``q0``, ``doc``, ``rank``, ``score_text``, ``tag`` (strings) and
        ``score`` (float64).
    lines : numpy.ndarray or LazyLines
        1-based line number in ``path`` of each row.
    path : str
        Where the run came from (for messages).
    """

    table: pa.Table
    lines: LineNumbers
    path: str = "<run>"
    memo: dict = field(default_factory=dict, repr=False, compare=False)
    _per_topic_docs = True

    def __len__(self) -> int:
        return self.table.num_rows

    @property
    def runid(self) -> str:
        """The tag of the last line (trec_eval's convention)."""
        return str(self.table.column("tag")[-1].as_py()) if self.table.num_rows else ""

    def encode_with(self, qrels: Qrels) -> None:
        """Encode the documents together with the judged documents of their topics (see
        :mod:`cwlkit.io.joint`): the codes, and the qrels row judging each row (for
        :func:`cwlkit.core.batch.build_batch`, which then looks no string up again). Kept
        as they are when the codes are already computed, when a topic's rows are not
        contiguous, or when the qrels of the run's topics are several times the run."""
        if "codes" in self.memo:
            return
        from .joint import joint_encode

        t, td = self.topic_codes()
        got = joint_encode(t, td, self.table.column("doc").combine_chunks(), qrels.by_topic())
        if got is not None:
            self.memo["codes"] = (t, td, got[0], got[1])
            self.memo["qrels_rows"] = (qrels.table, got[2])

    def qrels_rows(self, qrels: Qrels) -> np.ndarray | None:
        """int64, the row of ``qrels`` judging each row's (topic, document), -1 where none
        does; None unless the run was encoded with these qrels (:meth:`encode_with`)."""
        got = self.memo.get("qrels_rows")
        return got[1] if got is not None and got[0] is qrels.table else None

    def to_dict(self) -> dict[str, dict[str, float]]:
        """The run as a pytrec_eval dict ``{topic: {doc: score}}`` (topics and documents in
        the order of the rows)."""
        topics = self.table.column("topic").to_pylist()
        docs = self.table.column("doc").to_pylist()
        scores = self.table.column("score").to_numpy().tolist()
        out: dict[str, dict[str, float]] = {}
        for t, d, s in zip(topics, docs, scores, strict=True):
            inner = out.get(t)
            if inner is None:
                inner = out[t] = {}
            inner[d] = s
        return out

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the run as a TREC run file (``topic Q0 document rank score tag``, the rows
        in their order; the score as its shortest round-trip text)."""
        import pyarrow.csv as pacsv

        from ..support import compute as pc

        cols = ["topic", "q0", "doc", "rank", "score", "tag"]
        names = self.table.column_names
        table = pa.table(
            {
                c: pc.cast(
                    self.table.column("score" if c == "score" else c).combine_chunks()
                    if c in names or c == "score"
                    else pa.array(["Q0"] * self.table.num_rows),
                    pa.string(),
                )
                for c in cols
            }
        )
        options = pacsv.WriteOptions(include_header=False, delimiter=" ", quoting_style="none")
        pacsv.write_csv(table, str(path), options)

    @classmethod
    def from_records(
        cls, records: list[tuple[str, str, float]], path: str = "<run>", tag: str = "run"
    ) -> Run:
        """Build from ``(topic, doc, score)`` tuples, rank = position within its topic."""
        topics, docs, scores = zip(*records, strict=True) if records else ((), (), ())
        seen: dict[str, int] = {}
        ranks = []
        for t in topics:
            seen[t] = seen.get(t, 0) + 1
            ranks.append(str(seen[t]))
        n = len(topics)
        table = pa.table(
            {
                "topic": from_strings([str(t) for t in topics]),
                "q0": from_strings(["Q0"] * n),
                "doc": from_strings([str(d) for d in docs]),
                "rank": from_strings(ranks),
                "score_text": from_strings([repr(float(s)) for s in scores]),
                "tag": from_strings([tag] * n),
                "score": from_numpy(np.asarray(scores, dtype=np.float64)),
            }
        )
        check_duplicates(path, table, np.arange(1, n + 1, dtype=np.int64), "run")
        return cls(table, np.arange(1, n + 1, dtype=np.int64), path)


def read_qrels(
    path: str | os.PathLike[str],
    *,
    rules: str | ReadRules | None = None,
    comments: bool | None = None,
) -> Qrels:
    """Read a TREC qrels file (``topic iteration document label``).

    Parameters
    ----------
    path : str or Path
        Plain or gzip file; ``-`` for standard input.
    rules : str or ReadRules, optional
        What a line may hold: a rule set of :data:`cwlkit.io.rules.RULES` (default
        ``"cwlkit"``; ``"trec_eval"`` reads labels as C's ``atol``).
    comments : bool, optional
        Skip lines starting with ``#`` (trec_eval 10.0 does; 9.0.8 does not); default: as
        ``rules`` say.

    Raises
    ------
    FormatError
        Empty file, a line without exactly 4 fields, a label that is not a finite number (by
        the rules' label syntax) or is beyond 2^53 in magnitude, or the same document judged
        twice for a topic.
    """
    r = reading_rules(rules)
    if comments is None:
        comments = r.qrels_comments
    data = read_text(path)
    table, lines = split_columns(
        path, data, QRELS_COLUMNS, "topic iteration document label", comments=comments
    )
    del data  # the columns hold what is needed: free the text before the next steps
    labels = r.parse_labels(path, table.column("label_text"), lines)
    table = table.append_column("label", from_numpy(labels))
    q = Qrels(table, lines, str(path))
    check_duplicates(path, table, lines, "qrels", q.check_codes())
    return q


def read_run(
    path: str | os.PathLike[str],
    *,
    rules: str | ReadRules | None = None,
    comments: bool | None = None,
    extra: bool | None = None,
    light: bool = False,
    qrels: Qrels | None = None,
) -> Run:
    """Read a TREC run file (``topic Q0 document rank score tag``).

    Parameters
    ----------
    path : str or Path
        Plain or gzip file; ``-`` for standard input.
    rules : str or ReadRules, optional
        What a line may hold: a rule set of :data:`cwlkit.io.rules.RULES` (default
        ``"cwlkit"``: exactly 6 fields, no comments).
    comments : bool, optional
        Skip lines whose first non-blank character is ``#`` (trec_eval 10.0 does; 9.0.8 does
        not); default: as ``rules`` say.
    extra : bool, optional
        Accept (and ignore) fields after the sixth, as trec_eval does; default: as ``rules``
        say.
    light : bool
        Keep only the ``topic``, ``doc``, ``tag`` and ``score`` columns (what trec_eval's
        measures read); ``q0``, ``rank`` and ``score_text`` are parsed but not kept, and
        ``tag`` holds the run's tag (the last line's, trec_eval's runid) on every row.
    qrels : Qrels, optional
        The judgements the run will be evaluated against: its documents are encoded together
        with theirs (see :meth:`Run.encode_with`); the same Run either way.

    Raises
    ------
    FormatError
        Empty file, a line without exactly 6 fields (at least 6 with ``extra``), a non-numeric
        score, or a document retrieved twice for one topic.
    """
    rr = reading_rules(rules)
    run_comments: bool | str = rr.run_comments if comments is None else comments
    if run_comments is True:
        run_comments = INDENTED  # (trec_eval 10.0's results reader)
    extra = rr.run_extra_fields if extra is None else extra
    data = read_text(path)
    table, lines = split_columns(
        path,
        data,
        RUN_COLUMNS,
        "topic Q0 document rank score tag",
        comments=run_comments,
        extra=extra,
        keep=("topic", "doc", "score_text") if light else None,
    )
    if light:  # (the run's tag, trec_eval's: the last line's, on every row)
        tag = last_field(data, RUN_COLUMNS.index("tag"), comments=bool(run_comments))
        zeros = from_numpy(np.zeros(table.num_rows, dtype=np.int8))
        tags = pa.DictionaryArray.from_arrays(zeros, from_strings([tag]))
    del data  # the columns hold what is needed: free the text before the next steps
    scores = parse_floats(path, table.column("score_text"), lines, "the score", finite=False)
    if light:
        table = table.drop_columns(["score_text"]).append_column("tag", tags)
    table = table.append_column("score", from_numpy(scores))
    r = Run(table, lines, str(path))
    if qrels is not None:
        r.encode_with(qrels)
    check_duplicates(path, table, lines, "run", r.codes())
    return r


def read_pair(
    qrels_path: str | os.PathLike[str],
    run_path: str | os.PathLike[str],
    *,
    rules: str | ReadRules | None = None,
    comments: bool | None = None,
    extra: bool | None = None,
    light: bool = False,
) -> tuple[Qrels, Run]:
    """Read a qrels file, then a run file, by the same ``rules``.

    Errors are raised as :func:`read_qrels` and :func:`read_run` raise them, the qrels' first.
    ``extra`` and ``light`` are passed to :func:`read_run`. (The two are read one after the
    other: pyarrow's CSV reader already uses every core, and reading both at once in two
    threads was slower on a 2-core machine and raised the peak memory.)
    """
    q = read_qrels(qrels_path, rules=rules, comments=comments)
    r = read_run(run_path, rules=rules, comments=comments, extra=extra, light=light, qrels=q)
    return q, r


def check_duplicates(
    path: str | os.PathLike[str], table: pa.Table, lines: LineNumbers, what: str, codes=None
) -> None:
    """Raise a FormatError if ``table`` holds a (topic, doc) pair twice, at the line of the
    first repeat in file order (``lines``: each row's line number; ``what`` names the file
    in the message; ``codes``: ``(topic codes, topic dictionary, doc codes, doc dictionary)``
    when already computed, as :meth:`Run.codes` gives them)."""
    if codes is None:
        from .text import encode

        (t,), _ = encode(table.column("topic"))
        (d,), dd = encode(table.column("doc"))
    else:
        t, _, d, dd = codes
    # only rows whose document code occurs more than once can repeat a (topic, doc) pair
    multi = (np.bincount(d, minlength=len(dd)) > 1)[d]
    if not multi.any():
        return
    rows = np.flatnonzero(multi)
    dup = first_duplicate(t[rows] * (len(dd) + 1) + d[rows])
    if dup is None:
        return
    first, second = (int(rows[i]) for i in dup)
    topic = table.column("topic")[second].as_py()
    doc = table.column("doc")[second].as_py()
    hint = ""
    if what == "qrels" and "iter" in table.column_names:
        it = table.column("iter")
        if it[first].as_py() != it[second].as_py():  # judged once per subtopic?
            hint = (
                "; if the second column is a subtopic (diversity qrels), evaluate an "
                "intent-aware measure (alpha_nDCG@20, ERR_IA@20...), which reads them so, or "
                "read them with cwlkit.read_diversity_qrels"
            )
    raise FormatError(
        path,
        int(lines[second]),
        f"document {doc!r} appears twice for topic {topic!r} in the {what} "
        f"(first at line {int(lines[first])}){hint}",
    )


ZSCORE_COLUMNS = ("topic", "measure", "mean_text", "sd_text")


def read_zscores(path: str | os.PathLike[str]) -> dict[tuple[str, str], tuple[float, float]]:
    """Read a trec_eval ``-Z`` file: lines ``topic measure mean stddev``.

    Returns ``{(topic, measure): (mean, stddev)}``; trec_eval prints ``(value - mean) /
    stddev`` for each. Blank lines are skipped; a line with another number of fields, or a
    mean or stddev that is not a number (``nan`` is one, as for C's ``strtod``), is a
    :class:`FormatError` naming the line.
    """
    data = read_bytes(path)
    table, lines = split_columns(path, data, ZSCORE_COLUMNS, "topic measure mean stddev")
    del data
    # trec_eval reads them with strtod: 'nan' and 'inf' are numbers (their z-scores are nan)
    mean = parse_floats(
        path, table.column("mean_text"), lines, "the mean", finite=False, allow_nan=True
    )
    sd = parse_floats(
        path, table.column("sd_text"), lines, "the standard deviation", finite=False, allow_nan=True
    )
    keys = zip(table.column("topic").to_pylist(), table.column("measure").to_pylist(), strict=True)
    return {k: (float(m), float(d)) for k, m, d in zip(keys, mean, sd, strict=True)}
