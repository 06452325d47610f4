"""``cwlkit diff`` on a large input: 10,000 topics x 1,000 documents per run.

    python benchmarks/bench_diff.py                 # 10,000 topics x 1,000 documents
    python benchmarks/bench_diff.py --topics 500    # a smaller run

Two runs and qrels (100 judged documents a topic, labels 0-2) are made with numpy (seeded)
as pyarrow tables held in memory. Timed: building the page's data (``cwlkit.diff`` with
nDCG@10, depth 10: reading and ranking both runs, the values, the intervals, RBO, tau_AP
and each shown rank's contribution) and writing the HTML, best of ``--repeat``; then,
when playwright and Chromium are installed, opening the page in headless Chromium until the
first topic is drawn (median of ``--repeat`` fresh pages), a move to the next topic and a
filter. The goal: the page opens in under 5 s. The timings are printed, not checked.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np


def make(topics: int, depth: int, seed: int):
    """A run (or, with depth 100, qrels) as a pyarrow table: each topic's documents are a
    distinct arithmetic sequence modulo the prime 5003, so no topic repeats a document."""
    import pyarrow as pa

    rng = np.random.default_rng(seed)
    step = rng.integers(1, 5003, size=topics)[:, None]
    start = rng.integers(0, 5003, size=topics)[:, None]
    docs = (step * np.arange(depth)[None, :] + start) % 5003
    cols = {
        "query_id": np.repeat(np.arange(topics), depth).astype(str),
        "doc_id": np.char.add("d", docs.ravel().astype(str)),
    }
    return pa.table(cols), rng


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topics", type=int, default=10_000)
    ap.add_argument("--depth", type=int, default=1_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    import cwlkit

    qrels, rng = make(args.topics, 100, 0)
    qrels = qrels.append_column("relevance", [rng.integers(0, 3, qrels.num_rows)])
    runs = []
    for seed in (1, 2):
        run, rng = make(args.topics, args.depth, seed)
        runs.append(run.append_column("score", [rng.random(run.num_rows)]))
    print(f"{args.topics} topics x {args.depth} documents a run")
    times, page = [], None
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        page = cwlkit.diff(qrels, runs[0], runs[1], "nDCG@10", depth=10)
        times.append(time.perf_counter() - t0)
    assert page is not None
    print(f"diff (build): best {min(times):.2f} s of {args.repeat}")
    folder = Path(tempfile.mkdtemp())
    out = folder / "diff.html"
    t0 = time.perf_counter()
    page.save(out)
    print(f"HTML: {time.perf_counter() - t0:.2f} s, {out.stat().st_size / 2**20:.1f} MiB")
    browser(out, args.repeat)
    shutil.rmtree(folder)


def browser(path: Path, repeat: int) -> None:
    """Open the page in headless Chromium; print the median times."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        chromium = None
    if chromium is None:
        print("browser: no playwright or chromium, not timed")
        return
    opened, moved, filtered = [], [], []
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(repeat):
            page = b.new_page(viewport={"width": 1280, "height": 900})
            t0 = time.perf_counter()
            page.goto(path.as_uri())
            page.wait_for_selector("#detail h2")
            opened.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            page.keyboard.press("j")
            page.locator("#detail h2").inner_text()
            moved.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            page.locator("#filter").fill("99")
            page.locator("#tbody tr[data-i]").count()
            filtered.append(time.perf_counter() - t0)
            page.close()
        b.close()
    med = statistics.median
    print(
        f"browser: open {med(opened):.2f} s, next topic {med(moved) * 1000:.0f} ms, "
        f"filter {med(filtered) * 1000:.0f} ms (medians of {repeat})"
    )


if __name__ == "__main__":
    main()
