"""TIDL io_1.bin: binparse against its peers, side by side in one run, as ratios.

    python bench/bench_tidl_io.py            # the real deeplabv3 file if ../shared/real is there,
                                             # else the bundled fixture (same size and layout)

1. Descriptors (what a user waits for): open the file and read what `summary()` (the body of
   `inspect --json`) reports of every used tensor: name, index, dataId, element type, the six
   dims, the five pads, channel and line pitch, scale, zero point, layout and buffer size
   (computed as N x batchPitch where the version stores none). binparse through its public API
   (`binparse.open` from bytes, with detection; `IoBufDesc.from_buffer` when the format is
   known; `summary()`); bare numpy, the floor: one `np.frombuffer` of the record's structured
   dtype (the format known), then every one of those fields of every used entry, as numpy
   scalars (the quickest of the plain ways: per-field `tolist()` slices and `.item()` of the
   record are slower); the parser the official Kaitai Struct compiler generates from the same
   .ksy (parses every field, then the same values). All give the same values (checked before
   timing).
2. Open alone: binparse reads on touch; construct and the Kaitai parser read every field
   eagerly; `np.frombuffer` of the structured dtype is the floor.

Targets: summary() ≤ 1.5x numpy and ≥ 40x faster than the Kaitai parser (issue 19); the tensors
(frozen dataclass objects, which cost more to make than the JSON dicts) ≤ 1.5x numpy and ≥ 25x
faster than the Kaitai parser; open alone ≤ 10x numpy and ≥ 50x faster than the Kaitai parser
(issue 14).
"""

from __future__ import annotations

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
from binparse.engine.backends.construct_backend import construct_for  # noqa: E402
from binparse.formats.tidl import ELEMENT_DTYPES, IoBufDesc  # noqa: E402
from binparse.engine.schema import SCHEMAS_DIR, load_schema  # noqa: E402
from timing import CPU, Target, report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "tidl" / "j7-08.2" / "deeplabv3-ade20k" / "201_tidl_io_1.bin"
FIXTURE = REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin"
PARAMS = {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}
# Per tensor: name, index, dataId, element type, (N, DIM1, DIM2, C, H, W), pads (L, T, R, B, channel),
# channel pitch, line pitch (padL + W + padR), scale, zero point, layout, buffer size.
Row = tuple[str, int, int, int, tuple[int, ...], tuple[int, ...], int, int, float, int, Any, int]
FIELDS = ("data_name", "data_id", "element_type", "num_batches", "dim1", "dim2", "num_channels", "height", "width",
          "pad_l", "pad_t", "pad_r", "pad_b", "pad_ch", "channel_pitch", "tensor_scale", "zero_point", "layout",
          "buf_size")
DTYPE_CODES = {dt.name: code for code, dt in ELEMENT_DTYPES.items()}
LAYOUT_CODES = {"NCHW": 0, "NHWC": 1}


def binparse_rows(io: Any) -> list[Row]:
    out = []
    for t in io.inputs + io.outputs:
        p = t.pad
        out.append((t.name, t.index, t.data_id, t.element_type, t.shape, (p.left, p.top, p.right, p.bottom, p.channel),
                    t.channel_pitch, t.line_pitch, t.scale, t.zero_point, t.layout, t.buf_size))
    return out


def summary_rows(doc: dict[str, Any]) -> list[Row]:
    """The same values from a `summary()` document (outside the timing: for the check)."""
    return [(t["name"], t["index"], t["data_id"], DTYPE_CODES[t["dtype"]], tuple(t["shape"]), tuple(t["pad"].values()),
             t["channel_pitch"], t["line_pitch"], t["scale"], t["zero_point"], t["layout"], t["buf_size"])
            for t in doc["inputs"] + doc["outputs"]]


def numpy_reader(dtype: np.dtype[Any]) -> Callable[[bytes], list[Row]]:
    """The floor: the record's structured dtype over the bytes, then the fields the summary reports
    (those this version has: DIM1/DIM2 arrived in 09.02, the buffer sizes in 10.00)."""
    have = {side: [f"{side}_{f}" for f in FIELDS if f"{side}_{f}" in dtype.names] for side in ("in", "out")}
    dims, sizes = "in_dim1" in dtype.names, "in_buf_size" in dtype.names

    def rows(data: bytes) -> list[Row]:
        rec = np.frombuffer(data, dtype, 1)
        out: list[Row] = []
        for side, n in (("in", int(rec["num_input_buf"][0])), ("out", int(rec["num_output_buf"][0]))):
            cols = [rec[f][0] for f in have[side]]
            name, data_id, et, nb = cols[:4]
            d1, d2 = cols[4:6] if dims else (None, None)
            c, h, w, pl, pt, pr, pb, pc, pitch, scale, zp, layout = cols[6:18] if dims else cols[4:16]
            size = cols[-1] if sizes else None
            for k in range(n):  # numpy scalars, as a user of the structured view gets them
                shape = (nb[k], d1[k] if dims else 1, d2[k] if dims else 1, c[k], h[k], w[k])
                buf = size[k] if sizes else nb[k] * pitch[k] * (c[k] + pc[k]) * shape[2] * shape[1]
                out.append((name[k].split(b"\0", 1)[0].decode(), k, data_id[k], et[k], shape,
                            (pl[k], pt[k], pr[k], pb[k], pc[k]), pitch[k], pl[k] + w[k] + pr[k], scale[k], zp[k],
                            layout[k], buf))
        return out

    return rows


def kaitai_rows(k: Any) -> list[Row]:
    out: list[Row] = []
    dims, sizes = hasattr(k, "in_dim1"), hasattr(k, "in_buf_size")
    for side, n in (("in", k.num_input_buf), ("out", k.num_output_buf)):
        def col(field: str) -> list[Any]:
            return getattr(k, f"{side}_{field}")  # type: ignore[no-any-return]
        name, data_id, et, nb, c, h, w = (col(f) for f in ("data_name", "data_id", "element_type", "num_batches",
                                                           "num_channels", "height", "width"))
        pl, pt, pr, pb, pc = (col(f) for f in ("pad_l", "pad_t", "pad_r", "pad_b", "pad_ch"))
        pitch, scale, zp, layout = (col(f) for f in ("channel_pitch", "tensor_scale", "zero_point", "layout"))
        d1, d2 = (col("dim1"), col("dim2")) if dims else (None, None)
        size = col("buf_size") if sizes else None
        for i in range(n):
            shape = (nb[i], d1[i] if d1 else 1, d2[i] if d2 else 1, c[i], h[i], w[i])
            buf = size[i] if size else nb[i] * pitch[i] * (c[i] + pc[i]) * shape[2] * shape[1]
            out.append((name[i], i, data_id[i], int(et[i]), shape, (pl[i], pt[i], pr[i], pb[i], pc[i]), pitch[i],
                        pl[i] + w[i] + pr[i], scale[i], zp[i], int(layout[i]), buf))
    return out


def same(rows: list[Row]) -> list[Row]:
    """Rows with the layout as its name, to compare readers (outside the timing)."""
    return [r[:10] + ({0: "NCHW", 1: "NHWC"}.get(r[10], str(r[10])),) + r[11:] for r in rows]


def main() -> None:
    path = REAL if REAL.exists() else FIXTURE
    data = path.read_bytes()
    schema = load_schema(SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy")
    dtype = IoBufDesc._dtype_for(PARAMS)
    assert dtype is not None
    kaitai = None
    if kaitai_ref.available():
        out = Path(tempfile.mkdtemp(prefix="binparse-bench-"))
        kaitai_ref.compile_all(out)
        cls = kaitai_ref.root_class(kaitai_ref.load_module(out, schema), schema)
        kaitai = lambda: cls(*PARAMS.values(), kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(data)))  # noqa: E731
    else:
        print("(kaitai-struct-compiler not installed in .kaitai/: Kaitai rows left out; see README)")

    numpy_rows = numpy_reader(dtype)
    want = same(numpy_rows(data))
    assert same(binparse_rows(binparse.open(data))) == want and summary_rows(binparse.open(data).summary()) == want
    assert kaitai is None or same(kaitai_rows(kaitai())) == want
    print(f"file: {path.name} ({len(data):,} bytes, {len(want)} tensors), Python {sys.version.split()[0]}, "
          f"numpy {np.__version__}")

    print("\n1. open + what summary() reports of every used tensor:")
    floor, base = "numpy: frombuffer(structured dtype) + the fields", "binparse: open(bytes) + tensors"
    summary = "binparse: open(bytes).summary() (inspect --json)"
    cases: list[tuple[str, Callable[[], Any]]] = [
        (floor, lambda: numpy_rows(data)),
        (base, lambda: binparse_rows(binparse.open(data))),
        ("binparse: from_buffer + tensors", lambda: binparse_rows(IoBufDesc.from_buffer(data, **PARAMS))),
        (summary, lambda: binparse.open(data).summary()),
    ]
    targets = [Target(summary, floor, 1.5), Target(base, floor, 1.5)]
    if kaitai is not None:
        k = kaitai
        peer = "kaitai-struct-compiler 0.11 parser + the same reads"
        cases.append((peer, lambda: kaitai_rows(k())))
        targets += [Target(summary, peer, 40.0, faster=True), Target(base, peer, 25.0, faster=True)]
    report(cases, base=base, floor=floor, targets=tuple(targets), title="tidl io descriptors", clock=CPU)

    print("\n2. open alone (binparse reads fields on touch; the parsers read every field):")
    names = IoBufDesc.field_names()

    def open_and_touch() -> None:
        io = IoBufDesc.from_buffer(data, **PARAMS)
        for n in names:
            getattr(io, n)

    plain = construct_for(schema)
    compiled = construct_for(schema, checks=False, params=PARAMS).compile()  # compile() cannot take valid checks
    cases = [
        ("numpy: np.frombuffer(structured dtype)", lambda: np.frombuffer(data, dtype=dtype, count=1)),
        ("binparse: from_buffer (typed accessor)", lambda: IoBufDesc.from_buffer(data, **PARAMS)),
        ("binparse: open(bytes) (detect + accessor)", lambda: binparse.open(data)),
        ("binparse: from_buffer + touch every field", open_and_touch),
        ("binparse: from_buffer + validate()", lambda: IoBufDesc.from_buffer(data, **PARAMS).validate()),
        ("construct: parse", lambda: plain.parse(data, **PARAMS)),
        ("construct: compiled parse (no valid)", lambda: compiled.parse(data)),
    ]
    if kaitai is not None:
        cases.append(("kaitai-struct-compiler 0.11 parser", kaitai))
    base, floor = "binparse: from_buffer (typed accessor)", "numpy: np.frombuffer(structured dtype)"
    targets2 = [Target(base, floor, 10.0)]
    if kaitai is not None:
        targets2.append(Target(base, "kaitai-struct-compiler 0.11 parser", 50.0, faster=True))
    report(cases, base=base, floor=floor, title="tidl io open", targets=tuple(targets2), clock=CPU)


if __name__ == "__main__":
    main()
