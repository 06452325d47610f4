"""The HTML report in a real browser: headless Chromium (Debian's package, installed by the
session fixture when missing and allowed, see chromium_setup.py; the tests skip with the
reason otherwise).

- the page loads with no console message at all (errors, failed loads: every host name is
  mapped to nowhere, so a network fetch would fail and be logged), and the detector is
  shown to catch a broken page;
- the table has one row per run, and clicking a column header sorts it;
- a screenshot is taken (docs/img/report.png, refreshed with CWLKIT_UPDATE_SCREENSHOTS=1 or
  when missing; a temporary file otherwise) and checked to be a non-blank PNG.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from chromium_setup import find_chromium
from conftest import DATA, REPO

import cwlkit

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
SCREENSHOT = REPO / "docs" / "img" / "report.png"


@pytest.fixture(scope="session")
def chromium():
    path, why = find_chromium()
    if path is None:
        pytest.skip(why)
    return path


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    """The docs' worked example: the 8 Web 2012 runs against ql.cata."""
    rep = cwlkit.report(
        QRELS,
        RUNS,
        ["P@10", "AP", "nDCG@10", "INST(T=2)"],
        gain="linear",
        baseline="web2012.ql.cata.run.gz",
        correction="holm",
        anova=True,
        title="TREC 2012 Web Track: 8 runs against ql.cata",
    )
    path = tmp_path_factory.mktemp("html") / "report.html"
    rep.save(path)
    return rep, path


def _browse(chromium: str, tmp: Path, *args: str, timeout: float = 180.0):
    cmd = [
        chromium,
        "--headless",
        "--no-sandbox",  # root in a container
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--disable-dev-shm-usage",
        "--host-resolver-rules=MAP * ~NOTFOUND",  # any network fetch fails (and is logged)
        f"--user-data-dir={tmp / 'profile'}",
        "--enable-logging=stderr",
        "--v=0",
        *args,
    ]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def _console(stderr: str) -> list[str]:
    """Console messages Chromium logged (``INFO:CONSOLE(...)] "message", source: ...``)."""
    return [ln for ln in stderr.splitlines() if re.search(r":CONSOLE[:(\]]", ln)]


class _Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.in_results = False
        self.in_body = False
        self.runs: list[str] = []
        self.body_attrs: dict = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table":
            self.in_results = a.get("id") == "results"
        if tag == "body":
            self.body_attrs = a
        if self.in_results and tag == "tbody":
            self.in_body = True
        if self.in_body and tag == "tr":
            self.runs.append(a["data-run"])

    def handle_endtag(self, tag):
        if tag == "tbody":
            self.in_body = False
        if tag == "table":
            self.in_results = False


def _rows(dom: str) -> _Rows:
    p = _Rows()
    p.feed(dom)
    return p


def test_loads_without_console_messages_one_row_per_run(chromium, page, tmp_path):
    rep, path = page
    proc = _browse(chromium, tmp_path, "--dump-dom", path.as_uri())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert _console(proc.stderr) == []
    rows = _rows(proc.stdout)
    assert rows.runs == rep.table.runs and len(rows.runs) == 8


def test_the_console_check_catches_errors(chromium, tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!DOCTYPE html><html><head><link rel="icon" href="data:,"></head><body>'
        '<img src="https://example.invalid/x.png"><script>undefinedFunction();</script>'
        "</body></html>"
    )
    proc = _browse(chromium, tmp_path, "--dump-dom", bad.as_uri())
    msgs = _console(proc.stderr)
    assert any("undefinedFunction" in m for m in msgs), proc.stderr[-2000:]


def test_clicking_a_header_sorts_the_table(chromium, page, tmp_path):
    rep, path = page
    t = rep.table
    j = t.measures.index("AP")
    col = 1 + j * 5  # the run cell, then mean, Δ%, W/T/L, p, d per measure
    probe = (
        "<script>"
        "function order(){return Array.prototype.map.call("
        "document.querySelectorAll('#results tbody tr'),function(r){return r.dataset.run;})"
        ".join(',');}"
        f"var th=document.querySelector('th[data-col=\"{col}\"]');"
        "th.click(); document.body.setAttribute('data-first', order());"
        "th.click(); document.body.setAttribute('data-second', order());"
        "</script></body>"
    )
    html = path.read_text().replace("</body>", probe)
    probed = tmp_path / "probe.html"
    probed.write_text(html)
    proc = _browse(chromium, tmp_path, "--dump-dom", probed.as_uri())
    assert _console(proc.stderr) == []
    attrs = _rows(proc.stdout).body_attrs
    desc = sorted(t.runs, key=lambda r: -t.mean[t.runs.index(r), j])
    assert attrs["data-first"].split(",") == desc
    assert attrs["data-second"].split(",") == desc[::-1]


def test_screenshot(chromium, page, tmp_path):
    _, path = page
    update = os.environ.get("CWLKIT_UPDATE_SCREENSHOTS") == "1" or not SCREENSHOT.exists()
    shot = tmp_path / "report.png"
    proc = _browse(
        chromium,
        tmp_path,
        "--hide-scrollbars",
        "--window-size=1600,1250",
        f"--screenshot={shot}",
        path.as_uri(),
    )
    assert proc.returncode == 0 and shot.exists(), proc.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1600, 1250)
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - pillow comes with matplotlib
        pass
    else:
        im = Image.open(shot).convert("L")
        lo, hi = im.getextrema()
        assert hi - lo > 100  # not blank: text and plots on a white page
    if update:
        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, SCREENSHOT)


@pytest.mark.parametrize("width", [1400, 1280])
def test_four_measures_fit_the_window(chromium, page, tmp_path, width):
    """Issue 21: the report with 4 measures (and a baseline: 5 columns each) overflowed a
    1400 px window. Laid out by Chromium: the page never scrolls sideways, the results table
    fits its container at 1400 px (and scrolls inside it, not the page, when narrower), and
    every figure fits its container."""
    _, path = page
    probe = (
        "<script>window.addEventListener('load',function(){"
        "var t=document.getElementById('results');"
        "var over=[];document.querySelectorAll('figure svg').forEach(function(s){"
        "if(s.getBoundingClientRect().width>s.parentNode.clientWidth+0.5)over.push(s.id);});"
        "document.body.setAttribute('data-page',document.documentElement.scrollWidth);"
        "document.body.setAttribute('data-table',t.scrollWidth+','+t.parentNode.clientWidth);"
        "document.body.setAttribute('data-over',over.join(','));"
        "});</script></body>"
    )
    probed = tmp_path / "probe.html"
    probed.write_text(path.read_text().replace("</body>", probe))
    proc = _browse(
        chromium,
        tmp_path,
        "--hide-scrollbars",
        f"--window-size={width},900",
        "--virtual-time-budget=5000",
        "--dump-dom",
        probed.as_uri(),
    )
    attrs = _rows(proc.stdout).body_attrs
    assert int(attrs["data-page"]) <= width
    table, room = map(int, attrs["data-table"].split(","))
    if width == 1400:
        assert table <= room, (table, room)
    assert attrs["data-over"] == ""
