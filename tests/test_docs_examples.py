"""Every code example in the README and docs/ runs as written, from anywhere.

Each file's blocks run in order, as the current user, from a fresh empty directory as the
current directory, with a ``HOME`` and a ``TMPDIR`` of their own inside it, ``cwlkit`` and
``python`` on the PATH, and ``CWLKIT_REPO`` naming the repository's root (docs/README.md's
convention). Python blocks of one file share a namespace; shell blocks run with ``bash -e``.
A block right after an ``<!-- not run: REASON -->`` line is skipped (set-up commands that
install packages).

Afterwards nothing outside that directory may have changed: the repository's files (their
names, sizes and modification times) and the listing of the directory that holds it.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import cwlkit

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
IDS = [str(p.relative_to(REPO)) for p in DOCS]

#: runs the blocks in order, Python ones in one namespace as in an interactive session; the
#: main guard keeps the processes that multiprocessing spawns (dask's LocalCluster workers)
#: from running the blocks again when they import this script
DRIVER = r"""
import json, subprocess, sys
def main():
    blocks = json.load(open(sys.argv[1]))
    ns = {"__name__": "__docs__"}
    for i, (lang, code) in enumerate(blocks):
        if lang == "python":
            exec(compile(code, f"block {i} (python)", "exec"), ns)
        else:
            p = subprocess.run(["bash", "-e", "-c", code], capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"block {i} (exit {p.returncode}):\n{code}\n{p.stderr[-2000:]}")
if __name__ == "__main__":
    main()
"""


def blocks(path):
    import re

    fence = re.compile(r"(<!-- not run: [^>]*-->\s*\n)?```(python|sh|bash)\n(.*?)```", re.S)
    return [(m.group(2), m.group(3)) for m in fence.finditer(path.read_text()) if not m.group(1)]


#: what the repository's snapshot leaves out: git's data and the tools' caches
SKIP = {".git", "__pycache__", ".mypy_cache", ".ruff_cache", ".hypothesis", ".pytest_cache"}
SKIP |= {".import_linter_cache"}


def _snapshot(root: Path) -> dict[str, tuple[float, int]]:
    """Every file and folder under ``root``: (modification time, size of a regular file)."""
    out = {}
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in SKIP]
        for name in [*dirs, *files]:
            p = os.path.join(d, name)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            out[p] = (st.st_mtime, st.st_size if stat.S_ISREG(st.st_mode) else 0)
    return out


def _shims(folder: Path) -> None:
    """``python``, ``python3`` and ``cwlkit`` in ``folder``: this interpreter (and its
    environment's packages), and the cwlkit under test."""
    folder.mkdir()
    for name, args in (("python", ""), ("python3", ""), ("cwlkit", " -m cwlkit")):
        (folder / name).write_text(f'#!/bin/sh\nexec "{sys.executable}"{args} "$@"\n')
        (folder / name).chmod(0o755)


@pytest.mark.parametrize("path", DOCS, ids=IDS)
def test_examples_run_anywhere(path, tmp_path):
    found = blocks(path)
    if not found:
        pytest.skip(f"{path.name} has no code examples")
    work = tmp_path / "work"
    work.mkdir()
    for sub in ("home", "tmp"):
        (work / sub).mkdir()
    _shims(tmp_path / "bin")
    script = tmp_path / "blocks.json"
    script.write_text(json.dumps(found))
    (tmp_path / "driver.py").write_text(DRIVER)
    src = str(Path(cwlkit.__file__).resolve().parents[1])
    env = {
        "PATH": f"{tmp_path / 'bin'}{os.pathsep}{os.environ.get('PATH', '/usr/bin:/bin')}",
        "HOME": str(work / "home"),
        "TMPDIR": str(work / "tmp"),
        "MPLBACKEND": "Agg",
        "PYTHONPATH": src,
        "PYTHONDONTWRITEBYTECODE": "1",
        "CWLKIT_REPO": str(REPO),
        "LANG": "C.UTF-8",
    }
    repo_before = _snapshot(REPO)
    parent_before = sorted(os.listdir(REPO.parent))
    listing_before = sorted(os.listdir(tmp_path))
    proc = subprocess.run(
        [sys.executable, str(tmp_path / "driver.py"), str(script)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0, f"{path.name}: {proc.stderr[-3000:]}"
    after = _snapshot(REPO)
    changed = sorted(k for k in set(after) | set(repo_before) if after.get(k) != repo_before.get(k))
    assert not changed, f"{path.name} wrote into the repository: {changed[:10]}"
    assert sorted(os.listdir(REPO.parent)) == parent_before, f"{path.name} wrote beside the repo"
    assert sorted(os.listdir(tmp_path)) == listing_before, f"{path.name} wrote beside its folder"


def test_docs_name_no_scratch_variable():
    """The docs' examples write by relative names, not into ``$CWLKIT_DOCS_TMP``, which
    wrote into / when unset (issue 21)."""
    for path in DOCS:
        for _lang, code in blocks(path):
            assert "CWLKIT_DOCS_TMP" not in code, path.name
            assert "tempfile" not in code, path.name  # nothing written to the system's /tmp
