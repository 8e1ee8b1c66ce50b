"""FPGA AI Suite mapping tables: read a 1,000,000-row output mapping CSV, then apply it.

    python bench/bench_intel_mapping.py

1. Reading, side by side in one run: binparse's `read_table` (a MappingTable: every check of the
   report format done, each int64 numpy column made on first use) against the CSV readers a user
   would pick instead, each with its defaults and its own result type: `pyarrow.csv.read_csv` (an
   Arrow Table), `polars.read_csv` (a DataFrame), pandas with its pyarrow engine, and Python's `csv`
   module turning cells into ints. The same again with all 11 columns as numpy arrays: binparse's
   columns all used against pyarrow's and polars' `to_numpy()` of the 11 columns.
   Peers that are not installed are left out (`pip install -e '.[bench]'`).
2. Applying: `OutputConfiguration.to_logical` on an FP16 IP buffer against a bare `np.take` with
   the same index array (the floor): the mapping alone (float16 result) and with the exact widening
   to float32 (the default).
The table is written by binparse's own writer: a logical (1, 1000, 1, 25, 40) output, KVEC 32.

Targets (issue 14): reading ≤ 1.0x the fastest of pyarrow and polars (their own result types);
applying within 3x np.take.
"""

from __future__ import annotations

import csv
import importlib.util
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from binparse.formats.intel_dla.fixtures import _mapping_columns  # noqa: E402
from binparse.formats.intel_dla import OutputConfiguration, read_table, write_mapping  # noqa: E402
from timing import Target, report  # noqa: E402

SHAPE = (1, 1000, 1, 25, 40)  # 1,000,000 logical elements
BINPARSE = "binparse read_table → MappingTable"
BINPARSE_ALL = "binparse read_table + the 11 columns as numpy"
PYARROW, POLARS = "pyarrow.csv.read_csv → Table", "polars.read_csv → DataFrame"
PYARROW_ALL = "pyarrow.csv.read_csv + to_numpy() of the 11 columns"
POLARS_ALL = "polars.read_csv + to_numpy() of the 11 columns"


def csv_module(path: Path) -> list[list[int]]:
    with open(path, newline="") as f:
        rows = csv.reader(f, delimiter=";")
        next(rows)
        return [[int(x) for x in row if x != "->"] for row in rows]


def peers(path: Path) -> list[tuple[str, Callable[[], Any]]]:
    """The installed readers, called as a user would."""
    out: list[tuple[str, Callable[[], Any]]] = []
    if importlib.util.find_spec("pyarrow"):
        import pyarrow.csv as pa_csv

        def arrow_numpy() -> list[Any]:
            t = pa_csv.read_csv(path, parse_options=pa_csv.ParseOptions(delimiter=";"))
            return [t.column(k).to_numpy() for k in range(t.num_columns) if k != 6]
        out.append((PYARROW, lambda: pa_csv.read_csv(path, parse_options=pa_csv.ParseOptions(delimiter=";"))))
        out.append((PYARROW_ALL, arrow_numpy))
    if importlib.util.find_spec("polars"):
        import polars as pl

        def polars_numpy() -> list[Any]:
            df = pl.read_csv(path, separator=";")
            return [df.to_series(k).to_numpy() for k in range(df.width) if k != 6]
        out.append((POLARS, lambda: pl.read_csv(path, separator=";")))
        out.append((POLARS_ALL, polars_numpy))
    if importlib.util.find_spec("pandas") and importlib.util.find_spec("pyarrow"):
        import pandas as pd
        out.append(("pandas.read_csv(engine='pyarrow')", lambda: pd.read_csv(path, sep=";", engine="pyarrow")))
    missing = [name for name in ("pyarrow", "polars", "pandas") if not importlib.util.find_spec(name)]
    if missing:
        print(f"({', '.join(missing)} not installed: left out; pip install -e '.[bench]')")
    return out


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
    print("\n1. reading (best of 7 interleaved rounds, one call each):")
    report([(BINPARSE, lambda: read_table(path)),
            (BINPARSE_ALL, lambda: list(read_table(path).columns.values())),  # type: ignore[union-attr]
            *peers(path),
            ("csv module → lists of int", lambda: csv_module(path))],
           base=BINPARSE, floor=BINPARSE, budget=None, title="intel mapping read",
           targets=(Target(BINPARSE, (PYARROW, POLARS), 1.0),))
    ip = np.random.default_rng(0).standard_normal(cfg.ip_size).astype("<f2")
    buf = ip.tobytes()
    idx = cfg._gather()
    assert np.array_equal(cfg.to_logical(buf).reshape(-1), ip.take(idx).astype(np.float32))
    print("\n2. applying the mapping to an FP16 IP buffer:")
    mapping = "binparse: to_logical(buf, dtype=float16) (the mapping)"
    report([("numpy: np.take(ip, index)", lambda: np.take(ip, idx)),
            (mapping, lambda: cfg.to_logical(buf, np.float16)),
            ("binparse: to_logical(buf) (mapping + widen to float32)", lambda: cfg.to_logical(buf))],
           base=mapping, floor="numpy: np.take(ip, index)", title="intel mapping apply",
           targets=(Target(mapping, "numpy: np.take(ip, index)", 3.0),))


if __name__ == "__main__":
    main()
