"""Kaitai Struct expressions, the subset binparse understands.

Grammar (Kaitai's own precedence): integer literals (decimal, 0x, 0b, 0o, `_` separators), float
literals, string literals in double or single quotes, `true`/`false`, names (fields, params, `_root`, `_parent`, `_index`), enum literals
`enum::member`, `a.b`, `a[i]`, unary `-`, `~`, `not`, binary `* / %`, `+ -`, `<< >>`,
`< <= > >=`, `== !=`, `&`, `^`, `|`, `and`, `or`, and the ternary `c ? a : b`.

`parse` gives a small tuple AST; `evaluate` runs it against a scope (fields, params, enums);
`to_python` writes it as Python source for generated accessors. Integer `/` divides like Kaitai
(toward negative infinity, as Python's `//`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Protocol

Expr = tuple[Any, ...]

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>"[^"]*"|'[^']*')
  | (?P<float>\d[\d_]*\.\d[\d_]*(?:[eE][+-]?\d+)?)
  | (?P<int>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|\d[\d_]*)
  | (?P<enum>[a-z_][a-z0-9_]*(?:::[a-z_][a-z0-9_]*)+)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op><<|>>|<=|>=|==|!=|[-+*/%<>&|^~?:.\[\](),])
""", re.VERBOSE)

_BINARY = {  # operator: (precedence, python operator)
    "or": (1, "or"), "and": (2, "and"),
    "|": (3, "|"), "^": (4, "^"), "&": (5, "&"),
    "==": (6, "=="), "!=": (6, "!="),
    "<": (7, "<"), "<=": (7, "<="), ">": (7, ">"), ">=": (7, ">="),
    "<<": (8, "<<"), ">>": (8, ">>"),
    "+": (9, "+"), "-": (9, "-"),
    "*": (10, "*"), "/": (10, "/"), "%": (10, "%"),
}


class ExprError(ValueError):
    """The expression text is outside the subset (the loader turns it into a SchemaError)."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExprError(f"unexpected character {text[pos]!r} at column {pos + 1}")
        pos = m.end()
        kind = m.lastgroup or ""
        if kind != "ws":
            tok = m.group()
            if kind == "name" and tok in ("and", "or", "not"):
                kind = "op"
            out.append((kind, tok))
    out.append(("end", ""))
    return out


class _Parser:
    def __init__(self, text: str) -> None:
        self.toks = _tokens(text)
        self.i = 0

    def peek(self) -> tuple[str, str]:
        return self.toks[self.i]

    def take(self, tok: str | None = None) -> tuple[str, str]:
        t = self.toks[self.i]
        if tok is not None and t[1] != tok:
            raise ExprError(f"expected {tok!r}, found {t[1] or 'end of expression'!r}")
        self.i += 1
        return t

    def parse(self) -> Expr:
        e = self.ternary()
        if self.peek()[0] != "end":
            raise ExprError(f"unexpected {self.peek()[1]!r}")
        return e

    def ternary(self) -> Expr:
        cond = self.binary(1)
        if self.peek()[1] == "?":
            self.take("?")
            a = self.ternary()
            self.take(":")
            b = self.ternary()
            return ("cond", cond, a, b)
        return cond

    def binary(self, min_prec: int) -> Expr:
        left = self.unary()
        while True:
            kind, tok = self.peek()
            if kind != "op" or tok not in _BINARY or _BINARY[tok][0] < min_prec:
                return left
            self.take()
            right = self.binary(_BINARY[tok][0] + 1)
            left = ("bin", tok, left, right)

    def unary(self) -> Expr:
        kind, tok = self.peek()
        if tok == "not":  # binds looser than comparisons, as in Kaitai and Python
            self.take()
            return ("un", tok, self.binary(3))
        if tok in ("-", "~"):
            self.take()
            return ("un", tok, self.unary())
        return self.postfix(self.atom())

    def atom(self) -> Expr:
        kind, tok = self.take()
        if kind == "int":
            return ("num", int(tok.replace("_", ""), 0))
        if kind == "float":
            return ("num", float(tok.replace("_", "")))
        if kind == "str":
            return ("num", tok[1:-1])  # a string constant
        if kind == "enum":
            enum, _, member = tok.rpartition("::")
            return ("enum", enum, member)
        if kind == "name":
            if tok in ("true", "false"):
                return ("num", tok == "true")
            return ("name", tok)
        if tok == "(":
            e = self.ternary()
            self.take(")")
            return e
        raise ExprError(f"unexpected {tok or 'end of expression'!r}")

    def postfix(self, e: Expr) -> Expr:
        while True:
            tok = self.peek()[1]
            if tok == ".":
                self.take()
                kind, name = self.take()
                if kind != "name":
                    raise ExprError(f"expected a name after '.', found {name!r}")
                e = ("attr", e, name)
            elif tok == "[":
                self.take()
                idx = self.ternary()
                self.take("]")
                e = ("index", e, idx)
            else:
                return e


def parse(text: str | int | float | bool) -> Expr:
    """Parse an expression (a YAML scalar) into an AST; raises `ExprError`."""
    if isinstance(text, bool) or isinstance(text, (int, float)):
        return ("num", text)
    return _Parser(str(text)).parse()


class Scope(Protocol):
    def lookup(self, name: str) -> Any: ...
    def attr(self, obj: Any, name: str) -> Any: ...
    def enum_value(self, enum: str, member: str) -> int: ...


class DictScope:
    """A scope over plain dicts: field values first, then params (fixture specs, test strategies)."""

    def __init__(self, values: dict[str, Any], params: dict[str, Any]) -> None:
        self.values, self.params = values, params

    def lookup(self, name: str) -> Any:
        return self.values[name] if name in self.values else self.params[name]

    def attr(self, obj: Any, name: str) -> Any:
        return obj[name]

    def enum_value(self, enum: str, member: str) -> int:
        raise KeyError(enum)


def _div(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return a / b


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": _div,
    "%": lambda a, b: a % b, "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
    "&": lambda a, b: a & b, "|": lambda a, b: a | b, "^": lambda a, b: a ^ b,
}


def evaluate(e: Expr, scope: Scope) -> Any:
    """Evaluate an AST; names and attributes come from `scope`."""
    op = e[0]
    if op == "num":
        return e[1]
    if op == "name":
        return scope.lookup(e[1])
    if op == "enum":
        return scope.enum_value(e[1], e[2])
    if op == "attr":
        return scope.attr(evaluate(e[1], scope), e[2])
    if op == "index":
        return evaluate(e[1], scope)[int(evaluate(e[2], scope))]
    if op == "un":
        v = evaluate(e[2], scope)
        return -v if e[1] == "-" else (~v if e[1] == "~" else not v)
    if op == "cond":
        return evaluate(e[2], scope) if evaluate(e[1], scope) else evaluate(e[3], scope)
    if op == "bin":
        if e[1] == "and":
            return evaluate(e[2], scope) and evaluate(e[3], scope)
        if e[1] == "or":
            return evaluate(e[2], scope) or evaluate(e[3], scope)
        return _OPS[e[1]](evaluate(e[2], scope), evaluate(e[3], scope))
    raise ExprError(f"unknown node {op}")


def names(e: Expr) -> set[str]:
    """Bare names an expression reads (not attributes of them)."""
    if e[0] == "name":
        return {e[1]}
    out: set[str] = set()
    for part in e[1:]:
        if isinstance(part, tuple):
            out |= names(part)
    return out


def to_python(e: Expr, name: Callable[[str], str], enum: Callable[[str, str], str]) -> str:
    """Python source for an AST; `name` and `enum` render names and enum literals."""
    op = e[0]
    if op == "num":
        return repr(e[1])
    if op == "name":
        return name(e[1])
    if op == "enum":
        return enum(e[1], e[2])
    if op == "attr":
        return f"{to_python(e[1], name, enum)}.{e[2]}"
    if op == "index":
        return f"{to_python(e[1], name, enum)}[{to_python(e[2], name, enum)}]"
    if op == "un":
        sep = " " if e[1] == "not" else ""
        return f"({e[1]}{sep}{to_python(e[2], name, enum)})"
    if op == "cond":
        return (f"({to_python(e[2], name, enum)} if {to_python(e[1], name, enum)} "
                f"else {to_python(e[3], name, enum)})")
    a, b = to_python(e[2], name, enum), to_python(e[3], name, enum)
    if e[1] == "/":
        return f"_kdiv({a}, {b})"
    return f"({a} {_BINARY[e[1]][1]} {b})"
