"""The schema model: what a loaded .ksy says, independent of how it is executed.

Backends (numpy, construct) and the accessor generator read this model; none of them reads YAML.
It carries the whole Kaitai Struct 0.11 language: numbers and bit-sized integers, strings and byte
arrays with sizes, terminators and padding, `process`, user types with params, switches, the three
repeats, `if`, `valid`, instances (`value`, `pos`, `io`), enums and imports.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..expr import Expr

_PRIMITIVE = re.compile(r"^(?:([us])([1248])|f([48]))(le|be)?$")
_BITS = re.compile(r"^b([1-9][0-9]*)(le|be)?$")
BUILTIN_TYPES = ("str", "strz", "bytes")  # besides numbers and bits (a switch case may name any of them)


@dataclass(frozen=True)
class Primitive:
    """A fixed-size number: `u1…u8`, `s1…s8`, `f4`, `f8`, with its byte order.

    `endian` is "le", "be", or "calc" when the type's `meta/endian` is a switch decided per record
    (the number is then read in the record's byte order; `numpy` and `struct` give little endian).
    """

    name: str
    kind: str  # "int" or "float"
    size: int
    signed: bool
    endian: str

    @property
    def numpy(self) -> str:
        """The numpy type string, e.g. '<i4'."""
        code = "f" if self.kind == "float" else ("i" if self.signed else "u")
        order = "|" if self.size == 1 else (">" if self.endian == "be" else "<")
        return f"{order}{code}{self.size}"

    @property
    def struct(self) -> str:
        """The `struct` module format, e.g. '<i'."""
        code = {1: "b", 2: "h", 4: "l", 8: "q"}[self.size] if self.kind == "int" else {4: "f", 8: "d"}[self.size]
        if not self.signed and self.kind == "int":
            code = code.upper()
        return (">" if self.endian == "be" else "<") + code


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


def bits_type(name: str) -> tuple[int, str | None] | None:
    """(width, bit order or None) of a bit-sized integer type `b1`…`b64` (`b12le`, `b3be`), else None."""
    m = _BITS.match(name)
    if not m or not 1 <= int(m.group(1)) <= 64:
        return None
    return int(m.group(1)), m.group(2)


def is_builtin(name: str) -> bool:
    """A type name that is not a user type: numbers, bits, str, strz, bytes."""
    return name in BUILTIN_TYPES or _PRIMITIVE.match(name) is not None or bits_type(name) is not None


@dataclass(frozen=True)
class TypeRef:
    """A type by name, with argument expressions for its params. In a switch, the name may be a
    built-in type (`u4`, `b3`, `str`, `strz`, `bytes`)."""

    name: str
    args: tuple[Expr, ...] = ()


@dataclass(frozen=True)
class Switch:
    """`type: {switch-on: expr, cases: {value: type}}`; a case key of None is the default `_`."""

    on: Expr
    cases: tuple[tuple[Expr | None, TypeRef], ...]


@dataclass(frozen=True)
class Valid:
    """The `valid` rule of a field: any of eq, min, max, any-of, in-enum, expr (`_` is the value)."""

    eq: Expr | None = None
    min: Expr | None = None
    max: Expr | None = None
    any_of: tuple[Expr, ...] | None = None
    in_enum: bool = False
    expr: Expr | None = None


@dataclass(frozen=True)
class Process:
    """`process`: xor(key), rol(n), ror(n), zlib, and the argument expressions."""

    name: str
    args: tuple[Expr, ...] = ()


@dataclass
class Attr:
    """One `seq` item or `instances` entry.

    `kind` is one of: "prim", "bits", "str", "bytes", "contents", "user", "switch" (or "value" for a
    value instance). `repeat` is None, "expr" (`count` is the repeat-expr), "eos" or "until".
    """

    id: str
    kind: str
    line: int
    prim: Primitive | None = None
    bits: int = 0
    bit_endian: str = "be"
    user: TypeRef | None = None
    switch: Switch | None = None
    size: Expr | None = None
    size_eos: bool = False
    terminator: bytes | None = None
    consume: bool = True
    include: bool = False
    eos_error: bool = True
    pad_right: int | None = None
    process: Process | None = None
    repeat: str | None = None
    count: Expr | None = None
    until: Expr | None = None
    encoding: str | None = None
    zero_terminated: bool = False
    contents: bytes | None = None
    valid: Valid | None = None
    enum: str | None = None
    doc: str | None = None
    doc_ref: str | None = None
    value: Expr | None = None
    pos: Expr | None = None
    io: Expr | None = None
    parent: Expr | None = None  # `parent:` the child's `_parent` (("num", False) for `parent: false`)
    cond: Expr | None = None  # Kaitai `if`: the field exists only when this is true
    display: str | None = None  # "-display: hex": printed in hexadecimal (versions, magics)
    key_lines: dict[str, int] = field(default_factory=dict)


@dataclass
class Param:
    id: str
    type: str  # the declared type text: `u4`, `str`, `bytes`, `bool`, `struct`, `io`, `any`, a user type, `u1[]`
    line: int
    prim: Primitive | None = None
    doc: str | None = None
    enum: str | None = None


@dataclass
class EnumDef:
    name: str
    members: dict[int, str]
    docs: dict[int, str]
    line: int
    doc: str | None = None


@dataclass(eq=False)
class TypeDef:
    """A Kaitai type: the root (named by meta/id) or an entry of `types`.

    `endian`, `bit_endian` and `encoding` are this type's own `meta` (inherited from the enclosing
    type when absent); `endian_on` and `endian_cases` are set when the byte order is decided per
    record (`meta/endian` as a switch: case key or None for `_`, then "le" or "be").
    """

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
    endian: str | None = None
    endian_on: Expr | None = None
    endian_cases: tuple[tuple[Expr | None, str], ...] = ()
    bit_endian: str | None = None
    encoding: str | None = None
    webide_repr: str | None = None  # `-webide-representation`: how a dump names one record ("{name}: {size:dec}")

    @property
    def path(self) -> str:
        """Schema path of the type, e.g. 'tidl_net::layer'."""
        return self.name if self.parent is None else f"{self.parent.path}::{self.name}"

    def resolve_type(self, name: str) -> TypeDef:
        """Find a user type as Kaitai does: nested types outward, then imported schemas."""
        if name.startswith("::"):
            return self.schema.root.resolve_type(name[2:])
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
            return self.resolve_type(owner or "::").enums[enum] if owner else self.schema.root.enums[enum]
        t: TypeDef | None = self
        while t is not None:
            if name in t.enums:
                return t.enums[name]
            t = t.parent
        raise KeyError(name)

    def enum_owner(self, enum: EnumDef) -> TypeDef:
        """The type that declares `enum` (in this schema or an imported one)."""
        for root in [self.schema.root] + [s.root for s in self.schema.all_imports()]:
            for t in root.all_types():
                if any(e is enum for e in t.enums.values()):
                    return t
        raise KeyError(enum.name)

    def inherited(self, key: str) -> Any:
        """This type's own `meta` `key` (endian, bit_endian, encoding), else the nearest enclosing type's;
        for "endian", "calc" when the nearest that says one decides it per record (a switch)."""
        t: TypeDef | None = self
        while t is not None:
            if key == "endian" and t.endian_on is not None:
                return "calc"
            value = getattr(t, key)
            if value is not None:
                return value
            t = t.parent
        return self.schema.endian if key == "endian" else None

    def attr(self, name: str) -> Attr | None:
        """The seq field or instance called `name` (by an index made once the lists are complete)."""
        n = len(self.seq) + len(self.instances)
        index = self.__dict__.get("_by_id")
        if index is None or index[0] != n:
            table: dict[str, Attr] = {}
            for a in self.seq + self.instances:
                table.setdefault(a.id, a)
            index = self.__dict__["_by_id"] = (n, table)
        return index[1].get(name)

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
    name: str  # path below schemas/ (or the import path) without '.ksy', e.g. 'tidl/tidl_io_buf_desc_j7_08'
    source: str
    endian: str | None
    title: str | None = None
    imports: list[Schema] = field(default_factory=list)
    root: TypeDef = None  # type: ignore[assignment]  # set right after construction
    extra: dict[str, Any] = field(default_factory=dict)
    opaque_types: bool = False
    debug: bool = False  # `meta/ks-debug`: a repeat cut short keeps the records that start in the data

    def all_imports(self) -> list[Schema]:
        seen: list[Schema] = []
        todo = list(self.imports)
        while todo:
            s = todo.pop(0)
            if s not in seen and s is not self:
                seen.append(s)
                todo.extend(s.imports)
        return seen
