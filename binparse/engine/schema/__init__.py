"""Schemas: load .ksy files (the whole Kaitai Struct 0.11 language) into one model.

The model and the loader (and with it the YAML parser) are imported on first use of their names:
reading a file needs only the generated accessors and `expr`, so `binparse inspect` pays for
neither at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.lazy import names_from

if TYPE_CHECKING:
    from .load import SCHEMAS_DIR as SCHEMAS_DIR, load_all as load_all, load_schema as load_schema
    from .load import source_hash as source_hash
    from .model import Attr as Attr, EnumDef as EnumDef, Param as Param, Primitive as Primitive, Schema as Schema
    from .model import Switch as Switch, TypeDef as TypeDef, TypeRef as TypeRef, Valid as Valid

_API = {**dict.fromkeys(("SCHEMAS_DIR", "load_all", "load_schema", "source_hash"), "load"),
        **dict.fromkeys(("Attr", "EnumDef", "Param", "Primitive", "Schema", "Switch", "TypeDef", "TypeRef", "Valid"),
                        "model")}
__getattr__ = names_from(__name__, _API)
__all__ = sorted(_API)
