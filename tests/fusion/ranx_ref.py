"""Run ranx's fusion (in ranx's own virtualenv) on JSON from standard input; print the fused
runs as JSON. Used by tests/fusion/test_against_ranx.py and benchmarks/bench_fusion.py.

Input: {"runs": [pytrec_eval dicts], "qrels": dict or null, "cases": [[method, norm, params],
...], "ties": "trec_eval"}. With ``ties`` = "trec_eval", ranx's sorting of each topic is
replaced by one that breaks ties by decreasing document id (trec_eval's and cwlkit's order)
and Condorcet's candidates start from the documents sorted by id (where ranx starts from a
Python set's order, which changes between processes): the numbers are otherwise ranx's own.
"""

import json
import sys

import numpy as np
import ranx
import ranx.data_structures.run as run_module
from numba import types
from numba.typed import Dict as TypedDict
from ranx import Qrels, Run, fuse
from ranx import fusion as F
from ranx.normalization import norm_switch


def _sorted_inner(d):
    out = TypedDict.empty(key_type=types.unicode_type, value_type=types.float64)
    for k, v in sorted(d.items(), key=lambda kv: (kv[1], kv[0]), reverse=True):
        out[k] = v
    return out


def _sort_dict_of_dict_by_value(d):
    out = TypedDict.empty(
        key_type=types.unicode_type, value_type=types.DictType(types.unicode_type, types.float64)
    )
    for q in d.keys():
        out[q] = _sorted_inner(d[q])
    return out


def _get_candidates(runs):
    from numba.typed import List as TypedList
    from numba.types import unicode_type

    out = TypedList()
    for q in runs[0].keys():
        docs = sorted({doc for run in runs for doc in list(run[q].keys())})
        out.append(TypedList(docs) if docs else TypedList.empty_list(unicode_type))
    return out


def patch_ties():
    run_module.sort_dict_of_dict_by_value = _sort_dict_of_dict_by_value
    # (ranx.fusion's __init__ binds the functions over the modules' names: sys.modules)
    sys.modules["ranx.fusion.condorcet"].get_candidates = _get_candidates
    sys.modules["ranx.fusion.weighted_condorcet"].get_candidates = _get_candidates


def make_run(d, name):
    run = Run(d, name=name)
    run.sort()  # (with the patch: trec_eval's order)
    return run


TRAIN = {
    "posfuse": ("probs", lambda q, rs, p: F.posfuse_train(q, rs)),
    "slidefuse": ("probs", lambda q, rs, p: F.slidefuse_train(q, rs)),
    "probfuse": ("probs", lambda q, rs, p: F.probfuse_train(q, rs, p["n_segments"])),
    "segfuse": ("probs", lambda q, rs, p: F.segfuse_train(q, rs)),
    "bayesfuse": ("log_odds", lambda q, rs, p: F.bayesfuse_train(q, rs)),
    "mapfuse": ("map_scores", lambda q, rs, p: F.mapfuse_train(q, rs)),
}


def run_case(runs, qrels, method, norm, params):
    params = dict(params)
    if method in TRAIN:
        key, trainer = TRAIN[method]
        if norm is None:
            norm_runs = runs
        elif norm == "borda":
            norm_runs = norm_switch(norm)(runs)
        else:
            norm_runs = [norm_switch(norm)(r) for r in runs]
        for r in norm_runs:
            r.sorted = True
        params[key] = trainer(qrels, norm_runs, params)
        params.pop("n_segments", None)
    fused = fuse(runs, norm=norm, method=method, params=params)
    return {q: dict(fused[q]) for q in fused.keys()}


def main():
    data = json.load(sys.stdin)
    if data.get("ties") == "trec_eval":
        patch_ties()
    runs = [make_run(d, f"run{i}") for i, d in enumerate(data["runs"])]
    qrels = Qrels(data["qrels"]) if data.get("qrels") else None
    out = [run_case(runs, qrels, m, n, p) for m, n, p in data["cases"]]
    json.dump(
        {"version": ranx.__version__ if hasattr(ranx, "__version__") else "", "fused": out},
        sys.stdout,
    )


if __name__ == "__main__":
    _ = np
    main()
