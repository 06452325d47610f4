"""``cwlkit reproduce``: the rows of cwlkit.reproducibility, as text, TSV and JSON; errors."""

from __future__ import annotations

import json

Q = "1 0 a 1\n1 0 b 1\n2 0 c 1\n"
ORIG = "1 Q0 a 1 3 o\n1 Q0 b 2 2 o\n1 Q0 x 3 1 o\n2 Q0 c 1 2 o\n2 Q0 y 2 1 o\n"
REP = "1 Q0 b 1 3 r\n1 Q0 a 2 2 r\n1 Q0 x 3 1 r\n2 Q0 y 1 2 r\n2 Q0 c 2 1 r\n"


def _files(tmp_path):
    for name, text in (("q", Q), ("o", ORIG), ("r", REP)):
        (tmp_path / name).write_text(text)
    return [str(tmp_path / n) for n in ("q", "o", "r")]


def test_json_rows_are_the_api_rows(cli, tmp_path):
    import cwlkit

    q, o, r = _files(tmp_path)
    rc, out, err = cli(
        "reproduce", q, "--orig", o, "--rep", r, "-m", "P@1", "--cutoff", "2", "-f", "json"
    )
    assert rc == 0, err
    got = json.loads(out)
    want = cwlkit.reproducibility(q, o, r, measures=["P@1"], cutoffs=[2]).rows()
    assert got == {"paired": True, "rows": want}
    # topic 1: o = a b x, r = b a x: KTU@2 = -1; topic 2: o = c y, r = y c: -1
    assert got["rows"][0] == {"run": "baseline", "measure": "KTU@2", "value": -1.0}


def test_text_and_errors(cli, tmp_path):
    q, o, r = _files(tmp_path)
    rc, out, _ = cli("reproduce", q, "--orig", o, "--rep", r, "-m", "P@1", "--cutoff", "2")
    assert rc == 0 and out.splitlines()[0].split() == ["baseline", "KTU@2", "-1.0000"]
    rc, out, err = cli("reproduce", q, "--orig", o, o, "--rep", r)
    assert (rc, out) == (2, "") and "the same runs" in err and err.count("\n") == 1
    rc, out, err = cli("reproduce", q, "--orig", o, "--rep", r, "--cutoff", "0")
    assert (rc, out) == (2, "") and "cutoffs must be an integer from 1 to 100000; got 0" in err
