"""ESP-DL's functions at the top of the package: `binparse.espdl.repair(MODEL, OUT)` (int32 values
in int64 vectors written as int64: binparse/formats/espdl/writers/repair.py); `to_onnx(MODEL)` and
`check_onnx(MODEL)` (the model as ONNX, and that export run on its own test values:
binparse/formats/espdl/onnx, the extra `binparse[onnx]`)."""

from __future__ import annotations

from typing import Any


def repair(source: Any, out: Any = None, *, key: str | bytes | None = None) -> bytes:
    """The repaired .espdl of `source` (a path, bytes or an opened model), written to `out` when given."""
    from .formats.espdl.writers.repair import repair as run
    return run(source, out, key=key)


def to_onnx(source: Any, *, model: str | None = None, key: str | bytes | None = None, all_outputs: bool = False,
            rounding: str = "auto") -> Any:
    """The `onnx.ModelProto` of an .espdl model (a path, an opened file or model; `model` names one of a
    pack, `key` decrypts): computes what the chip computes (docs/espdl-onnx.md)."""
    from .formats.espdl.onnx.api import export
    return export(source, model=model, key=key, all_outputs=all_outputs, rounding=rounding)


def check_onnx(source: Any, *, model: str | None = None, key: str | bytes | None = None,
               rounding: str = "auto") -> Any:
    """Each model's ONNX export run in onnxruntime on its own test inputs, against its test outputs."""
    from .formats.espdl.onnx.api import check
    return check(source, model=model, key=key, rounding=rounding)


__all__ = ["check_onnx", "repair", "to_onnx"]
