"""inst_eval.py's output: ``num_q``, ``num_ret``, ``num_rel``, ``num_rel_ret``, ``inst_min``,
``inst_max``, ``inst_res`` as ``name<TAB>topic<TAB>value`` lines (names shorter than 8
characters take two tabs, as inst_eval.py prints them); with ``-q`` a block of six lines per
topic (no ``num_q``), then the ``all`` block.

``inst_min`` is INST's lower bound (EU), ``inst_res`` its residual (ResEU) and ``inst_max`` their
sum. In the ``all`` block the INST numbers are means over the topics printed. The counts are
trec_eval's sums, and ``num_q`` the number of topics printed; with ``compat`` they are
inst_eval.py's: each count's mean over topics truncated to an integer (it prints the mean
with ``%d``), and ``num_q`` as the caller gives it (inst_eval.py prints the number of topics of
the run file).
"""

from __future__ import annotations

import numpy as np

from ..results import Results

#: the count measures printed, in order, and the measure names they are read from
COUNTS = (("num_ret", "NumRet"), ("num_rel", "NumRel"), ("num_rel_ret", "NumRelRet"))


def _line(name: str, topic: str, value: str) -> str:
    sep = "\t\t" if len(name) < 8 else "\t"
    return f"{name}{sep}{topic}\t{value}\n"


def format_inst_eval(
    counts: Results,
    inst: Results,
    *,
    topics: list[str] | None = None,
    per_topic: bool = False,
    compat: bool = False,
    num_q: int | None = None,
) -> str:
    """The text inst_eval.py prints.

    Parameters
    ----------
    counts : Results
        Holds ``NumRet``, ``NumRel`` and ``NumRelRet`` for (at least) ``topics``.
    inst : Results
        Holds one INST measure (and possibly others) with the ``ResEU`` column, for (at
        least) ``topics``.
    topics : list of str, optional
        The topics to print, in this order (default: ``inst``'s topics, in its order).
    per_topic : bool
        Print each topic's block (``-q``).
    compat : bool
        inst_eval.py's summary: truncated mean counts, and ``num_q`` as given.
    num_q : int, optional
        The ``num_q`` printed (default: the number of topics printed).
    """
    if topics is None:
        topics = list(inst.topics)
    if not topics:
        return ""
    ii = {t: i for i, t in enumerate(inst.topics)}
    iidx = [ii[t] for t in topics]
    cols = {}
    for name, measure in COUNTS:
        per = counts.per_topic(measure)
        cols[name] = np.array([per[t] for t in topics], dtype=np.float64)
    rows = [i for i, m in enumerate(inst.measures) if m.split("(")[0] == "INST"]
    if len(rows) != 1:
        raise ValueError(f"expected one INST measure; got {', '.join(inst.measures)}")
    lo = inst.values[rows[0], iidx]
    res = inst.columns["ResEU"][rows[0], iidx]
    hi = lo + res
    out: list[str] = []
    if per_topic:
        for j, t in enumerate(topics):
            for name, _ in COUNTS:
                out.append(_line(name, t, f"{int(cols[name][j])}"))
            out.append(_line("inst_min", t, f"{lo[j]:.4f}"))
            out.append(_line("inst_max", t, f"{hi[j]:.4f}"))
            out.append(_line("inst_res", t, f"{res[j]:.4f}"))
    n = len(topics)
    out.append(_line("num_q", "all", f"{n if num_q is None else num_q}"))
    for name, _ in COUNTS:
        total = float(np.sum(cols[name]))
        out.append(_line(name, "all", f"{int(total / n) if compat else int(total)}"))
    for name, v in (("inst_min", lo), ("inst_max", hi), ("inst_res", res)):
        out.append(_line(name, "all", f"{_mean(v):.4f}"))
    return "".join(out)


def _mean(v: np.ndarray) -> float:
    """The mean as inst_eval.py forms it: a running sum in topic order, divided by the count."""
    total = 0.0
    for x in v.tolist():
        total += x
    return total / len(v)


def format_judging_depth(rows: list[tuple[str, float, float, float, int, float]]) -> str:
    """The evaluation depths of the INST paper's Equation 7 (Table 2), one line per topic
    and residual bound: ``topic T expected_depth delta n beyond`` (tab-separated, with a
    header line). ``expected_depth`` is INST's on a ranking with no gain; ``beyond`` the
    fraction of its users who go past depth n (Equation 6)."""
    out = ["topic\tT\texpected_depth\tdelta\tn\tbeyond\n"]
    for topic, T, ed, delta, n, beyond in rows:
        out.append(f"{topic}\t{T:g}\t{ed:.4f}\t{delta:g}\t{n}\t{beyond:.6f}\n")
    return "".join(out)
