"""Every subcommand's shortest invocation succeeds on real TREC judgements of the three
usual kinds (issue 21): Web 2012's graded 0..4 labels with negative ones, the same clipped to
Robust's 0..2, and binary; at most one line on stderr (what a default chose)."""

from __future__ import annotations

import pytest
from conftest import DATA

WEB = DATA / "web2012"
A = WEB / "runs" / "web2012.ql.cata.run.gz"
B = WEB / "runs" / "web2012.rm.catb.run.gz"

COMMANDS = [
    "evaluate {q} {a} -m AP nDCG@10 RBP",
    "compare {q} {a} {b} -m AP",
    "report {q} {a} {b} -m AP",
    "correlate {q} {a} {b} -a AP -b P@10",
    "correlate {q} {a} {b} -m AP P@10 RBP --all-pairs",
    "fit {q} {a} {b} --target AP --metric RBP(p=0.1:0.9:0.2)",
    "cwl {q} {a}",
    "trec_eval {q} {a}",
    "gdeval {q} {a}",
    "ndeval {q} {a}",
    "inst_eval {q} {a} -T 3",
    "rbp_eval {q} {a}",
    "pool simulate {q} {a} {b} -b 1,10",
    "plot pr {q} {a} -o {out}/x.png",
    "plot roc {q} {a} -o {out}/x.png",
    "plot vectors {q} {a} -M RBP -o {out}/x.png",
    "plot sweep {q} {a} -M RBP(p=0.1:0.9:0.2) -o {out}/x.png",
    "plot scatter {q} {a} {b} -m AP P@10 -o {out}/x.png",
    "plot matrix {q} {a} {b} -m AP P@10 -o {out}/x.png",
]


def _qrels(kind: str, tmp_path):
    src = WEB / "qrels.web.151-200.txt"
    if kind == "web2012":
        return src
    lines = []
    for line in src.read_text().splitlines():
        t, it, d, label = line.split()
        x = int(label)
        x = min(max(x, 0), 2) if kind == "robust" else int(x > 0)
        lines.append(f"{t} {it} {d} {x}\n")
    path = tmp_path / f"{kind}.qrels"
    path.write_text("".join(lines))
    return path


@pytest.mark.parametrize("kind", ["web2012", "robust", "binary"])
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c.split(" {")[0])
def test_shortest_invocation_succeeds(cli, tmp_path, kind, command):
    q = _qrels(kind, tmp_path)
    args = command.format(q=q, a=A, b=B, out=tmp_path).split()
    rc, out, err = cli(*args)
    assert rc == 0, err
    assert out.strip() or (tmp_path / "x.png").stat().st_size > 1000
    assert err.count("\n") <= 1, err
