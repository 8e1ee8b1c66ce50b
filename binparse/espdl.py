"""ESP-DL's functions at the top of the package: `binparse.espdl.repair(MODEL, OUT)` (int32 values
in int64 vectors written as int64: binparse/formats/espdl/writers/repair.py)."""

from __future__ import annotations

from typing import Any


def repair(source: Any, out: Any = None, *, key: str | bytes | None = None) -> bytes:
    """The repaired .espdl of `source` (a path, bytes or an opened model), written to `out` when given."""
    from .formats.espdl.writers.repair import repair as run
    return run(source, out, key=key)


__all__ = ["repair"]
