"""List every initializer of an .espdl model (name, dims, dtype, exponents, layout): binparse's
FlatBuffers reader against the Python classes `flatc` generates, side by side, and print the ratio.

    python bench/bench_espdl_model.py        # face-detect-msr from ../shared/real if present,
                                             # else the bundled fixture conv_s8_blocks.espdl

The flatc peer: espdl.fbs's text is not in this repository (nor reachable: no network), so the
bench writes a .fbs from binparse's own table description (schemas/espdl/espdl_model.yaml: the
same tables, fields, order and types) into bench/.out/ (git-ignored) and runs
`flatc --python` on it there. Without flatc or the `flatbuffers` runtime the peer is skipped with
a message. Both sides produce the same Python values (checked before timing).
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import numpy as np  # noqa: E402

import binparse  # noqa: E402
from binparse.engine.accessors.espdl.espdl_model import SCHEMA  # noqa: E402
from binparse.formats.espdl.model.graph import Graph, MODEL_SCHEMA, _Decoder  # noqa: E402
from binparse.formats.espdl.model.flatbuf import FlatBuffer  # noqa: E402
from binparse.formats.espdl.model.weights import DTYPES, layout_name  # noqa: E402
from binparse.formats.espdl.model.fbs import flatc_classes  # noqa: E402
from binparse.core.errors import BinparseError  # noqa: E402
from timing import CPU, Target, report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "espdl" / "face-detect-msr" / "esp32s3.espdl"
FIXTURE = REPO / "fixtures" / "espdl" / "models" / "conv_s8_blocks.espdl"
OUT = REPO / "bench" / ".out"


def flatc_model() -> Any:
    """The flatc-generated `Model` class, or None (with the reason printed)."""
    try:
        flatc_classes(OUT)
    except BinparseError as exc:
        print(f"({exc.message}: the flatc row is skipped)")
        return None
    return importlib.import_module(f"{SCHEMA['namespace']}.Model").Model


def main() -> None:
    path = REAL if REAL.exists() else FIXTURE
    f = binparse.open(path)
    model = f.models[0]
    payload = model.payload
    data = bytes(payload)

    def binparse_list() -> list[tuple[Any, ...]]:
        g = FlatBuffer(payload, MODEL_SCHEMA).root().get("graph")
        return [(t.get("name"), t.get("dims"), DTYPES.get(t.get("data_type", 0)), t.get("exponents"),
                 layout_name(t.get("doc_string"))) for t in g.get("initializer", [])]

    def decoder_list() -> list[tuple[Any, ...]]:  # what binparse's models use: the int32-in-int64 rule, memo
        fb = FlatBuffer(payload, MODEL_SCHEMA)
        ts = _Decoder(fb).tensors(fb.root().get("graph"), "initializer", "initializer")
        return [(t.name, t.dims, t.dtype, t.exponents, t.layout) for t in ts]

    cases: list[tuple[str, Callable[[], Any]]] = [
        ("binparse: reader, initializers only", binparse_list),
        ("binparse: decoder, initializers (int32 rule)", decoder_list),
        ("binparse: Graph.read (whole graph)", lambda: Graph.read(payload)),
    ]
    Model = flatc_model()
    if Model is not None:
        def flatc_list() -> list[tuple[Any, ...]]:
            g = Model.GetRootAs(data, 0).Graph()
            out = []
            for i in range(g.InitializerLength()):
                t = g.Initializer(i)
                doc = t.DocString()
                out.append((t.Name().decode(), tuple(t.DimsAsNumpy().tolist()), DTYPES.get(t.DataType()),
                            tuple(t.ExponentsAsNumpy().tolist()), layout_name(doc.decode() if doc else None)))
            return out

        assert flatc_list() == binparse_list() == decoder_list(), "the readers disagree"
        cases.append(("flatc --python classes (flatbuffers runtime)", flatc_list))
    n = len(binparse_list())
    print(f"file: {path.name}, {len(data):,}-byte payload, {n} initializers; Python {sys.version.split()[0]}, "
          f"numpy {np.__version__}")
    mine, flatc = "binparse: reader, initializers only", "flatc --python classes (flatbuffers runtime)"
    decoder = "binparse: decoder, initializers (int32 rule)"
    report(cases, base=mine, floor=mine, title="espdl model decode", clock=CPU,  # issues 14, 29: no more than
           targets=(Target(mine, flatc, 1.0), Target(decoder, flatc, 1.0)))  # flatc's classes (skipped without)


if __name__ == "__main__":
    main()
