"""The diff as one self-contained HTML page: inline CSS, the data as JSON, and a script that
draws the topics table and, for the topic opened, the two rankings side by side. Nothing
is fetched, so the page opens from ``file://``, a mail attachment or a CI artefact.

Keys: ``j``/``k`` or the arrows move through the topics (the topic under the cursor is
opened), ``/`` goes to the filter box, ``Escape`` leaves it, ``s`` changes the sort
(difference, |difference|, RBO, tau_AP, topic). The mouse: a click on a topic opens it, a
click on a column header sorts by it, a click on a document shows its text when one was
given.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from .model import DiffData as Diff


@lru_cache(maxsize=2)
def _asset(name: str) -> str:
    """The page's stylesheet (``page.css``) or script (``page.js``), shipped beside this
    module."""
    return (resources.files("cwlkit.rundiff") / name).read_text(encoding="utf-8")


def _floats(a: Any, digits: int | None = None) -> list[float | None]:
    """A JSON-ready list: NaN as null, rounded to ``digits`` when given."""
    out: list[float | None] = []
    for v in np.asarray(a, dtype=np.float64).ravel().tolist():
        if math.isnan(v):
            out.append(None)
        else:
            out.append(round(v, digits) if digits is not None else v)
    return out


def page_data(d: Diff) -> dict[str, Any]:
    """Everything the page's script reads, as plain JSON types."""
    labels = [
        [None if math.isnan(v) else (int(v) if v == int(v) else v) for v in side.ravel().tolist()]
        for side in d.labels
    ]
    return {
        "measure": d.measure,
        "runs": list(d.runs),
        "depth": d.depth,
        "interval": d.interval,
        "p": d.p,
        "topics": d.topics,
        "queries": [d.queries.get(t, "") for t in d.topics] if d.queries else None,
        "values": [_floats(d.values[0]), _floats(d.values[1])],
        "low": [_floats(d.low[0]), _floats(d.low[1])],
        "high": [_floats(d.high[0]), _floats(d.high[1])],
        "rbo": _floats(d.rbo),
        "tau": _floats(d.tau_ap),
        "docs": [side.ravel().tolist() for side in d.docs],
        "labels": labels,
        "contrib": [_floats(side, 6) for side in d.contributions],
        "other": [side.ravel().tolist() for side in d.other_rank],
        "texts": d.texts or None,
        "contribution": _contribution_note(d),
    }


def _interval_note(d: Diff) -> str:
    if d.interval == "residual":
        return (
            f"Each run's interval runs from its {escape(d.measure)} to that value plus its "
            "residual: what the unjudged documents and the ranks past the run could add at "
            "most if judged at the top grade."
        )
    return (
        f"{escape(d.measure)} has no residual: each run's interval runs between its value "
        "with every unjudged ranked document non-relevant and with every one relevant at the "
        "qrels' top label."
    )


def render_html(d: Diff, *, title: str | None = None) -> str:
    """The page (see the module)."""
    a, b = (escape(r) for r in d.runs)
    delta = d.delta
    wins, losses = int((delta > 0).sum()), int((delta < 0).sum())
    heading = escape(title) if title else f"{a} vs {b}: {escape(d.measure)}"
    data = json.dumps(page_data(d), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    data = data.replace("</", "<\\/")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>{heading}</title><style>{_asset("page.css")}</style></head>
<body>
<header>
<h1>{heading}</h1>
<p class="meta"><span class="ra">A</span> {a} · mean <b>{np.mean(d.values[0]):.4f}</b> ·
<span class="rb">B</span> {b} · mean <b>{np.mean(d.values[1]):.4f}</b> ·
B better on <b>{wins}</b>, worse on <b>{losses}</b> of {len(d.topics)} topics ·
decided by the judgements on <b>{int(d.decided.sum())}</b></p>
<div class="tools"><input id="filter" type="search" placeholder="filter topics (/)"
aria-label="filter topics">
<label>sort <select id="sort" aria-label="sort">
<option value="delta:d">B − A, largest first</option>
<option value="delta:a">B − A, smallest first</option>
<option value="absdelta:d">|B − A|</option><option value="rbo:a">RBO, lowest first</option>
<option value="rbo:d">RBO, highest first</option><option value="tau:a">τ_AP, lowest first</option>
<option value="tau:d">τ_AP, highest first</option><option value="topic:a">topic</option>
<option value="topic:d">topic, descending</option><option value="a:d">A</option>
<option value="a:a">A, ascending</option><option value="b:d">B</option>
<option value="b:a">B, ascending</option><option value="absdelta:a">|B − A|, smallest first</option>
<option value="decided:d">decided first</option><option value="decided:a">undecided first</option>
</select></label>
<span id="count"></span>
<span class="keys"><kbd>j</kbd>/<kbd>k</kbd> or <kbd>↓</kbd>/<kbd>↑</kbd> move ·
<kbd>/</kbd> filter · <kbd>s</kbd> sort · click a document for its text</span></div>
</header>
<div class="panes">
<div class="list"><table id="topics"><thead><tr><th class="l" data-k="topic">topic</th>
<th data-k="a" title="{a}">A</th><th data-k="b" title="{b}">B</th><th data-k="delta">B − A</th>
<th data-k="rbo" title="rank-biased overlap, p = {d.p:g}">RBO</th>
<th data-k="tau" title="tau_AP of B's order against A's">τ<sub>AP</sub></th>
<th data-k="decided" title="decided by the judgements">dec.</th></tr></thead>
<tbody id="tbody"></tbody></table></div>
<div class="detail"><div id="detail"><p class="empty">No topic.</p></div>
<p class="legend">{_interval_note(d)} The contribution of a rank is {escape(_contribution_note(d))}.
“▲ 3” is the document's rank in the other run; “only”: the other run does not retrieve it;
a dashed “?” label: unjudged. RBO (p = {d.p:g}) is extrapolated over the full rankings;
τ<sub>AP</sub> compares B's order with A's on the documents both retrieve.</p></div>
</div>
<script id="data" type="application/json">{data}</script>
<script>{_asset("page.js")}</script>
</body></html>
"""


def _contribution_note(d: Diff) -> str:
    """How the contributions were computed, in words."""
    if d.cwl:
        return "W(i) × the gain at rank i (the C/W/L weight of the rank times its gain)"
    return "the change in the measure when rank i is added to the ranks above it"
