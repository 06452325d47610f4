"""The one table of trec_eval measures: every registered trec_eval class comes from it."""

from __future__ import annotations

import dataclasses

from cwlkit.measures import registry
from cwlkit.measures.cwl import nerr
from cwlkit.measures.trec import registered
from cwlkit.measures.trec._classes import TrecBase
from cwlkit.measures.trec.jg_measures import JG_MEASURES
from cwlkit.measures.trec.prefs import NICKNAMES
from cwlkit.measures.trec.prefs_counts import PREFS_MEASURES
from cwlkit.measures.trec.spec import BY_NAME, MEASURES, PREFS_JG_MEASURES, nicknames


def test_each_canonical_row_makes_one_registered_class():
    declared = [r for r in MEASURES if r.measure is not None]
    classes = {registered.TREC_CLASSES[r.name] for r in declared}
    assert len(classes) == len(declared)
    for row in declared:
        cls = registered.TREC_CLASSES[row.name]
        assert registry.lookup(row.measure.family) is cls
        assert [f.name for f in dataclasses.fields(cls)] == [p.name for p in row.measure.params]
        assert cls.trec_rows[0] is row and issubclass(cls, row.measure.base or TrecBase)


def test_rows_printed_by_another_rows_class():
    for row in MEASURES:
        if row.of:
            assert row.measure is None and BY_NAME[row.of].measure is not None
            cls = registered.TREC_CLASSES[row.name]
            assert cls is registered.TREC_CLASSES[row.of] and row in cls.trec_rows


def test_anchor_names_are_the_rows():
    for cls in set(registered.TREC_CLASSES.values()):
        assert cls.anchors["trec_eval"] == tuple(r.name for r in cls.trec_rows)
        assert getattr(registered, cls.__name__) is cls
    untracked = {r.name for r in MEASURES} - set(registered.TREC_CLASSES)
    assert untracked == {"runid", "num_q"}


def test_trec_row_picks_the_row_of_the_parameters():
    for row in MEASURES:
        if row.name in registered.TREC_CLASSES:
            for m in registered.from_trec(row.name, None, row.default):
                assert isinstance(m, TrecBase) and m.trec_row() is row


def test_prefs_names_declared_once():
    assert PREFS_JG_MEASURES == (*PREFS_MEASURES, *JG_MEASURES)
    assert {k: nicknames(9)[k] for k in NICKNAMES} == NICKNAMES


def test_nerr_equations_are_one_class():
    for e in nerr.EQUATIONS:
        cls = registry.lookup(f"NERR{e.eq}")
        assert issubclass(cls, nerr.NERR) and cls.eq == e.eq
        assert registry.lookup(f"C_E{e.eq}") is cls is getattr(nerr, f"CE{e.eq}")
