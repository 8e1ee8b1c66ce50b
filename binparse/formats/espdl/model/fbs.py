"""A FlatBuffers schema (.fbs) written from binparse's own description of ESP-DL's tables
(schemas/espdl/espdl_model.yaml: the same tables, fields, order and types; not esp-dl's file), and
the Python classes `flatc --python` generates from it: the reference reader the tests and bench/
hold binparse's decoder and repairs against."""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from ....engine.accessors.espdl.espdl_model import SCHEMA
from ....core.errors import BinparseError

FBS_TYPES = {"float32": "float", "float64": "double", "int8": "byte", "uint8": "ubyte", "int16": "short",
             "uint16": "ushort", "int32": "int", "uint32": "uint", "int64": "long", "uint64": "ulong"}


def _t(t: str) -> str:
    if t.startswith("["):
        return "[" + _t(t[1:-1]) + "]"
    base, _, n = t.partition("[")
    return f"[{FBS_TYPES.get(base, base)}:{n[:-1]}]" if n else FBS_TYPES.get(t, t)


def fbs_text(generation: str = "edl2", namespace: str = "") -> str:
    """The .fbs text of a container generation's tables (espdl_model.yaml `generations`: EDL1's
    raw_data is a byte vector), in `namespace` (default the schema's)."""
    changed = SCHEMA["generations"][generation].get("fields") or {}
    lines = [f"namespace {namespace or SCHEMA['namespace']};"]
    for name, e in SCHEMA["enums"].items():
        lines.append(f"enum {name} : {_t(e['type'])} {{ " + ", ".join(f"{k} = {v}" for k, v in e["values"].items()) + " }")
    for name, s in SCHEMA["structs"].items():
        lines.append(f"struct {name} (force_align: {s['align']}) {{ " + " ".join(f"{f}: {_t(t)};" for f, t in s["fields"]) + " }")
    for name, members in SCHEMA["unions"].items():
        lines.append(f"union {name} {{ " + ", ".join(f"{m}: {t}" for m, t in members) + " }")
    for name, fields in SCHEMA["tables"].items():
        lines.append(f"table {name} {{ " + " ".join(f"{f}: {_t(changed.get(name, {}).get(f, t))};" for f, t in fields)
                     + " }")
    lines.append(f"root_type {SCHEMA['root']};")
    return "\n".join(lines) + "\n"


def flatc_classes(out: Path, generation: str = "edl2") -> Any:
    """The package `flatc --python` generates in `out` (its `Model`, `Tensor`, ... modules), imported:
    `espdl` for EDL2, `espdl_edl1` for EDL1. `BinparseError` without flatc or the `flatbuffers` runtime."""
    if shutil.which("flatc") is None:
        raise BinparseError("flatc is not installed", hint="apt-get install flatbuffers-compiler")
    try:
        import flatbuffers  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        raise BinparseError("the flatbuffers Python runtime is not installed", hint="pip install flatbuffers") from None
    namespace = str(SCHEMA["namespace"]) + ("" if generation == "edl2" else f"_{generation}")
    out.mkdir(parents=True, exist_ok=True)
    fbs = out / f"{namespace}_from_binparse.fbs"
    from ....core.writes import write_text  # regular files only, never through a link (docs/contracts.md)
    write_text(fbs, fbs_text(generation, namespace))
    subprocess.run(["flatc", "--python", "-o", str(out / "flatc"), str(fbs)], check=True, capture_output=True)
    if str(out / "flatc") not in sys.path:
        sys.path.insert(0, str(out / "flatc"))
    return importlib.import_module(namespace)


__all__ = ["fbs_text", "flatc_classes"]
