"""onnx and onnxruntime, the optional extra `binparse[onnx]`: imported where they are first needed,
with a clear error naming the extra when they are missing."""

from __future__ import annotations

import importlib
from types import ModuleType

from ....core.errors import BinparseError

EXTRA = "pip install 'binparse[onnx]'"


def need(module: str, *, purpose: str, file: str | None = None) -> ModuleType:
    """`import module` (onnx, onnxruntime), or a BinparseError naming the extra to install."""
    try:
        return importlib.import_module(module)
    except ImportError:
        package = module.split(".")[0]
        raise BinparseError(f"{purpose} needs the Python package {package!r}, which is not installed", file=file,
                            expected=package, found="not importable",
                            hint=f"{EXTRA} (installs onnx and onnxruntime)") from None


def available() -> bool:
    """True when both onnx and onnxruntime import (the doctor runs exports only then)."""
    try:
        importlib.import_module("onnx")
        importlib.import_module("onnxruntime")
    except ImportError:
        return False
    return True


__all__ = ["EXTRA", "available", "need"]
