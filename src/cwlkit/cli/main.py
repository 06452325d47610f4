"""``cwlkit SUBCOMMAND ...``: dispatch to the subcommand modules (imported on demand)."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import re
import sys
from collections.abc import Iterator
from typing import NoReturn

from ..errors import CwlkitError

#: subcommand -> (module, one-line summary); summaries live here so --help imports nothing
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "evaluate": (
        "cwlkit.cli.evaluate",
        "any measures on many runs, one row per run (the Python API)",
    ),
    "measures": ("cwlkit.cli.measures", "list every measure: parameters, defaults, aliases"),
    "cwl": ("cwlkit.cli.cwl", "C/W/L evaluation (cwl_eval's command line, exact tails, residuals)"),
    "trec_eval": ("cwlkit.cli.trec_eval", "trec_eval-compatible evaluation, byte-identical output"),
    "gdeval": ("cwlkit.cli.gdeval", "the TREC Web Track's gdeval.pl: nDCG@k and ERR@k"),
    "ndeval": ("cwlkit.cli.ndeval", "the TREC Web Track's ndeval: diversity and intent-aware"),
    "inst_eval": ("cwlkit.cli.inst_eval", "INST's bounds, inst_eval.py's command line and output"),
    "letor": ("cwlkit.cli.letor", "LETOR's Eval-Score / Eval-Rank / t-test scripts"),
    "rbp_eval": ("cwlkit.cli.rbp_eval", "rbp_eval: RBP base + residual, several p and depths"),
    "compare": ("cwlkit.cli.compare", "compare runs: mean scores, paired tests, corrections"),
    "report": (
        "cwlkit.cli.report",
        "comparison report: marks, W/T/L, effect sizes, plots (HTML, LaTeX, Markdown, CSV)",
    ),
    "correlate": (
        "cwlkit.cli.correlate",
        "correlation of two measures (or every pair: --all-pairs) over runs and topics",
    ),
    "fit": (
        "cwlkit.cli.fit",
        "fit a metric's parameter to a target measure (the ERR paper's method)",
    ),
    "pool": ("cwlkit.cli.pool", "pool runs for judging; 'pool simulate': judging budgets vs tau"),
    "compare-runs": ("cwlkit.cli.compare_runs", "per-topic RBO between two runs' rankings"),
    "diff": ("cwlkit.cli.diff", "two runs side by side, rank by rank, as an HTML page"),
    "reproduce": (
        "cwlkit.cli.reproduce",
        "how closely a reproduced run matches its original (KTU, RBO, RMSE, ER, DeltaRI)",
    ),
    "reusability": (
        "cwlkit.cli.reusability",
        "leave each group of runs out of the pool: how far its scores and ranks move",
    ),
    "fuse": (
        "cwlkit.cli.fuse",
        "combine runs into one: ranx's 25 fusion methods (RRF, CombMNZ...)",
    ),
    "plot": (
        "cwlkit.cli.plot",
        "figures: C/W/L vectors and parameter sweeps, PR, ROC, scatter, correlation matrix",
    ),
}

USAGE = "usage: cwlkit [--version] [-h] SUBCOMMAND [ARGS...]"


class ArgumentParser(argparse.ArgumentParser):
    """argparse that raises a one-line CwlkitError instead of printing usage and exiting,
    and whose ``-m/--measure`` takes several names (:func:`split_measure_flags`)."""

    def parse_known_args(self, args=None, namespace=None):
        flags = [o for a in self._actions if a.dest == "measures" for o in a.option_strings]
        if flags:
            args = split_measure_flags(list(sys.argv[1:] if args is None else args), flags)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        raise CwlkitError(f"{self.prog}: {message} (see '{self.prog} --help')")


def split_measure_flags(argv: list[str], flags: list[str]) -> list[str]:
    """``-m P@10 AP QRELS RUN`` -> ``-m P@10 -m AP QRELS RUN``: after a measure flag, the
    following arguments are measures up to the first option (``-...``), ``--``, or argument
    that names an existing file or holds a ``/`` (a path): so ``-m`` takes several names
    whether it comes before the files or after them."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        out.append(tok)
        i += 1
        if tok == "--":
            out += argv[i:]
            break
        if tok not in flags or i >= len(argv):
            continue
        out.append(argv[i])  # the flag's own value, whatever it is
        i += 1
        while i < len(argv) and _is_measure_token(argv[i]):
            out += [tok, argv[i]]
            i += 1
    return out


def _is_measure_token(tok: str) -> bool:
    """Whether an argument after ``-m NAME`` is one more measure name rather than a file
    or an option."""
    return not (tok.startswith("-") or "/" in tok or os.path.exists(tok))


def _help() -> str:
    lines = [USAGE, "", "Fast, exact offline evaluation of ranked retrieval.", "", "subcommands:"]
    for name, (_, summary) in SUBCOMMANDS.items():
        lines.append(f"  {name:<11} {summary}")
    lines += ["", "Run 'cwlkit SUBCOMMAND --help' for a subcommand's options."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0 ok, 2 bad input or usage)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        sys.stdout.write(_help())
        return 0 if argv else 2
    if argv[0] in ("--version", "-V"):
        from .. import __version__

        sys.stdout.write(f"cwlkit {__version__}\n")
        return 0
    name = argv[0]
    if name not in SUBCOMMANDS:
        import difflib

        close = difflib.get_close_matches(name, list(SUBCOMMANDS), n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        sys.stderr.write(f"cwlkit: error: unknown subcommand {name!r}{hint}\n")
        return 2
    progress_env = os.environ.get("CWLKIT_PROGRESS")  # (--quiet sets it for the command)
    try:
        from ..io.examples import resolve_examples

        args = resolve_examples(argv[1:])  # example:NAME -> the bundled file's path
        mod = importlib.import_module(SUBCOMMANDS[name][0])
        with _one_line_warnings():
            return int(mod.main(args) or 0)
    except CwlkitError as exc:
        return _error(_with_flags(str(exc), SUBCOMMANDS[name][0]))
    except BrokenPipeError:
        # the reader went away (e.g. `| head`): stop quietly
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    except OSError as exc:  # an output file that cannot be written (a missing folder...)
        what = exc.strerror or type(exc).__name__
        return _error(f"{exc.filename}: {what}" if exc.filename else what)
    except KeyboardInterrupt:
        return 130
    finally:
        if progress_env is None:
            os.environ.pop("CWLKIT_PROGRESS", None)
        else:
            os.environ["CWLKIT_PROGRESS"] = progress_env


@contextlib.contextmanager
def _one_line_warnings() -> Iterator[None]:
    """Show the library's warnings (``UserWarning``: intent-aware measures on qrels with one
    subtopic per topic...) as one line each, ``cwlkit: warning: MESSAGE``, rather than
    Python's file, line and source; other categories as Python shows them."""
    import warnings

    with warnings.catch_warnings():
        default = warnings.showwarning

        def show(message, category, filename, lineno, file=None, line=None) -> None:
            if category is not UserWarning:
                default(message, category, filename, lineno, file, line)
                return
            text = str(message).replace("\r", "\\r").replace("\n", "\\n")
            sys.stderr.write(f"cwlkit: warning: {text}\n")

        warnings.showwarning = show
        yield


_NAMED = re.compile(r"([A-Za-z_]\w*)(\[\d+\])? must be ")


def _with_flags(text: str, module: str) -> str:
    """An option's error in the words of the command line: ``depth must be an integer >= 1
    or None; got 0`` (the API's option name) -> ``--depth must be an integer >= 1; got 0``,
    when the subcommand has a flag for that option (None, the API's "not given", is no
    value of a flag, nor is a mapping). Other messages are returned as they are."""
    named = _NAMED.match(text)
    if named is None:
        return text
    try:
        actions = importlib.import_module(module).build_parser()._actions
    except (AttributeError, ImportError):  # pragma: no cover - every subcommand has one
        return text
    flags = [a.option_strings for a in actions if a.dest == named.group(1) and a.option_strings]
    if not flags:
        return text
    rest = text[named.end(1) :]
    cut = rest.find("; got ")
    if cut > 0:  # (None and mappings are values of the API only)
        expected = re.sub(r", a mapping \{[^}]*\}", "", rest[:cut]).replace(" or None", "")
        rest = expected + rest[cut:]
    return max(flags[0], key=len) + rest


def _error(text: str) -> int:
    """Print ``text`` as one error line (whatever it quotes: a file name may hold a
    newline) and return the exit status of an error."""
    text = text.replace("\r", "\\r").replace("\n", "\\n")
    sys.stderr.write(f"cwlkit: error: {text}\n")
    return 2


def _keep_freed_memory() -> None:
    """Ask glibc's allocator to serve large blocks from its heap and keep freed memory.

    Evaluation allocates and frees many large temporary arrays; by default glibc gives each
    block over its mmap threshold fresh pages from the kernel (which zeroes them, one page
    fault each) and returns them on free. Keeping them (``M_MMAP_THRESHOLD``,
    ``M_TRIM_THRESHOLD`` at their maximum) cuts the system time of
    ``cwlkit trec_eval -q -m all_trec`` on 10,000 topics x 1,000 documents from about 5 s to
    about 1.5 s, for a peak memory about 8% higher. Done for the command-line process only
    (the library never changes process-wide settings), and only where glibc is the C library.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt  # the process's own C library
    except (OSError, AttributeError):  # musl or another C library: leave it alone
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_trim_threshold, ctypes.c_int(2**31 - 1))
    mallopt(m_mmap_threshold, ctypes.c_int(2**31 - 1))


def return_freed_memory() -> None:
    """Undo :func:`_keep_freed_memory` for a streamed evaluation: its bucket temporaries
    come and go while the per-topic values stay, so memory kept by the C library (and
    fragmented by the values) would grow with the files. For the command-line process only."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_trim_threshold, ctypes.c_int(1 << 25))
    mallopt(m_mmap_threshold, ctypes.c_int(1 << 20))


def lean_arrow_memory() -> None:
    """One heap for the whole process: pyarrow allocates with the C library's ``malloc`` (its
    "system" memory pool) rather than its bundled mimalloc, and glibc serves every thread
    from its main arena (``M_ARENA_MAX`` 1) rather than one arena per thread. Call it before
    pyarrow is loaded and before any thread starts (the pool is chosen at pyarrow's first
    allocation, a thread's arena at its first ``malloc``); a user's
    ``ARROW_DEFAULT_MEMORY_POOL`` or ``MALLOC_ARENA_MAX`` is kept.

    Evaluation allocates and frees many blocks in turn, numpy's and pyarrow's, from the main
    thread and from worker threads (pyarrow's CSV reader,
    :func:`cwlkit.support.threads.thread_map`):
    with one heap they reuse the same freed memory, while separate heaps each fault in fresh
    pages (the kernel zeroes each one) and keep them. Measured on 1,000 topics x 1,000
    documents, medians of 15 interleaved runs: ``cwlkit cwl`` peak RSS 87 MB against 125 MB
    with mimalloc, the same CPU time; ``cwlkit trec_eval -q -m all_trec`` 0.67 s and 383 MB
    against 0.84 s and 530 MB. For the command-line process only, like
    :func:`_keep_freed_memory`.
    """
    if "pyarrow" not in sys.modules:
        os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    if sys.platform.startswith("linux") and "MALLOC_ARENA_MAX" not in os.environ:
        import ctypes

        try:
            mallopt = ctypes.CDLL(None).mallopt
        except (OSError, AttributeError):  # not glibc
            return
        m_arena_max = -8
        mallopt(m_arena_max, ctypes.c_int(1))


def _serial_blas() -> None:
    """One OpenBLAS thread (unless the user chose, ``OPENBLAS_NUM_THREADS``), set before numpy
    is loaded. numpy's OpenBLAS starts a thread per core at import, and they spin for a while
    (about 60 ms of CPU): with ``-j`` that is a core taken from the worker processes as they
    start. No command does linear algebra large enough to gain from BLAS threads (their
    parallelism is processes). For the command-line process only, like
    :func:`_keep_freed_memory`."""
    if "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _quiet_numeric_warnings() -> None:
    """numpy's RuntimeWarnings (overflow, invalid value, division by zero) raised in cwlkit's
    own code are not printed: they come from parameters at the edge of the float range
    (``Utility(a=1e308)``, ``TBG(halflife=5e-324)``), whose values are printed as they come
    out (``inf``, ``nan``), and they would put several lines of source on stderr beside a
    one-line error. For the command-line process only (the library leaves warnings to its
    caller), like :func:`_keep_freed_memory`."""
    import warnings

    warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"cwlkit(\.|$)")


def entry() -> None:
    """Console-script entry point."""
    _keep_freed_memory()
    _serial_blas()
    _quiet_numeric_warnings()
    _exit(main())


def _exit(code: int) -> NoReturn:
    """End the process with ``code``, skipping the interpreter's final teardown.

    Once numpy and pyarrow are loaded, freeing every module and object at exit takes 0.05
    to 0.2 s (the more arrays are alive, the longer: ``cwlkit trec_eval -q -m all_trec`` on
    1M lines spent 0.2 s of its 0.7 s there), and shows nothing to the user. What an exit
    must do is still done, in order: the exit handlers run (temporary directories, pool
    workers), then the standard streams are flushed; then ``os._exit``. Every file the
    commands write is closed where it is written (``with``), so no buffer is left behind.
    """
    import atexit

    try:
        atexit._run_exitfuncs()
    finally:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):  # a closed pipe (`| head`) or a closed stream
                pass
        os._exit(code)
