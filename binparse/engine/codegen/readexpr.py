"""Expressions of a compiled reader (`codegen.reader`): what each name means where the code stands.

A compiled reader keeps its stream in locals (`mv` the bytes, `s`..`e` the stream, `p` where it
stands, `root`, `le` the byte order, `u8` the bytes as numpy); an expression of a seq field reads
earlier fields from the record's slots, `_io` as the stream standing at `p`, `_index` as the element
being read, `_` as the element just read (repeat-until, valid). The translation itself is
`binparse.engine.expr.to_python`'s; this module only says what names and types mean here.
"""

from __future__ import annotations

from typing import Any

from .. import expr as ex
from ..expr.idents import literal, member_name
from ..runtime.compiled import CompiledRecord
from ..schema import TypeDef
from ..schema.types import KType, TypeProblem, Types
from .pytypes import pyname

_EOF = "\0io.eof"
_STREAM = {"\0io.pos": "(p - s)", "\0io.size": "(e - s)", _EOF: "(p >= e)"}  # `_io`'s members in a reader


def _stream_names(e: Any) -> Any:
    """`e` with `_io.pos`, `_io.size` and `_io.eof` as names of their own (what they are in a reader)."""
    if not isinstance(e, tuple) or not e or not isinstance(e[0], str):
        return e
    if e[0] == "attr" and e[1] == ("name", "_io") and e[2] in ("pos", "size", "eof"):
        return ("name", f"\0io.{e[2]}")
    return (e[0], *(tuple(_stream_names(x) for x in p) if isinstance(p, tuple) and p and isinstance(p[0], tuple)
                    else _stream_names(p) for p in e[1:]))


# names the record classes' base gives a meaning to (methods, properties): never read as a direct
# attribute of a record an expression names (through `values.member`, the whitelist, instead)
HIDDEN = frozenset(n for n in dir(CompiledRecord) if not n.startswith("_")) | frozenset(
    n for n in dir(CompiledRecord) if n.startswith("_") and n not in ("_parent", "_root", "_io"))

READER = "reader"  # a name inside a compiled reader (locals above)
OBJECT = "object"  # a name in a property of a record (`self`'s attributes)


class Site:
    """Where an expression is written: in a reader of type `t`, or in a property of `t`."""

    def __init__(self, t: TypeDef, types: Types, where: str, enum_ref: Any, own_io: bool = False,
                 local_params: bool = False, growing: tuple[str, str] | None = None) -> None:
        self.t, self.types, self.where, self.enum_ref = t, types, where, enum_ref
        self.params = {p.id for p in t.params}
        self.local_params = local_params or where == READER  # params as the local dict `params`
        self.growing = growing  # (a repeat's id, the local list its elements go to while they are read)
        self.own_io = own_io  # an instance read from another stream (`io:`): `_io` is still its record's
        # a type's reader while it is written: the fields read by now (None: not a reader's seq), and whether
        # what it has written so far reads only what is set by then (codegen.reader: `safe`)
        self.done: set[str] | None = None
        self.safe = True
        self.eager_of: Any = None  # gen.eager_ids: the values a record of another type has when made
        self.inline = where == READER or local_params  # in a reader's code (no_type_check): checks written out

    def name(self, n: str, elem: bool, own: str | None) -> str:
        if n in _STREAM:  # `_io.pos`, `_io.size`, `_io.eof` of the stream the reader stands in
            return _STREAM[n]
        if n == own or n == "_":
            return "_x"  # the element just read, or the value a `valid` checks (its own field, not set yet)
        if n == "_index":
            return "k" if elem else "self._index"
        if self.where == READER:
            special = {"_root": "root", "_io": "self._io" if self.own_io else "_rt.stream(mv, s, e, p)",
                       "_is_le": "le", "_parent": "self._parent"}
            if n in special:  # (`_root`, `_parent`: records whose fields read by now are set, as in Kaitai)
                return special[n]
        elif n == "_root":
            return "(self._root_of or self)"
        elif n in ("_parent", "_io", "_is_le"):
            return f"self.{n}"
        if n == "_sizeof":
            self.safe = self.safe and self.done is None
            return "(self._nbytes_end() - self._off)"
        if n in self.params:
            return f"params[{literal(n)}]" if self.local_params else f"self._params[{literal(n)}]"
        if self.growing is not None and n == self.growing[0]:
            return self.growing[1]
        if self.done is not None and n not in self.done:  # a field or instance of its own not read yet
            self.safe = False
        return f"self.{pyname(n)}"

    def kind(self, local: dict[str, KType]) -> Any:
        types, t = self.types, self.t

        def kind(e: ex.Expr) -> str | None:
            if e[0] == "name" and e[1] in _STREAM:
                return "bool" if e[1] == _EOF else "int"
            try:
                k = types.of(e, t, local)
            except TypeProblem:
                return None
            if k[0] in ("int", "enum"):
                return "int"
            if k[0] == "user":  # a record of one type (a union, "struct", is asked through the whitelist)
                return "user"
            return k[0] if k[0] in ("float", "bool", "str", "array", "bytes") else None

        return kind

    def code(self, e: Any, elem: bool = False, own: str | None = None, elem_type: KType | None = None) -> str:
        """Python source of expression `e` (a number stays a number)."""
        if isinstance(e, int):
            return repr(e)
        local: dict[str, KType] = {"_index": ("int",)} if elem else {}
        if elem_type is not None:
            local["_"] = elem_type
        if self.done is not None and self.safe:
            self.safe = self.members_set(e, local)
        if self.where == READER and not self.own_io:
            e = _stream_names(e)
        return ex.to_python(e, lambda n: self.name(n, elem, own),
                            lambda en, m: f"{self.enum_ref(self.t, en)}.{member_name(m)}", self.kind(local), HIDDEN,
                            self.inline)

    def members_set(self, e: ex.Expr, local: dict[str, KType]) -> bool:
        """Whether every member of a record `e` names is one a record has once made: a seq field, a
        param, a value its reader works out (a record being read, or an instance, may be asked for)."""
        for n in ex.nodes(e):
            if n[0] not in ("attr", "call"):
                continue
            try:
                k = self.types.of(n[1], self.t, local)
            except TypeProblem:
                return False
            if k[0] == "user":
                c = k[1]
                if n[0] == "call" or n[2] not in {a.id for a in c.seq} | {p.id for p in c.params} | (
                        self.eager_of(c) if self.eager_of is not None else frozenset()):
                    return False
            elif k[0] not in ("int", "float", "bool", "str", "bytes", "array", "enum", "io"):
                return False
        return True

    def plain_value(self, e: Any) -> bool:
        """Whether `e` is a little arithmetic on the record's own seq fields and params (no other
        record, no instance, no stream): cheap enough to work out again each time it is asked for."""
        fields = {a.id for a in self.t.seq} | self.params
        for n in ex.nodes(e):
            if n[0] == "name" and n[1] not in fields or n[0] in ("sizeof", "bitsizeof", "enum"):
                return False
            if n[0] in ("attr", "call") and self.kind({})(n[1]) == "user":
                return False
        return True

    def eager_value(self, e: Any, done: set[str], eager: Any) -> bool:
        """Whether `e` can be worked out as soon as the record is read: it reads the record's own
        fields and params, values in `done`, and records it holds (their seq fields and their own
        such values, `eager(type)`), and no stream, parent, root or other instance."""
        fields = {a.id for a in self.t.seq} | self.params  # (`done` asked apart: no copy of it per value)
        for n in ex.nodes(e):
            if n[0] == "name" and n[1] not in fields and n[1] not in done or n[0] in ("sizeof", "bitsizeof"):
                return False
            if n[0] in ("attr", "call"):
                try:
                    base = self.types.of(n[1], self.t)
                except TypeProblem:
                    return False
                if base[0] == "struct" or base[0] == "user" and n[0] == "call":
                    return False
                if base[0] == "user":
                    target = base[1]
                    if n[2] not in {a.id for a in target.seq} | {p.id for p in target.params} | {
                            a.id for a in eager(target)}:
                        return False
        return True

    def uses(self, e: Any, *names: str) -> bool:
        return e is not None and not isinstance(e, int) and bool(ex.names(e) & set(names))


__all__ = ["OBJECT", "READER", "Site"]
