"""``cwlkit trec_eval --chunk-topics N [-j J] QRELS RUN`` on plain files (issue #10): topic
buckets by ranges of byte order, each formatted as soon as it is scored, the ``all`` totals
continued from bucket to bucket. The output is trec_eval's (the golden files of its own test
suites) and, on web2012, the unchunked path's (itself checked against trec_eval and
pytrec_eval by tests/measures/trec), byte for byte, at every chunk size and job count."""

from __future__ import annotations

import pytest
from conftest import DATA, plain_runs

from cwlkit.io.partition import TopicRanges, partition, topic_bounds

pytestmark = pytest.mark.slow  # (the fast tier: pytest -m 'not slow')

WEB = DATA / "web2012"
QRELS = WEB / "qrels.web.151-200.txt"
RUNS = plain_runs(sorted((WEB / "runs").glob("*.run.gz")))  # (plain: streamed as such)
TE = DATA / "trec_eval_test"
SIZES = ["1", "7", "1000"]
JOBS = ["1", "2"]


def _cases() -> list:
    out = []
    for version in ("9.0.8", "10.0"):
        for line in (TE / version / "CASES").read_text().splitlines():
            if not line.strip() or line.startswith("#") or "-R" in line.split():
                continue
            expected, args = line.split("\t", 1)
            out.append(pytest.param(version, expected, args.split(), id=f"{version}:{args}"))
    return out


@pytest.fixture
def streamed(monkeypatch):
    """The runs the streamed executor evaluates: ``{"run", "chunk_topics", "all_topics"}``."""
    import cwlkit.executors.streamed as st

    got: list[dict] = []
    real = st.evaluate_streamed

    def spy(plan, qrels, run_path, buckets, *args, **kwargs):
        all_topics = plan.options.topics == "qrels"
        got.append({"run": run_path, "chunk_topics": buckets.topics, "all_topics": all_topics})
        return real(plan, qrels, run_path, buckets, *args, **kwargs)

    monkeypatch.setattr(st, "evaluate_streamed", spy)
    return got


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(("version", "expected", "args"), _cases())
def test_golden_streamed(cli, monkeypatch, version, expected, args, size, jobs):
    """trec_eval's own outputs (-q, -c, -M, -l, relstring, -Z, parameters, '#' comments)."""
    monkeypatch.chdir(TE / version)
    extra = ["--trec-version", "10"] if version == "10.0" else []
    rc, out, err = cli("trec_eval", *extra, "--chunk-topics", size, "-j", jobs, *args)
    assert (rc, err) == (0, "")
    assert out == (TE / version / expected).read_text()


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize(
    "flags",
    [
        ["-q", "-m", "all_trec"],
        ["-m", "all_trec"],
        ["-q", "-n", "-m", "official"],
        ["-q", "-J", "-M", "30", "-l", "2", "-m", "all_trec", "--trec-version", "10"],
        ["-c", "-q", "-m", "all_trec"],
        ["-c", "-q", "-m", "all_trec", "--trec-version", "10"],
    ],
    ids=["q", "summary", "nosummary", "J-M-l-v10", "c", "c-v10"],
)
def test_web2012_streamed_is_whole_output(cli, flags, size, jobs):
    for run in RUNS:
        whole = cli("trec_eval", *flags, QRELS, run)
        assert whole[0] == 0 and whole[1]
        assert cli("trec_eval", "--chunk-topics", size, "-j", jobs, *flags, QRELS, run) == whole


@pytest.fixture(scope="module")
def odd_topics(tmp_path_factory):
    """Topics whose byte order is neither numeric nor by first appearance (non-ASCII too),
    with some only in one file, and values that make every total order-sensitive."""
    d = tmp_path_factory.mktemp("odd")
    topics = ["9", "10", "100", "B", "a", "é1", "Z", "0x", "ä", "_", "-3"]
    q, r = [], []
    for n, t in enumerate(reversed(topics)):
        if t != "Z":  # only in the run
            q += [f"{t} 0 d{i} {(i * 7 + n) % 4 - (i == 3)}\n" for i in range(9)]
        if t != "_":  # only in the qrels
            r += [f"{t} Q0 d{i} {i} {((i * 13 + n) % 10) / 3:.6f} tag{n}\n" for i in range(14)]
    (d / "q").write_text("".join(q), encoding="utf-8")
    (d / "r").write_text("".join(r), encoding="utf-8")
    return d / "q", d / "r"


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize("size", ["1", "2", "5", "50"])
def test_byte_order_topics(cli, odd_topics, size, jobs):
    q, r = odd_topics
    flags_list = [["-q", "-m", "all_trec"], ["-q", "-m", "all_trec", "-M", "4"]]
    # -c: topic "_" is only in the qrels (a bucket of its own at size 1: no run line), scored
    # 0 in the averages (9.0.8) or printed as an empty ranking (10.0)
    flags_list += [["-c", "-q", "-m", "all_trec"], ["-c", "-m", "all_trec", "-J", "-M", "4"]]
    flags_list += [["-c", "-q", "-m", "all_trec", "--trec-version", "10"]]
    for flags in flags_list:
        whole = cli("trec_eval", *flags, q, r)
        assert whole[0] == 0
        topics = [ln.split("\t")[1] for ln in whole[1].splitlines() if ln.startswith("map ")]
        assert topics[:-1] == sorted(topics[:-1], key=str.encode) and topics[-1] == "all"
        assert cli("trec_eval", "--chunk-topics", size, "-j", jobs, *flags, q, r) == whole


@pytest.mark.parametrize("sample", [10**9, 512])
def test_topic_ranges_buckets_are_byte_ranges(odd_topics, tmp_path, sample):
    """Whole-file bounds cut every ``chunk`` topics; sampled ones (a small ``sample``) may be
    uneven, but every bucket holds a range of topics and the buckets follow byte order."""
    q, _ = odd_topics
    bounds = topic_bounds(str(q), 3, sample=sample)
    assert bounds == sorted(set(bounds))
    if sample > 1000:  # read whole: 10 topics of the qrels, 3 a bucket
        assert len(bounds) == 3
    parts = partition(str(q), "qrels", TopicRanges(bounds), tmp_path)
    seen: list[list[str]] = []
    for k in range(len(bounds) + 1):
        got = parts.read(k)
        if got is not None:
            seen.append(sorted(set(got.table.column("topic").to_pylist()), key=str.encode))
    parts.close()
    flat = [t for s in seen for t in s]
    assert flat == sorted(flat, key=str.encode) and len(flat) == 10


def test_unsorted_bounds_refused():
    with pytest.raises(ValueError, match="increasing"):
        TopicRanges(["b", "a"])


@pytest.mark.parametrize("jobs", JOBS)
def test_error_in_last_bucket_leaves_stdout_empty(cli, tmp_path, jobs):
    """A document listed twice in the last topic (byte order) is found only when the last
    bucket is read, after every other bucket is scored: nothing is printed."""
    run = RUNS[0]
    lines = run.read_text().splitlines(keepends=True)
    last = max((ln.split()[0] for ln in lines), key=str.encode)
    at = max(i for i, ln in enumerate(lines) if ln.split()[0] == last)
    first = next(ln for ln in lines if ln.split()[0] == last)
    lines.insert(at + 1, first)  # a repeat of the topic's first document, at its end
    bad = tmp_path / "dup.run"
    bad.write_text("".join(lines))
    rc, out, err = cli(
        "trec_eval", "--chunk-topics", "1", "-j", jobs, "-q", "-m", "map", QRELS, bad
    )
    assert rc != 0 and out == ""
    assert err.count("\n") == 1 and f"{bad}:{at + 2}:" in err and "twice" in err, err
    assert cli("trec_eval", "-q", "-m", "map", QRELS, bad)[2] == err  # the unchunked message


@pytest.mark.parametrize("flags", [["-q", "-m", "all_trec"], ["-c", "-q"]], ids=["q", "c"])
def test_auto_streams_a_large_run_file(cli, streamed, monkeypatch, flags):
    """The default ``--chunk-topics auto`` streams a plain run file over AUTO_BYTES (here
    every file: the threshold is lowered) in ranges of about AUTO_ROWS lines, and reads a
    smaller one whole (with -c too). The output is the same either way."""
    import cwlkit.executors.choose as choose

    run = RUNS[0]
    whole = cli("trec_eval", "--chunk-topics", "none", *flags, QRELS, run)
    assert whole[0] == 0 and whole[1]
    assert cli("trec_eval", *flags, QRELS, run) == whole
    assert streamed == []  # (a small file: read whole)
    monkeypatch.setattr(choose, "TREC_AUTO_BYTES", 0)
    monkeypatch.setattr(choose, "TREC_AUTO_ROWS", 2000)
    assert cli("trec_eval", *flags, QRELS, run) == whole
    # (several ranges of topics)
    assert [k["chunk_topics"] for k in streamed] == [choose.auto_chunk_topics(str(run))]
    assert 1 < streamed[0]["chunk_topics"] < 50
    assert [k["all_topics"] for k in streamed] == ["-c" in flags]


def test_auto_chunk_topics_estimates_lines_per_topic(tmp_path, monkeypatch):
    import cwlkit.executors.choose as choose
    import cwlkit.io.estimate as est

    run = tmp_path / "r"
    run.write_text("".join(f"t{t} Q0 d{i} {i} 1.0 x\n" for t in range(20) for i in range(50)))
    assert choose.auto_chunk_topics(str(run)) is None
    monkeypatch.setattr(choose, "TREC_AUTO_BYTES", 0)
    monkeypatch.setattr(choose, "TREC_AUTO_ROWS", 500)
    assert choose.auto_chunk_topics(str(run)) == 10
    assert est.estimate_topics(str(run)) == 20


def test_a_run_read_whole_uses_one_malloc_heap():
    """Deciding whether to stream loads neither numpy nor pyarrow, so that a run read whole
    gets pyarrow's system memory pool (cli/main.py: lean_arrow_memory)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    code = (
        "import sys; from cwlkit.cli.main import main; "
        f"rc = main(['trec_eval', {str(QRELS)!r}, {str(RUNS[0])!r}]); "
        "import pyarrow as pa; sys.stderr.write(pa.default_memory_pool().backend_name)"
    )
    got = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert got.returncode == 0 and got.stderr == "system"


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize("size", ["1", "7"])
def test_gzipped_files_are_streamed(cli, streamed, monkeypatch, tmp_path, size, jobs):
    """Gzipped qrels and runs are streamed (decompressed as they are read) with the same
    output as the plain files read whole; ``auto`` judges a gzipped file by its text."""
    import gzip

    import cwlkit.executors.choose as choose
    import cwlkit.io.estimate as est

    qz, rz = tmp_path / "q.gz", tmp_path / "r.gz"
    qz.write_bytes(gzip.compress(QRELS.read_bytes()))
    rz.write_bytes(gzip.compress(RUNS[0].read_bytes()))
    whole = cli("trec_eval", "--chunk-topics", "none", "-q", "-m", "all_trec", QRELS, RUNS[0])
    assert whole[0] == 0 and whole[1]
    flags = ["-q", "-m", "all_trec", "-j", jobs]
    assert cli("trec_eval", "--chunk-topics", size, *flags, qz, rz) == whole
    assert cli("trec_eval", "--chunk-topics", size, *flags, QRELS, rz) == whole
    assert len(streamed) == 2
    assert est.text_size(str(rz)) == RUNS[0].stat().st_size  # (under HEAD: exact)
    monkeypatch.setattr(choose, "TREC_AUTO_BYTES", RUNS[0].stat().st_size - 1)
    assert cli("trec_eval", *flags, qz, rz) == whole
    assert len(streamed) == 3  # (auto: over the threshold once decompressed)


def test_a_corrupt_gzip_file_is_one_error(cli, tmp_path):
    import gzip

    bad = tmp_path / "r.gz"
    bad.write_bytes(gzip.compress(RUNS[0].read_bytes())[:-40])  # cut short
    rc, out, err = cli("trec_eval", "--chunk-topics", "7", "-q", "-m", "map", QRELS, bad)
    assert rc == 2 and out == "" and err.count("\n") == 1
    assert f"{bad}: not a valid gzip file" in err, err


def test_text_size_of_a_large_gzipped_file(tmp_path):
    """Past its first HEAD bytes of text a gzipped file's text size is estimated from the
    compression ratio of that block (within a few percent on a uniform file)."""
    import gzip

    import cwlkit.io.estimate as est

    text = "".join(
        f"t{t} Q0 d{t}_{i} {i} {1 / (i + 1):.6f} x\n" for t in range(300) for i in range(600)
    )
    plain, packed = tmp_path / "r", tmp_path / "r.gz"
    plain.write_text(text)
    packed.write_bytes(gzip.compress(text.encode()))
    assert len(text) > est.HEAD
    assert est.text_size(str(plain)) == len(text)
    assert abs(est.text_size(str(packed)) - len(text)) < 0.1 * len(text)
    assert est.estimate_topics(str(packed)) == pytest.approx(
        est.estimate_topics(str(plain)), rel=0.1
    )


@pytest.mark.parametrize("jobs", JOBS)
@pytest.mark.parametrize(
    "flags", [["-q", "-m", "all_trec"], ["-c", "-m", "official"]], ids=["q", "c"]
)
def test_several_runs_streamed_in_turn(cli, streamed, flags, jobs):
    """Several runs with ``--chunk-topics N``: each streamed in its turn (its buckets over
    the jobs), the outputs in argument order, the same as each run read whole."""
    runs = [RUNS[0], RUNS[3], RUNS[0]]
    whole = "".join(cli("trec_eval", *flags, QRELS, run)[1] for run in runs)
    got = cli("trec_eval", "--chunk-topics", "7", "-j", jobs, *flags, QRELS, *runs)
    assert got == (0, whole, "")
    assert [k["run"] for k in streamed] == [str(r) for r in runs]


def test_auto_streams_the_large_runs_of_several(cli, streamed, monkeypatch):
    """``auto`` with several runs: a run over TREC_AUTO_BYTES is streamed, a smaller one read
    whole, in one call, output in argument order."""
    import cwlkit.executors.choose as choose

    small, large = sorted(RUNS, key=lambda p: p.stat().st_size)[:: len(RUNS) - 1]
    runs = [large, small, large]
    flags = ["-q", "-m", "all_trec"]
    whole = "".join(cli("trec_eval", *flags, QRELS, run)[1] for run in runs)
    monkeypatch.setattr(choose, "TREC_AUTO_BYTES", small.stat().st_size)
    monkeypatch.setattr(choose, "TREC_AUTO_ROWS", 2000)
    assert cli("trec_eval", *flags, QRELS, *runs) == (0, whole, "")
    assert [k["run"] for k in streamed] == [str(large), str(large)]


@pytest.mark.parametrize("jobs", JOBS)
def test_an_error_in_a_later_streamed_run_prints_nothing(cli, tmp_path, jobs):
    """The second of three streamed runs has a bad line: one error naming its file and line,
    nothing on stdout (the first run's output is not printed)."""
    lines = RUNS[0].read_text().splitlines(keepends=True)
    lines[41] = "151 Q0 doc-only-three-fields\n"
    bad = tmp_path / "bad.run"
    bad.write_text("".join(lines))
    rc, out, err = cli(
        "trec_eval", "--chunk-topics", "5", "-j", jobs, "-q", QRELS, RUNS[1], bad, RUNS[2]
    )
    assert rc != 0 and out == ""
    assert err.count("\n") == 1 and f"{bad}:42:" in err, err
