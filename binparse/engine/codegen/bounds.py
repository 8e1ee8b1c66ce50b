"""Integers a compiled reader's values may make, bounded as the interpreter bounds them
(`values.MAX_INT_BITS`): which expressions may grow one (`grows`), how wide one is at most from the
fields it names (`width`), and the source that refuses one too large (`bounded`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import expr as ex
from ..expr.values import MAX_INT_BITS
from ..schema import TypeDef
from .readexpr import _STREAM

if TYPE_CHECKING:
    from .readexpr import Site

_NO_INT = frozenset({"==", "!=", "<", "<=", ">", ">="})  # operators whose value is a bool


def grows(e: ex.Expr) -> bool:
    """Whether the value of an expression may be an integer larger than those it reads: one made by `+`,
    `-`, `*`, `<<`, a method, `to_i`, a literal over 64 bits. A value only named, compared, selected
    (the branches of `?:` count, not the test; an array's element, not the index) or masked cannot: the
    values it names are checked when they are made, a file's numbers are 64 bits."""
    op = e[0]
    if op == "num":
        return type(e[1]) is int and abs(e[1]).bit_length() > 64
    if op in ("name", "str", "enum", "fstr"):
        return False
    if op == "bin":
        if e[1] in _NO_INT:
            return False
        return e[1] in ("+", "-", "*", "<<", "**") or grows(e[2]) or grows(e[3])
    if op == "un":
        return e[1] != "not" and grows(e[2])
    if op == "cond":
        return grows(e[2]) or grows(e[3])
    if op == "index":
        return grows(e[1])
    if op == "attr":
        return e[2] == "to_i" or grows(e[1])
    if op == "cast":
        return grows(e[1])
    if op == "list":
        return any(grows(x) for x in e[1])
    return True  # a method call, anything else


def width(t: TypeDef, e: ex.Expr, seen: frozenset[str] = frozenset()) -> int | None:
    """At most how many bits the integer expression `e` of type `t` makes (None: not known), from the
    widths of the fields it names (`u2`: 16, `b7`: 7) and of the value instances it names (theirs)."""
    op = e[0]
    if op == "num":
        return abs(e[1]).bit_length() if type(e[1]) is int else None
    if op == "name":
        n = e[1]
        if n in ("_index", *_STREAM):
            return 64
        at = t.attr(n)
        if at is None or at.repeat is not None or at.count is not None or n in seen or len(seen) > 64:
            return None  # (a cycle, or values naming each other deeper than 64: not worked out, checked)
        if at.kind == "value" and at.value is not None and at.pos is None:
            known: dict[str, int | None] = t.__dict__.setdefault("_widths", {})  # each value's once (a chain
            if n not in known:  # of values each naming the one before twice is linear, not 2^n)
                known[n] = width(t, at.value, seen | {n})
            return known[n]
        if at.kind == "prim" and at.prim is not None and at.prim.kind == "int":
            return 8 * at.prim.size
        return at.bits if at.kind == "bits" and at.bits else None
    if op == "bin":
        o = e[1]
        if o in _NO_INT:
            return 1
        a, b = width(t, e[2], seen), width(t, e[3], seen)
        if o == "<<" and a is not None and e[3][0] == "num" and type(e[3][1]) is int and 0 <= e[3][1] <= 64:
            return a + e[3][1]
        if a is None or b is None:
            return None
        return {"+": max(a, b) + 1, "-": max(a, b) + 1, "*": a + b, "&": min(a, b), "|": max(a, b), "^": max(a, b),
                ">>": a, "/": a, "%": b, "and": max(a, b), "or": max(a, b)}.get(o)
    if op == "un":
        return 1 if e[1] == "not" else None if (w := width(t, e[2], seen)) is None else w + 1
    if op == "cond":
        a, b = width(t, e[2], seen), width(t, e[3], seen)
        return None if a is None or b is None else max(a, b)
    return None


def bounded(site: Site, e: ex.Expr, code: str) -> str:
    """`code` (expression `e`'s source) as a value an integer over values.MAX_INT_BITS is refused of, as
    the interpreter refuses it (values.checked): only when `e` may grow one; the comparison written out,
    `checked` called only for an integer out of bounds (a call a value was a tenth of a reader's time); a
    string `+` asks the budget itself (to_python)."""
    if not grows(e) or site.kind({})(e) == "str":
        return code
    w = width(site.t, e)
    if w is not None and w <= MAX_INT_BITS:  # `1980 + year_minus_1980`: 13 bits at most
        return code
    if not site.inline:  # a typed property (mypy reads `self` in a walrus as the class, not as Any)
        return f"_kv.checked({code})"
    return f"(_cv if type(_cv := {code}) is not int or _LOW < _cv < _BIG else _kv.checked(_cv))"


__all__ = ["bounded", "grows", "width"]
