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
