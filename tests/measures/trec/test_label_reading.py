"""How qrels labels become trec_eval's relevance codes: truncated toward zero, negative only
below 0 once truncated. Found by fuzzing against the C programs: a label of ``-0.5`` is read
by ``atol`` as 0 (judged non-relevant), while cwlkit took it for negative (unjudged)."""

from __future__ import annotations

import pytest

QRELS = "1 0 d1 -0.5\n1 0 d2 1\n1 0 d3 -1\n"
RUN = "1 Q0 d1 1 3 t\n1 Q0 d3 2 2 t\n1 Q0 d2 3 1 t\n"
#: lines trec_eval 9.0.8 and 10.0 (built from their public sources) print for these files
#: with ``-q -m all_trec`` (d1 judged non-relevant: ``0``; d3 pooled, unjudged: ``.``)
C_LINES = [
    "num_rel               \t1\t1",
    "relstring             \t1\t'0.1'",
    "num_nonrel_judged_ret \t1\t1",
    "bpref                 \t1\t0.0000",
]


@pytest.mark.parametrize("version", ["9", "10"])
@pytest.mark.parametrize("flags", [[], ["-J"]])
def test_a_label_between_minus_one_and_zero_is_judged_non_relevant(cli, tmp_path, version, flags):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(RUN)
    rc, out, err = cli("trec_eval", "--trec-version", version, *flags, "-q", "-m", "all_trec", q, r)
    assert (rc, err) == (0, "")
    lines = out.splitlines()
    for want in C_LINES if not flags else C_LINES[:1] + C_LINES[2:]:
        assert want in lines


def test_the_api_reads_labels_the_same_way(tmp_path):
    """One name, one measure: ``cwlkit.evaluate`` with trec_eval's bpref agrees."""
    import cwlkit

    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(QRELS)
    r.write_text(RUN)
    res = cwlkit.evaluate(str(q), str(r), ["bpref", "num_nonrel_judged_ret"])
    assert res.per_topic("num_nonrel_judged_ret")["1"] == 1.0
