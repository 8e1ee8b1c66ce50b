"""Open the real deeplabv3 TIDL 8.2 net (82 layers) and read every layer's type and out dims,
with binparse and with its peers, side by side, and print the ratios.

    python bench/bench_tidl_net.py     # needs ../shared/real (else the 08.06 fixture is used)

binparse reads the two columns from the structured view of the layer records (no per-layer
parsing). Peers: the parser the official Kaitai Struct compiler generates from the same .ksy
(it parses every field of every layer), construct (plain), and bare `np.frombuffer` of the
structured layer dtype at the known offset (the floor).

Targets: ≥ 1000x faster than the Kaitai parser (issue 19) and ≤ 20x np.frombuffer (issue 14).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from binparse.engine import kaitai_ref  # noqa: E402
from binparse.engine.backends.construct_backend import construct_for  # noqa: E402
from binparse.formats.tidl import NetJ7  # noqa: E402
from binparse.engine.schema import SCHEMAS_DIR, load_schema  # noqa: E402
from timing import CPU, Target, report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "tidl" / "j7-08.2" / "deeplabv3-ade20k" / "201_tidl_net.bin"
FIXTURE = REPO / "fixtures" / "tidl" / "net_08_06" / "910_tidl_net.bin"


def main() -> None:
    path, gen, header = (REAL, 82, 80) if REAL.exists() else (FIXTURE, 86, 136)
    data = path.read_bytes()
    schema = load_schema(SCHEMAS_DIR / "tidl" / "tidl_net_j7.ksy")
    layer_dtype = NetJ7.from_buffer(data, gen=gen).layers.array.dtype
    out_field = "out_data_params" if gen == 82 else "out_data"

    def binparse_columns() -> Any:
        a = NetJ7.from_buffer(data, gen=gen).layers.array
        return a["layer_type"], a[out_field]["dim_values"]

    def numpy_columns() -> Any:
        n = int(np.frombuffer(data, "<i4", 1, 8)[0])
        a = np.frombuffer(data, layer_dtype, n, header)
        return a["layer_type"], a[out_field]["dim_values"]

    def kaitai_columns() -> Any:
        net = cls(gen, 1, kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(data)))  # cores: 1 (ignored before 10.01)
        return [(x.layer_type, x.out_data_params[0].dim_values if gen == 82 else x.out_data.dim_values)
                for x in net.layers]

    plain = construct_for(schema)

    def construct_columns() -> Any:
        net = plain.parse(data, gen=gen)
        return [(x.layer_type, x[out_field][0].dim_values if gen == 82 else x[out_field].dim_values)
                for x in net.layers]

    cases = [("numpy: np.frombuffer(layer dtype) + 2 columns", numpy_columns),
             ("binparse: open + layers.array + 2 columns", binparse_columns),
             ("construct: parse + 2 columns", construct_columns)]
    if kaitai_ref.available():
        out = Path(tempfile.mkdtemp(prefix="binparse-bench-"))
        kaitai_ref.compile_all(out)
        cls = kaitai_ref.root_class(kaitai_ref.load_module(out, schema), schema)
        cases.append(("kaitai-struct-compiler 0.11 parser + 2 columns", kaitai_columns))
    else:
        print("(kaitai-struct-compiler not installed in .kaitai/: Kaitai row skipped)")
    types, dims = binparse_columns()
    assert types.tolist() == [int(t) for t, _ in construct_columns()]
    print(f"file: {path.name} ({len(data):,} bytes, {len(types)} layers), Python {sys.version.split()[0]}, "
          f"numpy {np.__version__}")
    base, floor = "binparse: open + layers.array + 2 columns", "numpy: np.frombuffer(layer dtype) + 2 columns"
    report(cases, base=base, floor=floor, title="tidl net layer table", clock=CPU,
           targets=(Target(base, floor, 20.0), Target(base, "kaitai-struct-compiler 0.11 parser + 2 columns", 1000.0,
                                                       faster=True)))


if __name__ == "__main__":
    main()
