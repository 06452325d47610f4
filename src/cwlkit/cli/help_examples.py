"""The examples at the end of every ``--help``: which pages there are and what each shows.

Each subcommand's help (and each action's of ``plot``, ``letor`` and ``pool``) ends with a
heading that starts ``examples`` and ends with a colon, followed by 2 to 4 indented
``cwlkit ...`` command lines. The tests (tests/cli/test_help_examples.py) and CI's check of
the installed wheel (.ci/help_examples.py) both read the examples from here, so the two run
the same commands.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess

#: the line that opens a help's examples: ``examples:`` or ``examples (where to run them):``
HEAD = re.compile(r"^examples\b[^\n]*:[ \t]*$", re.M)


def pages() -> list[tuple[str, ...]]:
    """Every ``--help`` as the words before it: the subcommands, plot's actions, letor's
    scripts and ``pool simulate``."""
    from .main import SUBCOMMANDS

    out: list[tuple[str, ...]] = [(name,) for name in SUBCOMMANDS]
    out += [("plot", a) for a in ("vectors", "sweep", "pr", "roc", "scatter", "matrix")]
    out += [("letor", s) for s in ("score", "rank", "ttest")]
    out += [("pool", "simulate")]
    return out


def help_text(*words: str) -> str:
    """What ``cwlkit WORDS... --help`` prints (run in this process)."""
    from .main import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
        main([*words, "--help"])
    return out.getvalue()


def examples(text: str) -> list[str]:
    """The example commands at the end of a help text (none if it has no examples
    heading)."""
    heads = list(HEAD.finditer(text))
    if not heads:
        return []
    tail = text[heads[-1].end() :].splitlines()
    return [line.strip() for line in tail if line.startswith("  cwlkit ")]


def all_examples() -> list[tuple[str, str]]:
    """(page, command) for every example of every ``--help``, pages in :func:`pages`'
    order."""
    return [(" ".join(w), x) for w in pages() for x in examples(help_text(*w))]


def run_example(
    command: str, work: str, tmp: str, bindir: str, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess:
    """Run ``command`` as a reader pastes it: ``bash -e -o pipefail`` in the folder ``work``,
    with ``bindir`` (where ``cwlkit`` is) first on the PATH, ``TMPDIR`` set to ``tmp`` and
    matplotlib drawing into files; ``env`` is the rest of the environment."""
    env = {**env, "PATH": f"{bindir}{os.pathsep}{env.get('PATH', '')}", "TMPDIR": tmp}
    env["MPLBACKEND"] = "Agg"
    return subprocess.run(
        ["bash", "-e", "-o", "pipefail", "-c", command],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
