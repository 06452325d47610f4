"""rbp_eval's output (Webber and Moffat's ``rbp_eval``, its Python port ``rbp-eval``).

One line per (topic, depth, persistence), depths outer and persistences inner, in the order
the options list them::

    p= 0.50 q=  401 d= full rbp= 0.3125 +0.0156
    p= 0.80 q=  all d=   10 rbp= 0.1821 +0.4311

``p=`` is the persistence to 2 decimals; ``q=`` the topic id (lower case) right-aligned in 4
characters, ``all`` for the averages; ``d=`` the depth right-aligned in 4 characters, ``full``
for the whole run; ``rbp=`` the base score and ``+`` the residual, to 4 decimals (``nan`` when
no topic could be averaged). Per-topic lines (``-q``) come in the order the topics first
appear in the run, then the ``all`` lines (unless ``-T``). The averages are the plain means
over the topics that have judgements, summed in that order.

Before them rbp_eval writes a header comment (lines starting with ``#``: date, command,
host, user...); ``cwlkit rbp_eval`` writes its own (:func:`header`), which ``-H`` leaves out.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Sequence

import numpy as np

from ..results import Results


def _line(p: float, qid: str, depth: int | None, base: float, resid: float) -> str:
    d = "full" if depth is None else str(int(depth))
    return f"p= {p:.2f} q= {qid:>4} d= {d:>4} rbp= {base:.4f} +{resid:.4f}\n"


def format_rbp_eval(
    results: Results | None,
    rows: Sequence[tuple[str, float, int | None]],
    topics: Sequence[str],
    *,
    per_query: bool = False,
    averages: bool = True,
) -> str:
    """rbp_eval's result lines.

    Parameters
    ----------
    results : Results or None
        Per-topic values of the ``RBP_eval`` measures (``values`` the base scores, column
        ``ResEU`` the residuals), over the topics that have judgements; None when no topic
        has any.
    rows : sequence of (measure name, persistence, depth)
        One per line of a topic, in print order; depth None is ``full``. A name may repeat
        (the same persistence asked for twice prints twice).
    topics : sequence of str
        The run's topics in print order; those absent from ``results`` are skipped.
    per_query, averages : bool
        rbp_eval's ``-q`` and the opposite of its ``-T``.
    """
    out: list[str] = []
    if results is None:  # (no topic is judged: only the NaN averages are printed)
        col: dict[str, int] = {}
        where: dict[str, int] = {}
        judged: list[str] = []
        values = resid = np.zeros((0, 0))
    else:
        col = {t: j for j, t in enumerate(results.topics)}
        where = {name: i for i, name in enumerate(results.measures)}
        judged = [t for t in topics if t in col]
        values, resid = results.values, results.columns["ResEU"]
    if per_query:
        for t in judged:
            j = col[t]
            for name, p, depth in rows:
                i = where[name]
                out.append(_line(p, t, depth, values[i, j], resid[i, j]))
    if averages:
        for name, p, depth in rows:
            base = err = math.nan
            if judged:
                i = where[name]
                base = err = 0.0
                for t in judged:  # summed in print order, as rbp_eval sums them
                    base += float(values[i, col[t]])
                    err += float(resid[i, col[t]])
                base /= len(judged)
                err /= len(judged)
            out.append(_line(p, "all", depth, base, err))
    return "".join(out)


def header(argv: Sequence[str], run_path: str) -> str:
    """The header comment: what was run, when and where (rbp_eval's lines, without host and
    user names)."""
    from ..support.version import VERSION as __version__

    lines = [
        "# rbp_eval output (cwlkit rbp_eval)",
        "#",
        f"# {time.ctime()}",
        "# command:" + "".join(f" {a}" for a in argv),
        f"# cwlkit version: {__version__}",
        f"# current working directory: {os.getcwd()}",
    ]
    try:
        lines.append(f"# {run_path} modification time: {time.ctime(os.stat(run_path).st_mtime)}")
    except OSError:
        pass
    return "\n".join(lines) + "\n"
