"""Run every ``--help`` example of the installed cwlkit, each from a fresh empty folder.

Run with the Python of the virtualenv the wheel was installed into (not from the source
tree): ``VENV/bin/python .ci/help_examples.py``. The examples are read from the installed
package's help texts (cwlkit.cli.help_examples, which the tests use too); each runs with
``bash -e -o pipefail`` in its own empty folder, with the virtualenv's ``bin`` first on the
PATH and ``TMPDIR`` a fresh folder. Prints one line per example and exits 1 if any example
exits non-zero (its last lines of stderr shown), 0 when all pass.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path


def main() -> int:
    import cwlkit
    from cwlkit.cli.help_examples import all_examples, run_example

    here = Path(__file__).resolve().parent.parent
    if Path(cwlkit.__file__).resolve().is_relative_to(here):
        sys.exit(f"cwlkit is imported from the source tree ({cwlkit.__file__}), not installed")
    bindir = str(Path(sys.executable).parent)
    failed = []
    found = all_examples()
    if not found:
        sys.exit("no --help examples found")
    for page, command in found:
        with tempfile.TemporaryDirectory(prefix="cwlkit-example-") as top:
            work, tmp = Path(top, "work"), Path(top, "tmp")
            work.mkdir()
            tmp.mkdir()
            env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CWLKIT_REPO")}
            start = time.perf_counter()
            proc = run_example(command, str(work), str(tmp), bindir, env, timeout=900)
            took = time.perf_counter() - start
        status = "ok" if proc.returncode == 0 else f"FAILED (exit {proc.returncode})"
        print(f"{status:>18}  {took:6.1f} s  [{page}]  {command}", flush=True)
        if proc.returncode:
            failed.append((page, command, proc.stderr.strip().splitlines()[-3:]))
    print(f"{len(found) - len(failed)} of {len(found)} --help examples ran")
    for page, command, err in failed:
        print(f"\n[{page}] {command}", *(f"    {line}" for line in err), sep="\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
