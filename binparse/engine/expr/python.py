"""An expression AST as Python source, for generated accessors.

Operators on values whose type the caller knows to be numeric are written as Python operators;
everything else calls `binparse.engine.expr.values` (imported by generated modules as `_kv`), so that the
generated code and the interpreter share one set of semantics. What the source holds of the schema:
names the caller renders (`name`, `enum`: checked identifiers), and literals made by
`idents.literal`; `x.name` is `_kv.member(x, 'name')`, the one whitelist dispatch; `*` is Python's own
only between two atoms (names, members, literals) and `<<` only by a small literal (else `_kv`, which
bounds the integer they make).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from keyword import iskeyword

from .grammar import Expr, ExprError
from .idents import literal
from .interp import ATOMS, is_byte_literal
from .values import FREE_TEXT

_HELPER = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod", "<<": "shl", ">>": "shr",
           "&": "band", "|": "bor", "^": "bxor", "==": "eq", "!=": "ne", "<": "lt", "<=": "le",
           ">": "gt", ">=": "ge"}
_PY = {"/": "//"}

Kind = Callable[[Expr], str | None]
_IDENT = re.compile(r"_?[a-z][a-z0-9_]*")  # a field, an instance, or a record's own `_io`, `_parent`, `_root`


def to_python(e: Expr, name: Callable[[str], str], enum: Callable[[str, str], str],
              kind: Kind | None = None, hidden: frozenset[str] = frozenset(), inline: bool = False) -> str:
    """Python source for an AST; `name` and `enum` render names and enum literals; `kind(node)`
    (optional) says "int", "float", "bool" or "str" where the type of a node is known, "user" where
    it is a record of one type (its attributes and the elements of an array of records are then read
    directly, not through `values`, except the names in `hidden`), "array" or "bytes" where it is one
    (its size is then `len`); `inline`: code a function of no declared types holds (a compiled reader):
    `s + s` with its length checked written out (a call of `values.add` only for a long one)."""
    kind_of: Kind = kind or (lambda n: "int" if n[0] == "num" and type(n[1]) is int else None)
    fresh = itertools.count()

    def numeric(n: Expr) -> bool:
        return kind_of(n) in ("int", "float") or (n[0] == "num" and type(n[1]) in (int, float))

    def ints(n: Expr) -> bool:
        return kind_of(n) == "int" or (n[0] == "num" and type(n[1]) is int)

    def go(n: Expr) -> str:
        op = n[0]
        if op in ("num", "str"):
            return literal(n[1])
        if op == "name":
            return name(n[1])
        if op == "enum":
            return enum(n[1], n[2])
        if op == "attr":
            base = kind_of(n[1])
            if (base in ("array", "bytes") and n[2] == "size") or (base in ("str", "bytes") and n[2] == "length"):
                return f"len({go(n[1])})"
            if base in ("int", "float", "bool") and n[2] == "to_i" or base == "int" and n[2] == "to_s":
                return f"{'int' if n[2] == 'to_i' else 'str'}({go(n[1])})"
            if base == "array" and n[2] in ("first", "last") and kind_of(n) == "user":  # a record of an array
                return f"{go(n[1])}[{0 if n[2] == 'first' else -1}]"
            if base == "user" and _IDENT.fullmatch(n[2]) and n[2] not in hidden:  # a member of the one type
                # the load checked it against (never a union: "struct"); a name the record classes' base
                # gives a meaning to (`hidden`: `validate`, `offset`) through the whitelist, whose answer
                # on a record of another type (a cast) is an error, never the base's method
                return f"{go(n[1])}.{n[2] + '_' if iskeyword(n[2]) else n[2]}"
            return f"_kv.member({go(n[1])}, {literal(n[2])})"
        if op == "index":
            if kind_of(n) == "user":
                return f"{go(n[1])}[{go(n[2])}]"
            return f"_kv.index({go(n[1])}, {go(n[2])})"
        if op == "call":
            args = ", ".join(go(a) for a in n[3])
            return f"_kv.call_method({go(n[1])}, {literal(n[2])}, [{args}])"
        if op == "un":
            inner = go(n[2])
            if n[1] == "not":
                return f"(not {inner})"
            if ints(n[2]) or (n[1] == "-" and numeric(n[2])):
                return f"({n[1]}{inner})"
            return f"_kv.{'neg' if n[1] == '-' else 'invert'}({inner})"
        if op == "cond":
            return f"({go(n[2])} if {go(n[1])} else {go(n[3])})"
        if op == "bin":
            o, a, b = n[1], go(n[2]), go(n[3])
            if o in ("and", "or"):
                return f"({a} {o} {b})"
            if o == "<<" and not _small(n[3]) or o == "*" and not (_atom(n[2]) and _atom(n[3])):
                return f"_kv.{_HELPER[o]}({a}, {b})"  # an integer these make is bounded (values.MAX_INT_BITS)
            if ints(n[2]) and ints(n[3]):
                return f"({a} {_PY.get(o, o)} {b})"
            if numeric(n[2]) and numeric(n[3]) and o not in ("/", "<<", ">>", "&", "|", "^"):
                return f"({a} {o} {b})"
            same = kind_of(n[2])
            if inline and o == "+" and same == "str" and kind_of(n[3]) == "str":  # the budget asked first for a
                k = next(fresh)  # long one, as values.add asks it (each `+` its own locals)
                return f"(_a{k} + _b{k} if len(_a{k} := {a}) + len(_b{k} := {b}) <= {FREE_TEXT} else _kv.add(_a{k}, _b{k}))"
            if same in ("str", "bool") and kind_of(n[3]) == same and (o in ("==", "!=") or same == "str" and o in (
                    "<", "<=", ">", ">=")):  # `s + s`: values.add asks the budget for a long string
                return f"({a} {o} {b})"
            return f"_kv.{_HELPER[o]}({a}, {b})"
        if op == "list":
            items = ", ".join(go(i) for i in n[1])
            return f"_kv.list_value([{items}], {is_byte_literal(n[1])})"
        if op == "cast":
            return f"_kv.cast({go(n[1])}, {literal(n[2])})" if n[2] == "bytes" else go(n[1])
        if op == "fstr":
            return "''.join([" + ", ".join(f"_kv.to_s({go(p)})" for p in n[1]) + "])"
        raise ExprError(f"{op} must be resolved from the schema before the expression is written as Python")

    return go(e)



def _atom(n: Expr) -> bool:
    """A literal, a name or a member: an integer of bounded size (a file's number, a param, a value
    instance, each at most `values.MAX_INT_BITS`), so `a * b` of two atoms cannot grow an integer
    without bound (a chain `a * b * c` can: its inner product is no atom)."""
    return n[0] in ATOMS


def _small(n: Expr) -> bool:
    """An integer literal of at most 64 bits: `x * 4` or `x << 3` grows an integer by that much at most."""
    return n[0] == "num" and type(n[1]) is int and abs(n[1]).bit_length() <= 64
