"""Every code example in the README and docs/ runs as written, from anywhere, as anyone.

Each file's blocks run in order, with ``CWLKIT_DOCS_TMP`` unset, from a fresh empty
directory as the current directory (with a fresh ``HOME`` and ``TMPDIR`` inside it), as an
unprivileged user (``nobody``, through ``setpriv`` when the tests run as root), and with
``CWLKIT_REPO`` naming the repository's root (docs/README.md's convention). Python blocks of
one file share a namespace; shell blocks run with ``bash -e``. A block right after an
``<!-- not run: REASON -->`` line is skipped (set-up commands that install packages).

Afterwards nothing may have been written outside that directory: the repository's tree,
the shared data and the top level of ``/`` keep their entries and modification times, and
no file owned by the unprivileged user appears in ``/tmp``, ``/var/tmp`` or ``/dev/shm``.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from conftest import REPO

import cwlkit

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
IDS = [str(p.relative_to(REPO)) for p in DOCS]
NOBODY = 65534
#: the directories anyone may write to, where a stray file would show
SHARED_TMP = [Path("/tmp"), Path("/var/tmp"), Path("/dev/shm")]

# What runs as the unprivileged user: the blocks of one file, in order.
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


def _snapshot(root: Path, deep: bool) -> dict[str, tuple[float, int]]:
    out = {}
    walk = os.walk(root) if deep else [(str(root), [], os.listdir(root))]
    for d, dirs, files in walk:
        dirs[:] = [x for x in dirs if x not in (".git", "__pycache__", ".mypy_cache")]
        for name in [*dirs, *files]:
            p = os.path.join(d, name)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            if deep:
                out[p] = (st.st_mtime, st.st_size if stat.S_ISREG(st.st_mode) else 0)
            else:  # "/": its entries (other processes touch /tmp, /proc, /root meanwhile)
                out[p] = (0.0, 0)
    return out


def _privilege_drop() -> tuple[list[str], str | None]:
    """The command prefix that runs as ``nobody``, or ([], reason) when we cannot."""
    if os.geteuid() != 0:
        return [], None  # already unprivileged
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        return [], "running as root and setpriv (util-linux) is missing"
    return [
        setpriv,
        f"--reuid={NOBODY}",
        f"--regid={NOBODY}",
        "--clear-groups",
        "--inh-caps=-all",
    ], None


@pytest.fixture(scope="module")
def sandbox():
    """A world-traversable scratch root holding the interpreter's mount point and a ``bin``
    with ``python`` and ``cwlkit`` for the unprivileged user."""
    root = Path(tempfile.mkdtemp(prefix="cwlkit-docs-"))
    root.chmod(0o755)
    yield root
    subprocess.run(["rm", "-rf", str(root)], check=False)


def _python_for(prefix: list[str], root: Path) -> tuple[list[str], str, str | None]:
    """(wrapper command, python path the user runs, reason it cannot) for the interpreter
    under test: its own path when the user can run it, else the interpreter's installation
    bind-mounted at ``root/py`` in a private mount namespace (a home directory the user
    cannot enter holds it)."""
    exe = Path(sys.executable)
    if not prefix:
        return [], str(exe), None
    # (the user's own shell runs it: setpriv's exec of a path through a directory the user
    # cannot search succeeds where the user's next exec of it is refused)
    shell = [*prefix, "sh", "-c", '"$0" -c "import numpy"', str(exe)]
    probe = subprocess.run(shell, capture_output=True)
    if probe.returncode == 0:
        return [], str(exe), None
    unshare = shutil.which("unshare")
    if unshare is None:
        return [], "", f"nobody cannot run {exe} and unshare is missing"
    home = Path(sys.base_prefix)
    (root / "py").mkdir(exist_ok=True)
    # (a virtualenv's python is a link to the installation's: run that one, under the mount)
    inner = root / "py" / Path(os.path.realpath(exe)).relative_to(os.path.realpath(home))
    wrap = [
        unshare,
        "-m",
        "--propagation",
        "private",
        "sh",
        "-c",
        f'mount --bind "{home}" "{root / "py"}" && exec "$@"',
        "sh",
    ]
    return wrap, str(inner), None


@pytest.mark.parametrize(
    "path",
    DOCS,
    ids=IDS,
)
def test_examples_run_anywhere(path, sandbox):
    found = blocks(path)
    if not found:
        pytest.skip(f"{path.name} has no code examples")
    prefix, why = _privilege_drop()
    if why:
        pytest.skip(why)
    wrap, python, why = _python_for(prefix, sandbox)
    if why:
        pytest.skip(why)
    work = sandbox / f"work-{path.parent.name}-{path.stem}"
    work.mkdir()
    for sub in ("home", "tmp"):
        (work / sub).mkdir()
    binary = sandbox / "bin"
    if not binary.exists():
        binary.mkdir()
        (binary / "python").symlink_to(python)
        (binary / "python3").symlink_to(python)
        (binary / "cwlkit").write_text(f'#!/bin/sh\nexec "{python}" -m cwlkit "$@"\n')
        (binary / "cwlkit").chmod(0o755)
    script = sandbox / f"{path.parent.name}-{path.stem}.json"
    script.write_text(json.dumps(found))
    (sandbox / "driver.py").write_text(DRIVER)
    if prefix:
        for p in (work, work / "home", work / "tmp"):
            os.chown(p, NOBODY, NOBODY)
    src = str(Path(cwlkit.__file__).resolve().parents[1])
    site = [p for p in sys.path if p.endswith("site-packages")]
    if wrap:  # the installation's site-packages under the mount point (a virtualenv's stay)
        home = Path(sys.base_prefix)
        site = [
            str(sandbox / "py" / Path(p).relative_to(home)) if Path(p).is_relative_to(home) else p
            for p in site
        ]
    env = {
        "PATH": f"{binary}:/usr/local/bin:/usr/bin:/bin",
        "HOME": str(work / "home"),
        "TMPDIR": str(work / "tmp"),
        "MPLBACKEND": "Agg",
        "PYTHONPATH": os.pathsep.join([src, *site]),
        "PYTHONDONTWRITEBYTECODE": "1",
        "CWLKIT_REPO": str(REPO),
        "LANG": "C.UTF-8",
    }
    if wrap:  # its libpython too (the interpreter's run path is under the unreachable home)
        env["LD_LIBRARY_PATH"] = str(sandbox / "py" / "lib")
    watched = {REPO: True, Path("/"): False}
    before = {d: _snapshot(d, deep) for d, deep in watched.items()}
    proc = subprocess.run(
        [*wrap, *prefix, python, str(sandbox / "driver.py"), str(script)],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert proc.returncode == 0, f"{path.name}: {proc.stderr[-3000:]}"
    for d, deep in watched.items():
        after = _snapshot(d, deep)
        changed = sorted(k for k in set(after) | set(before[d]) if after.get(k) != before[d].get(k))
        changed = [c for c in changed if not c.startswith(str(sandbox))]
        assert not changed, f"{path.name} wrote outside its directory: {changed[:10]}"
    if prefix:
        stray = [
            str(p)
            for t in SHARED_TMP
            if t.is_dir()
            for p in t.iterdir()
            if p.lstat().st_uid == NOBODY
        ]
        assert not stray, f"{path.name} left files owned by nobody: {stray[:10]}"


def test_docs_name_no_scratch_variable():
    """The docs' examples write by relative names, not into ``$CWLKIT_DOCS_TMP``, which
    wrote into / when unset (issue 21)."""
    for path in DOCS:
        for _lang, code in blocks(path):
            assert "CWLKIT_DOCS_TMP" not in code, path.name
            assert "tempfile" not in code, path.name  # nothing written to the system's /tmp
