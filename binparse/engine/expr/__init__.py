"""Kaitai Struct's expression language: grammar (`grammar`), semantics of its operators and
methods (`values`), an interpreter (`interp`) and a writer of Python source (`python`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.lazy import names_from

if TYPE_CHECKING:
    from .grammar import COMPARISONS as COMPARISONS, Expr as Expr, ExprError as ExprError, names as names
    from .grammar import nodes as nodes, parse as parse, parse_type as parse_type, unescape as unescape
    from .interp import DictScope as DictScope, Scope as Scope, evaluate as evaluate
    from .interp import is_byte_literal as is_byte_literal
    from .python import to_python as to_python

# imported on first use: reading a file whose accessors hold no expression to evaluate parses none
__getattr__ = names_from(__name__, {
    **dict.fromkeys(("COMPARISONS", "Expr", "ExprError", "names", "nodes", "parse", "parse_type", "unescape"), "grammar"),
    **dict.fromkeys(("DictScope", "Scope", "evaluate", "is_byte_literal"), "interp"), "to_python": "python"})

__all__ = ["COMPARISONS", "DictScope", "Expr", "ExprError", "Scope", "evaluate", "is_byte_literal", "names",
           "nodes", "parse", "parse_type", "to_python", "unescape"]
