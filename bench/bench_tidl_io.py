"""TIDL io_1.bin: binparse against its peers, side by side in one run, as ratios.

    python bench/bench_tidl_io.py            # the real deeplabv3 file if ../shared/real is there,
                                             # else the bundled fixture (same size and layout)

1. Descriptors (what a user waits for): open the file and read every used tensor's name, dims,
   pads, pitches and scale. binparse through its public API (`binparse.open` from bytes, with
   detection; `IoBufDesc.from_buffer` when the format is known; `summary()`, the body of
   `inspect --json`); bare numpy (one `np.frombuffer` with the structured dtype, then the same
   values: the floor); the parser the official Kaitai Struct compiler generates
   from the same .ksy (parses every field, then the same values). All produce the same tuples.
2. Open alone: binparse reads on touch; construct and the Kaitai parser read every field
   eagerly; `np.frombuffer` of the structured dtype is the floor.

Targets (issue 14): descriptors ≤ 5x numpy and ≥ 20x faster than the Kaitai parser.
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
from binparse import kaitai_ref  # noqa: E402
from binparse.backends.construct_backend import construct_for  # noqa: E402
from binparse.formats.tidl import IoBufDesc  # noqa: E402
from binparse.schema import SCHEMAS_DIR, load_schema  # noqa: E402
from timing import Target, report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "tidl" / "j7-08.2" / "deeplabv3-ade20k" / "201_tidl_io_1.bin"
FIXTURE = REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin"
PARAMS = {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}
# What is read of each tensor: name, (N, C, H, W), pads (L, T, R, B, channel), channel pitch, scale;
# the line pitch is padL + W + padR.
DIMS, PADS = ("num_batches", "num_channels", "height", "width"), ("pad_l", "pad_t", "pad_r", "pad_b", "pad_ch")

Row = tuple[str, tuple[int, ...], tuple[int, ...], int, int, float]


def binparse_rows(io: Any) -> list[Row]:
    out = []
    for t in io.inputs + io.outputs:
        p = t.pad
        out.append((t.name, t.shape[:1] + t.shape[3:], (p.left, p.top, p.right, p.bottom, p.channel),
                    t.channel_pitch, t.line_pitch, t.scale))
    return out


COLUMNS = {side: [f"{side}_{f}" for f in ("data_name", *DIMS, *PADS, "channel_pitch", "tensor_scale")]
           for side in ("in", "out")}


def numpy_rows(data: bytes, dtype: np.dtype[Any]) -> list[Row]:
    rec = np.frombuffer(data, dtype, 1)
    out: list[Row] = []
    for side, n in (("in", int(rec["num_input_buf"][0])), ("out", int(rec["num_output_buf"][0]))):
        name, nb, c, h, w, pl, pt, pr, pb, pc, pitch, scale = [rec[f][0] for f in COLUMNS[side]]
        for k in range(n):  # numpy scalars, as a user of the structured view gets them
            out.append((name[k].split(b"\0", 1)[0].decode(), (nb[k], c[k], h[k], w[k]),
                        (pl[k], pt[k], pr[k], pb[k], pc[k]), pitch[k], pl[k] + w[k] + pr[k], scale[k]))
    return out


def kaitai_rows(k: Any) -> list[Row]:
    out: list[Row] = []
    for side, n in (("in", k.num_input_buf), ("out", k.num_output_buf)):
        def col(field: str) -> list[Any]:
            return getattr(k, f"{side}_{field}")  # type: ignore[no-any-return]
        names, pitch, scale = col("data_name"), col("channel_pitch"), col("tensor_scale")
        dims, pads = [col(f) for f in DIMS], [col(f) for f in PADS]
        for i in range(n):
            d, p = tuple(c[i] for c in dims), tuple(c[i] for c in pads)
            out.append((names[i], d, p, pitch[i], p[0] + d[3] + p[2], scale[i]))
    return out


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

    want = numpy_rows(data, dtype)
    assert binparse_rows(binparse.open(data)) == want
    assert kaitai is None or kaitai_rows(kaitai()) == want
    print(f"file: {path.name} ({len(data):,} bytes, {len(want)} tensors), Python {sys.version.split()[0]}, "
          f"numpy {np.__version__}")

    print("\n1. open + every used tensor's name, dims, pads, pitches, scale:")
    floor, base = "numpy: frombuffer(structured dtype) + reads", "binparse: open(bytes) + tensors"
    cases: list[tuple[str, Callable[[], Any]]] = [
        (floor, lambda: numpy_rows(data, dtype)),
        (base, lambda: binparse_rows(binparse.open(data))),
        ("binparse: from_buffer + tensors", lambda: binparse_rows(IoBufDesc.from_buffer(data, **PARAMS))),
        ("binparse: open(bytes).summary() (inspect --json)", lambda: binparse.open(data).summary()),
    ]
    targets = [Target(base, floor, 5.0), Target("binparse: open(bytes).summary() (inspect --json)", floor, 5.0)]
    if kaitai is not None:
        k = kaitai
        cases.append(("kaitai-struct-compiler 0.11 parser + the same reads", lambda: kaitai_rows(k())))
        targets += [Target(base, "kaitai-struct-compiler 0.11 parser + the same reads", 20.0, faster=True),
                    Target("binparse: open(bytes).summary() (inspect --json)",
                           "kaitai-struct-compiler 0.11 parser + the same reads", 20.0, faster=True)]
    report(cases, base=base, floor=floor, targets=tuple(targets), title="tidl io descriptors")

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
    report(cases, base=base, floor=floor, title="tidl io open", targets=tuple(targets2))


if __name__ == "__main__":
    main()
