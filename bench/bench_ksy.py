"""A user's own .ksy read by binparse and by the Python the official Kaitai Struct compiler writes,
side by side: a repeat of variable-size records walked record by record, a repeat of fixed-size
records read through its structured view, and `binparse.compile` in a second process.

    python bench/bench_ksy.py

The variable-size file: 100,000 log records `time u4, level u1, source u2, len u2, body (len
bytes), crc u4` until the end of the file (`repeat: eos`). The walk reads every field of every record (the body's length as the
byte array's size). binparse indexes the records once with the compiled reader of their type
(codegen.linear) and makes each record when the walk reaches it; Kaitai's code parses them all
first. The floor is a hand-written loop of `struct.unpack_from` over the bytes.

The fixed-size file: 200,000 records of 20 bytes (3 float32, a u4, a u2, 2 u1) after a count.
binparse reads every column through `points.array` (one structured numpy view of the file);
Kaitai's code parses every record into objects and the walk reads every field. The floor is
`np.frombuffer` of the same structured dtype.

`compile`: a second process that compiles the schema finds it in the cache (keyed by the schema's
content) and only imports the generated module: timed against a process that imports that
module by itself, and against the first compile (the cache empty).

Targets (issue 36): the variable-size walk ≥ 2x faster than Kaitai's Python; the fixed-size
columns through the view ≥ 100x faster than Kaitai's Python; a second process's `compile` ≤ 1.5x
the import of the generated module.
"""

from __future__ import annotations

import os
import random
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import binparse  # noqa: E402
from binparse.engine import kaitai_ref  # noqa: E402
from timing import CPU, WALL, Target, report  # noqa: E402

RECORDS = """meta: {id: records, endian: le}
seq:
  - id: records
    type: record
    repeat: eos
types:
  record:
    seq:
      - {id: time, type: u4}
      - {id: level, type: u1}
      - {id: source, type: u2}
      - {id: len, type: u2}
      - {id: body, size: len}
      - {id: crc, type: u4}
"""
POINTS = """meta: {id: points, endian: le}
seq:
  - {id: count, type: u4}
  - {id: points, type: point, repeat: expr, repeat-expr: count}
types:
  point:
    seq:
      - {id: x, type: f4}
      - {id: y, type: f4}
      - {id: z, type: f4}
      - {id: id, type: u4}
      - {id: flags, type: u2}
      - {id: kind, type: u1}
      - {id: level, type: u1}
"""
N_VAR, N_FIXED = 100_000, 200_000


def files(tmp: Path) -> tuple[Path, Path, bytes, bytes]:
    rng = random.Random(36)
    parts = []
    for i in range(N_VAR):
        n = rng.randint(0, 24)
        parts.append(struct.pack("<IBHH", 1_700_000_000 + i, i % 7, i % 1000, n)
                     + bytes(rng.getrandbits(8) for _ in range(n)) + struct.pack("<I", i * 2654435761 & 0xFFFFFFFF))
    variable = b"".join(parts)
    pts = np.zeros(N_FIXED, dtype=[("x", "<f4"), ("y", "<f4"), ("z", "<f4"), ("id", "<u4"), ("flags", "<u2"),
                                   ("kind", "u1"), ("level", "u1")])
    for name in pts.dtype.names or ():
        pts[name] = np.arange(N_FIXED) % 251
    fixed = struct.pack("<I", N_FIXED) + pts.tobytes()
    (tmp / "records.ksy").write_text(RECORDS)
    (tmp / "points.ksy").write_text(POINTS)
    return tmp / "records.ksy", tmp / "points.ksy", variable, fixed


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="binparse-bench-ksy-"))
    os.environ["BINPARSE_CACHE"] = str(tmp / "cache")
    rec_ksy, pts_ksy, variable, fixed = files(tmp)
    records, points = binparse.compile(rec_ksy), binparse.compile(pts_ksy)

    def binparse_walk() -> int:
        s = 0
        for r in records.parse(variable).records:
            s += r.time + r.level + r.source + r.len + r.body.size + r.crc
        return s

    unpack_head, unpack_crc = struct.Struct("<IBHH").unpack_from, struct.Struct("<I").unpack_from

    def struct_walk() -> int:
        s, p, end, mv = 0, 0, len(variable), memoryview(variable)
        while p < end:
            time_, level, source, n = unpack_head(mv, p)
            body = mv[p + 9:p + 9 + n]
            s += time_ + level + source + n + len(body) + unpack_crc(mv, p + 9 + n)[0]
            p += 13 + n
        return s

    def column_sums(a: Any) -> float:
        return float(a["x"].sum() + a["y"].sum() + a["z"].sum()) + int(a["id"].sum()) + int(a["flags"].sum()) \
            + int(a["kind"].sum()) + int(a["level"].sum())

    def binparse_columns() -> float:
        return column_sums(points.parse(fixed).points.array)

    dtype = points.parse(fixed).points.array.dtype

    def numpy_columns() -> float:
        return column_sums(np.frombuffer(fixed, dtype, int(np.frombuffer(fixed, "<u4", 1)[0]), 4))

    var_cases: list[tuple[str, Any]] = [("struct: hand-written unpack_from loop", struct_walk),
                                        ("binparse: parse + walk every record", binparse_walk)]
    fixed_cases: list[tuple[str, Any]] = [("numpy: np.frombuffer + 7 column sums", numpy_columns),
                                          ("binparse: parse + points.array + 7 column sums", binparse_columns)]
    kaitai = "kaitai-struct-compiler 0.11 Python: parse + walk every record"
    if kaitai_ref.available():
        out = tmp / "kaitai"
        kaitai_ref.compile_schemas([rec_ksy, pts_ksy], out)
        sys.path.insert(0, str(out))
        import points as kpoints  # noqa: E402
        import records as krecords  # noqa: E402

        def kaitai_walk() -> int:
            s = 0
            for r in krecords.Records(kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(variable))).records:
                s += r.time + r.level + r.source + r.len + len(r.body) + r.crc
            return s

        def kaitai_points() -> float:
            s = 0.0
            for p in kpoints.Points(kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(fixed))).points:
                s += p.x + p.y + p.z + p.id + p.flags + p.kind + p.level
            return s

        assert kaitai_walk() == binparse_walk() == struct_walk()
        assert abs(kaitai_points() - binparse_columns()) < 1e-3 * abs(binparse_columns())
        var_cases.append((kaitai, kaitai_walk))
        fixed_cases.append(("kaitai-struct-compiler 0.11 Python: parse + every field", kaitai_points))
    else:
        print("(kaitai-struct-compiler not installed in .kaitai/: Kaitai rows skipped)")
    print(f"variable: {len(variable):,} bytes, {N_VAR:,} records; fixed: {len(fixed):,} bytes, {N_FIXED:,} records; "
          f"Python {sys.version.split()[0]}, numpy {np.__version__}")
    base = "binparse: parse + walk every record"
    report(var_cases, base=base, floor="struct: hand-written unpack_from loop", budget=None, rounds=7, clock=CPU,
           title="a user's .ksy: variable-size records, walked",
           targets=(Target(base, kaitai, 2.0, faster=True),))
    base = "binparse: parse + points.array + 7 column sums"
    report(fixed_cases, base=base, floor="numpy: np.frombuffer + 7 column sums", budget=None, rounds=7, clock=CPU,
           title="a user's .ksy: fixed-size records, through the view",
           targets=(Target(base, "kaitai-struct-compiler 0.11 Python: parse + every field", 100.0, faster=True),))
    second_process(tmp, rec_ksy)


def second_process(tmp: Path, ksy: Path) -> None:
    """`compile` in a fresh process: the first (empty cache), then later ones (the import only)."""
    env = dict(os.environ, BINPARSE_CACHE=str(tmp / "cache2"), PYTHONPATH=str(REPO))
    code = f"import binparse; binparse.compile({str(ksy)!r})"

    def run(c: str) -> None:
        subprocess.run([sys.executable, "-c", c], env=env, check=True)

    t0 = time.perf_counter()
    run(code)
    first = time.perf_counter() - t0
    import shutil
    # the cache keeps each module's checked code (run from those bytes) beside its source: the floor is the
    # same source imported as a package of its own, its .pyc made by a first import
    (folder,) = [p for p in (tmp / "cache2").iterdir() if p.is_dir()]
    pkg_dir = tmp / "gen" / "p"
    pkg_dir.mkdir(parents=True, exist_ok=True)
    (pkg_dir / "__init__.py").write_text("")
    shutil.copy(folder / f"{ksy.stem}.py", pkg_dir / f"{ksy.stem}.py")  # (the schema's module: its id's name)
    imports = f"import sys, binparse; sys.path.insert(0, {str(pkg_dir.parent)!r}); import p.{ksy.stem}"
    run(imports)
    cases = [("python -c 'import binparse' + import of the generated module", lambda: run(imports)),
             ("second process: binparse.compile (cached)", lambda: run(code))]
    print(f"first compile, in a process of its own: {first * 1e3:.0f} ms (the cache empty)")
    base = "second process: binparse.compile (cached)"
    report(cases, base=base, floor=cases[0][0], budget=None, rounds=7, clock=WALL, title="binparse.compile, cached",
           targets=(Target(base, cases[0][0], 1.5),))


if __name__ == "__main__":
    main()
