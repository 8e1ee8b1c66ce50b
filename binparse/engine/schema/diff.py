"""Differences between two versions of a struct: fields added, removed, moved and resized, with
their old and new offsets (the change log vendors do not publish)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..backends import numpy_backend as nb
from ..runtime import ABSENT, static_prefix
from .model import TypeDef


@dataclass(frozen=True)
class FieldPlace:
    name: str
    offset: int
    size: int  # bytes


@dataclass(frozen=True)
class Change:
    kind: str  # added, removed, moved, resized
    name: str
    old: FieldPlace | None
    new: FieldPlace | None

    def describe(self) -> str:
        o, n = self.old, self.new
        if self.kind == "added":
            assert n is not None
            return f"added    {self.name:32s} at {n.offset} ({n.size} bytes)"
        if self.kind == "removed":
            assert o is not None
            return f"removed  {self.name:32s} was at {o.offset} ({o.size} bytes)"
        assert o is not None and n is not None
        size = f", {o.size} → {n.size} bytes" if o.size != n.size else ""
        return f"{self.kind:8s} {self.name:32s} {o.offset} → {n.offset}{size}"

    def to_json(self) -> dict[str, Any]:
        return {"change": self.kind, "field": self.name,
                "old": None if self.old is None else {"offset": self.old.offset, "size": self.old.size},
                "new": None if self.new is None else {"offset": self.new.offset, "size": self.new.size}}


def places(t: TypeDef, params: dict[str, Any]) -> tuple[list[FieldPlace], bool]:
    """The fields of `t` laid out for `params` (up to the first data-dependent one) and whether all were."""
    specs = nb.field_specs(t)
    entries, _ = static_prefix(specs, params, nb._namespace(t))
    out = [FieldPlace(s.name, off, size * (1 if count is None else count))
           for s, (off, count, size) in zip(specs, entries) if size != ABSENT]
    return out, len(entries) == len(specs)


def diff(a: TypeDef, a_params: dict[str, Any], b: TypeDef, b_params: dict[str, Any]) -> tuple[list[Change], bool]:
    """Changes from a to b, in b's field order (removed ones last), and whether both were fully static."""
    pa, full_a = places(a, a_params)
    pb, full_b = places(b, b_params)
    old = {f.name: f for f in pa}
    new = {f.name: f for f in pb}
    changes = []
    for f in pb:
        o = old.get(f.name)
        if o is None:
            changes.append(Change("added", f.name, None, f))
        elif o.size != f.size:
            changes.append(Change("resized", f.name, o, f))
        elif o.offset != f.offset:
            changes.append(Change("moved", f.name, o, f))
    changes += [Change("removed", f.name, f, None) for f in pa if f.name not in new]
    return changes, full_a and full_b
