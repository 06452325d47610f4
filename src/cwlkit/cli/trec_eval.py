"""``cwlkit trec_eval [options] QRELS RUN``: trec_eval's command line and output, byte for byte.

Flags, long options and nicknames are trec_eval's (``-q -c -n -l N -J -M N -N N -m MEAS
-R FMT -T FMT -Z FILE -h -v``); ``--trec-version 10`` switches from 9.0.8's rules to 10.0's.
Everything is computed before anything is printed: an error prints one line on stderr and
nothing on stdout.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

HELP = """\
usage: cwlkit trec_eval [-h] [-v] [-q] [-n] [-c] [-J] [-l N] [-M N] [-N N] [-m MEASURE[.PARAMS]]...
                        [-R qrels|prefs|qrels_prefs|qrels_jg] [-T trec_results] [-Z FILE]
                        [--trec-version 9|10] [-j N] [--quiet] QRELS RUN [RUN...]

Flags and output of trec_eval 9.0.8 (and of 10.0 with --trec-version 10).

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
ignored. Labels are read as trec_eval reads them, with C's atol (5e-1 is 5, 2abc is 2);
fields after a run line's sixth are ignored (docs/inputs.md). See docs/trec_eval.md for every
measure and where cwlkit departs from trec_eval.

"""


_Q = "example:web2012.qrels"
_R = "example:web2012"
HELP += (
    "\nexamples (run from any folder; example:NAME is a file bundled with cwlkit):\n"
    f"  cwlkit trec_eval {_Q} {_R}.ql.cata\n"
    f"  cwlkit trec_eval -q -m P.5,10 -m map {_Q} {_R}.ql.cata\n"
    f"  cwlkit trec_eval -c -m all_trec {_Q} {_R}.ql.cata {_R}.rm.cata\n"
)


def build_parser() -> argparse.ArgumentParser:
    from .main import ArgumentParser

    # (the help texts are short: -h prints HELP, trec_eval's own layout)
    p = ArgumentParser(prog="cwlkit trec_eval", add_help=False, allow_abbrev=False)
    p.add_argument("files", nargs="*", help="QRELS RUN [RUN...]")
    p.add_argument("-h", "--help", action="store_true", help="this help")
    p.add_argument("-v", "--version", action="store_true", help="print the version")
    p.add_argument(
        "-q", "--query_eval_wanted", dest="q", action="store_true", help="per-topic values"
    )
    p.add_argument(
        "-m", "--measure", dest="m", action="append", default=[], help="a measure or nickname"
    )
    p.add_argument(
        "-c",
        "--complete_rel_info_wanted",
        dest="c",
        action="store_true",
        help="average over every qrels topic",
    )
    p.add_argument(
        "-l", "--level_for_rel", dest="l", default="1", help="smallest relevant qrels value"
    )
    p.add_argument("-n", "--nosummary", dest="n", action="store_true", help="no summary lines")
    p.add_argument("-D", "--Debug_level", dest="D", default=None, help="ignored")
    p.add_argument(
        "-J", "--Judged_docs_only", dest="J", action="store_true", help="drop unjudged documents"
    )
    p.add_argument("-N", "--Number_docs_in_coll", dest="N", default="0", help="collection size")
    p.add_argument("-M", "--Max_retrieved_per_topic", dest="M", default=None, help="keep the top N")
    p.add_argument("-R", "--Rel_info_format", dest="R", default="qrels", help="qrels file format")
    p.add_argument(
        "-T", "--Results_format", dest="T", default="trec_results", help="run file format"
    )
    p.add_argument(
        "-o", "--Output_old_results_format", dest="o", action="store_true", help="ignored"
    )
    p.add_argument("-Z", "--Zscore", dest="Z", default=None, help="Z-score file")
    p.add_argument(
        "--trec-version",
        dest="trec_version",
        choices=("9", "10"),
        default="9",
        help="9.0.8 or 10.0",
    )
    p.add_argument("--jobs", "-j", dest="jobs", default=None, help="processes")
    p.add_argument("--quiet", dest="quiet", action="store_true", help="no progress bar")
    p.add_argument("--chunk-topics", dest="chunk_topics", default="auto", help="topics at a time")
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
        outs = _prefs_texts(args, qrels_path, run_paths, version, level, max_depth)
    else:
        chunk = _chunk_opt(args.chunk_topics)
        from ..executors.choose import trec_stream_sizes

        sizes = trec_stream_sizes(chunk, qrels_path, run_paths)  # (before pyarrow is loaded)
        if sizes is None:
            from .main import lean_arrow_memory

            lean_arrow_memory()  # (before pyarrow is loaded)
        else:
            from .main import return_freed_memory

            return_freed_memory()
        from ..formats.trec_eval import TrecEval
        from ..io.trec import read_zscores

        te = TrecEval.create(
            qrels_path,
            args.m or None,
            version=version,
            all_topics=args.c,
            rel_level=level,
            max_depth=max_depth,
            judged_only=args.J,
            num_docs=num_docs,
            stream_qrels=sizes is not None,
        )
        show = dict(per_topic=args.q, summary=not args.n)
        show["zscores"] = read_zscores(args.Z) if args.Z else None
        fixed = chunk if isinstance(chunk, int) else None  # (runs not streamed: in chunks)
        each = sizes or [fixed] * len(run_paths)
        _print_runs(te, run_paths, each, jobs, show, progress=False if args.quiet else None)
        return 0
    # every run is evaluated before anything is printed: an error leaves stdout empty
    sys.stdout.write("".join(outs))
    return 0


def _prefs_texts(
    args: argparse.Namespace,
    qrels_path: str,
    run_paths: list[str],
    version: int,
    level: float,
    max_depth: int | None,
) -> list[str]:
    """trec_eval's output for the preference / judgment-group evaluation (``-R``) of each
    run, the judgments read once."""
    from ..formats.trec_eval import TrecEval

    kind = args.R if args.R != "qrels" else "qrels_prefs"
    te = TrecEval.create_prefs(
        kind,
        qrels_path,
        args.m or None,
        version=version,
        all_topics=args.c,
        rel_level=level,
        max_depth=max_depth,
    )
    show = dict(per_topic=args.q, summary=not args.n)
    return [te.text(te.evaluate(path), **show) for path in run_paths]


def _print_runs(
    te: Any, paths: list[str], chunks: list, jobs: int | None, show: dict, progress: bool | None
) -> None:
    """Evaluate every run (``chunks``: per run, topics per streamed bucket, or None to read
    it whole) and print trec_eval's output for each, in argument order, once every run is
    evaluated (spooled to an unnamed temporary file): an error leaves stdout empty. Runs
    read whole are spread over ``jobs`` processes, each whole in one; a streamed run is
    evaluated in its turn, its buckets over ``jobs``."""
    import shutil
    import tempfile

    from ..executors.processes import chunk_for, imap, progress_bar

    with tempfile.TemporaryFile(
        "w+", encoding="utf-8", errors="surrogatepass", newline=""
    ) as spool:
        if len(paths) > 1 and all(c is None for c in chunks):
            _ = te.evaluator.qrels  # (read once, here, for every worker)
            work = imap(_run_text, (te, show), paths, jobs=jobs, chunk=chunk_for(paths, jobs))
            with progress_bar(len(paths), "runs", "run", progress) as tick:
                for text in work:
                    spool.write(text)
                    tick()
        else:
            for path, chunk in zip(paths, chunks, strict=True):
                res = te.evaluate(path, jobs=jobs, chunk_topics=chunk, progress=progress)
                te.write(res, spool.write, **show)
                del res
        spool.seek(0)
        shutil.copyfileobj(spool, sys.stdout, 1 << 20)


def _run_text(state: tuple, path: str) -> str:
    """trec_eval's output for one run of several (module level: run in worker processes)."""
    te, show = state
    return te.text(te.evaluate(path, jobs=1), **show)
