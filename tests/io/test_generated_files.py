"""Generated bad files at every reader and every subcommand that reads them: only
:class:`cwlkit.errors.CwlkitError` subclasses come out of the readers (a FormatError naming
the file and line where a line is at fault), and a subcommand either succeeds or prints one
line on stderr, nothing on stdout, and exits 2: never a traceback, never output followed by
an error.

The lines are drawn from tokens that readers meet in real files and from tokens that break
them (huge, non-finite and non-ASCII numbers, empty fields, comment marks, stray columns).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cwlkit.errors import CwlkitError
from cwlkit.io import costs, diversity, letor, prefs, rbp_eval, topic_values, trec

TOKENS = [
    "1",
    "2",
    "0",
    "-1",
    "Q0",
    "d1",
    "d2",
    "tag",
    "0.5",
    "1e400",
    "-1e400",
    "nan",
    "inf",
    "9223372036854775808",
    "9007199254740993",
    "5e-1",
    "x",
    "#",
    "qid:1",
    "1:0.5",
    "#docid",
    "=",
    "é",
    "1,000",
    "",
]
SEP = st.sampled_from(["\n", "\r\n", "\t\n"])
TOPIC = st.sampled_from(["1", "2", "301"])
DOC = st.sampled_from(["d1", "d2", "d3", "clueweb09-en0000-00-00000"])
LABEL = st.sampled_from(["0", "1", "2", "-2", "4"])
SCORE = st.sampled_from(["1.5", "0", "-3", "2e-3", "7"])
RANK = st.sampled_from(["1", "2", "3"])
NUM = st.sampled_from(["0.5", "0.25", "1", "0"])
# a valid line of each file kind, as a list of fields
SHAPES: dict[str, Any] = {
    "qrels": st.tuples(TOPIC, st.just("0"), DOC, LABEL),
    "run": st.tuples(TOPIC, st.just("Q0"), DOC, RANK, SCORE, st.just("tag")),
    "costs": st.tuples(st.sampled_from(["E0.2", "E1", "E2"]), NUM),
    "diversity": st.tuples(TOPIC, st.sampled_from(["1", "2"]), DOC, LABEL),
    "prefs": st.tuples(TOPIC, st.just("jg1"), st.just("s1"), DOC, LABEL),
    "values": st.tuples(TOPIC, NUM),
    "zscores": st.tuples(TOPIC, st.sampled_from(["P_10", "map"]), NUM, NUM),
    "letor": st.tuples(
        LABEL, st.sampled_from(["qid:1", "qid:2"]), st.just("1:0.5"), st.just("2:0.25")
    ),
    "letor results": st.tuples(st.sampled_from(["P@1", "MAP", "qid"]), NUM, NUM),
}


@st.composite
def _mutated(draw, shape):
    """A valid line, then (for about half the lines) one field replaced by a token that
    readers meet in bad files, a field dropped, or a field added."""
    fields = list(draw(shape))
    how = draw(st.sampled_from(["keep", "keep", "replace", "drop", "add"]))
    where = draw(st.integers(0, len(fields) - 1))
    token = draw(st.sampled_from(TOKENS))
    if how == "replace":
        fields[where] = token
    elif how == "drop":
        del fields[where]
    elif how == "add":
        fields.insert(where, token)
    return " ".join(fields)


def _file(kind: str):
    return st.tuples(st.lists(_mutated(SHAPES[kind]), min_size=0, max_size=6), SEP).map(
        lambda t: t[1].join(t[0]) + (t[1] if t[0] else "")
    )


def _letor(path: str) -> Any:
    feats = letor.read_features(path)
    return letor.read_predictions(path, feats)


# reader: (function, the kind of file it reads)
READERS: dict[str, tuple[Callable[[str], Any], str]] = {
    "read_qrels": (trec.read_qrels, "qrels"),
    "read_run": (trec.read_run, "run"),
    "read_run extra": (lambda p: trec.read_run(p, extra=True), "run"),
    "read_zscores": (trec.read_zscores, "zscores"),
    "read_costs": (costs.read_costs, "costs"),
    "read_doc_costs": (costs.read_doc_costs, "values"),
    "read_diversity_qrels": (diversity.read_diversity_qrels, "diversity"),
    "read_features and predictions": (_letor, "letor"),
    "read_letor_results": (letor.read_letor_results, "letor results"),
    "read_prefs": (prefs.read_prefs, "prefs"),
    "read_qrels_prefs": (prefs.read_qrels_prefs, "qrels"),
    "read_qrels_jg": (prefs.read_qrels_jg, "qrels"),
    "read_rbp_qrels": (rbp_eval.read_rbp_qrels, "qrels"),
    "read_rbp_run": (lambda p: rbp_eval.read_rbp_run(p, by_rank=True), "run"),
    "read_topic_values": (topic_values.read_topic_values, "values"),
}


def _check_reader(read: Callable[[str], Any], path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            read(str(path))
        except CwlkitError:
            pass


def _readers(reader: str, folder: Path, examples: int) -> None:
    read, kind = READERS[reader]

    @settings(max_examples=examples, deadline=None, derandomize=True)
    @given(_file(kind))
    def run(text):
        _check_reader(read, folder / "f.txt", text)

    run()


@pytest.mark.parametrize("reader", list(READERS))
def test_readers_raise_own_errors(reader, tmp_path):
    _readers(reader, tmp_path, 25)


@pytest.mark.slow
@pytest.mark.parametrize("reader", list(READERS))
def test_readers_raise_own_errors_many(reader, tmp_path):
    _readers(reader, tmp_path, 150)


GOOD_QRELS = "1 0 d1 1\n1 0 d2 0\n"
GOOD_RUN = "1 Q0 d1 1 2.0 r\n1 Q0 d2 2 1.0 r\n"

# (subcommand and options, which file the generated text replaces)
COMMANDS = [
    (["evaluate", "{q}", "{r}", "-m", "AP", "nDCG@10", "RBP"], "q"),
    (["evaluate", "{q}", "{r}", "-m", "AP", "nDCG@10", "RBP"], "r"),
    (["trec_eval", "{q}", "{r}"], "q"),
    (["trec_eval", "{q}", "{r}"], "r"),
    (["cwl", "{q}", "{r}"], "q"),
    (["cwl", "{q}", "{r}"], "r"),
    (["gdeval", "{q}", "{r}"], "r"),
    (["ndeval", "{q}", "{r}"], "q"),
    (["inst_eval", "{q}", "{r}", "-T", "2"], "r"),
    (["rbp_eval", "{q}", "{r}"], "q"),
    (["compare", "{q}", "{r}", "{r}", "-m", "AP"], "r"),
    (["pool", "{r}", "-d", "5"], "r"),
]


def _check_command(cli, args: list[str], which: str, folder: Path, text: str) -> None:
    files = {"q": folder / "q.txt", "r": folder / "r.txt"}
    files["q"].write_text(GOOD_QRELS)
    files["r"].write_text(GOOD_RUN)
    files[which].write_text(text, encoding="utf-8")
    argv = [a.format(q=files["q"], r=files["r"]) for a in args]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rc, out, err = cli(*argv)
    if rc != 0:
        assert rc == 2, (argv, text, err)
        assert out == "", (argv, text, out, err)
        assert err.count("\n") <= 1 and "Traceback" not in err, (argv, text, err)


def _commands(cli, args: list[str], which: str, folder: Path, examples: int) -> None:
    @settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.function_scoped_fixture],
    )
    @given(_file("qrels" if which == "q" else "run"))
    def run(text):
        _check_command(cli, args, which, folder, text)

    run()


IDS = [f"{c[0][0]}-{c[1]}" for c in COMMANDS]


@pytest.mark.parametrize(("args", "which"), COMMANDS, ids=IDS)
def test_commands_give_one_line_or_output(cli, args, which, tmp_path):
    _commands(cli, args, which, tmp_path, 10)


@pytest.mark.slow
@pytest.mark.parametrize(("args", "which"), COMMANDS, ids=IDS)
def test_commands_give_one_line_or_output_many(cli, args, which, tmp_path):
    _commands(cli, args, which, tmp_path, 50)
