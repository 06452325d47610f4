"""benchmarks/bench_api.py runs (``--quick``: small sizes, few repeats) and its values equal
pytrec_eval's; the timings themselves are not tested."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


def test_bench_api_quick(capsys):
    pytest.importorskip("pytrec_eval")
    pytest.importorskip("ir_measures")
    pytest.importorskip("pandas")
    sys.path.insert(0, str(BENCH))
    try:
        import bench_api
    finally:
        sys.path.remove(str(BENCH))
    assert bench_api.main(["--quick"]) == 0
    out = capsys.readouterr().out
    assert "| tiny | dicts |" in out and "exact" in out
    assert "cold start" in out and "peak RSS" in out
