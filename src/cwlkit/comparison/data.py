"""The comparison report as data: CSV (one row per run and measure) and JSON (everything)."""

from __future__ import annotations

import csv
import io
from typing import Any

#: CSV columns, in order (:meth:`cwlkit.stats.ReportTable.to_records`)
CSV_COLUMNS = (
    "run",
    "letter",
    "measure",
    "mean",
    "ci_low",
    "ci_high",
    "baseline",
    "delta",
    "relative",
    "wins",
    "ties",
    "losses",
    "effect_size",
    "p_value",
    "p_adjusted",
    "significant",
    "marks",
    "best",
    "expected_depth",
)


def render_csv(t: Any, *, delimiter: str = ",") -> str:
    """``t``: a :class:`cwlkit.stats.ReportTable`. Floats at full precision, ``nan`` for
    undefined values, ``true``/``false``, an empty cell for the baseline's ``significant``
    (``delimiter="\\t"``: TSV)."""
    from ..stats.render import fmt_exact

    buf = io.StringIO()
    w = csv.writer(buf, delimiter=delimiter, lineterminator="\n")
    w.writerow(CSV_COLUMNS)
    for rec in t.to_records():
        w.writerow([fmt_exact(rec[c]) for c in CSV_COLUMNS])
    return buf.getvalue()


def render_json(rep: Any) -> str:
    """``rep``: a :class:`cwlkit.comparison.build.Report` (non-finite numbers as strings)."""
    from ..stats.render import dump_json

    doc = {"title": rep.title, "source": rep.source, **rep.table.to_dict()}
    if rep.pr_curves and rep.levels is not None:
        doc["pr_curves"] = {
            "levels": [float(x) for x in rep.levels],
            "precision": {k: [float(x) for x in v] for k, v in rep.pr_curves.items()},
        }
    return dump_json(doc)
