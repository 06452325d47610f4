"""Shared fixtures: paths to the repository, the shared data, and a CLI runner."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
DATA = SHARED / "data"
EXAMPLE = REPO / "src" / "cwlkit" / "data"


@pytest.fixture
def cli():
    """Run ``cwlkit ARGS`` in-process; return (exit status, stdout, stderr)."""
    from cwlkit.cli.main import main

    def run(*args: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main([str(a) for a in args])
        return rc, out.getvalue(), err.getvalue()

    return run


@pytest.fixture
def calls(monkeypatch):
    """Count the streamed evaluations (so that a test knows which path ran)."""
    import cwlkit.executors.streamed as streamed

    n = [0]
    real = streamed.evaluate_streamed

    def spy(*args, **kwargs):
        n[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(streamed, "evaluate_streamed", spy)
    return n


@pytest.fixture(params=["read", "mapped"])
def text_reader(request, monkeypatch):
    """Run a reader test twice: files read into memory, and files memory-mapped (the path
    large plain files take, see ``cwlkit.io.text.read_text``)."""
    if request.param == "mapped":
        from cwlkit.io import text as io_text

        monkeypatch.setattr(io_text, "MAP_BYTES", 1)
    return request.param
