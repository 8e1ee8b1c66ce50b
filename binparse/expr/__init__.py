"""Kaitai Struct's expression language: grammar (`grammar`), semantics of its operators and
methods (`values`), an interpreter (`interp`) and a writer of Python source (`python`)."""

from __future__ import annotations

from .grammar import COMPARISONS, Expr, ExprError, names, nodes, parse, parse_type, unescape
from .interp import DictScope, Scope, evaluate, is_byte_literal
from .python import to_python

__all__ = ["COMPARISONS", "DictScope", "Expr", "ExprError", "Scope", "evaluate", "is_byte_literal", "names",
           "nodes", "parse", "parse_type", "to_python", "unescape"]
