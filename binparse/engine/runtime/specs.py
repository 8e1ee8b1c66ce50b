"""Field specs: the plain data generated accessor classes are made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Expr = tuple[Any, ...]
Size = int | Expr | None
ABSENT = -1  # element size of a field whose `if` is false
VARIES = -2  # element size of a repeat whose elements differ in size (their places are in the field's items)


@dataclass(frozen=True)
class ValidSpec:
    """A field's `valid` rule with enum literals already resolved to numbers."""

    eq: Expr | None = None
    min: Expr | None = None
    max: Expr | None = None
    any_of: tuple[Expr, ...] | None = None
    in_enum: tuple[int, ...] | None = None
    expr: Expr | None = None  # `valid/expr`: true for a good value, `_` being the value


@dataclass(frozen=True)
class FieldSpec:
    """One seq field, pos instance or switch case, as data.

    kind: "prim" (number), "bits" (bit-sized integer), "str", "bytes", "contents", "user", "switch".
    np: numpy type of one element ('<i4', 'S512', '|u1' …); fmt: its `struct` format; size: bytes
    of one element (int, expression AST, or None for user types whose size comes from their
    class, and for `size-eos` / `terminator` fields). Repeats: `repeat` "expr" (`count` is the
    repeat-expr), "eos" or "until" (`until`). A switch's `cases` are (key, spec of the case), the
    key a constant or ("expr", AST); `default` is the `_` case.
    """

    name: str
    kind: str
    np: str | None = None
    fmt: str | None = None
    size: Size = None
    count: Size = None
    user: str | None = None
    args: tuple[Expr, ...] = ()
    switch_on: Expr | None = None
    cases: tuple[tuple[Any, FieldSpec], ...] = ()
    default: FieldSpec | None = None
    enum: str | None = None
    valid: ValidSpec | None = None
    encoding: str | None = None
    zero_terminated: bool = False
    contents: bytes | None = None
    pos: Expr | None = None
    cond: Expr | None = None
    display: str | None = None  # "hex": text and JSON show the integer in hexadecimal (a version, a magic)
    bits: int = 0
    bit_le: bool = False
    repeat: str | None = None
    until: Expr | None = None
    size_eos: bool = False
    term: bytes | None = None
    consume: bool = True
    include: bool = False
    eos_error: bool = True
    pad: int | None = None
    process: tuple[str, tuple[Expr, ...]] | None = None
    io: Expr | None = None
    parent: Expr | None = None
    calc_endian: bool = False  # a number read in its record's byte order (`meta/endian` is a switch)

    @property
    def repeated(self) -> bool:
        return self.repeat is not None or self.count is not None

    @property
    def plain(self) -> bool:
        """Every element has the size `size` says (no terminator, no size-eos, no process)."""
        return self.term is None and not self.size_eos and self.process is None


@dataclass(frozen=True)
class StaticLayout:
    """Offsets (relative to the record start), element counts and the size of a fixed type.

    A field whose `if` is false has element size -1 (absent: it takes no bytes, reads as None).
    """

    offsets: tuple[int, ...]
    counts: tuple[int | None, ...]
    elem_sizes: tuple[int, ...]
    size: int


def _kdiv(a: Any, b: Any) -> Any:
    return a // b if isinstance(a, int) and isinstance(b, int) else a / b
