"""numpy backend: schema model → field specs, static layouts and structured dtypes.

A type whose sizes and counts depend only on constants (or on its params) has a `StaticLayout`
and a structured `np.dtype` with explicit offsets and itemsize (arrays as sub-array fields), so a
record read is one `np.ndarray` over the caller's buffer. Other types are walked lazily by the
accessor runtime using the same field specs.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from ..buffers import view
from ..errors import FormatError
from ..runtime import FieldSpec, StaticLayout, ValidSpec, record_dtype, static_eval, static_layout
from ..schema import expr as ex
from ..schema.expr import Expr
from ..schema.model import Attr, TypeDef, Valid


def camel(name: str) -> str:
    """CamelCase of a Kaitai name, as the Kaitai compiler names classes and enums."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"_+", name) if part)


def class_name(t: TypeDef) -> str:
    """Python class name of a type."""
    return camel(t.name)


def resolve_enums(e: Expr | None, t: TypeDef) -> Expr | None:
    """Replace enum literals (`kinds::a`) by their numbers and names of constant value instances
    (`max_alg_in_bufs: {value: 32}`) by their values, so sizes fold to constants."""
    if e is None:
        return None
    if e[0] == "enum":
        enum = t.resolve_enum(e[1])
        value = {m: k for k, m in enum.members.items()}[e[2]]
        return ("num", value)
    if e[0] == "name":
        inst = next((a for a in t.instances if a.id == e[1] and a.kind == "value"), None)
        if inst is not None and inst.value is not None:
            inner = resolve_enums(inst.value, t)
            assert inner is not None
            folded = _fold(inner)
            if folded is not None:
                return folded
            if ex.names(inner) <= {p.id for p in t.params}:
                return inner  # a value over params only: inline it so layouts stay static
        return e
    return _fold(tuple(resolve_enums(p, t) if isinstance(p, tuple) else p for p in e)) or e


def _fold(e: Expr | None) -> Expr | None:
    """A number node if `e` has no names, else None."""
    if e is None or ex.names(e) or any(n[0] == "enum" for n in _nodes(e)):
        return None
    try:
        return ("num", ex.evaluate(e, None))  # type: ignore[arg-type]
    except Exception:
        return None


def _nodes(e: Expr) -> list[Expr]:
    out = [e]
    for p in e[1:]:
        if isinstance(p, tuple):
            out.extend(_nodes(p))
    return out


def _size(e: Expr | None, t: TypeDef) -> int | Expr | None:
    e = resolve_enums(e, t)
    if e is not None and e[0] == "num" and isinstance(e[1], int):
        return int(e[1])
    return e


def _valid(v: Valid | None, a: Attr, t: TypeDef) -> ValidSpec | None:
    if v is None:
        return None
    members = tuple(sorted(t.resolve_enum(a.enum).members)) if v.in_enum and a.enum else None
    return ValidSpec(
        eq=resolve_enums(v.eq, t), min=resolve_enums(v.min, t), max=resolve_enums(v.max, t),
        any_of=tuple(resolve_enums(x, t) for x in v.any_of) if v.any_of else None,  # type: ignore[misc]
        in_enum=members)


def field_spec(a: Attr, t: TypeDef) -> FieldSpec:
    """The runtime spec of one seq field or pos instance."""
    common: dict[str, Any] = dict(name=a.id, count=_size(a.count, t), valid=_valid(a.valid, a, t),
                                  pos=resolve_enums(a.pos, t), cond=resolve_enums(a.cond, t))
    if a.kind == "prim":
        assert a.prim is not None
        return FieldSpec(kind="prim", np=a.prim.numpy, fmt=a.prim.struct, size=a.prim.size,
                         enum=a.enum, display=a.display, **common)
    if a.kind == "str":
        size = _size(a.size, t)
        np_type = f"S{size}" if isinstance(size, int) else None
        return FieldSpec(kind="str", np=np_type, size=size, encoding=a.encoding,
                         zero_terminated=a.zero_terminated, **common)
    if a.kind in ("bytes", "contents"):
        return FieldSpec(kind=a.kind, np="|u1", size=_size(a.size, t), contents=a.contents, **common)
    if a.kind == "user":
        assert a.user is not None
        target = t.resolve_type(a.user.name)
        return FieldSpec(kind="user", user=class_name(target), size=_size(a.size, t),
                         args=tuple(resolve_enums(x, t) for x in a.user.args), **common)  # type: ignore[misc]
    assert a.switch is not None
    cases = []
    default = None
    for key, ref in a.switch.cases:
        cname = class_name(t.resolve_type(ref.name))
        args = tuple(resolve_enums(x, t) for x in ref.args)
        if key is None:
            default = (cname, args)
        else:
            k = resolve_enums(key, t)
            assert k is not None and k[0] == "num", "switch case keys must be constants"
            cases.append((k[1], cname, args))
    return FieldSpec(kind="switch", size=_size(a.size, t), switch_on=resolve_enums(a.switch.on, t),
                     cases=tuple(cases), default=default, **common)  # type: ignore[arg-type]


def field_specs(t: TypeDef) -> tuple[FieldSpec, ...]:
    return tuple(field_spec(a, t) for a in t.seq)


def instance_specs(t: TypeDef) -> tuple[FieldSpec, ...]:
    return tuple(field_spec(a, t) for a in t.instances if a.kind != "value")


def _namespace(t: TypeDef) -> dict[str, Any]:
    """Names of user types → functions giving their static layout for given params."""
    ns: dict[str, Any] = {}
    roots = [t.schema.root] + [s.root for s in t.schema.all_imports()]
    for root in roots:
        for sub in root.all_types():
            ns[class_name(sub)] = _layout_fn(sub)
    return ns


def _layout_fn(t: TypeDef) -> Any:
    return lambda *args: type_layout(t, dict(zip([p.id for p in t.params], args)))


def type_layout(t: TypeDef, params: dict[str, Any] | None = None) -> StaticLayout | None:
    """Static layout of `t` for the given params, or None when it depends on the data."""
    return static_layout(field_specs(t), params or {}, _namespace(t))


def type_dtype(t: TypeDef, params: dict[str, Any] | None = None) -> np.dtype[Any] | None:
    """Structured dtype of a fixed-size type (explicit offsets and itemsize), else None."""
    params = params or {}
    lay = type_layout(t, params)
    if lay is None:
        return None
    ns: dict[str, Any] = {}
    for f, a in zip(field_specs(t), t.seq):
        if f.kind == "user" and f.size is None and a.user is not None:
            sub = t.resolve_type(a.user.name)
            args = {p.id: static_eval(x, params) for p, x in zip(sub.params, f.args)}
            ns[f.user or ""] = type_dtype(sub, args)
    return record_dtype(field_specs(t), lay, params, ns)


def read_record(t: TypeDef, buf: Any, offset: int = 0, params: dict[str, Any] | None = None) -> np.ndarray:
    """The record at `offset` as a 0-d structured array view (fixed-size types only)."""
    dt = type_dtype(t, params)
    if dt is None:
        raise FormatError("type has no fixed size", path=t.path)
    return view(buf, dt, offset, ())
