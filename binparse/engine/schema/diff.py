"""Differences between two versions of a struct: fields added, removed, moved and resized, with
their old and new offsets (the change log vendors do not publish). Between two versions of one
schema (the same `meta/id`) also the fields whose type changed (`retyped`: `u2` → `u4`, `subblock` →
`application_id`, an enum added), those added and removed after a field of data-dependent size,
and the nested types: their fields added, removed and retyped, and types added and removed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..backends import numpy_backend as nb
from ..runtime import ABSENT, static_prefix
from .model import Attr, TypeDef


@dataclass(frozen=True)
class FieldPlace:
    name: str
    offset: int
    size: int  # bytes


@dataclass(frozen=True)
class Change:
    kind: str  # added, removed, moved, resized, retyped
    name: str
    old: FieldPlace | None
    new: FieldPlace | None
    old_type: str | None = None  # the field's type, where it changed or has no place (a nested type's field)
    new_type: str | None = None

    def describe(self) -> str:
        o, n = self.old, self.new
        if self.kind == "retyped" or (o is None and n is None):
            if self.kind == "retyped":
                return f"retyped  {self.name:32s} {self.old_type} → {self.new_type}"
            return f"{self.kind:8s} {self.name:32s} ({self.new_type or self.old_type})"
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
        out: dict[str, Any] = {
            "change": self.kind, "field": self.name,
            "old": None if self.old is None else {"offset": self.old.offset, "size": self.old.size},
            "new": None if self.new is None else {"offset": self.new.offset, "size": self.new.size}}
        if self.old_type is not None or self.new_type is not None:
            out["old_type"], out["new_type"] = self.old_type, self.new_type
        return out


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
    if a.schema.id == b.schema.id:  # versions of one schema: its types compared too (not a header's schema
        changes += _fields(a, b, "", {c.name for c in changes} | set(old) | set(new))  # against a hand-written one,
        if a.parent is None and b.parent is None:  # whose types are named otherwise: their layouts are compared)
            changes += _nested(a, b)
    return changes, full_a and full_b


def type_text(a: Attr) -> str:
    """A field's type as the schema says it (`u4le`, `str(UTF-8)`, `subblock`, `switch on tag`), with its
    enum and repeat: what `retyped` compares."""
    if a.kind == "prim" and a.prim is not None:
        text = a.prim.name if a.prim.size == 1 or a.prim.name.endswith(("le", "be")) else a.prim.name + a.prim.endian
    elif a.kind == "bits":
        text = f"b{a.bits}"
    elif a.kind == "str":
        text = ("strz" if a.zero_terminated else "str") + (f"({a.encoding})" if a.encoding else "")
    elif a.kind == "user" and a.user is not None:
        text = a.user.name + (f"({len(a.user.args)} args)" if a.user.args else "")
    elif a.kind == "switch" and a.switch is not None:
        text = "switch of " + " | ".join(sorted({r.name for _, r in a.switch.cases}))
    else:
        text = a.kind
    if a.enum:
        text += f" enum {a.enum}"
    if a.repeat:
        text += f"[{a.repeat}]"
    return text


def _fields(a: TypeDef, b: TypeDef, prefix: str, placed: set[str]) -> list[Change]:
    """Fields of two versions of one type: retyped ones, and (outside `placed`, what the layout
    compared) added and removed ones."""
    out = []
    old = {x.id: x for x in a.seq}
    new = {x.id: x for x in b.seq}
    for fid, f in new.items():
        o = old.get(fid)
        if o is None:
            if fid not in placed:
                out.append(Change("added", prefix + fid, None, None, new_type=type_text(f)))
        elif type_text(o) != type_text(f):
            out.append(Change("retyped", prefix + fid, None, None, type_text(o), type_text(f)))
    out += [Change("removed", prefix + fid, None, None, old_type=type_text(o)) for fid, o in old.items()
            if fid not in new and fid not in placed]
    return out


def _nested(a: TypeDef, b: TypeDef) -> list[Change]:
    """The nested types of two versions of one schema, matched by their path below the root."""
    def by_path(root: TypeDef) -> dict[str, TypeDef]:
        return {t.path.partition("::")[2]: t for t in root.all_types() if t is not root}
    old, new = by_path(a), by_path(b)
    out: list[Change] = []
    for path, t in new.items():
        if path in old:
            out += _fields(old[path], t, f"{path}.", set())
        else:
            out.append(Change("added", f"type {path}", None, None, new_type=f"{len(t.seq)} field(s)"))
    out += [Change("removed", f"type {path}", None, None, old_type=f"{len(t.seq)} field(s)") for path, t in
            old.items() if path not in new]
    return out
