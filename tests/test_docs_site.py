"""The documentation site (mkdocs.yml): ``mkdocs build --strict`` passes, so no page has a
broken link, anchor or API reference, and the pages made at build time hold what they must:
the measure catalogue every measure of the registry, the API reference every public name,
the front page the README with its links pointed into the site."""

from __future__ import annotations

import html
import inspect
import os
import re
import subprocess
import sys

import pytest
from conftest import REPO

import cwlkit
from cwlkit.measures.catalogue import list_measures

pytestmark = pytest.mark.slow  # (about 30 s: mkdocstrings reads the whole package)


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


def test_catalogue_lists_every_measure(site):
    page = (site / "catalogue" / "index.html").read_text()
    names = [e["name"] for e in list_measures()]
    assert _h2(page) == names
    for e in list_measures():  # each parameter's row: its name and its range
        for p in e["params"]:
            assert f"<code>{html.escape(p['name'], quote=False)}</code>" in page
            if p["domain"]:
                assert f"<code>{html.escape(p['domain'], quote=False)}</code>" in page


def test_reference_documents_every_public_name(site):
    page = (site / "reference" / "index.html").read_text()
    for name in cwlkit.__all__:
        if name == "__version__":
            continue
        obj = getattr(cwlkit, name)
        if inspect.ismodule(obj):  # cwlkit.diff once the subpackage cwlkit.diff is imported
            obj = getattr(obj, name)
        assert f'id="{obj.__module__}.{obj.__qualname__}"' in page, name


def test_front_page_is_the_readme_with_links_into_the_site(site):
    page = (site / "index.html").read_text()
    first = next(
        line for line in (REPO / "README.md").read_text().splitlines() if line.startswith("# ")
    )
    assert f">{html.escape(first[2:], quote=False)}<" in page
    assert 'href="docs/' not in page  # the README's docs/X.md links point at the pages
    assert (site / "changelog" / "index.html").is_file()
    assert (site / "benchmarks" / "index.html").is_file()
