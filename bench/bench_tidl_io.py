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
import timeit
from pathlib import Path
from typing import Any, Callable

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import binparse  # noqa: E402
from binparse import kaitai_ref  # noqa: E402
from binparse.accessors.tidl.tidl_io_buf_desc_j7_08 import TidlIoBufDescJ708  # noqa: E402
from binparse.backends.construct_backend import construct_for  # noqa: E402
from binparse.schema import SCHEMAS_DIR, load_schema  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "tidl" / "j7-08.2" / "deeplabv3-ade20k" / "201_tidl_io_1.bin"
FIXTURE = REPO / "fixtures" / "tidl" / "900_tidl_io_1.bin"


def per_call(fn: Callable[[], Any], budget: float = 0.4) -> float:
    """Best per-call time in seconds over 5 repeats of a loop sized to ~budget/5 seconds."""
    n = 1
    while True:
        t = timeit.timeit(fn, number=n)
        if t > budget / 25:
            break
        n *= 4
    n = max(1, int(n * (budget / 5) / max(t, 1e-9)))
    return min(timeit.repeat(fn, number=n, repeat=5)) / n


def main() -> None:
    path = REAL if REAL.exists() else FIXTURE
    data = path.read_bytes()
    schema = load_schema(SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc_j7_08.ksy")
    names = TidlIoBufDescJ708.field_names()
    dtype = TidlIoBufDescJ708._DTYPE

    def open_and_touch() -> None:
        io = TidlIoBufDescJ708.from_buffer(data)
        for n in names:
            getattr(io, n)

    def open_and_validate() -> None:
        TidlIoBufDescJ708.from_buffer(data).validate()

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("numpy: np.frombuffer(structured dtype)", lambda: np.frombuffer(data, dtype=dtype, count=1)),
        ("binparse: from_buffer (typed accessor)", lambda: TidlIoBufDescJ708.from_buffer(data)),
        ("binparse: open(bytes) (detect + accessor)", lambda: binparse.open(data)),
        ("binparse: open + every field", open_and_touch),
        ("binparse: open + validate", open_and_validate),
    ]
    plain = construct_for(schema)
    cases.append(("construct: parse", lambda: plain.parse(data)))
    compiled = construct_for(schema, checks=False).compile()  # compile() cannot take valid checks
    cases.append(("construct: compiled parse (no valid)", lambda: compiled.parse(data)))
    if kaitai_ref.available():
        out = Path(tempfile.mkdtemp(prefix="binparse-bench-"))
        kaitai_ref.compile_all(out)
        cls = kaitai_ref.root_class(kaitai_ref.load_module(out, schema), schema)
        cases.append(("kaitai-struct-compiler 0.11 generated parser",
                      lambda: cls(kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(data)))))
    else:
        print("(kaitai-struct-compiler not installed in .kaitai/: Kaitai row skipped)")

    times = {name: per_call(fn) for name, fn in cases}
    base = times["binparse: from_buffer (typed accessor)"]
    floor = times["numpy: np.frombuffer(structured dtype)"]
    print(f"file: {path.name} ({len(data):,} bytes), Python {sys.version.split()[0]}, numpy {np.__version__}")
    print(f"{'parser':46s} {'per call':>11s} {'÷ binparse open':>16s} {'÷ np.frombuffer':>16s}")
    for name, t in times.items():
        print(f"{name:46s} {t * 1e6:9.2f} µs {t / base:15.1f}× {t / floor:15.1f}×")


if __name__ == "__main__":
    main()
