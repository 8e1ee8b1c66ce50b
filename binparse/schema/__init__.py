"""Schemas: load .ksy files (binparse's documented subset of Kaitai Struct YAML) into a model.

The loader (and with it the YAML parser) is imported on first use of its names: reading a file
needs only the generated accessors, so `binparse inspect` does not pay for PyYAML at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .model import Attr, EnumDef, Param, Primitive, Schema, Switch, TypeDef, TypeRef, Valid

if TYPE_CHECKING:
    from .load import SCHEMAS_DIR, load_all, load_schema, source_hash

_FROM_LOAD = ("SCHEMAS_DIR", "load_all", "load_schema", "source_hash")


def __getattr__(name: str) -> Any:
    if name in _FROM_LOAD:
        from . import load
        return getattr(load, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["SCHEMAS_DIR", "Attr", "EnumDef", "Param", "Primitive", "Schema", "Switch", "TypeDef",
           "TypeRef", "Valid", "load_all", "load_schema", "source_hash"]
