"""Run every benchmark in one go, then print every target with its measured ratio.

    python bench/run.py              # or: python -m bench
    python bench/run.py tidl_io      # only bench/bench_tidl_io.py

The convention: a benchmark is a file `bench/bench_<topic>.py` whose `main()` times binparse side
by side with the tools a user would pick instead (`timing.report`: one run, ratios, targets).
This runner finds every such file by name, so a new `bench_<topic>.py` joins without being
listed anywhere, and runs each in its own process, in name order (one benchmark's memory use must
not slow the next). Peers that are not installed are left out with a note (`pip install -e
'.[bench]'` installs them). The exit status is 1 when a target was missed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def discover(only: list[str]) -> list[Path]:
    """bench/bench_*.py in name order (those whose topic is in `only`, when given)."""
    found = sorted(HERE.glob("bench_*.py"))
    return [p for p in found if not only or p.stem.removeprefix("bench_") in only]


def main(argv: list[str] | None = None) -> int:
    files = discover(sys.argv[1:] if argv is None else argv)
    if not files:
        print(f"no benchmark matches; have: {', '.join(p.stem for p in discover([]))}")
        return 2
    with tempfile.TemporaryDirectory(prefix="binparse-bench-") as tmp:
        summary = Path(tmp) / "targets.jsonl"
        env = dict(os.environ, BINPARSE_BENCH_SUMMARY=str(summary))
        failed = []
        for path in files:
            print(f"\n=== {path.name} " + "=" * max(0, 70 - len(path.name)), flush=True)
            t0 = time.perf_counter()
            run = subprocess.run([sys.executable, str(path)], env=env, cwd=HERE.parent)
            print(f"({path.name}: {time.perf_counter() - t0:.0f} s)", flush=True)
            if run.returncode != 0:
                failed.append(path.name)
        results = [json.loads(line) for line in summary.read_text().splitlines()] if summary.exists() else []
    print("\n=== targets (median ratio over the rounds, then its min-max) " + "=" * 16)
    for r in results:
        spread = f"({r['low']:.2f}-{r['high']:.2f})" if "low" in r else ""
        print(f"{'met   ' if r['ok'] else 'MISSED'} {r['ratio']:>9.2f}x {spread:>17s}  {r['bench']}: {r['target']}")
    for name in failed:
        print(f"FAILED {name} (see its output above)")
    return 1 if failed or not all(r["ok"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
