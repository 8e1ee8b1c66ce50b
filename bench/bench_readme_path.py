"""The README's own path, timed exactly as the README shows it, beside the Kaitai parser and bare numpy.

    python bench/bench_readme_path.py      # needs ../shared/real (else the bundled fixtures)

1. TIDL io descriptors, from the file's path, as the README shows:

       io = binparse.open(path)
       for t in io.inputs + io.outputs:
           t.name, t.index, t.data_id, t.element_type, t.shape, t.pad, t.channel_pitch,
           t.line_pitch, t.scale, t.zero_point, t.layout, t.buf_size

   Peers: bare numpy (the floor: the file read unbuffered and `np.frombuffer` of the record's
   structured dtype, the format known, then the same fields of the used entries as numpy scalars) and the parser the Kaitai Struct
   compiler generates from the same .ksy (the file read, every field parsed, the same values).
2. The deeplabv3 TIDL net's layer table, from the path, as the README shows: `binparse.open(path).table()`
   (layer types, in/out counts, in/out dataIds with unused slots -1, out dims). Peers: bare numpy
   (the floor: the header and the layer records read unbuffered, `np.frombuffer` of the records'
   structured dtype, the same six columns, unused slots masked) and the Kaitai parser (every layer parsed, the same columns).

Every reader gives the same values (checked before timing). Targets (issue 32): io descriptors
≥ 40x faster than the Kaitai parser and ≤ 1.5x numpy; the net table ≥ 1000x faster than the Kaitai parser.
A last row times the bytes alone (open, fstat, the reads every reader from the path needs, close;
nothing parsed): the least any reader from the path spends, so the most it could gain on Kaitai.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import binparse  # noqa: E402
from binparse.engine import kaitai_ref  # noqa: E402
from binparse.formats.tidl import IoBufDesc, NetJ7  # noqa: E402
from binparse.engine.schema import SCHEMAS_DIR, load_schema  # noqa: E402
from bench_tidl_io import PARAMS, kaitai_rows, numpy_reader, same  # noqa: E402
from timing import CPU, Target, report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "tidl" / "j7-08.2" / "deeplabv3-ade20k"
IO = (REAL / "201_tidl_io_1.bin", REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin")
NET = (REAL / "201_tidl_net.bin", REPO / "fixtures" / "tidl" / "net_08_06" / "910_tidl_net.bin")
KAITAI = "kaitai-struct-compiler 0.11 parser"


def readme_io(path: str) -> list[tuple[Any, ...]]:
    """The README's loop, word for word: open the path, read each tensor's descriptor fields."""
    io = binparse.open(path)
    return [(t.name, t.index, t.data_id, t.element_type, t.shape, t.pad, t.channel_pitch, t.line_pitch, t.scale,
             t.zero_point, t.layout, t.buf_size) for t in io.inputs + io.outputs]


def _row(r: tuple[Any, ...]) -> tuple[Any, ...]:
    p = r[5]
    return (*r[:5], (p.left, p.top, p.right, p.bottom, p.channel), *r[6:])


def _kaitai_class(schema_file: str) -> Any:
    if not kaitai_ref.available():
        print(f"(kaitai-struct-compiler not installed in .kaitai/: the {KAITAI} rows are left out)")
        return None
    schema = load_schema(SCHEMAS_DIR / "tidl" / schema_file)
    out = Path(tempfile.mkdtemp(prefix="binparse-bench-"))
    kaitai_ref.compile_all(out)
    return kaitai_ref.root_class(kaitai_ref.load_module(out, schema), schema)


def io_table() -> None:
    path = str(IO[0] if IO[0].exists() else IO[1])
    dtype = IoBufDesc._dtype_for(PARAMS)
    assert dtype is not None
    rows = numpy_reader(dtype)

    def numpy_io() -> list[Any]:  # the quickest plain way (np.fromfile is ~2x slower: stdio reads)
        with open(path, "rb", buffering=0) as f:
            return rows(f.read(dtype.itemsize))

    size = Path(path).stat().st_size

    def bytes_only() -> bytes:  # what every reader from the path does at least: nothing parsed
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fstat(fd)
            return os.read(fd, size)
        finally:
            os.close(fd)

    cls = _kaitai_class("tidl_io_buf_desc.ksy")

    def kaitai_io() -> list[Any]:
        with open(path, "rb") as f:
            data = f.read()
        return kaitai_rows(cls(*PARAMS.values(), kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(data))))

    want = same(numpy_io())
    assert same([_row(r) for r in readme_io(path)]) == want
    assert cls is None or same(kaitai_io()) == want
    print(f"file: {path} ({Path(path).stat().st_size:,} bytes, {len(want)} tensors), Python "
          f"{sys.version.split()[0]}, numpy {np.__version__}")
    base, floor = "binparse: io = open(path); for t in io.inputs + io.outputs: fields", \
        "numpy: read + frombuffer(structured dtype) + the same fields"
    cases: list[tuple[str, Callable[[], Any]]] = [(floor, numpy_io), (base, lambda: readme_io(path)),
                                                  (BYTES_ONLY, bytes_only)]
    targets = [Target(base, floor, 1.5)]
    if cls is not None:
        cases.append((f"{KAITAI}: read + parse + the same fields", kaitai_io))
        targets.append(Target(base, cases[-1][0], 40.0, faster=True))
    times = report(cases, base=base, floor=floor, targets=tuple(targets), title="README path: tidl io descriptors",
                   clock=CPU)
    bound(times, cases, "the same fields")


def net_table() -> None:
    path = str(NET[0] if NET[0].exists() else NET[1])
    gen = 82 if NET[0].exists() else 86
    data = Path(path).read_bytes()
    layer_dtype = NetJ7.from_buffer(data, gen=gen).layers.array.dtype
    header = 80 if gen == 82 else 136  # where the layer records start (after the net header)
    sides = ("in_data_params", "out_data_params") if gen == 82 else ("in_data", "out_data")

    def masked(ids: Any, counts: Any) -> Any:
        return np.where(np.arange(ids.shape[1]) < np.maximum(counts, 0)[:, None], ids, -1).astype(np.int32)

    def numpy_net() -> tuple[Any, ...]:  # the quickest plain way (np.fromfile is ~2x slower: stdio reads)
        with open(path, "rb", buffering=0) as f:
            head = f.read(header)
            n = int(np.frombuffer(head, "<i4", 1, 8)[0])
            a = np.frombuffer(f.read(n * layer_dtype.itemsize), layer_dtype, n)
        nin, nout = a["num_in_bufs"], a["num_out_bufs"]
        if gen == 82:
            ins, outs, shapes = a[sides[0]]["data_id"], a[sides[1]]["data_id"], a[sides[1]]["dim_values"]
        else:
            ins, outs, shapes = a["in_data"], a["out_data"]["data_id"][:, None], a["out_data"]["dim_values"][:, None]
        return a["layer_type"], nin, nout, masked(ins, nin), masked(outs, nout), shapes

    def bytes_only() -> bytes:  # what every reader from the path does at least: nothing parsed
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fstat(fd)
            os.pread(fd, 4096, 0)  # the head: which format, how many layers
            return os.pread(fd, n_layers * layer_dtype.itemsize, header)
        finally:
            os.close(fd)

    cls = _kaitai_class("tidl_net_j7.ksy")

    def kaitai_net() -> tuple[Any, ...]:
        with open(path, "rb") as f:
            net = cls(gen, 1, kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(f.read())))  # cores: ignored before 10.01
        layers = net.layers[:net.num_layers]
        if gen == 82:
            def slots(x: Any, side: str, k: int) -> list[int]:
                return [d.data_id if j < k else -1 for j, d in enumerate(getattr(x, side))]
            return ([x.layer_type for x in layers], [x.num_in_bufs for x in layers], [x.num_out_bufs for x in layers],
                    [slots(x, "in_data_params", x.num_in_bufs) for x in layers],
                    [slots(x, "out_data_params", x.num_out_bufs) for x in layers],
                    [[d.dim_values for d in x.out_data_params] for x in layers])
        return ([x.layer_type for x in layers], [x.num_in_bufs for x in layers], [x.num_out_bufs for x in layers],
                [[d if j < x.num_in_bufs else -1 for j, d in enumerate(x.in_data)] for x in layers],
                [[x.out_data.data_id if x.num_out_bufs > 0 else -1] for x in layers],
                [[x.out_data.dim_values] for x in layers])

    def readme_net() -> Any:
        return binparse.open(path).table()

    t = readme_net()
    n_layers = len(t)
    want = [np.asarray(c).tolist() for c in numpy_net()]
    assert [c.tolist() for c in (t.layer_type, t.num_in, t.num_out, t.in_ids, t.out_ids, t.out_shapes)] == want
    assert cls is None or [np.asarray(c).tolist() for c in kaitai_net()] == want
    print(f"\nfile: {path} ({len(data):,} bytes, {len(t)} layers)")
    base, floor = "binparse: open(path).table()", "numpy: read + frombuffer(layer dtype) + the same 6 columns"
    cases: list[tuple[str, Callable[[], Any]]] = [(floor, numpy_net), (base, readme_net), (BYTES_ONLY, bytes_only)]
    targets = []
    if cls is not None:
        cases.append((f"{KAITAI}: read + parse + the same columns", kaitai_net))
        targets.append(Target(base, cases[-1][0], 1000.0, faster=True))
    times = report(cases, base=base, floor=floor, targets=tuple(targets), title="README path: tidl net layer table",
                   clock=CPU)
    bound(times, cases, "the same columns")


BYTES_ONLY = "the bytes alone: open, fstat, read what is needed, close"


def bound(times: dict[str, float], cases: list[tuple[str, Callable[[], Any]]], what: str) -> None:
    """What the table shows of the targets against the Kaitai parser: a reader from the path spends
    at least the bytes-alone time, so no reader can be more than Kaitai ÷ that faster; bare numpy
    is what one gets with the fields taken out by plain numpy."""
    kaitai = next((name for name, _ in cases if name.startswith(KAITAI)), None)
    if kaitai is None:
        return
    k = times[kaitai]
    print(f"  the bytes alone are {k / times[BYTES_ONLY]:.0f}x faster than the Kaitai parser: the most a reader "
          f"from the path could be, with {what} taken out in no time; bare numpy is {k / times[cases[0][0]]:.0f}x")


def main() -> None:
    io_table()
    net_table()


if __name__ == "__main__":
    main()
