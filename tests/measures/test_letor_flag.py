"""LETOR: the seed's FLAG rule, the scripts' check under ``--strict-flag``, and NDCG2.

The seed (002, "The Evaluation Tool in LETOR") says of Eval-Score's and Eval-Rank's fourth
argument: "If flag is '1', the evaluation tool will output per-query evaluation results;
otherwise it will output the average evaluation results." The Perl scripts (Eval-Score-3.0.pl
and Eval-Score-4.0.pl) instead stop with "Flag should be 0 or 1" unless the flag is
numerically 0 or 1. cwlkit follows the seed; ``--strict-flag`` is the scripts' check.

Compared against the seed's words (read from the seed file) and the files the Perl scripts
wrote (``data/letor/expected``, flags 0 and 1).
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from conftest import DATA, REPO, read_data

from cwlkit.errors import UnknownMeasureError
from cwlkit.formats.letor import evaluate_letor_files

LETOR = DATA / "letor"
SEED = REPO / "tests" / "fixtures" / "seed002_letor_flag.txt"  # the seed's two flag paragraphs
FEAT = {
    "4.0": LETOR / "MQ2008.Fold1.test.lf.txt.gz",
    "3.0": LETOR / "MQ2008.Fold1.test.letor3.txt.gz",
}
PRED = LETOR / "MQ2008.Fold1.test.pred.linear.txt"
EXPECTED = {"4.0": "EvalScore4", "3.0": "EvalScore3"}


def _expected(version: str, flag: int) -> bytes:
    return (
        LETOR / "expected" / f"MQ2008.Fold1.test.linear.{EXPECTED[version]}.flag{flag}.txt"
    ).read_bytes()


def _seed() -> str:
    return re.sub(r"\s+", " ", SEED.read_text(encoding="utf-8"))


def test_the_seed_says_1_is_per_query_and_anything_else_the_averages():
    text = _seed()
    rule = (
        "If flag is '1', the evaluation tool will output per-query evaluation results; "
        "otherwise it will output the average evaluation results."
    )
    assert text.count(rule) == 2  # Eval-Score.pl and Eval-Rank.pl


@pytest.mark.parametrize("version", ["4.0", "3.0"])
@pytest.mark.parametrize("flag", ["1", "1.0", "01", " 1"])
def test_a_flag_of_1_writes_the_per_query_file(cli, tmp_path, version, flag):
    out = tmp_path / "out.txt"
    rc, stdout, err = cli("letor", "score", FEAT[version], PRED, out, flag, "--version", version)
    assert (rc, stdout, err) == (0, "", "")
    assert out.read_bytes() == _expected(version, 1)


@pytest.mark.parametrize("version", ["4.0", "3.0"])
@pytest.mark.parametrize("flag", ["0", "2", "-1", "10", "yes", "", "0.5", "1abc", "nan"])
def test_any_other_flag_writes_the_averages(cli, tmp_path, version, flag):
    """The seed's "otherwise": the Perl scripts' flag-0 file, byte for byte."""
    out = tmp_path / "out.txt"
    rc, stdout, err = cli("letor", "score", FEAT[version], PRED, out, flag, "--version", version)
    assert (rc, stdout, err) == (0, "", "")
    assert out.read_bytes() == _expected(version, 0)


def test_eval_rank_follows_the_same_rule(cli, tmp_path):
    ranks = tmp_path / "ranks.txt"
    # the file order is a valid ranking: each query's documents numbered 1..n in line order
    qids = [ln.split()[1] for ln in read_data(FEAT["4.0"]).splitlines()]
    seen: dict[str, int] = {}
    lines = []
    for q in qids:
        seen[q] = seen.get(q, 0) + 1
        lines.append(str(seen[q]))
    ranks.write_text("\n".join(lines) + "\n")
    outs = {}
    for flag in ("0", "1", "2"):
        rc, stdout, err = cli("letor", "rank", FEAT["4.0"], ranks, "-", flag)
        assert rc == 0 and err == ""
        outs[flag] = stdout
    assert outs["2"] == outs["0"] != outs["1"]
    assert "Average" in outs["2"] and outs["2"].count("\n") == 6


@pytest.mark.parametrize("flag", ["2", "-1", "0.5", "nan", "inf"])
def test_strict_flag_is_the_scripts_check(cli, tmp_path, flag):
    """``if($flag != 1 && $flag != 0)``: "Flag should be 0 or 1", nothing written."""
    out = tmp_path / "out.txt"
    rc, stdout, err = cli("letor", "score", FEAT["4.0"], PRED, out, flag, "--strict-flag")
    assert rc == 2 and stdout == "" and not out.exists()
    assert "FLAG must be 1" in err and "Flag should be 0 or 1" in err


@pytest.mark.parametrize(
    "flag,want",
    [("0", 0), ("1", 1), ("1.0", 1), ("abc", 0), ("", 0), ("1abc", 1), ("0x1", 0), (" +1", 1)],
)
def test_strict_flag_reads_the_flag_as_perl_does(cli, tmp_path, flag, want):
    """Perl compares the flag as a number: ``abc`` is 0 (averages), ``1abc`` is 1."""
    out = tmp_path / "out.txt"
    rc, _, err = cli(
        "letor", "score", FEAT["3.0"], PRED, out, flag, "--strict-flag", "--version", "3.0"
    )
    assert rc == 0, err
    assert out.read_bytes() == _expected("3.0", want)


# ---------------------------------------------------------------------------------- NDCG2


def test_the_seed_names_ndcg2_but_defines_three_measures():
    """ "P@N, MAP, NDCG and NDCG2 ... the definitions of these four metrics", yet the section
    has three definitions (P@n, MAP, NDCG) and NDCG2 appears nowhere else."""
    text = _seed()
    assert "P@N, MAP, NDCG and NDCG2" in text
    assert "definitions of these four metrics" in text
    assert text.count("NDCG2") == 1
    section = text.split("3. Evaluation Metrics", 1)[1].split("4. Additional Note", 1)[0]
    headings = re.findall(
        r"### (Precision at position|Mean average precision|Normalized discount)", section
    )
    assert headings == ["Precision at position", "Mean average precision", "Normalized discount"]


def test_no_script_output_has_an_ndcg2():
    """The Perl scripts' files print P@n, MAP, NDCG@n (and, 4.0, MeanNDCG): no NDCG2."""
    for version in ("4.0", "3.0"):
        for flag in (0, 1):
            text = _expected(version, flag).decode()
            assert "NDCG2" not in text
    header = _expected("4.0", 0).decode().splitlines()
    names = {n for line in header if line.startswith("qid") for n in line.split("\t")[1:]}
    assert names == {f"P@{k}" for k in range(1, 11)} | {f"NDCG@{k}" for k in range(1, 11)} | {
        "MAP",
        "MeanNDCG",
    }


def test_the_seeds_one_ndcg_is_the_scripts_ndcg(tmp_path):
    """N(n) = Z_n sum_j (2^r(j) - 1) / (1 if j = 1 else log(j)), log base 2 (log2(2) = 1, so
    rank 2 is undiscounted too), Z_n making the perfect list 1: cwlkit's NDCG@n."""
    labels = [1, 0, 2, 2, 0, 1, 0, 0, 2, 1]
    rows = [f"{lab} qid:7 1:0.5 #docid = D{i} inc = 1 prob = 0.5" for i, lab in enumerate(labels)]
    (tmp_path / "f.txt").write_text("\n".join(rows) + "\n")
    (tmp_path / "p.txt").write_text("\n".join(str(10 - i) for i in range(10)) + "\n")
    s = evaluate_letor_files(tmp_path / "f.txt", tmp_path / "p.txt", version="4.0")

    def dcg(rs: list[int], n: int) -> float:
        return sum((2**r - 1) / (1.0 if j == 1 else np.log2(j)) for j, r in enumerate(rs[:n], 1))

    ideal = sorted(labels, reverse=True)
    want = [dcg(labels, n) / dcg(ideal, n) for n in range(1, 11)]
    np.testing.assert_allclose(list(s.per_topic("LETOR_NDCG@1").values()), [want[0]], rtol=1e-15)
    got = [s.per_topic(f"LETOR_NDCG@{n}")["7"] for n in range(1, 11)]
    np.testing.assert_allclose(got, want, rtol=1e-14)


def test_ndcg2_is_not_a_measure_name():
    """cwlkit does not guess a definition the seed does not give (docs/letor.md, NDCG2)."""
    import cwlkit

    for name in ("NDCG2", "LETOR_NDCG2"):
        with pytest.raises(UnknownMeasureError):
            cwlkit.Evaluator(cwlkit.example("qrels"), [name])
