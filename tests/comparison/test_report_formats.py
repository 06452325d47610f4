"""``cwlkit.report``: the API (each run evaluated once), and the HTML, LaTeX, Markdown, CSV and
JSON renderings of one report, checked against its ReportTable."""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import numpy as np
import pytest
from conftest import DATA

import cwlkit
from cwlkit.errors import ParamError
from cwlkit.results import Results

WEB = DATA / "web2012"
QRELS = str(WEB / "qrels.web.151-200.txt")
RUNS = [str(WEB / "runs" / f"web2012.{n}.run.gz") for n in ("ql.cata", "rm.cata", "ql.catb")]
NAMES = [f"web2012.{n}" for n in ("ql.cata", "rm.cata", "ql.catb")]  # report.run_names
MEASURES = ["P@10", "AP", "INST(T=2)"]


@pytest.fixture(scope="module")
def rep():
    return cwlkit.report(
        QRELS, RUNS, MEASURES, baseline=NAMES[0], correction="holm", gain="linear", anova=True
    )


@pytest.fixture(scope="module")
def rep_pairwise():
    return cwlkit.report(QRELS, RUNS, MEASURES, test="wilcoxon", gain="linear")


# ------------------------------------------------------------------------------- API


def test_each_run_is_evaluated_once(monkeypatch):
    from cwlkit.plan import Plan

    calls = {"build": 0}
    build = Plan.build

    def count_build(self, *args, **kwargs):
        calls["build"] += 1
        return build(self, *args, **kwargs)

    monkeypatch.setattr(Plan, "build", count_build)
    r = cwlkit.report(QRELS, RUNS, MEASURES, gain="linear")
    assert calls == {"build": 3}  # one batch per run gives the scores and the PR curve
    assert set(r.pr_curves) == set(NAMES) and r.levels is not None and len(r.levels) == 11


def test_jobs_give_the_same_report():
    one = cwlkit.report(QRELS, RUNS, MEASURES, gain="linear", jobs=1)
    two = cwlkit.report(QRELS, RUNS, MEASURES, gain="linear", jobs=2)
    assert one.render("json") == two.render("json")
    for name in NAMES:
        np.testing.assert_array_equal(one.pr_curves[name], two.pr_curves[name])


def test_report_equals_evaluate_then_report_table(rep):
    from cwlkit.stats import report_table

    scored = cwlkit.evaluate(QRELS, RUNS, MEASURES, gain="linear").values()
    res = dict(zip(NAMES, scored, strict=True))
    t = report_table(res, baseline=NAMES[0], correction="holm", anova=True)
    np.testing.assert_array_equal(rep.table.mean, t.mean)
    np.testing.assert_array_equal(rep.table.p_adjusted, t.p_adjusted)
    # from Results directly (no qrels): the same table, no curves
    r2 = cwlkit.report(None, res, baseline=NAMES[0], correction="holm")
    np.testing.assert_array_equal(r2.table.p_value, t.p_value)
    assert r2.pr_curves == {}


def test_pr_curves_are_the_mean_over_the_report_topics(rep):
    curve = cwlkit.pr_curve(QRELS, RUNS[2])
    np.testing.assert_allclose(rep.pr_curves[NAMES[2]], curve.mean_interpolated, atol=1e-15)


def test_report_is_a_function():
    import cwlkit.formats.gdeval  # noqa: F401  (no subpackage rebinds cwlkit.report)
    from cwlkit.comparison.build import Report, report

    assert cwlkit.report is report

    r = cwlkit.report(QRELS, RUNS[:2], ["P@10"], curves=False)
    assert isinstance(r, Report)


def test_import_stays_light():
    code = (
        "import cwlkit, sys; cwlkit.report; "
        "print(sorted(m for m in sys.modules if m.startswith(('scipy', 'matplotlib', 'tqdm'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[]", out.stderr


def test_errors():
    with pytest.raises(ParamError, match="at least 2 runs"):
        cwlkit.report(QRELS, RUNS[:1], ["P@10"])
    with pytest.raises(ParamError, match="unknown report format"):
        cwlkit.report(QRELS, RUNS[:2], ["P@10"], curves=False).render("docx")
    with pytest.raises(ParamError, match="cannot tell the report format"):
        cwlkit.report(QRELS, RUNS[:2], ["P@10"], curves=False).save("/tmp/x.docx")


def test_progress_bar_only_when_asked(capfd, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setenv("CWLKIT_PROGRESS", "1")
    cwlkit.report(QRELS, RUNS, ["P@10"], curves=False)
    err = capfd.readouterr().err
    assert "runs:" in err and "/3 " in err  # tqdm draws, then clears the line
    monkeypatch.delenv("CWLKIT_PROGRESS")
    cwlkit.report(QRELS, RUNS, ["P@10"], curves=False)  # stderr is not a terminal here
    assert capfd.readouterr().err == ""


def test_progress_bar_over_permutations(capfd, monkeypatch):
    pytest.importorskip("tqdm")
    from cwlkit.stats import randomization_test

    monkeypatch.setenv("CWLKIT_PROGRESS", "1")
    monkeypatch.setattr("cwlkit.stats.tests._CHUNK_CELLS", 50 * 100)  # 100 samples a chunk
    randomization_test(np.arange(50.0), np.zeros(50), samples=1000)
    err = capfd.readouterr().err
    assert "randomization test" in err and "/1000 " in err


# ------------------------------------------------------------------------------ HTML


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.stack: list[str] = []
        self.body_rows: list[dict] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "tr" and "tbody" in self.stack and "results" in self._tables():
            self.body_rows.append(a)
        self.stack.append(tag)

    def _tables(self):
        return [a.get("id") for t, a in self.tags if t == "table"][-1:]

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass


def test_html_is_self_contained_with_one_row_per_run(rep):
    html = rep.to_html()
    page = _Page()
    page.feed(html)
    assert [r["data-run"] for r in page.body_rows] == NAMES
    assert len(page.ids) == len(set(page.ids))  # several inline SVGs, no id clashes
    for tag, a in page.tags:
        for attr in ("src", "href"):
            v = a.get(attr, "") or ""
            assert not re.match(r"(https?:)?//", v), (tag, attr, v)
        assert not (tag == "link" and a.get("rel") == "stylesheet")
        assert not (tag == "script" and "src" in a)
    assert "<svg" in html and html.count("<figure>") == 3 + 1 + 1 + 1  # 3 diffs, box, PR, ED
    assert "Two-way ANOVA" in html and "sort by this column" in html
    assert "significantly better / worse than the baseline" in html  # the legend


def test_html_without_plots_and_pairwise(rep_pairwise):
    html = rep_pairwise.to_html(plots=False)
    assert "<svg" not in html and '<span class="letter">c</span>' in html
    t = rep_pairwise.table
    assert f'<sup class="mk letters">{t.marks(2, 0)}</sup>' in html


# ----------------------------------------------------------------------------- LaTeX


def test_latex_booktabs_bold_and_superscripts(rep, rep_pairwise):
    for r in (rep, rep_pairwise):
        t = r.table
        tex = r.to_latex()
        assert "\\toprule" in tex and "\\midrule" in tex and "\\bottomrule" in tex
        cap = re.search(r"\\caption\{(.*)\}\n", tex).group(1)
        assert "two-sided" in cap and "$\\alpha = 0.05$" in cap
        body = tex.split("\\midrule")[1].split("\\bottomrule")[0].strip().splitlines()
        assert len(body) == len(t.runs)
        for i, line in enumerate(body):
            cells = line.strip().rstrip("\\").strip().split(" & ")
            vals = cells[-len(t.measures) :]
            for j, cell in enumerate(vals):
                assert (f"\\textbf{{{t.mean[i, j]:.4f}}}" in cell) == (i in t.best(j))
                marks = t.marks(i, j)
                if t.pairwise:
                    assert cell.endswith(f"$^{{{marks}}}$") == bool(marks)
                elif marks:
                    assert cell.endswith(
                        "$^{\\uparrow}$" if t.delta[i, j] > 0 else "$^{\\downarrow}$"
                    )
    assert "Holm correction" in rep.to_latex()
    assert "Wilcoxon signed-rank test" in rep_pairwise.to_latex()


def test_latex_escapes_names():
    vals = np.array([[0.1, 0.2, 0.3]])
    res = {
        "a_run%1": Results(vals, ["P@10"], ["1", "2", "3"]),
        "b&run#2": Results(vals + 0.1, ["P@10"], ["1", "2", "3"]),
    }
    tex = cwlkit.report(None, res, baseline="a_run%1").to_latex()
    assert "a\\_run\\%1 (baseline)" in tex and "b\\&run\\#2" in tex


# ----------------------------------------------------- Markdown, CSV, JSON, save()


def test_markdown(rep, rep_pairwise):
    md = rep.to_markdown()
    lines = md.splitlines()
    assert lines[0].startswith("| Run | P@10 | Δ% | W/T/L | AP |")
    rows = [ln for ln in lines[2:] if ln.startswith("|")]
    assert len(rows) == 3 and "(baseline)" in rows[0]
    t = rep.table
    assert f"{t.wins[2, 0]}/{t.ties[2, 0]}/{t.losses[2, 0]}" in rows[2]
    assert "▲ / ▼" in md
    mdp = rep_pairwise.to_markdown()
    assert "<sup>" + rep_pairwise.table.marks(2, 1) + "</sup>" in mdp


def test_csv_full_precision(rep):
    rows = list(csv.DictReader(io.StringIO(rep.to_csv())))
    t = rep.table
    assert len(rows) == len(t.runs) * len(t.measures)
    for row in rows:
        i, j = t.runs.index(row["run"]), t.measures.index(row["measure"])
        assert float(row["mean"]) == t.mean[i, j]
        assert float(row["p_adjusted"]) == t.p_adjusted[i, j] or row["run"] == NAMES[0]
        assert int(row["wins"]) == t.wins[i, j]


def test_json_and_save(rep, tmp_path):
    doc = json.loads(rep.to_json())
    assert doc["baseline"] == NAMES[0] and doc["correction"] == "holm"
    assert len(doc["rows"]) == 9 and set(doc["anova"]) == set(MEASURES)
    assert len(doc["pr_curves"]["levels"]) == 11
    for suffix, fmt in (
        (".html", "html"),
        (".tex", "latex"),
        (".md", "markdown"),
        (".json", "json"),
    ):
        path = tmp_path / f"r{suffix}"
        assert rep.save(path) == fmt and path.stat().st_size > 100


def test_latex_compiles(rep, rep_pairwise, tmp_path):
    """With pdflatex on the PATH (Debian's texlive-latex-recommended has booktabs)."""
    import shutil

    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex is not installed (apt-get install texlive-latex-recommended)")
    body = rep.to_latex() + "\n" + rep_pairwise.to_latex()
    doc = "\\documentclass{article}\n\\usepackage{booktabs}\n\\begin{document}\n"
    (tmp_path / "t.tex").write_text(doc + body + "\\end{document}\n")
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "t.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:]
    assert (tmp_path / "t.pdf").stat().st_size > 1000


def test_html_figures_and_table_fit_a_1400_px_window():
    """Issue 21: the report with 4 measures overflowed a 1400 px window. Every figure is
    scaled to the page's width (max-width: 100%), every table sits in a container that
    scrolls rather than widening the page, and the widest figure's natural width fits 1400 px
    minus the page's padding. (The browser test measures the laid-out page.)"""
    from cwlkit.comparison.html import CSS

    rules = {
        sel.strip(): body
        for sel, body in re.findall(r"([^{}]+)\{([^}]*)\}", CSS)
        if not sel.strip().startswith(":root")
    }
    assert "max-width: 100%" in rules["figure svg"] and "height: auto" in rules["figure svg"]
    assert "overflow-x: auto" in rules[".scroll"]
    pad = float(re.search(r"padding: \S+ (\d+)px", rules["main"]).group(1))
    runs = sorted(str(p) for p in (WEB / "runs").glob("*.run.gz"))
    four = ["P@10", "AP", "nDCG@10", "INST(T=2)"]
    html = cwlkit.report(
        QRELS, runs, four, gain="linear", baseline="web2012.ql.cata.run.gz", anova=True
    ).to_html()
    widths = [float(w) * 4 / 3 for w in re.findall(r'<svg[^>]* width="([\d.]+)pt"', html)]
    assert len(widths) >= 7 and max(widths) <= 1400 - 2 * pad  # px = pt x 96/72
    # every table is inside a scrolling container
    assert html.count("<table") == html.count('<div class="scroll"><table')
