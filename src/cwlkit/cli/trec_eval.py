"""``cwlkit trec_eval [options] QRELS RUN``: trec_eval's command line and output, byte for byte.

Flags, long options and nicknames are trec_eval's (``-q -c -n -l N -J -M N -N N -m MEAS
-R FMT -T FMT -Z FILE -h -v``); ``--trec-version 10`` switches from 9.0.8's rules to 10.0's.
Everything is computed before anything is printed: an error prints one line on stderr and
nothing on stdout.
"""

from __future__ import annotations

import argparse
import sys

HELP = """\
usage: cwlkit trec_eval [-h] [-v] [-q] [-n] [-c] [-J] [-l N] [-M N] [-N N] [-m MEASURE[.PARAMS]]...
                        [-R qrels|prefs|qrels_prefs|qrels_jg] [-T trec_results] [-Z FILE]
                        [--trec-version 9|10] [-j N] [--quiet] QRELS RUN [RUN...]

A drop-in trec_eval: evaluate the ranked results in RUN against the relevance information in
QRELS and print what trec_eval prints, byte for byte (name padded to 22, tab, topic, tab,
value with 4 decimals). RUN may be '-' (standard input) and either file may be gzipped.

  -q, --query_eval_wanted        per-topic values before the summary
  -m, --measure MEAS[.PARAMS]    add a measure or nickname (repeatable): official (default),
                                 all_trec, set, all_prefs, prefs, qrels_jg; parameters as in
                                 P.5,10  iprec_at_recall.0.1,0.5  ndcg.1=3,2=9  rbp.p=0.8
  -c, --complete_rel_info_wanted average over every qrels topic (missing ones score 0)
  -l, --level_for_rel N          smallest qrels value counted relevant (default 1)
  -n, --nosummary                no summary ('all') lines
  -J, --Judged_docs_only         drop unjudged documents after ranking (DO NOT USE)
  -M, --Max_retrieved_per_topic N  keep the top N documents of each topic
  -N, --Number_docs_in_coll N    collection size (utility)
  -R, --Rel_info_format FMT      qrels (default), prefs, qrels_prefs, qrels_jg
  -T, --Results_format FMT       trec_results (the only one)
  -Z, --Zscore FILE              print Z scores using 'qid measure mean stddev' lines
  -h, --help                     this help; with -m, the definitions of those measures
  -v, --version                  print the version
  --trec-version {9,10}          9 (default): trec_eval 9.0.8 (float scores, pytrec_eval's
                                 numbers); 10: trec_eval 10.0 (double scores, rounded recall
                                 cutoffs, rbp/rbp_resid/unj in all_trec, '#' comments,
                                 missing topics refused without -c)
  -j, --jobs N                   N processes for several runs, or for the topic chunks of
                                 one run (default: every core)
  --quiet                        no progress bar on stderr (drawn only on a terminal)
  --chunk-topics N|auto|none     evaluate N topics at a time (same output, less memory;
                                 a run file, plain or gzipped, is streamed); auto
                                 (default): a run of over 64 MB of text, about 262,144
                                 lines at a time

Several runs (QRELS RUN RUN...): the qrels are read once; the output is what trec_eval
prints for each run, concatenated in argument order, once every run is evaluated. A run
that is streamed (--chunk-topics) is evaluated in its turn, its topic ranges over -j.

Ranking: score descending, ties by document id descending (byte order); the rank column is
ignored. See docs/trec_eval.md for every measure and where cwlkit departs from trec_eval.
"""


def build_parser() -> argparse.ArgumentParser:
    from .main import ArgumentParser

    p = ArgumentParser(prog="cwlkit trec_eval", add_help=False, allow_abbrev=False)
    p.add_argument("files", nargs="*")
    p.add_argument("-h", "--help", action="store_true")
    p.add_argument("-v", "--version", action="store_true")
    p.add_argument("-q", "--query_eval_wanted", dest="q", action="store_true")
    p.add_argument("-m", "--measure", dest="m", action="append", default=[])
    p.add_argument("-c", "--complete_rel_info_wanted", dest="c", action="store_true")
    p.add_argument("-l", "--level_for_rel", dest="l", default="1")
    p.add_argument("-n", "--nosummary", dest="n", action="store_true")
    p.add_argument("-D", "--Debug_level", dest="D", default=None)
    p.add_argument("-J", "--Judged_docs_only", dest="J", action="store_true")
    p.add_argument("-N", "--Number_docs_in_coll", dest="N", default="0")
    p.add_argument("-M", "--Max_retrieved_per_topic", dest="M", default=None)
    p.add_argument("-R", "--Rel_info_format", dest="R", default="qrels")
    p.add_argument("-T", "--Results_format", dest="T", default="trec_results")
    p.add_argument("-o", "--Output_old_results_format", dest="o", action="store_true")
    p.add_argument("-Z", "--Zscore", dest="Z", default=None)
    p.add_argument("--trec-version", dest="trec_version", choices=("9", "10"), default="9")
    p.add_argument("--jobs", "-j", dest="jobs", default=None)
    p.add_argument("--quiet", dest="quiet", action="store_true")
    p.add_argument("--chunk-topics", dest="chunk_topics", default="auto")
    return p


def _int_opt(flag: str, text: str) -> int:
    from ..errors import ParamError

    try:
        return int(text)
    except ValueError:
        raise ParamError(f"cwlkit trec_eval: {flag} expects an integer, got {text!r}") from None


def _chunk_opt(text: str) -> int | str | None:
    """``--chunk-topics``: a positive integer, ``auto`` or ``none`` (None)."""
    from ..errors import ParamError

    if text in ("auto", "none"):
        return None if text == "none" else text
    n = _int_opt("--chunk-topics", text)
    if n < 1:
        raise ParamError(f"cwlkit trec_eval: --chunk-topics must be positive, got {text!r}")
    return n


def _measure_help(specs: list[str], version: int) -> str:
    from ..measures.trec.spec import MEASURES, PREFS_JG_MEASURES, nicknames

    names: set[str] = set()
    nick = nicknames(version)
    for s in specs:
        n = s.partition(".")[0]
        names.update(nick.get(n, (n,)))
    out = ["", "Individual measure documentation for requested measures"]
    for m in MEASURES:
        if m.name in names and version in m.versions:
            out.append(f"{m.name}\n    {m.doc}")
    for n in PREFS_JG_MEASURES:
        if n in names:
            out.append(f"{n}\n    preference / judgment-group measure (see docs/trec_eval.md)")
    if len(out) == 2:
        out.append(
            "-- No measures indicated.\n"
            "   Request measure documentation using <-m measure> on command line"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    from ..errors import CwlkitError

    args = build_parser().parse_args(argv)
    version = int(args.trec_version)
    if args.version:
        from .. import __version__

        sys.stdout.write(
            f"cwlkit trec_eval {__version__} "
            f"(trec_eval {'10.0' if version == 10 else '9.0.8'} semantics)\n"
        )
        return 0
    if args.help:
        sys.stdout.write(HELP + (_measure_help(args.m, version) if args.m else ""))
        return 0
    if len(args.files) < 2:
        raise CwlkitError("cwlkit trec_eval: needs QRELS and RUN (see 'cwlkit trec_eval --help')")
    if args.T != "trec_results":
        raise CwlkitError(
            f"cwlkit trec_eval: illegal results format {args.T!r} (only 'trec_results')"
        )
    if args.R not in ("qrels", "prefs", "qrels_prefs", "qrels_jg"):
        raise CwlkitError(
            f"cwlkit trec_eval: illegal rel_format {args.R!r} "
            "(qrels, prefs, qrels_prefs or qrels_jg)"
        )
    qrels_path, *run_paths = args.files
    jobs = _int_opt("--jobs", args.jobs) if args.jobs is not None else None
    level = float(_int_opt("-l", args.l))
    max_depth = _int_opt("-M", args.M) if args.M is not None else None
    num_docs = _int_opt("-N", args.N)
    comments = version >= 10

    from ..measures.trec.spec import PREFS_JG_MEASURES

    wants_prefs = args.R != "qrels" or any(s.partition(".")[0] in PREFS_JG_MEASURES for s in args.m)
    if wants_prefs:
        if args.Z:
            raise CwlkitError(
                "cwlkit trec_eval: -Z is not available with -R prefs, qrels_prefs or qrels_jg"
            )
        try:
            from ..measures.trec import prefs  # noqa: F401 (only: is it in this build?)
        except ModuleNotFoundError as exc:
            if exc.name != "cwlkit.measures.trec.prefs":
                raise
            raise CwlkitError(
                f"cwlkit trec_eval: -R {args.R} / preference measures "
                "are not available in this build"
            ) from None
        outs = [
            _prefs_text(args, qrels_path, p, version, level, max_depth, comments) for p in run_paths
        ]
    else:
        chunk = _chunk_opt(args.chunk_topics)
        from ..executors.choose import trec_stream_sizes

        sizes = trec_stream_sizes(chunk, qrels_path, run_paths)  # (before pyarrow is loaded)
        if sizes is None:
            from .main import lean_arrow_memory

            lean_arrow_memory()  # (before pyarrow is loaded)
        from ..io.trec import read_pair, read_qrels, read_zscores

        zs = read_zscores(args.Z) if args.Z else None
        if sizes is not None:  # bounded memory
            # (the qrels, read once for the runs read whole, are kept from run to run)
            options = _options(args, version, level, max_depth, num_docs, zs, comments, None, False)
            _streamed_runs(args, qrels_path, run_paths, sizes, jobs, options)
            return 0
        if len(run_paths) == 1:
            qrels, run = read_pair(
                qrels_path, run_paths[0], comments=comments, extra=True, light=True
            )
        else:  # the qrels are read once, each run in its turn (or in a worker process)
            qrels, run = read_qrels(qrels_path, comments=comments), None
        size = chunk if isinstance(chunk, int) else None
        one = len(run_paths) == 1  # (one run: its codes are released once the batch is built)
        options = _options(args, version, level, max_depth, num_docs, zs, comments, size, one)
        if run is not None:
            outs = [_trec_text(qrels, run, options)]
        else:
            from ..executors.processes import chunk_for, imap, progress_bar

            outs = []
            chunk = chunk_for(run_paths, jobs)
            work = imap(_trec_one, (qrels, options), run_paths, jobs=jobs, chunk=chunk)
            with progress_bar(len(run_paths), "runs", "run", False if args.quiet else None) as tick:
                for text in work:
                    outs.append(text)
                    tick()
    # every run is evaluated before anything is printed: an error leaves stdout empty
    sys.stdout.write("".join(outs))
    return 0


def _options(args, version, level, max_depth, num_docs, zs, comments, chunk, release) -> dict:
    """What :func:`_trec_text` needs to evaluate a run read whole (``release``: free the
    qrels' codes once its batch is built, when no other run needs them)."""
    return dict(
        specs=args.m or None,
        version=version,
        all_topics=args.c,
        rel_level=level,
        max_depth=max_depth,
        judged_only=args.J,
        num_docs=num_docs,
        zscores=zs,
        release=release,
        per_topic=args.q,
        summary=not args.n,
        comments=comments,
        chunk_topics=chunk,
    )


def _streamed_runs(args, qrels_path, run_paths, sizes, jobs, options: dict) -> None:
    """Runs evaluated in turn, in argument order, each streamed over ``jobs`` processes or,
    where ``sizes`` says None, read whole (the qrels read once for them); ``options``: see
    :func:`_trec_text`. Their output is spooled to an unnamed temporary file and copied to
    stdout once every run is evaluated."""
    import shutil
    import tempfile

    qrels = None
    with tempfile.TemporaryFile(
        "w+", encoding="utf-8", errors="surrogatepass", newline=""
    ) as spool:
        for path, size in zip(run_paths, sizes, strict=True):
            if size is not None:
                _streamed(args, qrels_path, path, size, jobs, options, spool)
                continue
            if qrels is None:
                from ..io.trec import read_qrels

                qrels = read_qrels(qrels_path, comments=options["comments"])
            spool.write(_trec_one((qrels, options), path))
        # every run is evaluated: an error before this point leaves stdout empty
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout, 1 << 20)


def _streamed(args, qrels_path: str, run_path: str, chunk: int, jobs, o: dict, out) -> None:
    """One run of two local files (plain or gzipped) in bounded memory, over ``jobs``
    processes: topic buckets of about ``chunk`` topics in byte order, each bucket's per-topic
    lines (formatted where it is scored) written to ``out`` (a text file) as it is scored,
    then the ``all`` lines once every bucket is (``o``: see :func:`_trec_text`)."""
    from functools import partial

    from ..formats.trec_eval import format_trec_eval
    from ..measures.trec.evaluate import evaluate_trec_files, trec_eval_names

    names = trec_eval_names(o["specs"], o["version"])
    zscore = o["zscores"] is not None
    _return_freed_memory()
    res = evaluate_trec_files(
        qrels_path,
        run_path,
        o["specs"],
        chunk_topics=chunk,
        comments=o["comments"],
        version=o["version"],
        zscores=o["zscores"],
        progress=False if args.quiet else None,
        jobs=jobs,
        each=partial(_topic_lines, names=names, per_topic=o["per_topic"], zscore=zscore),
        sink=out.writelines,
        rel_level=o["rel_level"],
        max_depth=o["max_depth"],
        judged_only=o["judged_only"],
        num_docs=o["num_docs"],
        all_topics=o["all_topics"],
    )
    if o["summary"]:
        out.write(format_trec_eval(res, names, zscore=zscore, per_topic=False))


def _topic_lines(res, *, names: list[str], per_topic: bool, zscore: bool) -> list[str]:
    """The per-topic lines of one bucket's Results, in pieces of 1,000 topics (formatting
    many topics at once holds several times the text in Python objects)."""
    from ..formats.trec_eval import write_trec_eval

    pieces: list[str] = []
    if per_topic:
        write = pieces.append
        write_trec_eval(res, write, names, per_topic=True, summary=False, zscore=zscore, block=1000)
    return pieces


def _return_freed_memory() -> None:
    """Undo the command line's ``mallopt`` (keep freed memory, see ``cli/main.py``) for the
    streamed path: its bucket temporaries come and go while the per-topic values stay, so
    memory kept by the C library (and fragmented by the values) would grow with the files."""
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_trim_threshold, ctypes.c_int(1 << 25))
    mallopt(m_mmap_threshold, ctypes.c_int(1 << 20))


def _trec_text(qrels, run, o: dict) -> str:
    """trec_eval's output for one run."""
    from ..formats.trec_eval import format_trec_eval
    from ..measures.trec.evaluate import evaluate_trec, trec_eval_names

    res = evaluate_trec(
        qrels,
        run,
        o["specs"],
        version=o["version"],
        all_topics=o["all_topics"],
        rel_level=o["rel_level"],
        max_depth=o["max_depth"],
        judged_only=o["judged_only"],
        num_docs=o["num_docs"],
        zscores=o["zscores"],
        release=o["release"],
        chunk_topics=o["chunk_topics"],
    )
    return format_trec_eval(
        res,
        trec_eval_names(o["specs"], o["version"]),
        per_topic=o["per_topic"],
        summary=o["summary"],
        zscore=o["zscores"] is not None,
    )


def _trec_one(state: tuple, run_path: str) -> str:
    """One run of several (module level: run in worker processes)."""
    from ..io.trec import read_run

    qrels, o = state
    run = read_run(run_path, comments=o["comments"], extra=True, light=True, qrels=qrels)
    return _trec_text(qrels, run, o)


def _prefs_text(args, qrels_path, run_path, version, level, max_depth, comments) -> str:
    """trec_eval's output for the preference / judgment-group evaluation of one run (``-R``)."""
    from ..formats.trec_eval import format_trec_eval
    from ..io.trec import read_run
    from ..measures.trec.prefs import evaluate_prefs, prefs_names

    run = read_run(run_path, comments=comments, extra=True)
    nick = None
    names: list[str] | None = []
    for s in args.m:
        n = s.partition(".")[0]
        if n in ("all_prefs", "prefs", "qrels_jg", "official", "all_trec", "set"):
            nick = n
        else:
            names.append(s)  # type: ignore[union-attr]
    if not args.m:
        names = None
    elif not names:
        names = None
    kind = args.R if args.R != "qrels" else "qrels_prefs"
    res = evaluate_prefs(
        kind,
        qrels_path,
        run,
        names,
        version=version,
        nickname=nick,
        max_depth=max_depth,
        all_topics=args.c,
        rel_level=level,
    )
    printed = prefs_names(kind, names, nick)
    return format_trec_eval(res, printed, per_topic=args.q, summary=not args.n)
