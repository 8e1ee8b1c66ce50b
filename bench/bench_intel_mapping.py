"""FPGA AI Suite mapping tables: parse a 1,000,000-row output mapping CSV and apply it.

    python bench/bench_intel_mapping.py

1. Parsing: binparse's `read_table` (numpy's C text parser, int64 columns) against Python's `csv`
   module turning the same file into ints (the usual hand-written reader), in one run.
2. Applying: `OutputConfiguration.to_logical` on an FP16 IP buffer against a bare `np.take` with
   the same index array (the floor): the mapping alone (float16 result) and with the exact widening
   to float32 (the default).
The table is written by binparse's own writer: a logical (1, 1000, 1, 25, 40) output, KVEC 32.
"""

from __future__ import annotations

import csv
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from binparse.fixtures.intel_dla import _mapping_columns  # noqa: E402
from binparse.formats.intel_dla import OutputConfiguration, read_table, write_mapping  # noqa: E402
from timing import report  # noqa: E402

SHAPE = (1, 1000, 1, 25, 40)  # 1,000,000 logical elements


def csv_module(path: Path) -> list[list[int]]:
    with open(path, newline="") as f:
        rows = csv.reader(f, delimiter=";")
        next(rows)
        return [[int(x) for x in row if x != "->"] for row in rows]


def main() -> None:
    cfg = OutputConfiguration.from_layout(SHAPE, 32)
    tmp = Path(tempfile.mkdtemp(prefix="binparse-bench-"))
    path = tmp / "output_transform_mapping_bench.csv"
    t0 = time.perf_counter()
    write_mapping(path, "output_transform_mapping", "v2025_1",
                  _mapping_columns("output_transform_mapping", "v2025_1", cfg.logical_offsets, cfg.ip_offsets,
                                   SHAPE, (1, 25, 40), 32))
    print(f"wrote {path.stat().st_size / 1e6:.1f} MB, {len(cfg.ip_offsets):,} rows in {time.perf_counter() - t0:.1f} s")
    table = read_table(path)
    assert np.array_equal(table.columns["ip_offset"], cfg.ip_offsets)  # type: ignore[union-attr]
    print("parsing (one call each, best of 5):")
    # binparse first: after the csv module has made and freed a million lists, the allocator hands
    # numpy's large arrays slower memory (0.34 s → 0.55 s for the same call), whichever parser runs.
    report([("binparse read_table → int64 columns", lambda: read_table(path)),
            ("csv module → lists of int", lambda: csv_module(path))],
           base="binparse read_table → int64 columns", floor="binparse read_table → int64 columns", budget=None)
    ip = np.random.default_rng(0).standard_normal(cfg.ip_size).astype("<f2")
    buf = ip.tobytes()
    idx = cfg._gather()
    assert np.array_equal(cfg.to_logical(buf).reshape(-1), ip.take(idx).astype(np.float32))
    print("applying the mapping to an FP16 IP buffer:")
    report([("numpy: np.take(ip, index)", lambda: np.take(ip, idx)),
            ("binparse: to_logical(buf, dtype=float16) (the mapping)", lambda: cfg.to_logical(buf, np.float16)),
            ("binparse: to_logical(buf) (mapping + widen to float32)", lambda: cfg.to_logical(buf))],
           base="binparse: to_logical(buf, dtype=float16) (the mapping)", floor="numpy: np.take(ip, index)")


if __name__ == "__main__":
    main()
