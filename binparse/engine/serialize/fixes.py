"""Sizes, counts and lengths that follow the values: when a byte array, a record or a repeat no
longer has the size its `size`/`repeat-expr` expression gives, the field that expression reads is
set to what the value needs, and the record that holds it is written again.

An expression can be solved for one field when it is that field (`len`), or reaches it through
records (`header.len`, `_parent.len`), params (a type's param passed by the field that holds it)
or value instances without `if`, with `+`, `-`, `*`, `/` by something fixed on the way
(`len - 4`, `num_words * 2`). The field must be a number of the record's seq that the caller did
not set themselves (when the values come from a file, one whose value is still the file's): a
length the caller set that disagrees with the value is a `ConsistencyError` naming both, never
overwritten. Anything else (an expression over `_io`, a field that is also the size of another
value that disagrees) is a `ConsistencyError` naming the field, the expression and both numbers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import FormatError
from ..backends.numpy_backend import resolve_enums

if TYPE_CHECKING:
    from .records import WRec


class ConsistencyError(FormatError):
    """Values that cannot be written so that the schema reads them back (Kaitai's ConsistencyError):
    names the field, what its schema says and what the value has (exit code 2 for values a file
    gives, 3 for values the command line gives)."""


class Refit(Exception):
    """A length was set to follow a value: write `owner` (which holds that length) again."""

    def __init__(self, owner: WRec) -> None:
        super().__init__(owner.path)
        self.owner = owner


def solve(rec: WRec, e: Any, want: int, at: int | None, index: int | None = None,
          depth: int = 0) -> tuple[WRec, str, int] | None:
    """(record, field, value) that makes `e` (evaluated in `rec`) give `want`, or None."""
    if depth > 16 or not isinstance(want, int) or not isinstance(e, tuple):
        return None
    op = e[0]
    if op == "name":
        return _solve_name(rec, e[1], want, depth)
    if op == "attr":
        from .records import WRec
        from .stream import IoView
        try:
            obj = rec.eval(e[1], at, index)
        except Exception:  # noqa: BLE001 - not solvable this way
            return None
        if isinstance(obj, IoView) and e[2] == "size" and obj.stream.origin is not None:
            orec, oexpr, oat, ok = obj.stream.origin  # a substream's size: the size of the field it is
            return solve(orec, oexpr, want, oat, ok, depth + 1)
        return _solve_name(obj, e[2], want, depth) if isinstance(obj, WRec) else None
    if op == "cast":
        return solve(rec, e[1], want, at, index, depth + 1)
    if op == "un" and e[1] == "-":
        return solve(rec, e[2], -want, at, index, depth + 1)
    if op != "bin" or e[1] not in ("+", "-", "*", "/"):
        return None
    o, a, b = e[1], e[2], e[3]
    for side, other in ((a, b), (b, a)):
        try:
            ov = rec.eval(other, at, index)
        except Exception:  # noqa: BLE001 - this side reads what cannot be evaluated
            continue
        if not isinstance(ov, int) or isinstance(ov, bool):
            continue
        x: int | None = None
        if o == "+":
            x = want - ov
        elif o == "-":
            x = want + ov if side is a else ov - want
        elif o == "*":
            x = want // ov if ov and want % ov == 0 else None
        elif side is a and ov > 0:  # "/": the smallest dividend that gives `want`
            x = want * ov
        if x is not None:
            hit = solve(rec, side, x, at, index, depth + 1)
            if hit is not None:
                return hit
    return None


def _solve_name(rec: WRec, name: str, want: int, depth: int) -> tuple[WRec, str, int] | None:
    fp = rec.plan.by_id.get(name)
    if fp is not None:
        ok = fp.spec.kind in ("prim", "bits") and not fp.spec.repeated and (fp.spec.fmt or "d")[-1] not in "fd"
        return (rec, name, want) if ok else None
    if name in rec.params and rec.up is not None:
        for (field, k), kid in rec.up.kids.items():
            if kid is rec:
                src = rec.up.plan.by_id.get(field) or rec.up.plan.instances.get(field)
                case = src.one if src is not None else None
                if case is None or case.target is None:
                    return None
                i = [p.id for p in case.target.params].index(name)
                return solve(rec.up, case.args[i], want, None, k, depth + 1)
        return None
    a = rec.plan.values.get(name)
    if a is not None and a.cond is None and a.value is not None:
        return solve(rec, resolve_enums(a.value, rec.t), want, None, None, depth + 1)
    return None


def show(e: Any) -> str:
    """An expression as Kaitai text (for messages)."""
    if not isinstance(e, tuple):
        return repr(e)
    write = _SHOW.get(e[0])
    return write(e) if write is not None else "…"


_SHOW: dict[str, Any] = {
    "num": lambda e: repr(e[1]) if not isinstance(e[1], bool) else str(e[1]).lower(),
    "str": lambda e: repr(e[1]),
    "name": lambda e: str(e[1]),
    "attr": lambda e: f"{show(e[1])}.{e[2]}",
    "index": lambda e: f"{show(e[1])}[{show(e[2])}]",
    "bin": lambda e: f"{_paren(e[2])} {e[1]} {_paren(e[3])}",
    "un": lambda e: f"{e[1]}{' ' if e[1] == 'not' else ''}{_paren(e[2])}",
    "call": lambda e: f"{show(e[1])}.{e[2]}({', '.join(show(a) for a in e[3])})",
    "cast": lambda e: f"{show(e[1])}.as<{e[2]}>",
    "cond": lambda e: f"{_paren(e[1])} ? {_paren(e[2])} : {_paren(e[3])}",
    "enum": lambda e: f"{e[1]}::{e[2]}",
    "list": lambda e: "[" + ", ".join(show(x) for x in e[1]) + "]",
}


def _paren(e: Any) -> str:
    text = show(e)
    return f"({text})" if e[0] in ("bin", "cond") else text


__all__ = ["ConsistencyError", "Refit", "show", "solve"]
