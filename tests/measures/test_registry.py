"""The one table of measures: every entry is well formed, every spelling reaches one measure."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cwlkit.errors import ParamError, UnknownMeasureError
from cwlkit.io.trec import Qrels, Run
from cwlkit.measures import registry
from cwlkit.measures.base import Measure, measure
from cwlkit.measures.parse import parse_measure, parse_measures

# spelling -> canonical name(s): ir_measures' syntax, trec_eval's, cwl_eval's, aliases
VALID = {
    "P@10": ["P@10"],
    "P(rel=2)@10": ["P(rel=2)@10"],
    "AP@100": ["AP@100"],
    "RR@10": ["RR@10"],
    "nDCG@10": ["nDCG@10"],
    "nDCG(dcg='exp-log2')@10": ["nDCG(dcg='exp-log2')@10"],
    'nDCG(dcg="exp-log2")@10': ["nDCG(dcg='exp-log2')@10"],
    "R@100": ["R@100"],
    "Rprec": ["Rprec"],
    "Bpref": ["Bpref"],
    "bpref": ["Bpref"],
    "NumRet": ["NumRet"],
    "NumRel": ["NumRel"],
    "NumRelRet": ["NumRelRet"],
    "SetP": ["SetP"],
    "SetR": ["SetR"],
    "SetF(beta=1)": ["SetF"],
    "SetF(beta=0.5)": ["SetF(beta=0.5)"],
    "SetAP": ["SetAP"],
    "infAP": ["infAP"],
    "ERR@20": ["ERR@20"],
    "RBP(p=0.8)": ["RBP(p=0.8)"],
    "RBP(0.5)": ["RBP(p=0.5)"],
    "IPrec@0.5": ["IPrec@0.5"],
    "Success@10": ["Success@10"],
    "MAP": ["AP"],
    "map": ["AP"],
    "MRR": ["RR"],
    "P.5,10": ["P@5", "P@10"],
    "P.10,5": ["P@5", "P@10"],
    "ndcg_cut.10": ["nDCG@10"],
    "map_cut.100": ["AP@100"],
    "recall.100": ["R@100"],
    "recip_rank": ["RR"],
    "gm_map": ["GMAP"],
    "set_relative_P": ["SetP(relative=True)"],
    "set_map": ["SetAP"],
    "iprec_at_recall.0.1": ["IPrec@0.1"],
    "utility.2,-1,0,0": ["Utility(a=2)"],
    "rbp": ["RBP_trec"],
    "rbp.p=0.5": ["RBP_trec(p=0.5)"],
    "ndcg.1=3,2=9": ["nDCG(gains='1=3,2=9')"],
    "P_cwl@5": ["P_cwl@5"],
    "AP_cwl": ["AP_cwl"],
    "RR_cwl": ["RR_cwl"],
    "INST(T=2)": ["INST(T=2)"],
    "inst(t=2)": ["INST(T=2)"],
    "SDCG@10": ["SDCG@10"],
    "C_E10(phi=0.62)": ["C_E10(phi=0.62)"],
    "F(beta=0.5)@10": ["F(beta=0.5)@10"],
    "IAP11": ["IAP11"],
    " P @ 10 ": ["P@10"],
    "P(k=5)": ["P@5"],
    # parameter grids start:stop:step (stop included, exact decimal steps)
    "RBP(p=0.1:0.9:0.2)": ["RBP(p=0.1)", "RBP(p=0.3)", "RBP(p=0.5)", "RBP(p=0.7)", "RBP(p=0.9)"],
    "RBP(p=0.25:0.3:0.1)": ["RBP(p=0.25)"],
    "RBP(p=0.5:0.5:0.1)": ["RBP(p=0.5)"],
    "P@5:20:5": ["P@5", "P@10", "P@15", "P@20"],
    "P@1e1:2e1:1e1": ["P@10", "P@20"],
    "C_E8(k=1:3:1)": ["C_E8@1", "C_E8@2", "C_E8@3"],
    "INST(T=1:2:0.5)": ["INST(T=1)", "INST(T=1.5)", "INST(T=2)"],
    "RBPCWLMetric(0.2:0.6:0.2)": ["RBP(p=0.2)", "RBP(p=0.4)", "RBP(p=0.6)"],
    "nDCG(dcg='exp-log2')@10:20:10": ["nDCG(dcg='exp-log2')@10", "nDCG(dcg='exp-log2')@20"],
}

# spelling -> (error type, fragment of the message)
INVALID = {
    "Foo@10": (UnknownMeasureError, "unknown measure 'Foo'"),
    "Prec@10": (UnknownMeasureError, "did you mean"),
    "P@ten": (ParamError, "must be a number"),
    "P@0": (ParamError, "must be in [1, inf)"),
    "P@1.5": (ParamError, "must be an integer"),
    "RBP(p=1.5)": (ParamError, "must be in (0.0, 1.0)"),
    "RBP(q=0.5)": (ParamError, "has no parameter 'q'"),
    "RBP(p=0.5, p=0.6)": (ParamError, "given twice"),
    "Rprec@10": (ParamError, "takes no cutoff"),
    "nDCG(dcg='exp')@10": (ParamError, "must be one of"),
    "nDCG(dcg='exp-log2')": (ParamError, "needs a cutoff"),
    "P(@10": (ParamError, "unbalanced parentheses"),
    "P.": (ParamError, "improper measure"),
    "P.0": (ParamError, "positive"),
    "SetP(relative=maybe)": (ParamError, "True or False"),
    "RBP(p='0.5)": (ParamError, "unterminated quote"),
    "RBP(p=0.1:0.9:0)": (ParamError, "step must be positive"),
    "RBP(p=0.1:0.9:-0.1)": (ParamError, "step must be positive"),
    "RBP(p=0.9:0.1:0.1)": (ParamError, "above its stop"),
    "RBP(p=a:0.9:0.1)": (ParamError, "must be numbers"),
    "RBP(p=0.1:0.9:x)": (ParamError, "must be numbers"),
    "RBP(p=0.1:inf:0.1)": (ParamError, "must be numbers"),
    "RBP(p=0.1:1.5:0.1)": (ParamError, "in the grid"),
    "RBP(p=0.1:0.2:0.1)@1:2:1": (ParamError, "may have one"),
    "RBP(p=0:1:0.00001)": (ParamError, "at most 10000"),
}


@pytest.mark.parametrize("text", list(VALID))
def test_valid_spellings(text):
    got = [m.name for m in parse_measures(text)]
    assert got == VALID[text]
    for m in parse_measures(text):
        assert parse_measure(m.name) == m  # the canonical name reads back as the same measure


@pytest.mark.parametrize("text", list(INVALID))
def test_invalid_spellings(text):
    kind, fragment = INVALID[text]
    with pytest.raises(kind) as exc:
        parse_measures(text)
    assert fragment in str(exc.value)
    assert "\n" not in str(exc.value)


def _tiny():
    q = Qrels.from_records([("1", "a", 2), ("1", "b", 0), ("1", "c", 1), ("2", "d", 1)])
    r = Run.from_records([("1", "a", 3.0), ("1", "x", 2.0), ("1", "c", 1.0), ("2", "e", 1.0)])
    return q, r


def _instance(cls: type[Measure]) -> Measure:
    fields = dataclasses.fields(cls)
    kw = {f.name: 10 for f in fields if f.default is dataclasses.MISSING}
    if cls.family == "nDCG":
        return cls()
    return cls(**kw)


ENTRIES = registry.entries()


@pytest.mark.parametrize("cls", ENTRIES, ids=[c.family for c in ENTRIES])
def test_every_entry_is_declared_once_and_computes(cls):
    from cwlkit.api import Evaluator

    e = cls.describe()
    assert e["summary"], f"{cls.family} has no docstring"
    assert cls.aggregate in ("mean", "sum", "gmean")
    for p in e["params"]:
        assert p["doc"], f"{cls.family}.{p['name']} has no one-line doc"
    # every name of the entry reaches this class and no other
    for name in (cls.family, *cls.aliases):
        assert registry.lookup(name) is cls
    m = _instance(cls)
    assert type(parse_measure(m.name)) is cls
    q, r = _tiny()
    if getattr(cls, "needs_subtopics", False):  # intent-aware: diversity qrels (iter = subtopic)
        from cwlkit.io.diversity import as_diversity_qrels

        q = as_diversity_qrels(q)
    opts = {"gain": "linear"} if getattr(cls, "gain_domain", None) else {}
    res = Evaluator(q, [m], topics="either", **opts).evaluate(r)
    assert res.values.shape == (1, 2)
    if getattr(cls, "text_valued", False):  # (text per topic; the numeric row is NaN)
        assert len(res.text[m.name]) == 2 and all(isinstance(x, str) for x in res.text[m.name])
        return
    assert np.isfinite(res.values).all() or cls.family in ("yaap",)


def test_names_are_unique_across_the_table():
    seen: dict[str, type] = {}
    for cls in ENTRIES:
        for name in (cls.family, *cls.aliases):
            assert seen.setdefault(name.lower(), cls) is cls, name


def test_registering_a_taken_name_fails():
    @measure
    class Clash(Measure):
        family = "ap"

    with pytest.raises(ValueError, match="taken"):
        registry.register(Clash)


def test_anchor_lookups():
    assert registry.lookup_anchor("cwl_eval", "RBPCWLMetric").family == "RBP"
    assert registry.lookup_anchor("cwl_eval", "PrecisionCWLMetric").family == "P_cwl"
    assert registry.lookup_anchor("trec_eval", "map").family == "AP"
    assert registry.lookup_anchor("trec_eval", "ndcg_cut").family == "nDCG"


def test_docs_measures_md_is_current():
    from conftest import REPO

    from cwlkit.measures.catalogue import markdown

    path = REPO / "docs" / "measures.md"
    assert path.read_text() == markdown(), (
        "regenerate: cwlkit measures --markdown > docs/measures.md"
    )


def test_common_names_load_only_the_modules_they_need():
    """Parsing trec_eval's names imports neither the C/W/L metrics nor the other families
    (start-up of every command), and gives what the whole table gives."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from cwlkit.measures.parse import parse_measures\n"
        "got = [m for t in ('P@10', 'AP', 'nDCG@10', 'RR', 'R-Prec', 'map') "
        "for m in parse_measures(t)]\n"
        "print(repr(got))\n"
        "print(' '.join(m for m in sys.modules if m.startswith('cwlkit.measures.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    loaded = out[1].split()
    for heavy in ("cwlkit.measures.cwl", "cwlkit.measures.diversity", "cwlkit.measures.letor"):
        assert heavy not in loaded
    registry.entries()  # the whole table
    full = [m for t in ("P@10", "AP", "nDCG@10", "RR", "R-Prec", "map") for m in parse_measures(t)]
    assert out[0] == repr(full)


def test_cwl_eval_class_spellings_still_parse_in_a_fresh_process():
    import subprocess
    import sys

    code = (
        "from cwlkit.measures.parse import parse_measures\n"
        "print(parse_measures('RBPCWLMetric(0.8)')[0].name, parse_measures('RBP(p=0.8)')[0].name)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["RBP(p=0.8)", "RBP(p=0.8)"]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("RBP(p=0.8", "unbalanced parentheses"),
        ("P.abc", "'abc' is not a cutoff"),
        ("ndcg_cut.5,x", "'x' is not a cutoff"),
    ],
)
def test_misspellings_say_what_is_wrong(text, match):
    """A missing parenthesis is not an unknown measure, and a cutoff that is not a number is
    not a negative one (the messages named neither)."""
    with pytest.raises(ParamError, match=match):
        parse_measure(text)


def test_catalogue_has_a_section_per_measure_with_its_parameters():
    """The docs site's catalogue (catalogue_markdown) holds every registry entry once, with
    its formula line, aggregation, every parameter with its default and range, its aliases
    and anchors; a numpydoc section of a docstring does not leak into it."""
    import re

    from cwlkit.measures.catalogue import catalogue_markdown, list_measures

    text = catalogue_markdown()
    sections = re.split(r"^## ", text, flags=re.M)[1:]
    by_name = {s.split("\n", 1)[0]: s for s in sections}
    entries = list_measures()
    assert list(by_name) == [e["name"] for e in entries]
    for e in entries:
        s = by_name[e["name"]]
        assert e["summary"].split()[0] in s
        agg = {"mean": "arithmetic mean", "gmean": "geometric mean", "sum": "sum"}
        assert f"**Aggregate over topics:** {agg[e['aggregate']]}." in s
        for p in e["params"]:
            row = next(line for line in s.splitlines() if line.startswith(f"| `{p['name']}` |"))
            assert f"`{p['default']!r}`" in row and (p["domain"] or "-") in row
            assert row.count(" | ") == 4, row  # five cells: no stray pipe in a cell
        for a in e["aliases"]:
            assert f"`{a}`" in s
        for tool, names in e["anchors"].items():
            assert f"{tool}: " + ", ".join(f"`{n}`" for n in names) in s
        assert "\nParameters\n---" not in s and "\nNotes\n---" not in s
    err = by_name["ERR"]
    assert "ERR@k = sum_{i=1..min(k, n)}" in err  # the formula paragraph of the docstring
    assert "Conventions: negative labels" not in err  # (its Notes section)


def test_parameter_ranges_fit_their_types():
    """A parameter's range (describe(), `cwlkit measures`, the catalogue) is a numeric
    interval for numbers only: a flag ranges over {False, True} (SetP's ``relative``,
    Compat's ``normalize`` said ``(-inf, inf)``), a text parameter (a gain table, a metric's
    name) has no range unless it has choices (nDCG's ``gains`` said ``(-inf, inf)``)."""
    from cwlkit.measures.catalogue import list_measures

    seen = set()
    for e in list_measures():
        for p in e["params"]:
            dom, kind = p["domain"], p["type"]
            if kind == "bool":
                assert dom == "{False, True}", (e["name"], p)
            elif dom is not None and dom.endswith(("inf)", "]", ")")) and not dom.startswith("{"):
                assert "int" in kind or "float" in kind, (e["name"], p)
            seen.add((e["name"], p["name"], dom))
    assert ("SetP", "relative", "{False, True}") in seen
    assert ("Compat", "normalize", "{False, True}") in seen
    assert ("nDCG", "gains", None) in seen
    assert ("nDCG", "dcg", "{log2, exp-log2}") in seen
    assert ("RBP", "p", "(0.0, 1.0)") in seen
