"""Every ``--help`` shows what it does: 2 to 4 examples that run as written, help text for
every option, a description for every action, and the anchor whose flags a subcommand keeps.

The examples are taken from the help text itself (the lines after its ``examples (run from
any folder; ...):`` line) and run with bash, as a reader would paste them, from a fresh empty
folder, with ``cwlkit`` on the PATH and ``TMPDIR`` a fresh empty folder beside it. They read
the files bundled with cwlkit (``example:NAME``). Each must exit 0, print something or write
a file into the current folder, leave ``TMPDIR`` empty, leave the repository's tree as it
was, and write nothing beside the current folder.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys

import pytest
from conftest import REPO

from cwlkit.cli.help_examples import all_examples, examples, help_text, pages, run_example
from cwlkit.cli.main import SUBCOMMANDS

#: the subcommands that keep an anchor's flags, and the anchor their --help names
ANCHORS = {
    "trec_eval": "trec_eval 9.0.8",
    "cwl": "cwl_eval 1.0.12",
    "gdeval": "gdeval.pl v1.3",
    "ndeval": "ndeval 4.5",
    "inst_eval": "inst_eval.py",
    "rbp_eval": "rbp_eval 0.2",
    "letor": "LETOR's Perl scripts",
}

#: every --help: the subcommands, plot's actions and letor's scripts
PAGES = pages()


@pytest.mark.parametrize("words", PAGES, ids=" ".join)
def test_help_ends_with_examples(words):
    text = help_text(*words)
    found = examples(text)
    assert 2 <= len(found) <= 4 or (words == ("plot", "matrix") and len(found) == 1), found
    assert all(x.split()[1 : 1 + len(words)] == list(words) for x in found), found
    # the examples are the help's last lines
    assert text.rstrip().splitlines()[-1].strip() == found[-1]


@pytest.mark.parametrize("name", sorted(ANCHORS))
def test_anchor_help_names_whose_flags(name):
    text = help_text(name)
    assert f"Flags and output of {ANCHORS[name]}" in " ".join(text.split())


def _parsers():
    """(name, parser) for every subcommand and every sub-parser (plot's actions, letor's)."""
    for name, (module, _) in SUBCOMMANDS.items():
        p = importlib.import_module(module).build_parser()
        yield name, p
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, sp in action.choices.items():
                    yield f"{name} {sub}", sp
    from cwlkit.cli.pool import build_simulate_parser

    yield "pool simulate", build_simulate_parser()


@pytest.mark.parametrize("name,parser", list(_parsers()), ids=[n for n, _ in _parsers()])
def test_every_option_has_help(name, parser):
    for action in parser._actions:
        what = action.option_strings or [action.dest]
        assert action.help and action.help != argparse.SUPPRESS, f"{name}: {what} has no help"
        assert action.help.strip(), f"{name}: {what} has an empty help"
    if " " in name:  # an action of plot or letor: its own description
        assert parser.description and len(parser.description) > 40, name


def test_plot_topic_options_do_not_collide():
    """plot's drawn topic is -t/--topic-id; --topics is the topics rule, as elsewhere."""
    from cwlkit.cli.plot import build_parser

    p = build_parser()
    args = p.parse_args(
        ["pr", "Q", "R", "-t", "151", "--topic-id", "152", "--topics", "qrels", "-o", "x.png"]
    )
    assert args.topic_ids == ["151", "152"] and args.topics == "qrels"
    from cwlkit.errors import CwlkitError

    with pytest.raises(CwlkitError, match="ambiguous option: --topic could match"):
        p.parse_args(["pr", "Q", "R", "--topic", "151", "-o", "x.png"])


def _tree() -> set[str]:
    """The files under the repository (untracked included), to see that nothing is added."""
    proc = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    return set(proc.stdout.splitlines())


def test_examples_read_only_bundled_files():
    """No example names a path of the repository (they run after ``pip install``, anywhere)
    or the temporary folder; every ``-o`` writes into the current folder."""
    for page, command in all_examples():
        assert "/" not in command.replace("regex:", ""), (page, command)
        assert "TMPDIR" not in command and "/tmp" not in command, (page, command)


@pytest.mark.slow
@pytest.mark.parametrize("page,command", all_examples())
def test_example_runs(page, command, tmp_path):
    bindir = tmp_path / "bin"
    bindir.mkdir()
    shim = bindir / "cwlkit"
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m cwlkit "$@"\n')
    shim.chmod(0o755)
    tmp, work = tmp_path / "tmp", tmp_path / "work"
    tmp.mkdir()
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "CWLKIT_DOCS_TMP"}
    env["PYTHONPATH"] = str(REPO / "src")
    before = _tree()
    proc = run_example(command, str(work), str(tmp), str(bindir), env, timeout=600)
    assert proc.returncode == 0, f"{command}\n{proc.stderr[-2000:]}"
    written = [p for p in work.rglob("*") if p.is_file() and p.stat().st_size > 0]
    assert proc.stdout.strip() or written, f"{command}: no output"
    assert not list(tmp.iterdir()), f"{command} wrote into TMPDIR: {list(tmp.iterdir())}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bin", "tmp", "work"], command
    assert _tree() == before, f"{command} wrote into the repository"
