"""What a type's fields allow the generator to write: a compiled reader (`why_not`), a layout fixed once
its params are known (`static_by_params`), elements whose size is known before they are read
(`fixed_size`)."""

from __future__ import annotations

from .. import expr as ex
from ..backends import numpy_backend as nb
from ..runtime import FieldSpec
from ..schema import TypeDef


def why_not(t: TypeDef) -> str | None:
    """Why type `t` gets no compiled reader (None: it gets one)."""
    specs = nb.field_specs(t)
    for i, f in enumerate(specs):
        if f.kind == "bits":
            if f.cond is not None or f.repeated:
                return f"{f.name}: a bit-sized integer with if or repeat"
            j = i
            while j + 1 < len(specs) and specs[j + 1].kind == "bits" and specs[j + 1].cond is None \
                    and not specs[j + 1].repeated:
                j += 1
            if i == 0 or specs[i - 1].kind != "bits":
                width = sum(x.bits for x in specs[i:j + 1])
                after = specs[j + 1] if j + 1 < len(specs) else None
                aligned = after is not None and after.cond is None and after.kind in ("prim", "bytes", "str",
                                                                                       "contents")
                if width % 8 and not aligned:
                    return f"{f.name}: bit-sized integers that end inside a byte"
                if len({x.bit_le for x in specs[i:j + 1]}) > 1:
                    return f"{f.name}: bit-sized integers of both bit orders in one run"
        for case in [c for _, c in f.cases] + ([f.default] if f.default is not None else []):
            if case.kind not in ("prim", "bytes", "str", "user"):
                return f"{f.name}: a switch case of kind {case.kind}"
    return None


def fixed_size(f: FieldSpec) -> bool:
    """Every element of the field has the size its `size` says, known before reading it."""
    return f.size is not None and not f.size_eos and f.process is None and (
        isinstance(f.size, int) or not ex.names(f.size) & {"_index", "_io"})


def static_by_params(t: TypeDef) -> bool:
    allowed = {p.id for p in t.params}
    for a in t.seq:
        if a.kind == "bits" or a.size_eos or a.terminator is not None and a.size is None or \
                a.repeat in ("eos", "until"):
            return False
        for e in (a.size, a.count, a.cond):
            e = nb.resolve_enums(e, t)
            if e is not None and not ex.names(e) <= allowed:
                return False
        if a.kind == "switch" and a.size is None:
            return False
        if a.kind == "user" and a.user is not None and a.size is None:
            sub = t.resolve_type(a.user.name)
            if any(not ex.names(x) <= allowed for x in a.user.args):
                return False
            if sub.params and not static_by_params(sub):
                return False
            if not sub.params and nb.type_layout(sub) is None:
                return False
    return True


__all__ = ["fixed_size", "static_by_params", "why_not"]
