"""Schemas: load .ksy files (binparse's documented subset of Kaitai Struct YAML) into a model."""

from .load import SCHEMAS_DIR, load_all, load_schema, source_hash
from .model import Attr, EnumDef, Param, Primitive, Schema, Switch, TypeDef, TypeRef, Valid

__all__ = ["SCHEMAS_DIR", "Attr", "EnumDef", "Param", "Primitive", "Schema", "Switch", "TypeDef",
           "TypeRef", "Valid", "load_all", "load_schema", "source_hash"]
