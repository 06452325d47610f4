"""The package's structure: private names stay in their package, no module imports itself
back (imports inside functions and under TYPE_CHECKING counted), and the layers of
pyproject.toml's ``[tool.importlinter]`` contracts hold."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src"


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(src: Path = SRC) -> list[tuple[str, int, str, str, str]]:
    """``(file, line, imported name, importing package, owning package)`` of every import in
    ``src/cwlkit`` of a private name (a module, function, class or constant whose name starts
    with ``_``) that belongs to another package: the package of the module defining it (a
    name of ``a/b/m.py`` belongs to ``a.b``, and so does the module ``a/b/_m.py``)."""
    out = []
    for p in sorted((src / "cwlkit").rglob("*.py")):
        mod = ".".join(p.relative_to(src).with_suffix("").parts)
        if mod.endswith(".__init__"):
            mod = mod[: -len(".__init__")]
        pkg = mod if p.name == "__init__.py" else mod.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"), str(p))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = pkg.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                names = [target + "." + a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                parts = name.split(".")
                if parts[0] != "cwlkit":
                    continue
                for i, comp in enumerate(parts):
                    if _is_private(comp):
                        owner = ".".join(parts[:i])
                        if (src / (owner.replace(".", "/") + ".py")).exists():
                            owner = owner.rsplit(".", 1)[0]
                        if owner != pkg:
                            out.append((str(p.relative_to(src)), node.lineno, name, pkg, owner))
                        break
    return out


def test_no_private_name_crosses_a_package():
    """A name starting with ``_`` is used only inside its own package (the directory of the
    module that defines it): what another package needs is public."""
    found = private_imports()
    assert not found, "private names imported from another package:\n" + "\n".join(
        f"  {f}:{line}: {name} (in {pkg}, owned by {owner})" for f, line, name, pkg, owner in found
    )


def test_the_check_finds_private_imports(tmp_path):
    """The check itself, on a small tree: private modules, functions and constants of another
    package are found (relative, absolute and plain imports); those of the package's own
    modules, dunder names and public names are not."""
    files = {
        "cwlkit/__init__.py": "",
        "cwlkit/a/__init__.py": "from ._m import f\n",  # own package: fine
        "cwlkit/a/_m.py": "def f(): pass\n_C = 1\n",
        "cwlkit/a/pub.py": "from ._m import _C\ndef _g(): pass\n__all__ = []\n",
        "cwlkit/a/sub/__init__.py": "",
        "cwlkit/a/sub/x.py": "from .._m import f\n",  # a._m from a.sub
        "cwlkit/b/__init__.py": "",
        "cwlkit/b/y.py": (
            "from ..a.pub import _g, __all__\n"  # _g: a's; __all__: a dunder, fine
            "from cwlkit.a import _m\n"
            "import cwlkit.a._m\n"
            "from ..a.pub import f\n"  # public: fine
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    found = {(f, line, name, pkg, owner) for f, line, name, pkg, owner in private_imports(tmp_path)}
    assert found == {
        ("cwlkit/a/sub/x.py", 1, "cwlkit.a._m.f", "cwlkit.a.sub", "cwlkit.a"),
        ("cwlkit/b/y.py", 1, "cwlkit.a.pub._g", "cwlkit.b", "cwlkit.a"),
        ("cwlkit/b/y.py", 2, "cwlkit.a._m", "cwlkit.b", "cwlkit.a"),
        ("cwlkit/b/y.py", 3, "cwlkit.a._m", "cwlkit.b", "cwlkit.a"),
    }


@pytest.mark.slow
def test_import_linter_contracts_hold():
    """``lint-imports`` (import-linter's command) passes on pyproject.toml's contracts."""
    pytest.importorskip("importlinter")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(SRC), *(p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p)]
    )
    # the console script `lint-imports` is importlinter.cli:lint_imports_command; run it
    # with this interpreter (the script may not be on PATH)
    code = (
        "import sys; from importlinter.cli import lint_imports_command; "
        "sys.exit(lint_imports_command())"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "--no-cache"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def import_cycles(package: str = "cwlkit") -> list[list[str]]:
    """The strongly connected components of more than one module of ``package``'s import
    graph (grimp's: every import, inside functions and under TYPE_CHECKING too)."""
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph(package, cache_dir=None)
    edges = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * len(edges)))
    for m in sorted(edges):
        if m not in index:
            visit(m)
    return out


def test_no_import_cycles():
    assert import_cycles() == []
