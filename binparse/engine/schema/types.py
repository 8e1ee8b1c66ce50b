"""The Kaitai type of every expression of a schema, as Kaitai's compiler derives it.

Types are small tuples: ("int",), ("float",), ("bool",), ("str",), ("bytes",), ("io",),
("enum", EnumDef), ("user", TypeDef), ("array", element type), ("struct", (TypeDef, …)) for a
record of one of several types (a `_parent` with several possible parents, a switch over types),
("struct",) for a record of any declared type (a `struct` param), ("any",) where nothing is known
(an `any` param). The loader uses them to refuse, at load time, an attribute that no record has
(never an AttributeError when a file is read), to resolve `_sizeof` and `sizeof<T>`, and the
generator to annotate properties and write plain Python operators where both operands are numbers.

Every name an expression asks of a value is checked here, whatever the value's type: of a record
of one known type, one of its fields, instances or params; of a union, one that some type of the
union declares; of a value of unknown type, one some declared type declares or one of Kaitai's
built-in methods. `.as<T>` casts to a declared type or a built-in one, never to `any` or `struct`.
What is not refused here cannot be reached at run time either (`binparse.engine.expr.values.member`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..expr import Expr, names
from ..expr.interp import is_byte_literal
from .model import Attr, EnumDef, TypeDef, TypeRef, bits_type, is_builtin, primitive

KType = tuple[Any, ...]
INT, FLOAT, BOOL, STR, BYTES, IO, ANY, STRUCT = ("int",), ("float",), ("bool",), ("str",), ("bytes",), ("io",), \
    ("any",), ("struct",)
_METHODS: dict[str, dict[str, KType]] = {
    "bytes": {"length": INT, "size": INT, "first": INT, "last": INT, "min": INT, "max": INT},
    "str": {"length": INT, "reverse": STR, "to_i": INT},
    "int": {"to_s": STR},
    "float": {"to_i": INT},
    "bool": {"to_i": INT},
    "enum": {"to_i": INT},
    "io": {"size": INT, "pos": INT, "eof": BOOL},
}
_CALLS: dict[tuple[str, str], KType] = {("str", "substring"): STR, ("str", "to_i"): INT, ("str", "to_b"): BYTES,
                                        ("bytes", "to_s"): STR, ("bytes", "index_of"): INT}
_ARRAY_METHODS = {"first", "last", "min", "max", "size"}
BUILTIN_METHODS = frozenset({n for table in _METHODS.values() for n in table} | _ARRAY_METHODS)
BUILTIN_CALLS = frozenset(name for _, name in _CALLS)
RECORD_SPECIALS = ("_parent", "_root", "_io", "_sizeof")  # what `x.name` may ask of any record besides its members


class TypeProblem(Exception):
    """An expression asks something of a value its type does not have."""


def builtin_type(name: str, t: TypeDef, enum: str | None = None) -> KType | None:
    """The type of a built-in type name (`u4`, `b1`, `f8`, `str`, `bytes`, `bool`, `io`, …), else None."""
    if name.endswith("[]"):
        inner = builtin_type(name[:-2], t) or _user(t, name[:-2])
        return ("array", inner)
    try:
        prim = primitive(name, "le")
    except ValueError:
        prim = None
    bits = bits_type(name)
    if enum is not None and (prim is not None or bits is not None):
        return ("enum", t.resolve_enum(enum))
    if prim is not None:
        return INT if prim.kind == "int" else FLOAT
    if bits is not None:
        return BOOL if bits[0] == 1 else INT
    return {"str": STR, "strz": STR, "bytes": BYTES, "bool": BOOL, "io": IO, "any": ANY, "struct": STRUCT}.get(name)


def _user(t: TypeDef, name: str) -> KType:
    try:
        return ("user", t.resolve_type(name))
    except KeyError:
        raise TypeProblem(f"unknown type '{name}'") from None


def combine(a: KType, b: KType) -> KType:
    """One type holding values of both (Kaitai's combineTypes, simplified)."""
    if a == b:
        return a
    if a[0] == "any" or b[0] == "any":
        return ANY
    if {a[0], b[0]} <= {"int", "float"}:
        return FLOAT
    if a[0] in ("user", "struct") and b[0] in ("user", "struct"):
        ca, cb = candidates(a), candidates(b)
        if ca is None or cb is None:
            return STRUCT
        return ("struct", tuple(dict.fromkeys(ca + cb)))
    if a[0] == "array" and b[0] == "array":
        return ("array", combine(a[1], b[1]))
    return ANY


def candidates(k: KType) -> tuple[TypeDef, ...] | None:
    """The types a record of type `k` may be of (None: any declared type)."""
    if k[0] == "user":
        return (k[1],)
    if k[0] == "struct" and len(k) > 1:
        return tuple(k[1])
    return None


class Types:
    """Types of the attributes and expressions of the types of one schema (and its imports)."""

    def __init__(self, root: TypeDef) -> None:
        self.root = root
        self.parents: dict[int, list[TypeDef]] = {}
        self.busy: set[int] = set()
        for r in [root] + [s.root for s in root.schema.all_imports()]:
            for t in r.all_types():
                for a in t.seq + t.instances:
                    for ref in self.refs(a):
                        try:
                            target = t.resolve_type(ref.name)
                        except KeyError:
                            continue
                        owners = self.parents.setdefault(id(target), [])
                        if a.parent is None and t not in owners:
                            owners.append(t)
        self.every = [x for r in [root] + [s.root for s in root.schema.all_imports()] for x in r.all_types()]
        self.declared = {n for x in self.every for n in [a.id for a in x.seq + x.instances] + [p.id for p in x.params]}
        self.memo: dict[tuple[int, int, bool], KType] = {}
        self.cycles = 0

    @staticmethod
    def refs(a: Attr) -> list[TypeRef]:
        if a.user is not None:
            return [a.user]
        if a.switch is not None:
            return [r for _, r in a.switch.cases if not is_builtin(r.name)]
        return []

    def parent_of(self, t: TypeDef) -> KType:
        """`_parent` of a record of type `t`: the one type that holds it, the union of those that do,
        or any record (a type no type of this schema holds: the root, or one read from elsewhere)."""
        owners = self.parents.get(id(t), [])
        return ("user", owners[0]) if len(owners) == 1 else ("struct", tuple(owners)) if owners else STRUCT

    def attr_type(self, t: TypeDef, a: Attr, element: bool = False) -> KType:
        """The type of attribute `a` of `t` (of one element when `element`)."""
        memo = (id(t), id(a), element)  # each attribute typed once: a chain of instances is linear
        hit = self.memo.get(memo)
        if hit is not None:
            return hit
        if a.kind == "value":
            if a.enum is not None:
                return ("enum", t.resolve_enum(a.enum))
            if not self.busy:
                self.before(t, a)
            key = id(a)
            if key in self.busy:
                self.cycles += 1  # what depends on this is not kept: it is worked out again outside the circle
                return ANY
            self.busy.add(key)
            before = self.cycles
            try:
                out = self.of(a.value or ("num", 0), t) if a.value is not None else ANY
            finally:
                self.busy.discard(key)
            if self.cycles == before:
                self.memo[memo] = out
            return out
        one = self.element_type(t, a)
        out = one if element or a.repeat is None else ("array", one)
        self.memo[memo] = out
        return out

    def before(self, t: TypeDef, a: Attr) -> None:
        """Type first the value instances of `t` that `a` names, those they name before them (a walk, no
        recursion): a chain of thousands of instances, each naming the one before, is typed one by one."""
        order: list[Attr] = []
        seen = {id(a)}
        todo: list[tuple[Attr, bool]] = [(a, False)]
        while todo:
            x, after = todo.pop()
            if after:
                order.append(x)
                continue
            todo.append((x, True))
            for n in sorted(names(x.value)) if x.value is not None else ():
                dep = t.attr(n)
                if dep is not None and dep.kind == "value" and id(dep) not in seen and \
                        (id(t), id(dep), False) not in self.memo:
                    seen.add(id(dep))
                    todo.append((dep, False))
        for x in order[:-1]:
            self.attr_type(t, x)

    def element_type(self, t: TypeDef, a: Attr) -> KType:
        if a.enum is not None and a.kind in ("prim", "bits"):
            return ("enum", t.resolve_enum(a.enum))
        if a.kind == "prim":
            return INT if a.prim is not None and a.prim.kind == "int" else FLOAT
        if a.kind == "bits":
            return BOOL if a.bits == 1 else INT
        if a.kind == "str":
            return STR
        if a.kind in ("bytes", "contents"):
            return BYTES
        if a.kind == "user" and a.user is not None:
            return _user(t, a.user.name)
        out: KType | None = None
        assert a.switch is not None
        cases = list(a.switch.cases)
        if a.size is not None or a.size_eos:
            if not any(k is None for k, _ in cases):
                out = BYTES
        for _, ref in cases:
            one = builtin_type(ref.name, t) or _user(t, ref.name)
            out = one if out is None else combine(out, one)
        return out or ANY

    def name_type(self, t: TypeDef, name: str, local: dict[str, KType]) -> KType:
        if name in local:
            return local[name]
        if name == "_root":
            return ("user", t.schema.root)
        if name == "_parent":
            return self.parent_of(t)
        if name == "_io":
            return IO
        if name in ("_index", "_sizeof"):
            return INT
        if name == "_is_le":
            return BOOL
        a = t.attr(name)
        if a is not None:
            return self.attr_type(t, a)
        p = next((p for p in t.params if p.id == name), None)
        if p is not None:
            return self.param_type(t, p.type, p.enum)
        raise TypeProblem(f"'{name}' is not a field, instance or param of '{t.path}'")

    def param_type(self, t: TypeDef, text: str, enum: str | None) -> KType:
        return builtin_type(text, t, enum) or _user(t, text)

    def of(self, e: Expr, t: TypeDef, local: dict[str, KType] | None = None) -> KType:
        """The type of expression `e` evaluated in a record of type `t`; raises `TypeProblem`."""
        local = local or {}
        op = e[0]
        if op == "num":
            v = e[1]
            return BOOL if isinstance(v, bool) else FLOAT if isinstance(v, float) else INT
        if op == "str":
            return STR
        if op == "fstr":  # every part is typed (and so checked) like any other expression
            for part in e[1]:
                self.of(part, t, local)
            return STR
        if op == "name":
            return self.name_type(t, e[1], local)
        if op == "enum":
            try:
                return ("enum", t.resolve_enum(e[1]))
            except KeyError:
                raise TypeProblem(f"unknown enum '{e[1]}'") from None
        if op == "attr":
            return self.member(self.of(e[1], t, local), e[2])
        if op == "call":
            for arg in e[3]:
                self.of(arg, t, local)
            base = self.of(e[1], t, local)
            if base[0] == "any":
                if e[2] not in BUILTIN_CALLS:
                    raise TypeProblem(f"no value has a method {e[2]}()")
                return ANY
            kind = "bytes" if base[0] == "array" and base[1] == INT and e[2] == "to_s" else base[0]
            if (kind, e[2]) not in _CALLS:
                raise TypeProblem(f"a {_show(base)} has no method {e[2]}()")
            return _CALLS[(kind, e[2])]
        if op == "index":
            self.of(e[2], t, local)
            base = self.of(e[1], t, local)
            return INT if base[0] == "bytes" else base[1] if base[0] == "array" else ANY
        if op == "un":
            inner = self.of(e[2], t, local)
            return BOOL if e[1] == "not" else (INT if e[1] == "~" else inner)
        if op == "cond":
            self.of(e[1], t, local)
            return combine(self.of(e[2], t, local), self.of(e[3], t, local))
        if op == "bin":
            a, b = self.of(e[2], t, local), self.of(e[3], t, local)  # both sides typed, whatever the operator
            if e[1] in ("and", "or", "==", "!=", "<", "<=", ">", ">="):
                return BOOL
            if a == STR and b == STR and e[1] == "+":
                return STR
            if "any" in (a[0], b[0]):
                return ANY
            if a[0] in ("int", "enum", "bool") and b[0] in ("int", "enum", "bool"):
                return INT
            return FLOAT
        if op == "list":
            if is_byte_literal(e[1]):
                return BYTES
            out = ANY
            for i, item in enumerate(e[1]):
                one = self.of(item, t, local)
                out = one if i == 0 else combine(out, one)
            return ("array", out)
        if op == "cast":
            self.of(e[1], t, local)
            cast_to: KType = builtin_type(e[2], t) or _user(t, e[2])
            target: KType = tuple(cast_to[1]) if cast_to[0] == "array" else cast_to
            if target[0] in ("any", "struct", "io"):
                raise TypeProblem(f".as<{e[2]}>: a cast names a declared type (a type of the schema, or an "
                                  "integer, float, string, bytes or boolean type)")
            return cast_to
        if op in ("sizeof", "bitsizeof"):
            return INT
        raise TypeProblem(f"not an expression binparse knows ({op!r})")

    def member(self, base: KType, name: str) -> KType:
        """The type of `x.name` for `x` of type `base`; raises `TypeProblem` for a name no value of
        that type has (see the module doc)."""
        kind = base[0]
        if name == "_sizeof":
            return INT
        if kind == "any":
            if name in RECORD_SPECIALS or name in BUILTIN_METHODS or name in self.declared:
                return ANY
            raise TypeProblem(f"no type of the schema has a field, instance or param '{name}', and no value a "
                              f"method '{name}'")
        if kind in ("user", "struct"):
            if name == "_io":
                return IO
            cands = candidates(base)
            if name in ("_parent", "_root"):
                if cands is None:
                    return STRUCT
                outs = [self.parent_of(c) if name == "_parent" else ("user", c.schema.root) for c in cands]
                out = outs[0]
                for k in outs[1:]:
                    out = combine(out, k)
                return out
            if name[:1] == "_":
                raise TypeProblem(f"a record has no member '{name}' (of Kaitai's: _parent, _root, _io, _sizeof)")
            if kind == "user":
                target: TypeDef = base[1]
                try:
                    return self.name_type(target, name, {})
                except TypeProblem:
                    from .excerpt import did_you_mean
                    known = [a.id for a in target.seq + target.instances] + [p.id for p in target.params]
                    raise TypeProblem(f"type '{target.path}' has no field, instance or param '{name}'"
                                      f"{did_you_mean(name, known)}") from None
            found: KType | None = None
            for c in cands if cands is not None else self.every:
                if c.attr(name) is not None or any(p.id == name for p in c.params):
                    one = self.name_type(c, name, {})
                    found = one if found is None else combine(found, one)
            if found is None:
                where = ", ".join(f"'{c.path}'" for c in cands) if cands is not None else "the schema"
                raise TypeProblem(f"no type of {where} has a field, instance or param '{name}'")
            return found
        if kind == "array":
            if name in ("first", "last", "min", "max"):
                element: KType = base[1]
                return element
            if name == "size":
                return INT
        table = _METHODS.get(kind, {})
        if name in table:
            return table[name]
        raise TypeProblem(f"{_a(_show(base))} has no method or field '{name}'")


def _a(text: str) -> str:
    return ("an " if text[:1] in "aeiou" else "a ") + text


def _show(t: KType) -> str:
    if t[0] == "user":
        return f"record of type '{t[1].path}'"
    if t[0] == "enum":
        return f"enum '{t[1].name}' value"
    if t[0] == "array":
        return f"array of {_show(t[1])}"
    return {"int": "integer", "float": "float", "bool": "boolean", "str": "string", "bytes": "byte array",
            "io": "stream", "struct": "record", "any": "value"}[t[0]]


def kind_of(types: Types, t: TypeDef, local: dict[str, KType] | None = None) -> Callable[[Expr], str | None]:
    """For `to_python`: "int", "float", "bool" or "str" where a node's type is one of these."""

    def kind(e: Expr) -> str | None:
        try:
            k = types.of(e, t, local)
        except TypeProblem:
            return None
        return k[0] if k[0] in ("int", "float", "bool", "str") else None

    return kind


def enum_of(t: KType) -> EnumDef | None:
    return t[1] if t[0] == "enum" else None
