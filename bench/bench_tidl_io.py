"""Open a TIDL io_1.bin with binparse and with its peers, side by side, and print the ratios.

    python bench/bench_tidl_io.py            # the real deeplabv3 file if ../shared/real is there,
                                             # else the bundled fixture (same size and layout)

Peers: construct (plain and compiled) and the parser the official Kaitai Struct compiler
generates from the same .ksy (needs `.kaitai/`, see README), both parse every field eagerly;
bare `np.frombuffer` of the structured dtype is the floor. binparse's "open" is what
`binparse.open`/`from_buffer` do: size check and a typed accessor, fields read on touch; "open +
every field" touches all 42 fields (numpy views, strings as lazy sequences); "open + validate"
also applies every `valid` rule, as the Kaitai parser does.
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
from binparse.formats.tidl import IoBufDesc  # noqa: E402
from binparse.backends.construct_backend import construct_for  # noqa: E402
from binparse.schema import SCHEMAS_DIR, load_schema  # noqa: E402
from timing import report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "tidl" / "j7-08.2" / "deeplabv3-ade20k" / "201_tidl_io_1.bin"
FIXTURE = REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin"


def main() -> None:
    path = REAL if REAL.exists() else FIXTURE
    data = path.read_bytes()
    schema = load_schema(SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy")
    params = {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}
    names = IoBufDesc.field_names()
    dtype = IoBufDesc._dtype_for(params)

    def open_and_touch() -> None:
        io = IoBufDesc.from_buffer(data, **params)
        for n in names:
            getattr(io, n)

    def open_and_validate() -> None:
        IoBufDesc.from_buffer(data, **params).validate()

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("numpy: np.frombuffer(structured dtype)", lambda: np.frombuffer(data, dtype=dtype, count=1)),
        ("binparse: from_buffer (typed accessor)", lambda: IoBufDesc.from_buffer(data, **params)),
        ("binparse: open(bytes) (detect + accessor)", lambda: binparse.open(data)),
        ("binparse: open + every field", open_and_touch),
        ("binparse: open + validate", open_and_validate),
    ]
    plain = construct_for(schema)
    cases.append(("construct: parse", lambda: plain.parse(data, **params)))
    compiled = construct_for(schema, checks=False, params=params).compile()  # no valid checks: compile() cannot take them
    cases.append(("construct: compiled parse (no valid)", lambda: compiled.parse(data)))
    if kaitai_ref.available():
        out = Path(tempfile.mkdtemp(prefix="binparse-bench-"))
        kaitai_ref.compile_all(out)
        cls = kaitai_ref.root_class(kaitai_ref.load_module(out, schema), schema)
        cases.append(("kaitai-struct-compiler 0.11 generated parser",
                      lambda: cls(1, 32, 32, 8, kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(data)))))
    else:
        print("(kaitai-struct-compiler not installed in .kaitai/: Kaitai row skipped)")

    print(f"file: {path.name} ({len(data):,} bytes), Python {sys.version.split()[0]}, numpy {np.__version__}")
    report(cases, base="binparse: from_buffer (typed accessor)", floor="numpy: np.frombuffer(structured dtype)")

if __name__ == "__main__":
    main()
