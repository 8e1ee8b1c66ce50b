"""Field specs: the plain data generated accessor classes are made of."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Expr = tuple[Any, ...]
Size = int | Expr | None
ABSENT = -1  # element size of a field whose `if` is false


@dataclass(frozen=True)
class ValidSpec:
    """A field's `valid` rule with enum literals already resolved to numbers."""

    eq: Expr | None = None
    min: Expr | None = None
    max: Expr | None = None
    any_of: tuple[Expr, ...] | None = None
    in_enum: tuple[int, ...] | None = None


@dataclass(frozen=True)
class FieldSpec:
    """One seq field or pos instance, as data.

    kind: "prim" (number), "str", "bytes", "contents", "user", "switch".
    np: numpy type of one element ('<i4', 'S512', '|u1' …); size: bytes of one element (int,
    expression AST, or None for user types whose size comes from their class); count: repeat-expr.
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
    cases: tuple[tuple[Any, str, tuple[Expr, ...]], ...] = ()
    default: tuple[str, tuple[Expr, ...]] | None = None
    enum: str | None = None
    valid: ValidSpec | None = None
    encoding: str | None = None
    zero_terminated: bool = False
    contents: bytes | None = None
    pos: Expr | None = None
    cond: Expr | None = None
    display: str | None = None  # "hex": text and JSON show the integer in hexadecimal (a version, a magic)


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
