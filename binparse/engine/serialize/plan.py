"""What the writer needs of a type, worked out once per type: each field's spec (the same
`FieldSpec` the reader uses, enums resolved), the user type it holds and its switch cases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..backends.numpy_backend import field_spec, resolve_enums
from ..runtime.specs import FieldSpec
from ..schema.model import Attr, TypeDef, TypeRef


@dataclass(frozen=True)
class Case:
    """One way a field's element is written: its spec, and its record type with the argument
    expressions of that type's params (None for a number, string or byte array)."""

    spec: FieldSpec
    target: TypeDef | None
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class FieldPlan:
    attr: Attr
    spec: FieldSpec
    index: int  # in the seq (or among the instances)
    one: Case | None  # not a switch: the element's case
    cases: tuple[tuple[Any, Case], ...] = ()  # a switch: (key, case), key a constant or ("expr", AST)
    default: Case | None = None
    raw: Case | None = None  # a switch with no case for the value and a size: raw bytes


@dataclass(frozen=True)
class TypePlan:
    t: TypeDef
    seq: tuple[FieldPlan, ...]
    instances: dict[str, FieldPlan]
    values: dict[str, Attr]  # value instances
    params: tuple[str, ...]
    by_id: dict[str, FieldPlan]


_PLANS: dict[int, tuple[TypeDef, TypePlan]] = {}


def _target(t: TypeDef, ref: TypeRef | None, spec: FieldSpec) -> Case:
    if ref is None or spec.kind != "user":
        return Case(spec, None)
    target = t.resolve_type(ref.name)
    return Case(spec, target, tuple(resolve_enums(a, t) for a in ref.args))


def _field(a: Attr, t: TypeDef, i: int) -> FieldPlan:
    spec = field_spec(a, t)
    if a.kind != "switch":
        return FieldPlan(a, spec, i, _target(t, a.user, spec))
    assert a.switch is not None
    cases: list[tuple[Any, Case]] = []
    default: Case | None = None
    specs = iter(spec.cases)
    for key, ref in a.switch.cases:
        if key is None:
            assert spec.default is not None
            default = _target(t, ref, spec.default)
        else:
            k, case = next(specs)
            cases.append((k, _target(t, ref, case)))
    raw = None
    if spec.size is not None or spec.size_eos or spec.term is not None:
        raw = Case(FieldSpec(name=spec.name, kind="bytes", np="|u1", size=spec.size, size_eos=spec.size_eos,
                             term=spec.term, consume=spec.consume, include=spec.include, eos_error=spec.eos_error,
                             pad=spec.pad, process=spec.process), None)
    return FieldPlan(a, spec, i, None, tuple(cases), default, raw)


def plan(t: TypeDef) -> TypePlan:
    hit = _PLANS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    seq = tuple(_field(a, t, i) for i, a in enumerate(t.seq))
    inst = {a.id: _field(a, t, i) for i, a in enumerate(t.instances) if a.kind != "value"}
    vals = {a.id: a for a in t.instances if a.kind == "value"}
    by_id = {f.attr.id: f for f in seq}
    p = TypePlan(t, seq, inst, vals, tuple(x.id for x in t.params), by_id)
    _PLANS[id(t)] = (t, p)
    return p


def is_number(spec: FieldSpec) -> bool:
    return spec.kind in ("prim", "bits")


__all__ = ["Case", "FieldPlan", "TypePlan", "is_number", "plan"]
