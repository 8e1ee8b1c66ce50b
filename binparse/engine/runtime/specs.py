"""Field specs: the plain data generated accessor classes are made of."""

from __future__ import annotations

from typing import Any, TypeVar

Expr = tuple[Any, ...]
Size = int | Expr | None
ABSENT = -1  # element size of a field whose `if` is false
VARIES = -2  # element size of a repeat whose elements differ in size (their places are in the field's items)


class _Record:
    """A small immutable record of named values (what `dataclass(frozen=True)` gives, written out: a
    generated module makes hundreds of these when imported, and `dataclass` costs milliseconds to
    set up at start-up)."""

    __slots__: tuple[str, ...] = ()
    _DEFAULTS: dict[str, Any] = {}

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, k) for k in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__) + ")"

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: make another with `respec`")

    def _set(self, values: dict[str, Any]) -> None:
        setter = object.__setattr__
        for k in self.__slots__:
            setter(self, k, values[k] if k in values else self._DEFAULTS[k])


class ValidSpec(_Record):
    """A field's `valid` rule with enum literals already resolved to numbers."""

    __slots__ = ("eq", "min", "max", "any_of", "in_enum", "expr")
    eq: Expr | None
    min: Expr | None
    max: Expr | None
    any_of: tuple[Expr, ...] | None
    in_enum: tuple[int, ...] | None
    expr: Expr | None  # `valid/expr`: true for a good value, `_` being the value
    _DEFAULTS = dict.fromkeys(__slots__)

    def __init__(self, eq: Expr | None = None, min: Expr | None = None, max: Expr | None = None,  # noqa: A002
                 any_of: tuple[Expr, ...] | None = None, in_enum: tuple[int, ...] | None = None,
                 expr: Expr | None = None) -> None:
        self._set(locals())


class FieldSpec(_Record):
    """One seq field, pos instance or switch case, as data.

    kind: "prim" (number), "bits" (bit-sized integer), "str", "bytes", "contents", "user", "switch".
    np: numpy type of one element ('<i4', 'S512', '|u1' …); fmt: its `struct` format; size: bytes
    of one element (int, expression AST, or None for user types whose size comes from their
    class, and for `size-eos` / `terminator` fields). Repeats: `repeat` "expr" (`count` is the
    repeat-expr), "eos" or "until" (`until`). A switch's `cases` are (key, spec of the case), the
    key a constant or ("expr", AST); `default` is the `_` case. `display`: "hex" when text and JSON
    show the integer in hexadecimal (a version, a magic); `calc_endian`: a number read in its
    record's byte order (`meta/endian` is a switch).
    """

    __slots__ = ("name", "kind", "np", "fmt", "size", "count", "user", "args", "switch_on", "cases", "default", "enum",
                 "valid", "encoding", "zero_terminated", "contents", "pos", "cond", "display", "bits", "bit_le",
                 "repeat", "until", "size_eos", "term", "consume", "include", "eos_error", "pad", "process", "io",
                 "parent", "calc_endian")
    name: str
    kind: str
    np: str | None
    fmt: str | None
    size: Size
    count: Size
    user: str | None
    args: tuple[Expr, ...]
    switch_on: Expr | None
    cases: tuple[tuple[Any, FieldSpec], ...]
    default: FieldSpec | None
    enum: str | None
    valid: ValidSpec | None
    encoding: str | None
    zero_terminated: bool
    contents: bytes | None
    pos: Expr | None
    cond: Expr | None
    display: str | None
    bits: int
    bit_le: bool
    repeat: str | None
    until: Expr | None
    size_eos: bool
    term: bytes | None
    consume: bool
    include: bool
    eos_error: bool
    pad: int | None
    process: tuple[str, tuple[Expr, ...]] | None
    io: Expr | None
    parent: Expr | None
    calc_endian: bool
    _DEFAULTS = {**dict.fromkeys(__slots__), "args": (), "cases": (), "zero_terminated": False, "bits": 0,
                 "bit_le": False, "size_eos": False, "consume": True, "include": False, "eos_error": True,
                 "calc_endian": False}

    def __init__(self, name: str, kind: str, np: str | None = None, fmt: str | None = None, size: Size = None,
                 count: Size = None, user: str | None = None, args: tuple[Expr, ...] = (),
                 switch_on: Expr | None = None, cases: tuple[tuple[Any, FieldSpec], ...] = (),
                 default: FieldSpec | None = None, enum: str | None = None, valid: ValidSpec | None = None,
                 encoding: str | None = None, zero_terminated: bool = False, contents: bytes | None = None,
                 pos: Expr | None = None, cond: Expr | None = None, display: str | None = None, bits: int = 0,
                 bit_le: bool = False, repeat: str | None = None, until: Expr | None = None, size_eos: bool = False,
                 term: bytes | None = None, consume: bool = True, include: bool = False, eos_error: bool = True,
                 pad: int | None = None, process: tuple[str, tuple[Expr, ...]] | None = None, io: Expr | None = None,
                 parent: Expr | None = None, calc_endian: bool = False) -> None:
        self._set(locals())

    @property
    def repeated(self) -> bool:
        return self.repeat is not None or self.count is not None

    @property
    def plain(self) -> bool:
        """Every element has the size `size` says (no terminator, no size-eos, no process)."""
        return self.term is None and not self.size_eos and self.process is None


class StaticLayout(_Record):
    """Offsets (relative to the record start), element counts and the size of a fixed type.

    A field whose `if` is false has element size -1 (absent: it takes no bytes, reads as None).
    """

    __slots__ = ("offsets", "counts", "elem_sizes", "size")
    offsets: tuple[int, ...]
    counts: tuple[int | None, ...]
    elem_sizes: tuple[int, ...]
    size: int

    def __init__(self, offsets: tuple[int, ...], counts: tuple[int | None, ...], elem_sizes: tuple[int, ...],
                 size: int) -> None:
        self._set(locals())


R = TypeVar("R", bound=_Record)


def respec(spec: R, **changes: Any) -> R:
    """`spec` with some of its values changed (a new record)."""
    out = object.__new__(type(spec))
    out._set({k: changes[k] if k in changes else getattr(spec, k) for k in spec.__slots__})
    return out


def _kdiv(a: Any, b: Any) -> Any:
    return a // b if isinstance(a, int) and isinstance(b, int) else a / b
