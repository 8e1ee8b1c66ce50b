"""The expression interpreter: an AST evaluated against a scope, with `values`' semantics.

A scope answers only for names (`lookup`: the record's own fields, instances, params and Kaitai's
`_root`, `_parent`, `_io`, `_index`, …) and enum literals; `obj.name` on any value goes through
`values.member`, the one whitelist dispatch (a record's declared members, Kaitai's built-in methods)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from . import values as v

if TYPE_CHECKING:  # the grammar (its regular expressions) is imported only where an expression is parsed
    from .grammar import Expr


class Scope(Protocol):
    def lookup(self, name: str) -> Any: ...
    def enum_value(self, enum: str, member: str) -> Any: ...


class DictScope:
    """A scope over plain dicts: field values first, then params (fixture specs, test strategies)."""

    def __init__(self, values: dict[str, Any], params: dict[str, Any]) -> None:
        self.values, self.params = values, params

    def lookup(self, name: str) -> Any:
        return self.values[name] if name in self.values else self.params[name]

    def enum_value(self, enum: str, member: str) -> int:
        raise KeyError(enum)


# nodes whose integer value is bounded on its own (a literal, a file's number, a param, a value instance):
# `a * b` of two of them needs no check (values.MAX_INT_BITS); a product of products does
ATOMS = ("num", "name", "attr", "index")


def is_byte_literal(items: tuple[Expr, ...]) -> bool:
    """Kaitai's rule: an array literal of integer literals 0..255 is a byte array."""
    return bool(items) and all(i[0] == "num" and type(i[1]) is int and 0 <= i[1] <= 255 for i in items)


def evaluate(e: Expr, scope: Scope) -> Any:
    """Evaluate an AST; names and record attributes come from `scope`."""
    op = e[0]
    if op == "num" or op == "str":
        return e[1]
    if op == "name":
        return scope.lookup(e[1])
    if op == "bin":
        o = e[1]
        if o == "and":
            return evaluate(e[2], scope) and evaluate(e[3], scope)
        if o == "or":
            return evaluate(e[2], scope) or evaluate(e[3], scope)
        a, b = evaluate(e[2], scope), evaluate(e[3], scope)
        if type(a) is int and type(b) is int and o in _INT_FAST:
            return _INT_FAST[o](a, b)
        if o == "*" and type(a) is int and type(b) is int and e[2][0] in ATOMS and e[3][0] in ATOMS:
            return a * b  # two atoms: bounded (`python.ATOMS`); a product of products goes through values.mul
        return v.BINARY[o](a, b)
    if op == "attr":
        return v.member(evaluate(e[1], scope), e[2])
    if op == "index":
        return v.index(evaluate(e[1], scope), evaluate(e[2], scope))
    if op == "enum":
        return scope.enum_value(e[1], e[2])
    if op == "un":
        x = evaluate(e[2], scope)
        if e[1] == "not":
            return not x
        return v.neg(x) if e[1] == "-" else v.invert(x)
    if op == "cond":
        return evaluate(e[2], scope) if evaluate(e[1], scope) else evaluate(e[3], scope)
    if op == "call":
        obj = evaluate(e[1], scope)
        return v.call(obj, e[2], [evaluate(a, scope) for a in e[3]])
    if op == "list":
        return v.list_value([evaluate(i, scope) for i in e[1]], is_byte_literal(e[1]))
    if op == "cast":
        return v.cast(evaluate(e[1], scope), e[2])
    if op == "fstr":
        return "".join(v.to_s(evaluate(p, scope)) for p in e[1])
    if op in ("sizeof", "bitsizeof"):
        sizeof = getattr(scope, "sizeof", None)
        if sizeof is None:
            from .grammar import ExprError
            raise ExprError(f"{op}<{e[1]}> needs the schema to know the type's size")
        size = sizeof(e[1])  # in bits
        return size if op == "bitsizeof" else -(-size // 8)  # bits, or whole bytes (rounded up)
    from .grammar import ExprError
    raise ExprError(f"unknown expression node {op!r}")


_INT_FAST = {  # `*` and `<<` go through `values`, which bounds the integers they make
    "+": int.__add__, "-": int.__sub__, "/": int.__floordiv__, "%": int.__mod__, ">>": int.__rshift__, "&": int.__and__, "|": int.__or__, "^": int.__xor__,
    "==": int.__eq__, "!=": int.__ne__, "<": int.__lt__, "<=": int.__le__, ">": int.__gt__, ">=": int.__ge__,
}
