"""How many of ir_measures' measure spellings cwlkit parses, and gives ir_measures' values for.

Enumerates every name ir_measures 0.4.3 registers (``ir_measures.measures.registry``: 51
names, aliases included) and a representative set of parameterisations of each: the default
(required parameters filled: a cutoff ``@10``, ``max_rel=4``, a recall level ``@0.5``), ``@10``
where a cutoff is optional, ``rel=2``, ``judged_only=True`` (also with ``@10``) where the
measure takes them, and the parameters particular to a measure (nDCG's gain table and
``dcg='exp-log2'``, SetP's ``relative``, SetF's ``beta``, the cwl_eval measures' ``T``, RBP's and
Compat's ``p``, the diversity measures' ``alpha`` and ``beta``, ...). An alias (``MAP``, ``NDCG``,
``SetRelP``, ``NumRelRet``, ``α_nDCG``...) is tried with its default spelling (and ``@10``).

For each spelling:

* **parses**: ``cwlkit.parse_measure(spelling)`` gives a measure (the canonical name is shown);
* **ir_measures computes it**: some available provider of ir_measures' default pipeline
  supports it and computes it without an error;
* **equal**: on the TREC Web 2012 qrels and two runs (``web2012.ql.cata-filtered``,
  ``web2012.rm.catb``), ``ir_measures.iter_calc`` and ``cwlkit.evaluate`` give values for the
  same topics, equal to 1e-9 on every topic. ir_measures is given each run in trec_eval's
  order (score descending, document id descending); cwlkit evaluates with trec_eval 9.0.8's
  float32 scores when ir_measures' provider is pytrec_eval (trec_eval 9.0.8's code) and with
  double-precision scores (``trec_version=10``) otherwise, as tests/measures/test_ir_measures.py
  does. The intent-aware measures get the qrels read as diversity qrels
  (``cwlkit.read_diversity_qrels``: Web 2012's second column is 0, one subtopic).

Run from the repository root::

    python benchmarks/ir_measures_coverage.py            # the table and the counts
    python benchmarks/ir_measures_coverage.py --differing   # only the spellings not equal

tests/test_ir_measures_names.py pins the counts and the documented differences.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = (WEB / "runs" / "web2012.ql.cata-filtered.run.gz", WEB / "runs" / "web2012.rm.catb.run.gz")
#: the largest label of the Web 2012 qrels (ir_measures' cwl_eval measures need it)
TOP_LABEL = 4
TOLERANCE = 1e-9

GAINS = "{0:0,1:1,2:3,3:7,4:15}"
#: parameterisations particular to a measure (its name, then what follows it)
EXTRA: dict[str, list[str]] = {
    "nDCG": [
        f"(gains={GAINS})",
        f"(gains={GAINS})@10",
        "(dcg='exp-log2')@10",
        "(dcg='exp-log2')@20",
        f"(gains={GAINS},judged_only=True)",
    ],
    "P": ["@5", "@1000", "(rel=2,judged_only=True)@10"],
    "R": ["@100"],
    "AP": ["@100"],
    "IPrec": ["@0.0", "@1.0"],
    "SetP": ["(relative=True)", "(relative=True,judged_only=True)"],
    "SetF": ["(beta=0.5)", "(beta=2.0,judged_only=True)"],
    "NumRet": ["(rel=1)"],
    "Success": ["@1"],
    "INST": ["(T=2.0,max_rel=4)", "(T=2.0,min_rel=1,max_rel=4)"],
    "INSQ": ["(T=2.0,max_rel=4)"],
    "NERR11": ["(T=2.0,max_rel=4)"],
    "BPM": ["(T=2.0,max_rel=4)@20"],
    "NERR10": ["(p=0.8,max_rel=4)"],
    "RBP": ["(p=0.9)", "(p=0.8,rel=2)"],
    "Compat": ["(p=0.8)", "(normalize=False)"],
    "alpha_nDCG": ["(alpha=0.8)@10", "@20"],
    "alpha_DCG": ["(alpha=0.8)@10"],
    "NRBP": ["(alpha=0.8,beta=0.8)"],
    "nNRBP": ["(alpha=0.8,beta=0.8)"],
}


def _required(name: str, params: dict[str, Any]) -> tuple[str, str]:
    """(the parameters inside the parentheses, the ``@`` suffix) a bare spelling needs."""
    args, at = [], ""
    for key, spec in params.items():
        if not getattr(spec, "required", False):
            continue
        if key == "cutoff":
            at = "@10"
        elif key == "recall":
            at = "@0.5"
        elif key == "max_rel":
            args.append(f"max_rel={TOP_LABEL}")
    return ",".join(args), at


def _spell(name: str, args: list[str], at: str) -> str:
    inner = ",".join(a for a in args if a)
    return name + (f"({inner})" if inner else "") + at


def spellings() -> list[str]:
    """Every spelling tried, in ir_measures' registry order (no repeats)."""
    import ir_measures

    out: list[str] = []

    def add(s: str) -> None:
        if s not in out:
            out.append(s)

    for key, obj in ir_measures.measures.registry.items():
        params = getattr(obj, "SUPPORTED_PARAMS", {})
        req, at = _required(key, params)
        cut_optional = "cutoff" in params and not params["cutoff"].required
        add(_spell(key, [req], at))
        if cut_optional:
            add(_spell(key, [req], "@10"))
        if key != obj.NAME or getattr(obj, "params", {}):  # an alias, or preset parameters
            continue
        if "rel" in params:
            add(_spell(key, ["rel=2", req], at))
        if "judged_only" in params:
            add(_spell(key, ["judged_only=True", req], at))
            if cut_optional:
                add(_spell(key, ["judged_only=True", req], "@10"))
        for tail in EXTRA.get(key, []):
            add(key + tail)
    return out


@dataclass
class Row:
    """The outcome of one spelling."""

    spelling: str
    cwlkit: str = ""  # the canonical name, or empty
    refused: str = ""  # cwlkit's message when it does not parse
    provider: str = ""  # ir_measures' provider, or empty
    ir_error: str = ""  # why ir_measures gives no values
    worst: float | None = None  # the largest |ir_measures - cwlkit| over topics and runs
    topics_differ: bool = False
    cwlkit_error: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def parses(self) -> bool:
        return bool(self.cwlkit)

    @property
    def compared(self) -> bool:
        return self.parses and not self.ir_error and not self.cwlkit_error

    @property
    def equal(self) -> bool:
        return (
            self.compared
            and not self.topics_differ
            and self.worst is not None
            and self.worst <= TOLERANCE
        )

    def verdict(self) -> str:
        if not self.parses:
            return "refused"
        if self.ir_error:
            return "no ir_measures value"
        if self.cwlkit_error:
            return "cwlkit error"
        if self.equal:
            return "equal"
        if self.topics_differ:
            return "other topics"
        return f"differs by {self.worst:.3g}"


def _provider(measure: Any) -> str:
    import ir_measures

    for p in ir_measures.DefaultPipeline.providers:
        if p.is_available() and p.supports(measure):
            return str(p.NAME)
    return ""


def _trec_order(run: list) -> list:
    """The run sorted as trec_eval ranks it: topic, score descending, docno descending."""
    out = sorted(run, key=lambda d: d.doc_id, reverse=True)
    out.sort(key=lambda d: d.score, reverse=True)
    out.sort(key=lambda d: d.query_id)
    return out


def check(names: list[str] | None = None) -> list[Row]:
    """Parse and compute every spelling (default: :func:`spellings`)."""
    import io
    from contextlib import redirect_stderr, redirect_stdout

    import ir_measures

    import cwlkit
    from cwlkit.errors import CwlkitError

    names = spellings() if names is None else names
    rows = [Row(s) for s in names]
    qrels = list(ir_measures.read_trec_qrels(str(QRELS)))
    runs = [_trec_order(list(ir_measures.read_trec_run(str(r)))) for r in RUNS]
    div_qrels = cwlkit.read_diversity_qrels(QRELS)
    # (spelling index -> cwlkit measure); grouped by how cwlkit evaluates them
    groups: dict[tuple[int, bool], list[tuple[int, Any]]] = defaultdict(list)
    ir_objects: dict[int, Any] = {}
    for i, row in enumerate(rows):
        try:
            m = cwlkit.parse_measure(row.spelling)
        except CwlkitError as exc:
            row.refused = str(exc)
        else:
            row.cwlkit = m.name
        try:
            obj = ir_measures.parse_measure(row.spelling)
        except Exception as exc:  # noqa: BLE001 (ir_measures raises what it raises)
            row.ir_error = f"ir_measures cannot parse it: {exc}"
            continue
        row.provider = _provider(obj)
        if not row.provider:
            row.ir_error = "no available ir_measures provider supports it"
            continue
        ir_objects[i] = obj
        if row.parses:
            version = 9 if row.provider == "pytrec_eval" else 10
            groups[(version, bool(getattr(m, "needs_subtopics", False)))].append((i, m))
    # ir_measures, one measure at a time (a provider's failure stays its measure's)
    ir_values: dict[int, list[dict[str, float]]] = {}
    for i, obj in ir_objects.items():
        try:
            got = []
            for run in runs:
                with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                    got.append(
                        {m.query_id: m.value for m in ir_measures.iter_calc([obj], qrels, run)}
                    )
            if all(not values for values in got):
                rows[i].ir_error = f"{rows[i].provider} gives no values"
            else:
                ir_values[i] = got
        except Exception as exc:  # noqa: BLE001
            rows[i].ir_error = f"{rows[i].provider} fails: {type(exc).__name__}: {exc}"
    # cwlkit, every measure of a group in one evaluation per run
    for (version, diversity), members in groups.items():
        q = div_qrels if diversity else QRELS
        ours = []
        for run in RUNS:
            try:
                res = cwlkit.evaluate(q, run, [m for _, m in members], trec_version=version)
            except CwlkitError as exc:
                res = exc
            ours.append(res)
        for i, m in members:
            row = rows[i]
            if i not in ir_values:
                continue
            for res, ir in zip(ours, ir_values[i], strict=True):
                if isinstance(res, Exception):
                    row.cwlkit_error = str(res)
                    break
                mine = res.per_topic(m)
                if set(mine) != set(ir):
                    row.topics_differ = True
                    row.notes.append(f"{len(mine)} topics against {len(ir)}")
                common = set(mine) & set(ir)
                diff = max((abs(ir[t] - mine[t]) for t in common), default=0.0)
                row.worst = diff if row.worst is None else max(row.worst, diff)
    return rows


def counts(rows: list[Row]) -> dict[str, int]:
    """spellings, parse, ir_measures computes, compared (both), equal."""
    return {
        "spellings": len(rows),
        "parse": sum(r.parses for r in rows),
        "ir_measures computes": sum(not r.ir_error for r in rows),
        "compared": sum(r.compared for r in rows),
        "equal": sum(r.equal for r in rows),
    }


def table(rows: list[Row]) -> str:
    """One line per spelling: spelling, cwlkit's name, ir_measures' provider, verdict."""
    w1 = max(len(r.spelling) for r in rows)
    w2 = max(len(r.cwlkit or "-") for r in rows)
    w3 = max(len(r.provider or "-") for r in rows)
    out = [f"{'spelling':<{w1}}  {'cwlkit':<{w2}}  {'provider':<{w3}}  verdict"]
    for r in rows:
        detail = r.refused or r.ir_error or r.cwlkit_error or "; ".join(r.notes)
        line = f"{r.spelling:<{w1}}  {r.cwlkit or '-':<{w2}}  {r.provider or '-':<{w3}}  "
        line += r.verdict() + (f" ({detail.splitlines()[0][:100]})" if detail else "")
        out.append(line)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--differing", action="store_true", help="list only spellings not equal")
    args = ap.parse_args(argv)
    rows = check()
    shown = [r for r in rows if not r.equal] if args.differing else rows
    if shown:
        print(table(shown))
    print()
    print(", ".join(f"{v} {k}" for k, v in counts(rows).items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
