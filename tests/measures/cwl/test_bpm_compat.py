"""BPM-Dynamic: cwl_eval 1.0.12's numbers in compat mode, the model's K update in exact mode.

cwl_eval 1.0.12's ``BPMDCWLMetric`` applies the hc update to T, inside its cost loop, after
the gain loop has read T (``cwl_bpm.py:154``): K never moves and hc has no effect. cwlkit's
exact mode moves K as the model says (K_{i+1} = K_i + hc (g_i - gain_med)); its compat mode
(``cwlkit cwl --max-depth N``, ``Evaluator(compat_depth=N)``) keeps K fixed, as cwl_eval does.

Compared against:

* the cwl_eval paper's Tables 1 and 2 (the seed), topic T1, with the seed's metric line
  ``BPMDCWLMetric(1000,5)`` (hb = hc = 1 by default), printed to 4 decimals;
* the ``cwl-eval`` command on the same files;
* cwl_eval 1.0.12's ``BPMDCWLMetric`` class in process, on generated runs with an
  element-type cost file, for many (T, K, hb, hc, gain_med), residuals included, raw floats
  to 1e-12, at depths 1000, 50 and 5.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import numpy as np
import pytest
from conftest import EXAMPLE

import cwlkit
from cwlkit.measures.cwl import score_metric
from cwlkit.measures.cwl.bpm import BPMD

# the seed (cwl_eval paper), topic T1: EU ETU EC ETC ED
TABLE1_BPM = "0.3200 1.6000 1.0000 5.0000 5.0000"
TABLE2_BPM = "0.3200 1.6000 1.2800 6.4000 5.0000"
SEED_LINE = "BPMDCWLMetric(1000,5)"  # src/cwlkit/data/example.metrics
SEED_NAME = "BPM-Dynamic-T=1000-K=5-hb=1.0-hc=1.0"

T1_GAIN = [0.0, 0.0, 0.2, 0.4, 1.0, 0.2, 0.0, 0.0, 1.0, 0.0, 0.0, 0.4, 0.0, 0.0, 0.0]
T1_COST = [1.2, 0.6, 0.4, 0.6, 3.6, 1.6, 0.6, 2.6, 0.6, 0.6, 0.6, 0.6, 0.6, 0.6, 1.8]

# (T, K, hb, hc, gain_med) in cwl_eval's metrics-file syntax: hc != 0 everywhere but one
LINES = [
    "BPMDCWLMetric(1000,5)",
    "BPMDCWLMetric(2.0,5)",
    "BPMDCWLMetric(1,10)",
    "BPMDCWLMetric(2,3,0.5,1.0)",
    "BPMDCWLMetric(2,6,0.5,2.0,0.25)",
    "BPMDCWLMetric(1.5,4,1.0,-1.0,0.5)",
    "BPMDCWLMetric(3,8,0.0,3.0,0.1)",
    "BPMDCWLMetric(2,10.0,0.5,0.5)",
    "BPMDCWLMetric(1,4,1.0,0)",
]


def _rows(text: str) -> dict[tuple[str, str], str]:
    return {(f[0], f[1]): " ".join(f[2:7]) for f in (ln.split("\t") for ln in text.splitlines())}


def _example(costs: bool) -> list[Path]:
    args = [EXAMPLE / "example.qrels", EXAMPLE / "example.run"]
    return [*args, "-c", EXAMPLE / "example.costs"] if costs else args


# --------------------------------------------------------------------------------------------
# the seed's rows


@pytest.mark.parametrize("costs,want", [(False, TABLE1_BPM), (True, TABLE2_BPM)])
@pytest.mark.parametrize("line", [SEED_LINE, "BPMDCWLMetric(2.0,5)"])
def test_seed_tables_bpm_row_in_compat_mode(cli, costs, want, line):
    """Table 1 (no costs) and Table 2 (costs): the BPM-Dynamic row, with the seed's metric line
    (hc = 1, the default) and with T = 2.0, under ``--max-depth 1000``."""
    rc, out, err = cli(
        "cwl", *_example(costs), "-M", line, "--max-depth", "1000", "--order", "file"
    )
    assert rc == 0, err
    name = "BPM-Dynamic-T={}-K=5-hb=1.0-hc=1.0".format(line.split("(")[1].split(",")[0])
    assert _rows(out)[("T1", name)] == want


def test_seed_table1_bpm_row_through_the_api():
    res = cwlkit.evaluate(
        cwlkit.example("qrels"),
        cwlkit.example("run"),
        [SEED_LINE],
        topics="run",
        order="file",
        compat_depth=1000,
    )
    t1 = res.topics.index("T1")
    got = [res.values[0, t1], *(res.columns[c][0, t1] for c in ("ETU", "EC", "ETC", "ED"))]
    assert " ".join(f"{v:.4f}" for v in got) == TABLE1_BPM


def test_seed_table1_bpm_row_in_exact_mode_is_the_documented_departure(cli):
    """Exact mode, unit costs, T1: K_i = 5 + sum_{j<i}(g_j - 0.5) = 5, 4.5, 4.0, 3.7, so
    CC(4) = 4 >= 3.7 and the user stops at rank 4: EU = (0.2 + 0.4)/4 = 0.15, ED = 4. With the
    seed's costs (Table 2) CC = 1.2, 1.8, 2.2, 2.8, 6.4 against K = 5, 4.5, 4.0, 3.7, 3.6: the
    user stops at rank 5 in both modes, and the row is the seed's."""
    rc, out, _ = cli("cwl", *_example(False), "-M", SEED_LINE)
    assert _rows(out)[("T1", SEED_NAME)] == "0.1500 0.6000 1.0000 4.0000 4.0000"
    rc, out, _ = cli("cwl", *_example(True), "-M", SEED_LINE)
    assert _rows(out)[("T1", SEED_NAME)] == TABLE2_BPM
    g = np.array([T1_GAIN])
    exact = score_metric(BPMD(1000, 5, 1.0, 1.0), g, np.ones_like(g), np.array([15]))
    compat = score_metric(
        BPMD(1000, 5, 1.0, 1.0), g, np.ones_like(g), np.array([15]), max_depth=1000
    )
    assert (exact.ED[0], compat.ED[0]) == (4.0, 5.0)
    c = np.array([T1_COST])
    exact = score_metric(BPMD(1000, 5, 1.0, 1.0), g, c, np.array([15]))
    assert (exact.ED[0], exact.ETC[0]) == (5.0, pytest.approx(6.4))


def _script() -> list[str]:
    pytest.importorskip(
        "cwl.ruler.ranking", reason="cwl-eval 1.0.12 (a test extra) is not installed"
    )
    script = Path(sysconfig.get_path("scripts")) / "cwl-eval"
    if not script.exists():
        pytest.skip("the cwl-eval console script is not installed")
    return [sys.executable, str(script)]


@pytest.mark.parametrize("costs", [False, True], ids=["table1", "table2"])
def test_example_matches_the_cwl_eval_command(cli, tmp_path, costs):
    """Both topics of the seed's example, every line of LINES, against ``cwl-eval -r``."""
    cmd = _script()
    (tmp_path / "m").write_text("\n".join(LINES) + "\n")
    files = [str(p) for p in _example(costs)]
    p = subprocess.run(
        [*cmd, *files, "-m", "m", "-r"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert p.returncode == 0, p.stderr[-2000:]
    rc, out, err = cli(
        "cwl", *files, "-m", tmp_path / "m", "-r", "--max-depth", "1000", "--order", "file"
    )
    assert rc == 0, err
    assert out == p.stdout


# --------------------------------------------------------------------------------------------
# generated runs with a cost file, against cwl_eval's class


def make_inputs(d: Path, seed: int) -> None:
    """qrels, run (file order = rank order) and an element-type cost file in ``d``."""
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    for t in range(12):
        n = int(rng.integers(1, 40))
        docs = [f"q{t}-d{j}" for j in range(n + 10)]
        for doc in docs:
            if rng.random() < 0.7:
                g = float(rng.choice([0.0, 0.0, 0.1, 0.25, 0.5, 0.75, 1.0]))
                qrels.append(f"q{t} 0 {doc} {g:g}")
        types = rng.choice(["a", "b", "c", "d"], size=n)
        run += [f"q{t} {types[j]} {docs[j]} {j + 1} {n - j} sys" for j in range(n)]
    (d / "qrels").write_text("\n".join(qrels) + "\n")
    (d / "run").write_text("\n".join(run) + "\n")
    (d / "costs").write_text("a 0.4\nb 1.6\nc 3.0\n")  # 'd' unlisted: --max-cost / --min-cost
    (d / "m").write_text("\n".join(LINES) + "\n")


def cwl_eval_rows(d: Path, *, max_n: int, max_cost: float, min_cost: float) -> dict:
    """(topic, name) -> [EU ETU EC ETC ED ResEU ... ResED] from cwl_eval's BPMDCWLMetric."""
    pytest.importorskip(
        "cwl.ruler.ranking", reason="cwl-eval 1.0.12 (a test extra) is not installed"
    )
    from cwl.ruler.measures.cwl_bpm import BPMDCWLMetric
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    qrh = TrecQrelHandler(str(d / "qrels"))
    costs = {k: float(v) for k, v in (ln.split() for ln in (d / "costs").read_text().splitlines())}
    blocks: dict[str, list[tuple[str, str]]] = {}
    for line in (d / "run").read_text().splitlines():
        t, etype, doc = line.split()[:3]
        blocks.setdefault(t, []).append((doc, etype))
    out = {}
    for t, items in blocks.items():
        maker = RankingMaker(
            t, qrh, costs, max_gain=1.0, max_cost=max_cost, min_cost=min_cost, max_n=max_n
        )
        for doc, etype in items:
            maker.add(doc, etype)
        ranking = maker.get_ranking()
        for line in LINES:
            args = line.split("(")[1].rstrip(")").split(",")
            m = BPMDCWLMetric(*[float(a) if "." in a else int(a) for a in args])
            m.residuals = True
            m.measure(ranking)
            vals = m.get_scores() + [
                m.residual_expected_utility,
                m.residual_expected_total_utility,
                m.residual_expected_cost,
                m.residual_expected_total_cost,
                m.residual_expected_items,
            ]
            out[(t, m.name())] = np.array(vals, dtype=np.float64)
    return out


def cwlkit_rows(cli, d: Path, *args) -> dict:
    rc, out, err = cli(
        "cwl", d / "qrels", d / "run", "-m", d / "m", "-c", d / "costs", "-r", "-f", "tsv", *args
    )
    assert rc == 0, err
    rows = [ln.split("\t") for ln in out.splitlines()[1:]]
    return {(r[0], r[1]): np.array([float(v) for v in r[2:]]) for r in rows}


@pytest.mark.parametrize("depth", [1000, 50, 5])
def test_compat_mode_matches_cwl_eval_with_a_cost_file(cli, tmp_path, depth):
    make_inputs(tmp_path, seed=depth)
    theirs = cwl_eval_rows(tmp_path, max_n=depth, max_cost=2.0, min_cost=0.5)
    ours = cwlkit_rows(
        cli, tmp_path, "--max-depth", str(depth), "--order", "file",
        "--max-cost", "2", "--min-cost", "0.5",
    )  # fmt: skip
    assert ours.keys() == theirs.keys()
    for key, want in theirs.items():
        np.testing.assert_allclose(ours[key], want, rtol=1e-12, atol=1e-12, err_msg=str(key))


def test_exact_mode_moves_k_and_differs_from_cwl_eval_where_hc_is_not_zero(cli, tmp_path):
    """Without --max-depth, hc moves K: many rows with hc != 0 differ from cwl_eval (and from
    the compat mode), wherever the cost bound binds; with hc = 0 (the last line) the exact mode
    equals cwl_eval wherever the user stops within the run (BPM's user always stops: the cost
    bound is finite)."""
    make_inputs(tmp_path, seed=7)
    theirs = cwl_eval_rows(tmp_path, max_n=1000, max_cost=1.0, min_cost=1.0)
    exact = cwlkit_rows(cli, tmp_path, "--order", "file")
    compat = cwlkit_rows(cli, tmp_path, "--order", "file", "--max-depth", "1000")
    differ = total = 0
    for key, want in theirs.items():
        np.testing.assert_allclose(compat[key], want, rtol=1e-12, atol=1e-12, err_msg=str(key))
        if key[1].endswith("-hc=0"):
            np.testing.assert_allclose(exact[key][:5], want[:5], rtol=1e-12, atol=1e-12)
        else:
            total += 1
            differ += not np.allclose(exact[key][:5], want[:5], rtol=1e-12, atol=1e-12)
    assert differ > total / 4


def test_exact_mode_is_the_k_update():
    """K_{i+1} = K_i + hc (g_i - gain_med), checked against a direct loop on random rankings."""
    rng = np.random.default_rng(3)
    for _ in range(200):
        n = int(rng.integers(1, 30))
        g = rng.choice([0.0, 0.2, 0.5, 1.0], size=n)
        c = rng.choice([0.2, 1.0, 2.5], size=n)
        T, K = float(rng.uniform(0.5, 4)), float(rng.uniform(1, 10))
        hb, hc, med = float(rng.uniform(-1, 2)), float(rng.uniform(-1, 3)), 0.5
        s = score_metric(BPMD(T, K, hb, hc, med), g[None, :], c[None, :], np.array([n]))
        # direct: continue from rank i while CG(i) < T_i and CC(i) < K_i (padding: g 0, c 1)
        gg = np.concatenate([g, np.zeros(400)])
        cc = np.concatenate([c, np.ones(400)])
        ti, ki, cg, ct, depth = T, K, 0.0, 0.0, 0
        for i in range(gg.size):
            depth += 1
            cg += gg[i]
            ct += cc[i]
            if not (cg < ti and ct < ki):
                break
            ti += hb * (gg[i] - med)
            ki += hc * (gg[i] - med)
        assert s.ED[0] == depth
