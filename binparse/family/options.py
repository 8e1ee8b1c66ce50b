"""Reading command-line option values a family declares (`Option`): the shared small parsers."""

from __future__ import annotations

from ..core.errors import BinparseError


def ints(text: str | None, n: int | None, what: str) -> tuple[int, ...]:
    """`text` as comma-separated integers: exactly `n` of them (any number when n is None)."""
    try:
        values = tuple(int(v) for v in (text or "").split(","))
    except ValueError:
        values = ()
    if not values or (n is not None and len(values) != n):
        raise BinparseError(f"{what} needs {n if n is not None else 'some'} comma-separated integers", found=text)
    return values


__all__ = ["ints"]
