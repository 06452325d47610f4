"""The comparison report as one self-contained HTML page.

Everything is inline: the CSS, the plots (SVG written by matplotlib), and a few lines of
script that sort the table when a column header is clicked (or focused and Enter pressed).
The page fetches nothing, not even a favicon, so it opens the same offline, from a mail
attachment or from a CI artefact.
"""

from __future__ import annotations

import importlib.util
import math
from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from .model import ReportData as Report

CSS = """
:root { --fg: #212529; --muted: #6c757d; --line: #dee2e6; --head: #f1f3f5;
        --up: #2b8a3e; --down: #c92a2a; --best: #fff3bf; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: #fff;
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width: 1640px; margin: 0 auto; padding: 20px 16px 48px; }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 32px 0 8px; border-bottom: 1px solid var(--line); }
p.meta { color: var(--muted); margin: 0 0 16px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 5px; border-bottom: 1px solid var(--line); white-space: nowrap; }
#results { font-size: 12px; }
thead th { background: var(--head); font-weight: 600; text-align: center; }
thead th.group { border-left: 2px solid #fff; }
th[data-col] { cursor: pointer; user-select: none; }
th[data-col]:hover, th[data-col]:focus { background: #e9ecef; outline: none; }
th[aria-sort="descending"]::after { content: " \\25BE"; }
th[aria-sort="ascending"]::after { content: " \\25B4"; }
td.num { text-align: right; }
td.run { text-align: left; font-weight: 500; }
td.first { border-left: 2px solid var(--line); }
tr.baseline td { background: #f8f9fa; }
td.best .v { font-weight: 700; }
td.best { background: var(--best); }
.letter { display: inline-block; min-width: 1.4em; color: var(--muted); font-weight: 600; }
.tag { color: var(--muted); font-size: 0.8em; margin-left: 4px; }
sup.mk { font-size: 0.75em; margin-left: 2px; font-weight: 600; }
sup.up { color: var(--up); } sup.down { color: var(--down); } sup.letters { color: #1c7ed6; }
.ci { display: block; color: var(--muted); font-size: 0.75em; }
.pos { color: var(--up); } .neg { color: var(--down); }
ul.legend { color: #343a40; padding-left: 20px; }
figure { margin: 16px 0 24px; }
figure { max-width: 100%; overflow-x: auto; }
figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 0.9em; }
details { margin: 8px 0; } summary { cursor: pointer; color: #1c7ed6; }
table.small td, table.small th { font-size: 0.9em; padding: 2px 6px; }
"""

SCRIPT = """
(function () {
  var table = document.getElementById("results");
  if (!table) { return; }
  var body = table.tBodies[0];
  var heads = table.querySelectorAll("th[data-col]");
  function key(row, col) {
    var cell = row.cells[col];
    var v = cell ? cell.getAttribute("data-v") : null;
    return v === null ? (cell ? cell.textContent : "") : parseFloat(v);
  }
  function sortBy(th) {
    var col = parseInt(th.getAttribute("data-col"), 10);
    var numeric = th.getAttribute("data-type") !== "text";
    var was = th.getAttribute("aria-sort");
    var desc = was ? was === "ascending" : numeric;
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a, col), y = key(b, col);
      if (numeric) {
        var nx = isNaN(x), ny = isNaN(y);
        if (nx || ny) { return nx === ny ? 0 : (nx ? 1 : -1); }
        return desc ? y - x : x - y;
      }
      return desc ? String(y).localeCompare(String(x)) : String(x).localeCompare(String(y));
    });
    rows.forEach(function (r) { body.appendChild(r); });
    heads.forEach(function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
  }
  heads.forEach(function (th) {
    th.setAttribute("tabindex", "0");
    th.setAttribute("title", "sort by this column");
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(th); }
    });
  });
})();
"""


def _num(x: float | None, digits: int = 4) -> str:
    if x is None or not math.isfinite(x):
        return "–" if x is None or math.isnan(x) else ("∞" if x > 0 else "−∞")
    return f"{x:.{digits}f}"


def _p(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "–"
    if x == 0:
        return "0"
    return f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}"


def _v(x: float | None) -> str:
    """A sort key for data-v (NaN sorts last)."""
    return "NaN" if x is None or not math.isfinite(x) else repr(float(x))


def _sign_class(x: float | None) -> str:
    if x is None or not math.isfinite(x) or x == 0:
        return ""
    return ' class="pos"' if x > 0 else ' class="neg"'


def results_table(rep: Report) -> str:
    """The sortable ``<table id="results">``: one row per run."""
    from ..stats.report import MARK_BETTER, fmt_relative

    t = rep.table
    b = t.base_index
    show_p = not t.pairwise
    p_head = "p" if t.correction == "none" or t.test == "tukey" else "p adj."
    sub = ["mean", "Δ%", "W/T/L", *([p_head] if show_p else []), "d"]
    width = len(sub)
    conf = f"{100 * t.confidence:g}%"
    h1 = ['<th rowspan="2" data-col="0" data-type="text" scope="col">Run</th>']
    h1 += [
        f'<th class="group" colspan="{width}" scope="colgroup">{escape(m)}</th>' for m in t.measures
    ]
    h2 = []
    col = 1
    for _ in t.measures:
        for s in sub:
            h2.append(f'<th data-col="{col}" scope="col">{escape(s)}</th>')
            col += 1
    rows = []
    best = [set(t.best(j)) for j in range(len(t.measures))]
    for i, run in enumerate(t.runs):
        is_base = i == b
        tag = ""
        if is_base and rep.has_baseline:
            tag = f' <span class="tag">{"reference" if t.pairwise else "baseline"}</span>'
        letter = f'<span class="letter">{t.letters[i]}</span>' if t.pairwise else ""
        cells = [
            f'<td class="run" data-v="{escape(run)}" title="{escape(run)}">'
            f"{letter}{escape(run)}{tag}</td>"
        ]
        for j, _m in enumerate(t.measures):
            mean = float(t.mean[i, j])
            marks = t.marks(i, j)
            if marks:
                kind = "letters" if t.pairwise else ("up" if marks == MARK_BETTER else "down")
                marks_html = f'<sup class="mk {kind}">{escape(marks)}</sup>'
            else:
                marks_html = ""
            cls = "num first" + (" best" if i in best[j] else "")
            tip = f"{conf} CI [{_num(t.ci_low[i, j])}, {_num(t.ci_high[i, j])}]"
            if not is_base:
                tip += f"; p = {_p(t.p_value[i, j])}"
                if t.correction != "none":
                    tip += f", adjusted {_p(t.p_adjusted[i, j])}"
            cells.append(
                f'<td class="{cls}" data-v="{_v(mean)}" title="{escape(tip)}">'
                f'<span class="v">{_num(mean)}</span>{marks_html}'
                f'<span class="ci">[{_num(t.ci_low[i, j], 3)}, {_num(t.ci_high[i, j], 3)}]</span>'
                "</td>"
            )
            if is_base:
                cells += ['<td class="num" data-v="NaN">–</td>'] * (width - 1)
                continue
            rel = float(t.relative[i, j])
            cells.append(
                f'<td class="num" data-v="{_v(rel)}"><span{_sign_class(rel)}>'
                f"{escape(fmt_relative(rel))}</span></td>"
            )
            w, ti, lo = int(t.wins[i, j]), int(t.ties[i, j]), int(t.losses[i, j])
            cells.append(
                f'<td class="num" data-v="{w - lo}" title="{w} wins, {ti} ties, {lo} losses">'
                f"{w}/{ti}/{lo}</td>"
            )
            if show_p:
                p = float(t.p_adjusted[i, j])
                cells.append(f'<td class="num" data-v="{_v(p)}">{_p(p)}</td>')
            e = float(t.effect[i, j])
            cells.append(f'<td class="num" data-v="{_v(e)}">{_num(e, 2)}</td>')
        row_cls = ' class="baseline"' if is_base and rep.has_baseline else ""
        rows.append(f'<tr{row_cls} data-run="{escape(run)}">' + "".join(cells) + "</tr>")
    return (
        '<div class="scroll"><table id="results">\n<thead>\n<tr>'
        + "".join(h1)
        + "</tr>\n<tr>"
        + "".join(h2)
        + "</tr>\n</thead>\n<tbody>\n"
        + "\n".join(rows)
        + "\n</tbody>\n</table></div>"
    )


def _comparisons_table(rep: Report) -> str:
    t = rep.table
    conf = f"{100 * t.confidence:g}%"
    head = ["measure", "run", "vs", "diff", f"{conf} CI", "p", "p adjusted", "significant"]
    rows = []
    for r in t.comparisons:
        rows.append(
            "<tr>"
            + f"<td>{escape(r['measure'])}</td><td>{escape(r['run'])}</td>"
            + f"<td>{escape(r['baseline'])}</td>"
            + f'<td class="num">{r["diff"]:+.4f}</td>'
            + f'<td class="num">[{_num(r["ci_low"])}, {_num(r["ci_high"])}]</td>'
            + f'<td class="num">{_p(r["p_value"])}</td>'
            + f'<td class="num">{_p(r["p_adjusted"])}</td>'
            + f"<td>{'yes' if r['significant'] else ''}</td></tr>"
        )
    n = len(rows)
    return (
        f"<details><summary>All {n} comparison{'s' if n != 1 else ''} "
        "(differences, intervals, p-values)</summary>"
        '<div class="scroll"><table class="small"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div></details>"
    )


def _anova_table(rep: Report) -> str:
    t = rep.table
    head = ["measure", "F (systems)", "df", "p (systems)", "partial η²", "F (topics)", "p (topics)"]
    rows = []
    for m, a in t.anova.items():
        df = f"{a.df['system']:g}, {a.df['residual']:g}"
        rows.append(
            f"<tr><td>{escape(m)}</td>"
            f'<td class="num">{_num(a.F["system"], 3)}</td><td class="num">{df}</td>'
            f'<td class="num">{_p(a.p_value["system"])}</td>'
            f'<td class="num">{_num(a.eta_sq_partial, 3)}</td>'
            f'<td class="num">{_num(a.F["topic"], 3)}</td>'
            f'<td class="num">{_p(a.p_value["topic"])}</td></tr>'
        )
    return (
        "<h2>Two-way ANOVA (topics × systems)</h2>"
        "<p>score ~ system + topic, one score per topic and system; the F test of the systems "
        "asks whether their means differ once topic difficulty is taken out.</p>"
        '<div class="scroll"><table class="small"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )


def _deciding_table(rep: Report) -> str:
    """The topics whose removal flips each comparison's significance (linked into the
    comparison's diff page when there is one)."""
    t = rep.table
    if t.deciding is None:
        from ..stats.decide import MAX_TOPICS

        return (
            "<h2>Topics that decide</h2><p>Not computed: it tests every comparison once per "
            f"topic left out, and the report has {len(t.topics)} topics (the limit is "
            f"{MAX_TOPICS}, at least 3).</p>"
        )
    rows = []
    for r in t.deciding:
        href = rep.diff_links.get((r["run"], r["baseline"], r["measure"]))
        topics = [
            f'<a href="{escape(href)}#topic={escape(x)}">{escape(x)}</a>' if href else escape(x)
            for x in r["topics"]
        ]
        rows.append(
            f"<tr><td>{escape(r['measure'])}</td><td>{escape(r['run'])}</td>"
            f"<td>{escape(r['baseline'])}</td><td>{'yes' if r['significant'] else 'no'}</td>"
            f"<td>{', '.join(topics) or '-'}</td></tr>"
        )
    head = ["measure", "run", "vs", "significant", "topics whose removal flips it"]
    return (
        "<h2>Topics that decide</h2>"
        "<p>For each comparison, the topics without which its significance (at alpha, after "
        "the correction) would flip: each topic is left out in turn and every comparison "
        "tested and corrected again."
        + (" A topic links to the two runs side by side." if rep.diff_links else "")
        + "</p>"
        '<div class="scroll"><table class="small"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></div>"
    )


def _risk_table(rep: Report) -> str:
    t = rep.table
    head, rows = t.risk_rows()
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"num" if i >= 2 else ""}">{escape(c)}</td>' for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return (
        "<h2>Risk</h2>"
        f"<p>{escape(t.risk_title())} See the definitions in cwlkit's docs (risk.md).</p>"
        '<div class="scroll"><table class="small"><thead><tr>'
        + "".join(f"<th>{escape(h)}</th>" for h in head)
        + "</tr></thead><tbody>"
        + body
        + "</tbody></table></div>"
    )


def _figures(rep: Report, distribution: str) -> list[tuple[str, str, str]]:
    """``(heading, caption, svg)`` of each plot (:func:`cwlkit.plot.report.report_figures`)."""
    from ..plot.report import figure_svg, report_figures

    figs = report_figures(
        rep.table, levels=rep.levels, pr_curves=rep.pr_curves, distribution=distribution
    )
    return [(head, cap, figure_svg(fig, f"f{k}")) for k, (head, cap, fig) in enumerate(figs, 1)]


def _legend(t) -> list[str]:
    out = t.legend()
    if not t.pairwise:
        adj = "" if t.correction == "none" else f", after the {t.correction} correction"
        out.append(f"p: the p-value of the test against the baseline{adj}.")
    return out


def render_html(rep: Report, *, plots: bool = True, distribution: str = "box") -> str:
    """The whole page."""
    t = rep.table
    title = rep.title or "Evaluation report"
    n_runs, n_topics = len(t.runs), len(t.topics)
    meta = [
        f"{n_runs} runs",
        f"{n_topics} topics (those every run has)",
        escape(t.describe_test()),
    ]
    if rep.source.get("qrels"):
        meta.insert(0, f"qrels {escape(str(rep.source['qrels']))}")
    if not t.pairwise:
        meta.append(f"baseline {escape(t.baseline)}")
    dropped = {k: v for k, v in t.dropped.items() if v}
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<link rel="icon" href="data:,">',
        f"<title>{escape(title)}</title>",
        f"<style>{CSS}</style>",
        "</head>",
        "<body>",
        "<main>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">{" · ".join(meta)}</p>',
        results_table(rep),
        '<ul class="legend">' + "".join(f"<li>{escape(s)}</li>" for s in _legend(t)) + "</ul>",
    ]
    if dropped:
        parts.append(
            "<p>Topics left out because another run lacks them: "
            + ", ".join(f"{escape(k)} ({v})" for k, v in dropped.items())
            + "</p>"
        )
    parts.append(_comparisons_table(rep))
    parts.append(_deciding_table(rep))
    if t.anova:
        parts.append(_anova_table(rep))
    if t.risk:
        parts.append(_risk_table(rep))
    if plots:
        figs = []
        if importlib.util.find_spec("matplotlib") is None:  # pragma: no cover - optional
            parts.append("<p>(Plots need matplotlib: pip install 'cwlkit[report]'.)</p>")
        else:
            figs = _figures(rep, distribution)
        for head, cap, svg in figs:
            parts.append(
                f"<h2>{escape(head)}</h2><figure>{svg}<figcaption>{escape(cap)}</figcaption>"
                "</figure>"
            )
    parts += [f"<script>{SCRIPT}</script>", "</main>", "</body>", "</html>", ""]
    return "\n".join(parts)
