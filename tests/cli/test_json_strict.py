"""Every ``-f json`` of cwlkit's own subcommands is strict JSON (RFC 8259): no ``NaN`` or
``Infinity`` token (a NaN is written null), so ``json.loads(..., parse_constant=refuse)`` and
other languages' parsers read it."""

from __future__ import annotations

import json

import pytest
from conftest import DATA

WEB = DATA / "web2012"
Q = WEB / "qrels.web.151-200.txt"
A = WEB / "runs" / "web2012.ql.cata.run.gz"
B = WEB / "runs" / "web2012.rm.catb.run.gz"
C = WEB / "runs" / "web2012.rm.cata.run.gz"

COMMANDS = [
    "evaluate {q} {a} {b} -m AP RBP --per-topic",
    "compare {q} {a} {b} {c} -m AP",
    "correlate {q} {a} {b} {c} -a AP -b P@10",
    "correlate {q} {a} {b} {c} -m AP P@10 --all-pairs --tau-ap",
    "fit {q} {a} {b} {c} --target AP --metric RBP(p=0.2:0.8:0.3)",
    "report {q} {a} {b} -m AP",
    "measures",
    "pool simulate {q} {a} {b} -b 1,5",
    "compare-runs {a} {b}",
    "reusability {q} {a} {b} {c} --group-by regex:(cat.) -d 10 -m AP",
    "cwl --example -r --mean",
]


def _refuse(token: str):
    raise ValueError(f"not strict JSON: {token}")


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c.split()[:2]))
def test_json_output_is_strict(cli, command):
    args = command.format(q=Q, a=A, b=B, c=C).split()
    rc, out, err = cli(*args, "-f", "json")
    assert rc == 0, err
    json.loads(out, parse_constant=_refuse)


def test_a_nan_is_null(cli, tmp_path):
    # one relevant document for topic 1 and none for topic 2: the t-test of two runs with
    # equal scores on every topic has no p-value (NaN), written null
    (tmp_path / "q").write_text("1 0 a 1\n2 0 b 1\n")
    (tmp_path / "r1").write_text("1 Q0 a 1 2 x\n2 Q0 b 1 2 x\n")
    (tmp_path / "r2").write_text("1 Q0 a 1 2 y\n2 Q0 b 1 2 y\n")
    rc, out, err = cli("compare", tmp_path / "q", tmp_path / "r1", tmp_path / "r2", "-m", "AP")
    assert rc == 0, err
    rc, out, err = cli(
        "compare", tmp_path / "q", tmp_path / "r1", tmp_path / "r2", "-m", "AP", "-f", "json"
    )
    assert rc == 0, err
    assert "null" in out and "NaN" not in out
    json.loads(out, parse_constant=_refuse)
