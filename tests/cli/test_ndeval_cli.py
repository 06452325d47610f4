"""``cwlkit ndeval`` against ndeval itself, byte for byte.

The reference is ndeval.c version 4.5's own ``main``: pyndeval compiles ndeval.c into its
extension module (``_pyndeval``), and ``main`` is exported there, so each reference run calls
it through ctypes in a fresh process (ndeval keeps its options in static variables) with the
command line given. Cases: the default rank order and ``-traditional`` (score, ties by docno)
on runs with many tied scores, ``-c``, ``-alpha``/``-beta`` across [0, 1] (including
``-alpha 0 -beta 1``, where ndeval prints ``-nan``), ``-M``, risk-sensitive ``-baseline`` with
and without ``-riskAlpha`` and ``-c``, topics only in the qrels, only in the run or only in the
baseline, topics without a relevant judgement (``-nan``), unjudged documents, run topics with
a task prefix (``wt09-3``), ids with leading zeros, lines in random order.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from conftest import NDEVAL

pytest.importorskip("pyndeval")


def ndeval(*args) -> tuple[int, str]:
    """ndeval 4.5's main (from pyndeval's build of ndeval.c): (exit status, stdout)."""
    p = subprocess.run(
        [sys.executable, "-c", NDEVAL, *map(str, args)], capture_output=True, text=True
    )
    return p.returncode, p.stdout


def write_case(d, seed: int, *, topics: int = 14, depth: int = 60, pool: int = 80, subs=8):
    """Diversity qrels, a run and a baseline in ``d`` (ndeval's formats: numeric topics,
    subtopics and labels). Returns the three paths."""
    rng = np.random.default_rng(seed)
    q, runs = [], {"run": [], "base": []}
    for t in range(1, topics + 1):
        docs = list(dict.fromkeys(f"d{t}-{rng.integers(0, 10**6)}" for _ in range(pool)))
        if rng.random() < 0.85:
            numbers = rng.choice(
                np.arange(1, 16), size=int(rng.integers(1, subs + 1)), replace=False
            )
            nothing = rng.random() < 0.1
            for doc in docs[: int(len(docs) * 0.7)]:
                for s in numbers.tolist():
                    if rng.random() < 0.5:
                        lab = 0 if nothing else int(rng.choice([0, 0, 1, 1, 2, 3]))
                        q.append(f"{t} {s} {doc} {lab}\n")
        for name in runs:
            if rng.random() < 0.85:
                cand = docs + [f"u{t}-{i}" for i in range(20)]
                n = int(rng.integers(1, min(depth, len(cand)) + 1))
                chosen = rng.choice(len(cand), size=n, replace=False)
                scores = np.round(rng.normal(size=n), 1)
                ranks = rng.permutation(n) + 1
                runs[name] += [
                    f"{t} Q0 {cand[c]} {k} {s} {name}{seed}\n"
                    for c, s, k in zip(chosen, scores, ranks, strict=True)
                ]
    paths = []
    for name, lines in (("qrels", q), ("run", runs["run"]), ("base", runs["base"])):
        order = rng.permutation(len(lines))
        p = d / f"{name}{seed}"
        p.write_text("".join(lines[i] for i in order))
        paths.append(p)
    return paths


OPTIONS = [
    [],
    ["-c"],
    ["-traditional"],
    ["-alpha", "0.3"],
    ["-alpha", "0.7", "-beta", "0.9", "-traditional"],
    ["-alpha", "1", "-beta", "0"],
    ["-alpha", "0", "-beta", "1"],
    ["-alpha", "0.123", "-beta", "0.99", "-c", "-traditional"],
    ["-M", "7"],
    ["-c", "-M", "3", "-traditional"],
    ["-baseline", "{base}", "-riskAlpha", "2"],
    ["-c", "-baseline", "{base}", "-riskAlpha", "0.5"],
    ["-baseline", "{base}"],
    ["-traditional", "-c", "-baseline", "{base}", "-riskAlpha", "1.0"],
    ["-riskAlpha", "3"],
    ["-ca"],
]


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("opts", OPTIONS, ids=[" ".join(o) or "default" for o in OPTIONS])
def test_same_bytes_as_ndeval(cli, tmp_path, seed, opts):
    qrels, run, base = write_case(tmp_path, seed)
    args = [o.format(base=base) for o in opts] + [qrels, run]
    rc, want = ndeval(*args)
    assert rc == 0
    code, got, err = cli("ndeval", *args)
    assert (code, err) == (0, "")
    assert got == want
    lines = want.splitlines()
    assert lines[-1].split(",")[1] == "amean" and all(len(x.split(",")) == 23 for x in lines)


def test_deep_runs_and_many_subtopics(cli, tmp_path):
    """Longer rankings (NRBP and MAP-IA run to the end) and up to 12 subtopics."""
    for seed in (21, 22):
        qrels, run, _ = write_case(tmp_path, seed, topics=30, depth=400, pool=250, subs=12)
        for opts in ([], ["-alpha", "0.3", "-beta", "0.95", "-traditional"]):
            rc, want = ndeval(*opts, qrels, run)
            code, got, _ = cli("ndeval", *opts, qrels, run)
            assert rc == code == 0 and got == want


def test_ndeval_topic_conventions(cli, tmp_path):
    """Run topics with a task prefix (``wt09-2``) and leading zeros are ndeval's numbers; a
    qrels topic without a relevant judgement prints ``-nan`` as nNRBP, and so does the mean;
    a run topic the qrels lack prints zeros and is left out of the mean."""
    (tmp_path / "q").write_text("1 1 A 1\n1 2 B 1\n1 2 D 1\n01 3 C 2\n2 1 X 0\n3 1 A 2\n")
    (tmp_path / "r").write_text(
        "wt09-1 Q0 A 1 9.3 tagA\n1 Q0 D 2 8.4 tagA\nwt09-1 Q0 E 3 8.1 tagA\n"
        "001 Q0 B 4 7.6 tagA\n2 Q0 X 1 5 tagB\nwt09-3 Q0 Z 1 5 tagB\n4 Q0 Z 1 5 tagB\n"
    )
    for opts in ([], ["-c"], ["-traditional"]):
        rc, want = ndeval(*opts, tmp_path / "q", tmp_path / "r")
        code, got, _ = cli("ndeval", *opts, tmp_path / "q", tmp_path / "r")
        assert rc == code == 0 and got == want
    rows = got.splitlines()
    assert [r.split(",")[1] for r in rows[1:]] == ["1", "2", "3", "4", "amean"]
    assert rows[2].split(",")[15] == "-nan" and rows[-1].split(",")[15] == "-nan"
    assert rows[0].startswith("runid,topic,ERR-IA@5,ERR-IA@10,ERR-IA@20,nERR-IA@5")
    assert all(r.startswith("tagA,") for r in rows[1:])  # the first line's tag


def test_errors(cli, tmp_path):
    qrels, run, _ = write_case(tmp_path, 5, topics=3)
    lines = run.read_text().splitlines()
    t, _, doc, rank = lines[0].split()[:4]
    dup = tmp_path / "dup"
    dup.write_text(run.read_text() + f"{t} Q0 other-doc {rank} 0.0 x\n")
    assert ndeval(qrels, dup)[0] != 0  # ndeval: duplicate rank
    code, out, err = cli("ndeval", qrels, dup)
    assert code == 2 and out == ""
    assert f"rank {rank} appears twice for topic '{t}'" in err and "-traditional" in err
    assert cli("ndeval", "-traditional", qrels, dup)[0] == 0  # ranked by score: no clash
    for bad, says in (
        (["-alpha", "1.5"], "-alpha must be in [0, 1]"),
        (["-beta", "x"], "-beta must be a number"),
        (["-M", "0"], "-M must be a positive integer"),
        (["-riskAlpha", "-1"], "-riskAlpha must be >= 0"),
        (["-z"], "unrecognized arguments"),
    ):
        code, _, err = cli("ndeval", *bad, qrels, run)
        assert code == 2 and says in err, (bad, err)
    code, out, _ = cli("ndeval", "-version")
    assert code == 0 and "version 4.5" in out


def test_lean_and_listed(cli, tmp_path):
    """``cwlkit ndeval`` imports neither pandas nor scipy; the measures are listed by any of
    their names; the API names are public."""
    import cwlkit
    from cwlkit.formats.ndeval import ndeval_report

    qrels, run, base = write_case(tmp_path, 9, topics=4)
    code = (
        "import io, sys, contextlib\n"
        "from cwlkit.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    rc = main(sys.argv[1:])\n"
        "assert rc == 0, rc\n"
        "print('pandas' in sys.modules, 'scipy' in sys.modules)\n"
    )
    args = ["ndeval", "-c", "-baseline", base, qrels, run]
    got = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)], capture_output=True, text=True, check=True
    )
    assert got.stdout.split() == ["False", "False"], got.stderr
    for name in ("alpha-nDCG", "alpha_nDCG@20", "MAP-IA", "strec"):
        code, out, _ = cli("measures", name)
        assert code == 0 and "ir_measures:" in out
    rep = ndeval_report(cwlkit.read_diversity_qrels(qrels), run)
    assert isinstance(cwlkit.as_diversity_qrels(qrels), cwlkit.DiversityQrels)
    assert rep.values.shape == (len(rep.topics), 21)
