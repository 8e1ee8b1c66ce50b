"""The schema model: what a loaded .ksy says, independent of how it is executed.

Backends (numpy, construct) and the accessor generator read this model; none of them reads YAML.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .expr import Expr

_PRIMITIVE = re.compile(r"^(?:([us])([1248])|f([48]))(le|be)?$")


@dataclass(frozen=True)
class Primitive:
    """A fixed-size number: `u1…u8`, `s1…s8`, `f4`, `f8`, with its byte order."""

    name: str
    kind: str  # "int" or "float"
    size: int
    signed: bool
    endian: str  # "le" or "be" ("le" for one-byte types)

    @property
    def numpy(self) -> str:
        """The numpy type string, e.g. '<i4'."""
        code = "f" if self.kind == "float" else ("i" if self.signed else "u")
        order = "|" if self.size == 1 else ("<" if self.endian == "le" else ">")
        return f"{order}{code}{self.size}"

    @property
    def struct(self) -> str:
        """The `struct` module format, e.g. '<i'."""
        code = {1: "b", 2: "h", 4: "l", 8: "q"}[self.size] if self.kind == "int" else {4: "f", 8: "d"}[self.size]
        if not self.signed and self.kind == "int":
            code = code.upper()
        return ("<" if self.endian == "le" else ">") + code


def primitive(name: str, default_endian: str | None) -> Primitive | None:
    """The Primitive for a type name, or None if `name` is not a number type.

    Raises ValueError when a multi-byte type has no byte order (none in the name, none in meta).
    """
    m = _PRIMITIVE.match(name)
    if not m:
        return None
    sign, isize, fsize, endian = m.groups()
    size = int(isize or fsize)
    if size > 1 and endian is None:
        if default_endian is None:
            raise ValueError(f"type '{name}' needs a byte order: add meta/endian or use {name}le/{name}be")
        endian = default_endian
    return Primitive(name, "float" if fsize else "int", size, sign != "u" if isize else True, endian or "le")


@dataclass(frozen=True)
class TypeRef:
    """A user type by name, with argument expressions for its params."""

    name: str
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Switch:
    """`type: {switch-on: expr, cases: {value: type}}`; a case key of None is the default `_`."""

    on: Expr
    cases: tuple[tuple[Expr | None, TypeRef], ...]


@dataclass(frozen=True)
class Valid:
    """The `valid` rule of a field: any of eq, min, max, any-of, in-enum."""

    eq: Expr | None = None
    min: Expr | None = None
    max: Expr | None = None
    any_of: tuple[Expr, ...] | None = None
    in_enum: bool = False


@dataclass
class Attr:
    """One `seq` item or `instances` entry.

    `kind` is one of: "prim", "str", "bytes", "contents", "user", "switch" (or "value" for a
    value instance). `count` is the repeat-expr (None: not repeated).
    """

    id: str
    kind: str
    line: int
    prim: Primitive | None = None
    user: TypeRef | None = None
    switch: Switch | None = None
    size: Expr | None = None
    count: Expr | None = None
    encoding: str | None = None
    zero_terminated: bool = False
    contents: bytes | None = None
    valid: Valid | None = None
    enum: str | None = None
    doc: str | None = None
    doc_ref: str | None = None
    value: Expr | None = None
    pos: Expr | None = None
    cond: Expr | None = None  # Kaitai `if`: the field exists only when this is true
    display: str | None = None  # "-display: hex": printed in hexadecimal (versions, magics)
    key_lines: dict[str, int] = field(default_factory=dict)


@dataclass
class Param:
    id: str
    type: str
    line: int
    prim: Primitive | None = None
    doc: str | None = None


@dataclass
class EnumDef:
    name: str
    members: dict[int, str]
    docs: dict[int, str]
    line: int
    doc: str | None = None


@dataclass(eq=False)
class TypeDef:
    """A Kaitai type: the root (named by meta/id) or an entry of `types`."""

    name: str
    line: int
    schema: Schema
    parent: TypeDef | None = None
    seq: list[Attr] = field(default_factory=list)
    instances: list[Attr] = field(default_factory=list)
    params: list[Param] = field(default_factory=list)
    types: dict[str, TypeDef] = field(default_factory=dict)
    enums: dict[str, EnumDef] = field(default_factory=dict)
    doc: str | None = None
    doc_ref: str | None = None

    @property
    def path(self) -> str:
        """Schema path of the type, e.g. 'tidl_net::layer'."""
        return self.name if self.parent is None else f"{self.parent.path}::{self.name}"

    def resolve_type(self, name: str) -> TypeDef:
        """Find a user type as Kaitai does: nested types outward, then imported schemas."""
        if "::" in name:
            head, _, rest = name.partition("::")
            return self._scope_type(head)._descend(rest)
        return self._scope_type(name)

    def _descend(self, path: str) -> TypeDef:
        t: TypeDef = self
        for part in path.split("::"):
            t = t.types[part]
        return t

    def _scope_type(self, name: str) -> TypeDef:
        t: TypeDef | None = self
        while t is not None:
            if name in t.types:
                return t.types[name]
            if t.parent is None and t.name == name:
                return t
            t = t.parent
        for imp in self.schema.all_imports():
            if imp.root.name == name:
                return imp.root
        raise KeyError(name)

    def resolve_enum(self, name: str) -> EnumDef:
        """Find an enum: `name` outward from this type, or `type::name` / `schema::name`."""
        if "::" in name:
            owner, _, enum = name.rpartition("::")
            return self.resolve_type(owner).enums[enum]
        t: TypeDef | None = self
        while t is not None:
            if name in t.enums:
                return t.enums[name]
            t = t.parent
        raise KeyError(name)

    def all_types(self) -> list[TypeDef]:
        """This type and every nested type, depth first."""
        out = [self]
        for t in self.types.values():
            out.extend(t.all_types())
        return out

    def all_enums(self) -> list[tuple[TypeDef, EnumDef]]:
        return [(t, e) for t in self.all_types() for e in t.enums.values()]


@dataclass(eq=False)
class Schema:
    """One loaded .ksy file."""

    id: str
    file: str
    name: str  # path below schemas/ without '.ksy', e.g. 'tidl/tidl_io_buf_desc_j7_08'
    source: str
    endian: str | None
    title: str | None = None
    imports: list[Schema] = field(default_factory=list)
    root: TypeDef = None  # type: ignore[assignment]  # set right after construction
    extra: dict[str, Any] = field(default_factory=dict)

    def all_imports(self) -> list[Schema]:
        seen: list[Schema] = []
        todo = list(self.imports)
        while todo:
            s = todo.pop(0)
            if s not in seen:
                seen.append(s)
                todo.extend(s.imports)
        return seen
