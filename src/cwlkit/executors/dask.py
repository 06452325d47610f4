"""Evaluation on a Dask cluster (``pip install cwlkit[dask]``): ``Evaluator(client=...)``.

Three kinds of work go to the cluster's workers, each scored there by the same code that
scores it here, so the Results are identical to a local evaluation:

- runs (:func:`map_runs`): one task per run; the Evaluator (its qrels read and encoded) is
  sent to every worker once (``scatter(broadcast=True)``); a run given as a path or fsspec
  URL is read by the worker that scores it;
- topic chunks of one run (:func:`score_chunks`, ``chunk_topics=``): the run is split here
  (:func:`cwlkit.core.chunks.split`) and each chunk is one task;
- the partitions of a dask DataFrame run (:func:`evaluate_frame`): the frame is shuffled on
  the topic so that every topic lies in exactly one partition; each partition is one task.

The parts are joined by :func:`cwlkit.plan.join_parts`, as the local chunked path joins its
chunks. Tasks are pure functions of their inputs: a worker lost mid-way has its tasks run
again by Dask on another worker, with the same result. An error raised by a task (a bad line
naming its file and line) is raised here as itself (Dask re-raises the task's exception).

dask is imported only here, and only when a client is used (``import cwlkit`` does not).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import replace
from typing import Any

import numpy as np

from ..errors import CwlkitError, FormatError, NoTopicsError, ParamError
from ..results import Results

#: helper columns added to a dask DataFrame run: its original position and the topic key
_PART, _ROW, _KEY = "__cwlkit_part", "__cwlkit_row", "__cwlkit_topic"

#: the rule each partition of a dask DataFrame is scored with; the qrels topics missing
#: from the run (``qrels`` and ``either``) are scored once, here, after the partitions
_PARTITION_RULE = {"both": "both", "run": "run", "qrels": "both", "either": "run"}

#: seconds to wait for a scheduler before giving up (``--scheduler``)
CONNECT_TIMEOUT = 10


def check_client(client: Any) -> Any:
    """``client`` if it looks like a ``distributed.Client`` (scatter, submit); else raise
    :class:`~cwlkit.errors.ParamError`."""
    if not all(hasattr(client, a) for a in ("scatter", "submit", "gather")):
        raise ParamError(f"client must be a dask.distributed Client; got {type(client).__name__}")
    return client


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A ``distributed.Client`` connected to the scheduler at ``address``
    (``tcp://HOST:PORT``).

    Raises
    ------
    CwlkitError
        dask.distributed is not installed, or no scheduler answered within ``timeout``
        seconds (one-line messages).
    """
    try:
        from distributed import Client
    except ImportError:
        raise CwlkitError(
            "--scheduler needs dask.distributed; pip install 'cwlkit[dask]'"
        ) from None
    _check_address(address)
    try:
        return Client(address, timeout=f"{timeout}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        why = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CwlkitError(
            f"could not connect to the Dask scheduler at {address} within {timeout:g} s ({why})"
        ) from None


def _check_address(address: str) -> None:
    """Raise a one-line CwlkitError unless ``address`` reads as ``PROTOCOL://HOST:PORT``."""
    from distributed.comm.addressing import parse_address, parse_host_port
    from distributed.comm.registry import backends

    try:
        protocol, loc = parse_address(address)
        if protocol not in backends:
            raise ValueError(protocol)
        if protocol in ("tcp", "tls"):
            parse_host_port(loc)
    except (ValueError, TypeError):
        raise CwlkitError(
            f"--scheduler: expected a scheduler address such as tcp://HOST:8786; got {address!r}"
        ) from None


def _broadcast(client: Any, plan: Any) -> Any:
    """The plan on every worker (one copy each), its qrels read and encoded here first."""
    _ = plan.qrels
    return client.scatter(plan, broadcast=True, hash=False)


def _in_order(futures: list) -> Generator[Any, None, None]:
    """Each future's result in order; on an error the remaining futures are cancelled and
    the task's own exception is raised."""
    try:
        for f in futures:
            yield f.result()
    finally:
        for f in futures:
            f.cancel()


def map_runs(
    plan: Any, client: Any, items: list[tuple[str, Any]], evaluate: Callable
) -> Iterator[Results]:
    """Yield the Results of each ``(name, run)`` in order, every run a task on the workers:
    ``evaluate(plan, run, name=name)`` (:func:`cwlkit.executors.evaluate_run`) there.

    A dask DataFrame run is evaluated by partitions (:func:`evaluate_frame`); a run read
    from standard input (``-``) is read here and sent whole.
    """
    from .choose import is_dask_frame

    plan_f = _broadcast(client, plan)
    futures: list[Any] = []
    for name, run in items:
        if is_dask_frame(run):
            futures.append(None)
            continue
        if str(run) == "-":
            run = plan.load_run(run, name)
        futures.append(client.submit(evaluate, plan_f, run, name=name, jobs=1, pure=False))
    got = _in_order([f for f in futures if f is not None])
    try:
        for (name, run), f in zip(items, futures, strict=True):
            yield evaluate_frame(plan, client, run, name, evaluate) if f is None else next(got)
    finally:
        got.close()  # (cancels what is left after an error)


def _score_chunk(plan: Any, chunk: tuple[Any, Any], run: str) -> Results:
    """One topic chunk ``(qrels, run)`` scored (a task)."""
    q, part = chunk
    return plan.score(plan.build(q, part), run=run)


def score_chunks(plan: Any, client: Any, chunks: Iterable[tuple[Any, Any]], run: str) -> list:
    """The Results of each topic chunk, scored on the workers, in order."""
    plan_f = _broadcast(client, plan)
    data = client.scatter(list(chunks), hash=False)
    futures = [client.submit(_score_chunk, plan_f, d, run, pure=False) for d in data]
    return list(_in_order(futures))


# ---- dask DataFrames ---------------------------------------------------------------------


def _topic_column(ddf: Any, path: str) -> str:
    from ..io.inputs import RUN_ROLES, pick_roles

    names = [str(c) for c in ddf.columns]
    return names[pick_roles(names, RUN_ROLES, ("topic", "doc"), path, "column")["topic"]]


def _positions(df: Any, topic: str, partition_info: dict | None = None) -> Any:
    """``df`` with its partition number, row number and topic key (text) added."""
    n = 0 if partition_info is None else int(partition_info["number"])
    return df.assign(
        **{_PART: n, _ROW: np.arange(len(df), dtype=np.int64), _KEY: df[topic].astype(str)}
    )


def _by_topic(ddf: Any, path: str) -> Any:
    """``ddf`` shuffled so that every topic lies in exactly one partition."""
    topic = _topic_column(ddf, path)
    meta = _positions(ddf._meta, topic)
    marked = ddf.map_partitions(_positions, topic, meta=meta)
    return marked.shuffle(on=_KEY)


def _score_partition(
    plan: Any, pdf: Any, name: str | None, path: str, evaluate: Callable
) -> dict | None:
    """One partition of a shuffled dask DataFrame run scored (a task), or None when it
    holds no topic to evaluate.

    Returns the Results, the first position of each topic, and the partition's last
    position and its run tag (positions are (partition, row) of the original frame).
    """
    from ..core.chunks import kept_topics
    from ..io.inputs import as_run

    if not len(pdf):
        return None
    pdf = pdf.sort_values([_PART, _ROW], kind="stable")  # the original row order
    pos = list(zip(pdf[_PART].tolist(), pdf[_ROW].tolist(), strict=True))
    try:
        r = as_run(pdf.drop(columns=[_PART, _ROW, _KEY]), name=name)
    except FormatError as exc:
        raise _in_frame(exc, pos, path) from None
    rule = _PARTITION_RULE[plan.options.topics]
    if not kept_topics(plan.qrels, r, rule):
        return None
    local = copy.copy(plan)
    local.options = replace(plan.options, topics=rule)
    first = _first_positions(r, pos) if plan.options.order == "file" else {}
    res = evaluate(local, r, name=name)
    return {"res": res, "first": first, "last": pos[-1], "tag": r.runid}


def _in_frame(exc: FormatError, pos: list[tuple[int, int]], path: str) -> FormatError:
    """A partition's row error restated with the row's place in the original frame."""
    if exc.line is None or not 1 <= exc.line <= len(pos):
        return FormatError(path, None, exc.msg)
    part, row = pos[exc.line - 1]
    return FormatError(f"{path} partition {part}", row + 1, exc.msg)


def _first_positions(r: Any, pos: list[tuple[int, int]]) -> dict[str, tuple[int, int]]:
    first: dict[str, tuple[int, int]] = {}
    for i, t in enumerate(r.table.column("topic").to_pylist()):
        first.setdefault(str(t), pos[i])
    return first


def evaluate_frame(
    plan: Any, client: Any, ddf: Any, name: str | None, evaluate: Callable
) -> Results:
    """:meth:`~cwlkit.Evaluator.evaluate` of a dask DataFrame run on the cluster.

    The frame is shuffled on its topic column (each topic in one partition), each partition
    scored on a worker, and the parts joined in topic byte order (with ``order="file"``, in
    order of first appearance in the frame). The run's name is ``name``, else the tag of the
    frame's last row (``"run"`` without a tag column), as for a pandas DataFrame.
    """
    import dask

    path = name or "<dask DataFrame>"
    plan_f = _broadcast(client, plan)
    tasks = [
        dask.delayed(_score_partition)(plan_f, p, name, path, evaluate)
        for p in _by_topic(ddf, path).to_delayed()
    ]
    parts = [p for p in _in_order(client.compute(tasks)) if p is not None]
    return _join_frame(plan, parts, name)


def _join_frame(plan: Any, parts: list[dict], name: str | None) -> Results:
    from ..plan import join_parts, reorder

    run = name or (max(parts, key=lambda p: p["last"])["tag"] if parts else "run")
    results = [p["res"] for p in parts]
    if plan.options.topics in ("qrels", "either"):
        results += _missing_qrels_topics(plan, {t for r in results for t in r.topics})
    if not results:
        raise NoTopicsError(f"no topics to evaluate: the run and {plan.qrels.path} share no topic")
    joined = join_parts(results)
    res = reorder(joined, sorted(joined.topics))  # byte order (UTF-8: code point order)
    res.run = run
    if plan.options.order == "file":
        first = {t: k for p in parts for t, k in p["first"].items()}
        res = reorder(res, sorted(first, key=first.__getitem__))
    return res


def _missing_qrels_topics(plan: Any, have: set[str]) -> list[Results]:
    """The qrels topics no partition holds, scored as topics the run lacks (empty rankings)."""
    from ..io.trec import Run
    from ..plan import reorder

    res = plan.score(plan.build(plan.qrels, Run.from_records([])), run="")
    missing = [t for t in res.topics if t not in have]
    if not missing:
        return []
    part = reorder(res, missing)
    n = len(missing)
    cols = {c: a[:, :n] for c, a in part.columns.items()}
    text = {m: v[:n] for m, v in part.text.items()}
    return [
        Results(
            part.values[:, :n],
            part.measures,
            missing,
            cols,
            "",
            part.aggregates,
            text=text,
            absent=list(missing),  # (no line of the run: empty rankings)
        )
    ]
