"""Document costs on a batch selected after its document matrix was built (the batch then
keeps the matrix, not the run's document column)."""

from __future__ import annotations

import numpy as np

import cwlkit
from cwlkit.core.batch import build_batch
from cwlkit.io.costs import read_doc_costs
from cwlkit.measures.cwl.evaluate import prepare


def test_doc_costs_on_a_selected_batch(tmp_path):
    (tmp_path / "q").write_text("t1 0 a 1\nt1 0 b 0\nt2 0 c 1\n")
    (tmp_path / "r").write_text(
        "t1 Q0 a 1 2.0 x\nt1 Q0 b 2 1.0 x\nt2 Q0 c 1 1.0 x\nt2 Q0 a 2 0.5 x\n"
    )
    (tmp_path / "dc").write_text("t1 a 3\nt2 a 5\nt2 c 2\n")
    dc = read_doc_costs(tmp_path / "dc")
    batch = build_batch(cwlkit.read_qrels(tmp_path / "q"), cwlkit.read_run(tmp_path / "r"))
    whole = prepare(batch, doc_costs=dc).cost_lo
    assert batch.docs is not None  # built: a selection keeps the matrix only
    part = batch.select(np.array([False, True]))
    assert np.array_equal(prepare(part, doc_costs=dc).cost_lo, whole[1:])
    assert np.array_equal(whole, [[3.0, 1.0], [2.0, 5.0]])
