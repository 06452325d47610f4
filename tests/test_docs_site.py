"""The documentation site (mkdocs.yml): ``mkdocs build --strict`` passes, so no page has a
broken link, anchor or API reference, and the pages made at build time hold what they must:
the measure catalogue every measure of the registry, the API reference every public name,
the front page the README with its links pointed into the site."""

from __future__ import annotations

import html
import os
import re
import subprocess
import sys

import pytest
from conftest import REPO

import cwlkit
from cwlkit.measures.catalogue import list_measures


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"), NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(REPO / "mkdocs.yml")]
        + ["--site-dir", str(out)],
        cwd=out,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


def _h2(page: str) -> list[str]:
    found = re.findall(r'<h2 id="[^"]*">(.*?)<a class="headerlink"', page)
    return [html.unescape(re.sub(r"<[^>]+>", "", h)).strip() for h in found]


@pytest.mark.slow  # (the site: about 30 s, mkdocstrings reads the whole package)
def test_catalogue_lists_every_measure(site):
    page = (site / "catalogue" / "index.html").read_text()
    names = [e["name"] for e in list_measures()]
    assert _h2(page) == names
    for e in list_measures():  # each parameter's row: its name and its range
        for p in e["params"]:
            assert f"<code>{html.escape(p['name'], quote=False)}</code>" in page
            if p["domain"]:
                assert f"<code>{html.escape(p['domain'], quote=False)}</code>" in page


@pytest.mark.slow
def test_reference_documents_every_public_name(site):
    page = (site / "reference" / "index.html").read_text()
    for name in cwlkit.__all__:
        if name == "__version__":
            continue
        obj = getattr(cwlkit, name)
        assert f'id="{obj.__module__}.{obj.__qualname__}"' in page, name


@pytest.mark.slow
def test_front_page_is_the_readme_with_links_into_the_site(site):
    page = (site / "index.html").read_text()
    first = next(
        line for line in (REPO / "README.md").read_text().splitlines() if line.startswith("# ")
    )
    assert f">{html.escape(first[2:], quote=False)}<" in page
    assert 'href="docs/' not in page  # the README's docs/X.md links point at the pages
    assert (site / "changelog" / "index.html").is_file()
    assert (site / "benchmarks" / "index.html").is_file()


def _hooks():
    import importlib.util

    spec = importlib.util.spec_from_file_location("docs_hooks", REPO / "docs" / "hooks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class _Files:
    """The site's pages as docs/hooks.py asks for them (``get_file_from_path``)."""

    def __init__(self, *paths: str) -> None:
        self.paths = set(paths)

    def get_file_from_path(self, path: str):
        return path if path in self.paths else None


@pytest.mark.parametrize(
    "origin_page,link,expected",
    [
        # the README (index.md): docs/ pages, their anchors, the changelog and benchmarks
        ("index.md", "[C/W/L](docs/cwl.md#conventions)", "[C/W/L](cwl.md#conventions)"),
        ("index.md", "[notes](docs/README.md)", "[notes](running-examples.md)"),
        ("index.md", "[log](CHANGELOG.md)", "[log](changelog.md)"),
        ("index.md", "[speed](benchmarks/README.md)", "[speed](benchmarks.md)"),
        ("index.md", "![fig](docs/img/pr.png)", "![fig](img/pr.png)"),
        # a repository file outside the site: its path, in code
        ("index.md", "[the licence](LICENSE)", "the licence (`LICENSE`)"),
        ("index.md", "[`LICENSE`](LICENSE)", "`LICENSE`"),
        # a docs page: links among pages stay; ../ reaches the made pages
        ("cwl.md", "[INST](inst.md#use)", "[INST](inst.md#use)"),
        ("cwl.md", "[log](../CHANGELOG.md)", "[log](changelog.md)"),
        ("benchmarks.md", "[scale](../docs/scale.md)", "[scale](scale.md)"),
        # URLs, anchors on the page and broken links are left for mkdocs (--strict)
        ("cwl.md", "[x](https://example.org/a.md)", "[x](https://example.org/a.md)"),
        ("cwl.md", "[x](#conventions)", "[x](#conventions)"),
        ("cwl.md", "[x](nowhere.md)", "[x](nowhere.md)"),
    ],
)
def test_hooks_point_repository_links_at_the_site_pages(origin_page, link, expected):
    """docs/hooks.py rewrites a link written for the repository (the README's
    ``docs/cwl.md``, docs/'s ``../CHANGELOG.md``) to the page that file became, and leaves
    what it cannot resolve for ``mkdocs build --strict`` to report."""
    hooks = _hooks()
    files = _Files("cwl.md", "inst.md", "scale.md", "img/pr.png")
    page = type("Page", (), {"file": type("F", (), {"src_uri": origin_page})()})()
    text = f"before {link} after\n```\n{link}\n```\n"
    out = hooks.on_page_markdown(text, page, None, files)
    assert out == f"before {expected} after\n```\n{link}\n```\n"  # (code kept as written)
