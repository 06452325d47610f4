"""Every code example in the README and docs/ runs as written, from the repository's root.

Python blocks of one file run in order in one namespace; shell blocks run with bash -e. A
block right after an ``<!-- not run: REASON -->`` line is skipped (set-up commands that
install packages). The examples read bundled and shared data; a shell example that writes
a file writes it under ``$CWLKIT_DOCS_TMP`` (a temporary directory).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from conftest import REPO, SHARED

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

FENCE = re.compile(r"(<!-- not run: [^>]*-->\s*\n)?```(python|sh|bash)\n(.*?)```", re.S)
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def blocks(path):
    out = []
    for m in FENCE.finditer(path.read_text()):
        if m.group(1):
            continue
        out.append((m.group(2), m.group(3)))
    return out


@pytest.mark.skipif(not (SHARED / "data").is_dir(), reason="../shared/data is not beside the repo")
@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_examples_run(path, tmp_path, monkeypatch):
    found = blocks(path)
    if not found:
        pytest.skip(f"{path.name} has no code examples")
    monkeypatch.chdir(REPO)
    ns: dict = {"__name__": "__docs__"}
    monkeypatch.setenv("CWLKIT_DOCS_TMP", str(tmp_path))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    env = dict(os.environ)
    bindir = os.path.dirname(sys.executable)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    for lang, code in found:
        if lang == "python":
            exec(compile(code, f"{path.name} (python block)", "exec"), ns)
        else:
            proc = subprocess.run(
                ["bash", "-e", "-c", code], cwd=REPO, env=env, capture_output=True, text=True
            )
            assert proc.returncode == 0, f"{path.name}: {code}\n{proc.stderr[-2000:]}"
