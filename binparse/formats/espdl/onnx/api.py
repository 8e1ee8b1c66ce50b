"""The Python functions of the export: from a path, an `EspdlFile` or an `EspdlModel`."""

from __future__ import annotations

from typing import Any

from .verify import ExportCheck, check_model, decide
from .convert import DEFAULT_ROUNDING, pick_model, to_onnx


def _file(source: Any, key: str | bytes | None) -> Any:
    if isinstance(source, (str, bytes)) or hasattr(source, "__fspath__"):
        from ....family import opening
        source = opening.open(source)
    if isinstance(key, str) and hasattr(source, "with_options"):
        from types import SimpleNamespace
        source = source.with_options(SimpleNamespace(key=key))
    elif key is not None and hasattr(source, "with_key"):
        source = source.with_key(key)
    return source


def export(source: Any, *, model: str | None = None, key: str | bytes | None = None, all_outputs: bool = False,
           rounding: str = DEFAULT_ROUNDING) -> Any:
    """An `onnx.ModelProto` of an .espdl model (a path, `EspdlFile` or `EspdlModel`); `model` names the
    model of a pack, `key` (32 hex digits or 16 bytes) decrypts an encrypted one. `rounding` "auto"
    chooses per model from evidence (`verify.decide`; the model property "binparse.rounding_evidence"
    says which)."""
    m = pick_model(_file(source, key), model)
    from .convert import need_key
    need_key(m)
    shared: dict[Any, Any] = {}
    choice = decide(m, rounding, shared)
    return to_onnx(m, all_outputs=all_outputs, rounding=choice.rounding, shared=shared, choice=choice)


def check(source: Any, *, model: str | None = None, key: str | bytes | None = None,
          rounding: str = DEFAULT_ROUNDING) -> ExportCheck:
    """The export of each model (or of `model`) run on its own test inputs, against its test outputs."""
    f = _file(source, key)
    models = [pick_model(f, model)] if model or not hasattr(f, "models") else list(f.models)
    name = str(getattr(f, "_file", None) or getattr(f, "file", None) or "model")
    return ExportCheck(name, rounding, [check_model(m, rounding=rounding) for m in models])


__all__ = ["check", "export"]
