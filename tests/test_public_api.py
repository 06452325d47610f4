"""The public namespace is the door (docs/api.md): every name of ``cwlkit.__all__`` is
documented there, every name documented there exists, and each resolves."""

from __future__ import annotations

import re

from conftest import REPO

import cwlkit

API_MD = REPO / "docs" / "api.md"


def _documented() -> set[str]:
    """The names of the door's tables: the first cell of each row, up to a parenthesis."""
    text = API_MD.read_text().split("## Beneath the door")[0]
    names: set[str] = set()
    for cell in re.findall(r"^\| `([^|]*)` \|", text, re.M):
        for part in re.findall(r"`?([A-Za-z_][A-Za-z_0-9]*)(?:\([^`]*\))?`?(?:, |$)", cell):
            names.add(part)
    names.update(re.findall(r"^`(__\w+__)`", text, re.M))
    return names


def test_every_public_name_is_documented_and_exists():
    documented = _documented()
    public = set(cwlkit.__all__)
    assert public - documented == set(), "document these in docs/api.md"
    assert documented - public == set(), "docs/api.md names what cwlkit does not export"
    for name in public:
        assert getattr(cwlkit, name) is not None


def test_the_namespace_is_the_door():
    """No engine internals at the top: batches, the anchors' evaluations, curve types."""
    for name in ("build_batch", "RankingBatch", "evaluate_trec", "gdeval_results"):
        assert name not in cwlkit.__all__ and not hasattr(cwlkit, name)


def test_no_public_name_is_shadowed_by_a_module():
    """A function named like a package (cwlkit.diff, cwlkit.report...) stays the function
    after every subpackage has been imported."""
    import importlib
    import pkgutil
    import types

    for info in pkgutil.iter_modules(cwlkit.__path__):
        if info.name != "__main__":  # (that one runs the command line)
            importlib.import_module(f"cwlkit.{info.name}")
    for name in cwlkit.__all__:
        assert not isinstance(getattr(cwlkit, name), types.ModuleType), name
