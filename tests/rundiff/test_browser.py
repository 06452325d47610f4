"""``cwlkit diff``'s page in a real browser (Debian's Chromium, driven by playwright with
the system browser): open it, open topics with the keyboard and the mouse, see both
rankings, filter, sort, show a document's text; and at 1280 and 1400 pixels wide, nothing
overlaps and nothing runs past the window."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from conftest import DATA

import cwlkit

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
WEB = DATA / "web2012"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium on this machine"),
]


@pytest.fixture(scope="module")
def page_file(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("diff")
    queries = folder / "topics.tsv"
    queries.write_text("".join(f"{t}\tquery of topic {t}\n" for t in range(151, 201)))
    d = cwlkit.diff(
        WEB / "qrels.web.151-200.txt",
        WEB / "runs" / "web2012.ql.cata.run.gz",
        WEB / "runs" / "web2012.rm.cata.run.gz",
        "nDCG@10",
        depth=10,
        queries=queries,
    )
    first = d.docs[0, 0, 0]
    docs = folder / "docs.jsonl"
    docs.write_text(json.dumps({"doc_id": first, "text": "the text of the first document"}) + "\n")
    d = cwlkit.diff(
        WEB / "qrels.web.151-200.txt",
        WEB / "runs" / "web2012.ql.cata.run.gz",
        WEB / "runs" / "web2012.rm.cata.run.gz",
        "nDCG@10",
        depth=10,
        queries=queries,
        docs=docs,
    )
    out = folder / "diff.html"
    d.save(out)
    return out


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _open(browser, page_file, width):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on(
        "request",
        lambda r: errors.append(r.url) if not r.url.startswith(("file:", "data:")) else None,
    )
    page.goto(page_file.as_uri())
    page.wait_for_selector("#tbody tr[data-i]")
    return page, errors


def test_navigation(browser, page_file):
    page, errors = _open(browser, page_file, 1280)
    assert page.locator("#tbody tr[data-i]").count() == 50
    first = page.locator("#detail h2").inner_text()
    assert first.startswith("Topic ")
    # both rankings, 10 ranks each
    assert page.locator(".side table.rank").count() == 2
    assert page.locator(".side table.rank tbody tr").count() == 20
    page.keyboard.press("j")
    second = page.locator("#detail h2").inner_text()
    assert second != first
    page.keyboard.press("k")
    assert page.locator("#detail h2").inner_text() == first
    # the mouse: open the fifth topic
    row = page.locator("#tbody tr[data-i]").nth(4)
    topic = row.locator("td").first.inner_text()
    row.click()
    assert page.locator("#detail h2").inner_text() == f"Topic {topic}"
    assert page.locator("#detail .query").inner_text() == f"query of topic {topic}"
    # the filter box: / focuses it
    page.keyboard.press("/")
    page.keyboard.type("17")
    assert page.locator("#tbody tr[data-i]").count() == 10
    assert all(
        "17" in t for t in page.locator("#tbody tr[data-i] td:first-child").all_inner_texts()
    )
    page.keyboard.press("Escape")
    page.locator("#filter").fill("")
    # sort by topic with a click on its header
    page.locator("#topics th[data-k=topic]").first.click()
    topics = page.locator("#tbody tr[data-i] td:first-child").all_inner_texts()
    assert topics == sorted(topics, key=int) or topics == sorted(topics, key=int, reverse=True)
    assert not errors


def test_document_text(browser, page_file):
    page, errors = _open(browser, page_file, 1280)
    page.locator("#topics th[data-k=topic]").first.click()  # topic 151 (A's first document)
    if page.locator("#tbody tr[data-i] td:first-child").first.inner_text() != "151":
        page.locator("#topics th[data-k=topic]").first.click()
    page.locator("#tbody tr[data-i]").first.click()
    page.locator(".side tr.has-text td.doc").first.click()
    assert page.locator(".side tr.text").inner_text().strip() == "the text of the first document"
    assert not errors


def _boxes(page, selector):
    return page.eval_on_selector_all(
        selector,
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })",
    )


def _overlap(a, b) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


@pytest.mark.parametrize("width", [1280, 1400])
def test_layout(browser, page_file, width):
    page, errors = _open(browser, page_file, width)
    # nothing wider than the window
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    panes = _boxes(page, ".list, .detail")
    assert not _overlap(*panes)
    tables = _boxes(page, ".side > div")
    assert len(tables) == 2 and not _overlap(*tables)
    assert max(t[2] for t in tables) <= width
    # no table cell spills out of its ranking table, and the summary items do not overlap
    spill = page.evaluate(
        "[...document.querySelectorAll('.side table')].some(t => t.scrollWidth > t.clientWidth + 1)"
    )
    assert not spill
    # the topics table fits its pane: no column hidden behind a horizontal scroll
    assert page.evaluate(
        "(l => l.scrollWidth <= l.clientWidth + 1)(document.querySelector('.list'))"
    )
    items = _boxes(page, ".summary > span")
    assert not any(_overlap(a, b) for i, a in enumerate(items) for b in items[i + 1 :])
    # the intervals' labels do not overlap each other
    labels = _boxes(page, "svg.iv text")
    assert not any(_overlap(a, b) for i, a in enumerate(labels) for b in labels[i + 1 :])
    page.screenshot(path=str(page_file.with_name(f"diff-{width}.png")))
    assert not errors


def test_a_topic_named_in_the_address_opens(browser, page_file):
    """The report links a deciding topic as diff.html#topic=ID."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(page_file.as_uri() + "#topic=190")
    page.wait_for_selector("#detail h2")
    assert page.locator("#detail h2").inner_text() == "Topic 190"
    assert page.locator("#tbody tr.sel td").first.inner_text() == "190"
