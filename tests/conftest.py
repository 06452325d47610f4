"""Shared fixtures: paths to the repository, its data (``data/``), and a CLI runner."""

from __future__ import annotations

import contextlib
import io
import os
from pathlib import Path

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (CI fails or passes for a reason, not a
# draw of luck); a failure found once is kept as an explicit test. HYPOTHESIS_PROFILE=explore
# draws fresh examples instead.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("explore", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "data"  # trec_eval's test suites, TREC Web 2012, LETOR MQ2008 (see its README)
EXAMPLE = REPO / "src" / "cwlkit" / "data"
#: the INST paper's inst_eval.py (ielab/inst_eval; not on PyPI, no licence to redistribute):
#: the tests that run it are skipped unless ``$CWLKIT_INST_EVAL`` names it
INST_EVAL = Path(os.environ.get("CWLKIT_INST_EVAL") or "/nonexistent/inst_eval.py")


def read_data(path: str | os.PathLike[str]) -> str:
    """The text of a data file, un-gzipped if it is gzip (the runs and LETOR files in
    ``data/`` are)."""
    import gzip

    raw = Path(path).read_bytes()
    return (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")


def plain_copy(path: str | os.PathLike[str], folder: Path) -> Path:
    """A plain-text copy of a (gzipped) data file in ``folder``, named without ``.gz``, for
    peers that read plain files only."""
    name = Path(path).name.removesuffix(".gz")
    out = folder / name
    out.write_text(read_data(path), encoding="utf-8")
    return out


_PLAIN: list[Path] = []


def plain_runs(paths) -> list[Path]:
    """Plain-text copies of gzipped data files, made once per test session in a folder of
    its own (removed at exit), for tests whose subject is the reading of large plain files
    (streaming, memory maps, sizes). Same file names without ``.gz``."""
    import atexit
    import shutil
    import tempfile

    if not _PLAIN:
        _PLAIN.append(Path(tempfile.mkdtemp(prefix="cwlkit-tests-plain-")))
        atexit.register(shutil.rmtree, _PLAIN[0], True)
    out = []
    for p in paths:
        dst = _PLAIN[0] / Path(p).name.removesuffix(".gz")
        if not dst.exists():
            plain_copy(p, _PLAIN[0])
        out.append(dst)
    return out


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


#: reference tools whose pins conflict with ours (numpy<2): a virtualenv of their own
REFS = {"rbo": "rbo==0.1.3", "trectools": "trectools==0.0.50"}


@pytest.fixture(scope="session")
def refs_python() -> Path:
    """The Python of a virtualenv holding the ``rbo`` package and trectools, whose pins
    (numpy<2) conflict with ours: ``$CWLKIT_REFS_VENV``, else a cache folder
    (``$XDG_CACHE_HOME/cwlkit-tests/refs-venv``), built there on first use with
    ``python -m venv`` and pip; the tests that use it are skipped, saying why, when it cannot
    be built (no network)."""
    import os
    import subprocess
    import sys

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    venv = Path(os.environ.get("CWLKIT_REFS_VENV") or cache / "cwlkit-tests" / "refs-venv")
    py = venv / "bin" / "python"
    probe = [str(py), "-c", "import rbo, trectools"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", *REFS.values()],
            check=True,
            capture_output=True,
            timeout=900,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        pytest.skip(f"cannot build the reference virtualenv at {venv} (rbo, trectools): {exc}")
    return py


#: ranx, the fusion reference, with its numba: a virtualenv of its own (ranx pins what the
#: project does not: numba, pandas, lz4, ir_datasets...)
RANX = "ranx==0.3.21"


@pytest.fixture(scope="session")
def ranx_python() -> Path:
    """The Python of a virtualenv holding ranx 0.3.21 (and numba): ``$CWLKIT_RANX_VENV``,
    else a cache folder (``$XDG_CACHE_HOME/cwlkit-tests/ranx-venv``), built there on first
    use with ``python -m venv`` and pip; the tests that use it are skipped, saying why, when
    it cannot be built (no network)."""
    import os
    import subprocess
    import sys

    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    venv = Path(os.environ.get("CWLKIT_RANX_VENV") or cache / "cwlkit-tests" / "ranx-venv")
    py = venv / "bin" / "python"
    probe = [str(py), "-c", "import ranx, numba"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return py
    try:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
        subprocess.run(
            [str(py), "-m", "pip", "install", "-q", RANX],
            check=True,
            capture_output=True,
            timeout=1800,
        )
    except (subprocess.SubprocessError, OSError) as exc:
        pytest.skip(f"cannot build the ranx virtualenv at {venv} ({RANX}): {exc}")
    return py


def run_refs(python: Path, code: str, payload: object) -> object:
    """Run ``code`` in the reference virtualenv with ``payload`` as JSON on its standard
    input (``data``); it prints its answer as JSON."""
    import json
    import subprocess

    prog = "import json, sys\ndata = json.load(sys.stdin)\n" + code
    out = subprocess.run(
        [str(python), "-c", prog],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    return json.loads(out.stdout)


#: ndeval 4.5's own main(), in the library pyndeval ships: ``python -c NDEVAL ARGS...`` runs
#: it as the ndeval program (the reference for cwlkit's ndeval and intent-aware measures)
NDEVAL = """
import ctypes, sys, _pyndeval
lib = ctypes.CDLL(_pyndeval.__file__)
args = [b"ndeval"] + [a.encode() for a in sys.argv[1:]]
argv = (ctypes.c_char_p * (len(args) + 1))(*args, None)
lib.main.restype = ctypes.c_int
rc = lib.main(len(args), argv)
ctypes.CDLL(None).fflush(None)
sys.exit(rc)
"""
