"""What the generator of a user's package (`codegen.generate`) writes for its compiled readers
(`codegen.reader`): the names their code uses (struct unpackers, dtypes, constants and tables, the
makers of records of other types) and value instances (kept once worked out; those of a record's own
data set by its reader). A mixin of the generator's module writer."""

from __future__ import annotations

from collections import deque

from typing import TYPE_CHECKING, Any

from .. import expr as ex
from ..backends import numpy_backend as nb
from ..runtime import FieldSpec
from ..schema import Schema, TypeDef
from ..schema.model import Attr
from ..schema.types import Types
from ..expr.idents import literal
from .literals import py_doc
from .pytypes import annotation, pyname
from .bounds import bounded
from .readexpr import OBJECT, Site
from .readable import why_not
from .readrepeat import exprs_of


class ReaderSupport:
    """Names and value instances of compiled readers (see the module doc)."""

    if TYPE_CHECKING:
        schema: Schema
        types: Types
        structs: dict[str, str]
        consts: dict[str, str]
        compiled: bool
        reader: Any
        instance_ids: set[str] | None
        eager_memo: dict[int, tuple[TypeDef, list[Attr]]]
        eager_id_sets: dict[int, frozenset[str]]
        annotations: list[str]
        lazy: list[str]
        out: list[str]
        prop: str

        def ref(self, t: TypeDef) -> str: ...
        def enum_ref(self, t: TypeDef, enum: str) -> str: ...
        def enum_def_ref(self, t: TypeDef, e: Any) -> str: ...
        _conditional: dict[TypeDef, frozenset[str]]

    def conditional(self, t: TypeDef) -> frozenset[str]:
        """The ids of `t`'s fields and instances with `if` (worked out once per type)."""
        found = self._conditional.get(t)
        if found is None:
            found = self._conditional[t] = frozenset(x.id for x in (*t.seq, *t.instances) if x.cond is not None)
        return found

    def unpacker(self, fmt: str) -> str:
        name = "_U_" + "".join(c if c.isalnum() else {"<": "l", ">": "b"}.get(c, "_") for c in fmt)
        self.structs[name] = fmt
        return name

    def constant(self, source: str) -> str:
        """A module-level name for `source` (set after the classes, so it may name them)."""
        for name, src in self.consts.items():
            if src == source:
                return name
        name = f"_K{len(self.consts)}"
        self.consts[name] = source
        return name

    def dtype(self, code: str) -> str:
        return self.constant(f"np.dtype({literal(code)})")

    def enum_map(self, t: TypeDef, enum: str) -> str:
        return self.constant(f"{self.enum_ref(t, enum)}._value2member_map_")

    def target(self, t: TypeDef, user: str) -> TypeDef:
        """The type a field's `user` name means."""
        roots = [t.schema.root, *(s.root for s in t.schema.all_imports())]
        return next(x for r in roots for x in r.all_types() if nb.ref_name(x, t.schema) == user)

    def reads_instances(self, f: FieldSpec) -> bool:
        """Whether an expression of field `f` names an instance (of any type: through attributes too)
        that depends on where the reading stands: one read where the stream stands (no `pos`), or
        whose expressions read `_io` (the interpreter then needs to know where the reader stands)."""
        if self.instance_ids is None:
            roots = [self.schema.root, *(s.root for s in self.schema.all_imports())]
            self.instance_ids = {a.id for r in roots for x in r.all_types() for a in x.instances
                                 if a.kind != "value" and a.pos is None
                                 or any("_io" in ex.names(e) for e in (a.value, a.pos, a.io, a.cond, a.size, a.count,
                                                                       a.until) if e is not None)}
        for e in exprs_of(f):
            for n in ex.nodes(e):
                if n[0] == "name" and n[1] in self.instance_ids or n[0] == "attr" and n[2] in self.instance_ids:
                    return True
        return False

    def maker(self, t: TypeDef, many: bool = False) -> str:
        """The function making a record of `t` read whole (every type of a user's package has one), or
        (`many`) making records of `t` one after another."""
        if t.schema is self.schema:
            return f"_{'many' if many else 'make'}_{nb.class_name(t)}"
        return f"{self.ref(t)}._{'MANY' if many else 'MAKE'}"

    def emit_kept_value(self, t: TypeDef, a: Attr) -> None:
        """A value instance of a user's package: worked out once, kept in a slot of the record."""
        assert a.value is not None
        site = Site(t, self.types, OBJECT, self.enum_ref)
        w = self.out.append
        if a.enum:
            enum = self.enum_ref(t, a.enum)
            typ = f"{enum} | int"
        else:
            typ = annotation(self, t, self.types.attr_type(t, a))
            if typ == "NDArray[np.uint8]":  # a byte array an expression makes is `bytes`, one it names a view
                typ += " | bytes"
        if a.cond is not None or nullable(a.value, self.conditional(t)):
            typ += " | None"
        if self.reader is not None and a.id in self.eager_ids(t):  # a slot its reader sets; else when asked for
            self.annotations.append(f"    {pyname(a.id)}: {typ}\n")
            self.lazy.append(f"{literal(pyname(a.id))}: {nb.class_name(t)}._value_{a.id}")
            w(f"\n    def _value_{a.id}(self: Any) -> {typ}:\n")
            w("        try:\n")
            w(f"            return {self.value_code(t, a)}  # type: ignore[no-any-return, unused-ignore]\n")
            w("        except Exception as exc:\n")
            w(f"            raise self._value_error(exc, {literal(a.id)}) from None\n")
            return
        cheap = site.plain_value(a.value) and (a.cond is None or site.plain_value(a.cond))
        w(f"\n    @{self.prop if cheap else '_kept'}\n")  # a little arithmetic on the seq: worked out each time
        w(f"    def {pyname(a.id)}(self: Any) -> {typ}:\n")
        w(py_doc(a.doc, a.doc_ref))
        w("        try:\n")
        w(f"            return {self.value_code(t, a)}  # type: ignore[no-any-return, unused-ignore]\n")
        w("        except Exception as exc:\n")
        w(f"            raise self._value_error(exc, {literal(a.id)}) from None\n")

    def value_code(self, t: TypeDef, a: Attr, enum: bool = True, reader: bool = False) -> str:
        """The source of value instance `a`'s value (its enum, its `if`), in a property of `t` (`reader`:
        in its compiled reader, where params are a local)."""
        assert a.value is not None
        site = Site(t, self.types, OBJECT, self.enum_ref, local_params=reader)
        value = bounded(site, a.value, site.code(a.value))  # (a chain of values growing an integer)
        if a.enum and site.kind({})(a.value) != "int":
            value = f"int({value})"
        if a.enum and enum:
            value = f"_rt.as_enum({self.enum_ref(t, a.enum)}, {value})"
        if a.cond is not None:
            value = f"({value}) if ({site.code(a.cond)}) else None"
        return value

    def eager_ids(self, t: TypeDef) -> frozenset[str]:
        """The ids of `eager(t)`."""
        hit = self.eager_id_sets.get(id(t))
        if hit is None:
            hit = self.eager_id_sets[id(t)] = frozenset(a.id for a in self.eager(t))
        return hit

    def eager(self, t: TypeDef) -> list[Attr]:
        """The value instances of `t` worked out with its record by its compiled reader (in the order
        they are worked out): those computed from the record's own fields and params, from records it
        holds (their seq fields and such values of theirs) and from each other, reading no stream and no
        other record. Kept in the record's `__dict__`, where `_kept` finds them; one that raises is
        left to be worked out when asked for (its error then names it)."""
        hit = self.eager_memo.get(id(t))
        if hit is not None:
            return hit[1]
        self.eager_memo[id(t)] = (t, [])  # while it is worked out: none (a type that holds itself)
        out: list[Attr] = []
        if self.compiled and why_not(t) is None:
            site = Site(t, self.types, OBJECT, self.enum_ref)
            todo = [a for a in t.instances if a.kind == "value" and a.value is not None]
            ids = {a.id for a in todo}  # each value checked once as if the values it names were set, then set
            ok = {a.id for a in todo if all(site.eager_value(e, ids, self.eager)  # in an order where they are
                                            for e in (a.value, a.cond) if e is not None)}  # (linear in the values)
            need = {a.id: {n for e in (a.value, a.cond) if e is not None for n in ex.names(e)} & ids for a in todo}
            users: dict[str, list[Attr]] = {}
            for a in todo:
                for n in need[a.id]:
                    users.setdefault(n, []).append(a)
            missing = {a.id: len(need[a.id]) for a in todo}
            ready = deque(a for a in todo if a.id in ok and not missing[a.id])
            while ready:
                a = ready.popleft()
                out.append(a)
                for u in users.get(a.id, ()):
                    missing[u.id] -= 1
                    if not missing[u.id] and u.id in ok:
                        ready.append(u)
        self.eager_memo[id(t)] = (t, out)
        return out



def nullable(e: ex.Expr, conditional: frozenset[str]) -> bool:
    """Whether an expression may give null: `null` itself, or a field or instance of its type with `if`
    (`conditional`: their ids; a set, so that a type of n instances is written in time linear in n)."""
    names = ex.names(e)
    return "null" in names or not conditional.isdisjoint(names)


__all__ = ["ReaderSupport", "nullable"]
