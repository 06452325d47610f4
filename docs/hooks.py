"""MkDocs hooks (mkdocs.yml ``hooks:``): the pages of the site made at build time.

- ``index.md``: the repository's README.md, the front page;
- ``running-examples.md``: docs/README.md (a README in docs/ would otherwise be the index);
- ``catalogue.md``: every measure of the registry (cwlkit.measures.catalogue);
- ``reference.md``: the API reference of ``cwlkit.__all__`` (mkdocstrings, numpy style);
- ``changelog.md``: CHANGELOG.md; ``benchmarks.md``: benchmarks/README.md.

Links are written as they work on the repository (``docs/cwl.md`` from the README,
``../CHANGELOG.md`` from docs/): each relative link is resolved against the file's place in
the repository and pointed at the page that file became. A link to a repository file that
is not in the site (an example script, LICENSE) becomes that path in code; a link to no file
at all is left as written, so that ``mkdocs build --strict`` reports it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from mkdocs.structure.files import File, Files

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"

#: repository file -> the site page it becomes (besides docs/*.md, which stay as they are)
PAGES = {
    "README.md": "index.md",
    "docs/README.md": "running-examples.md",
    "CHANGELOG.md": "changelog.md",
    "benchmarks/README.md": "benchmarks.md",
}

#: a Markdown link or image: [text](target) (no nested brackets, no spaces in the target)
LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^)\s]+)\)")


def on_files(files: Files, config) -> Files:
    """Put the made pages among the site's files."""
    readme = files.get_file_from_path("README.md")
    if readme is not None:  # docs/README.md: a page of its own, not the index
        files.remove(readme)
    for repo_path, site_path in PAGES.items():
        path = REPO / repo_path
        if path.is_file():
            files.append(File.generated(config, site_path, content=path.read_text()))
    files.append(File.generated(config, "catalogue.md", content=_catalogue()))
    files.append(File.generated(config, "reference.md", content=_reference()))
    return files


def on_page_markdown(markdown: str, page, config, files: Files) -> str:
    """Point each relative link at the page its file became (see the module docstring)."""
    site_path = page.file.src_uri
    origin = {v: k for k, v in PAGES.items()}.get(site_path, f"docs/{site_path}")
    if site_path in ("catalogue.md", "reference.md"):
        return markdown
    here = Path(origin).parent
    lines, fenced = [], False
    for line in markdown.splitlines(keepends=True):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        if not fenced:
            line = LINK.sub(lambda m: _relink(m, here, site_path, files), line)
        lines.append(line)
    return "".join(lines)


#: a Sphinx role as the docstrings write it, once rendered: ``:func:`x``` -> :func:<code>x</code>
ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj):<code>~?([^<]*)</code>")


def on_page_content(html: str, page, config, files: Files) -> str:
    """The API reference: the docstrings' Sphinx roles shown as the code they name."""
    if page.file.src_uri != "reference.md":
        return html
    return ROLE.sub(r"<code>\1</code>", html)


def _relink(m: re.Match, here: Path, site_path: str, files: Files) -> str:
    bang, text, target = m.groups()
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith(("#", "/")):
        return m.group(0)  # a URL, an anchor on this page, or an absolute path
    path, _, anchor = target.partition("#")
    repo_path = os.path.normpath(here / path).replace(os.sep, "/")
    if repo_path in PAGES:
        dest = PAGES[repo_path]
    elif repo_path.startswith("docs/") and files.get_file_from_path(repo_path[5:]):
        dest = repo_path[5:]
    elif (REPO / repo_path).exists() and not bang:
        if text and text.strip("`") != repo_path:
            return f"{text} (`{repo_path}`)"
        return f"`{repo_path}`"
    else:
        return m.group(0)  # a broken link: left for --strict to report
    rel = os.path.relpath(dest, os.path.dirname(site_path) or ".").replace(os.sep, "/")
    return f"{bang}[{text}]({rel}{'#' + anchor if anchor else ''})"


def _catalogue() -> str:
    from cwlkit.measures.catalogue import catalogue_markdown

    return catalogue_markdown()


def _reference() -> str:
    """One mkdocstrings block per public name of `cwlkit.__all__`, in alphabetical order."""
    import cwlkit

    out = [
        "# API reference",
        "",
        "Every name of the public namespace (`cwlkit.__all__`), from its docstring. "
        "[The Python API](api.md) shows them at work.",
        "",
    ]
    for name in sorted((n for n in cwlkit.__all__ if n != "__version__"), key=str.lower):
        obj = getattr(cwlkit, name)
        out += [f"::: {obj.__module__}.{obj.__qualname__}", ""]
    return "\n".join(out)
