"""numpy backend: schema model → field specs, static layouts and structured dtypes.

A type whose sizes and counts depend only on constants (or on its params) has a `StaticLayout`
and a structured `np.dtype` with explicit offsets and itemsize (arrays as sub-array fields), so a
record read is one `np.ndarray` over the caller's buffer. Other types are walked lazily by the
accessor runtime using the same field specs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.buffers import view
from ...core.errors import FormatError
from ..runtime import FieldSpec, StaticLayout, ValidSpec, record_dtype, static_eval, static_layout
from .. import expr as ex
from ..expr import Expr
from ..expr.trees import MAX_DEPTH, depth
from .classnames import camel as camel, class_name as class_name, enum_class_name as enum_class_name
from .classnames import ref_name as ref_name, root_class_name as root_class_name
from ..schema.model import Attr, TypeDef, TypeRef, Valid, bits_type


def _is_node(e: Any) -> bool:
    return isinstance(e, tuple) and bool(e) and isinstance(e[0], str)


def resolve_enums(e: Expr | None, t: TypeDef) -> Expr | None:
    """Replace enum literals (`kinds::a`) by their numbers and names of constant value instances
    (`max_alg_in_bufs: {value: 32}`) by their values, so sizes fold to constants."""
    if e is None:
        return None
    if e[0] == "enum":
        enum = t.resolve_enum(e[1])
        memo = _memo(t, "enums")
        if id(enum) not in memo:
            memo[id(enum)] = (enum, {m: k for k, m in enum.members.items()})
        return ("num", memo[id(enum)][1][e[2]])
    if e[0] == "name":
        inlined = _inlined(t, e[1])
        return e if inlined is None else inlined
    parts: list[Any] = []
    for p in e[1:]:
        if _is_node(p):
            parts.append(resolve_enums(p, t))
        elif isinstance(p, tuple):
            parts.append(tuple(resolve_enums(x, t) for x in p))
        else:
            parts.append(p)
    out = (e[0], *parts)
    return _fold(out) or out


def _value_instance(t: TypeDef, name: str) -> Attr | None:
    a = t.attr(name)
    ok = a is not None and a.kind == "value" and a.cond is None and a.value is not None and a.enum is None
    return a if ok else None


_INLINED_NODES = 256  # a params-only value larger than this stays a name (a chain of them would grow without bound)


def _inlined(t: TypeDef, name: str) -> Expr | None:
    """What a value instance `name` of `t` stands for in sizes and counts: the constant it folds to, or
    its expression when that reads params only (so layouts stay static); None to keep the name. Worked
    out once per instance, the instances it names first (a walk, no recursion): a chain of instances
    that each name the one before twice costs as many steps as it has instances."""
    memo = _memo(t, "inlined")
    if name in memo:
        return memo[name]  # type: ignore[no-any-return]
    order: list[str] = []
    seen: set[str] = set()
    todo: list[tuple[str, bool]] = [(name, False)]
    while todo:
        n, after = todo.pop()
        if after:
            order.append(n)
            continue
        if n in memo or n in seen:
            continue
        seen.add(n)
        inst = _value_instance(t, n)
        if inst is None:
            memo[n] = None
            continue
        todo.append((n, True))
        todo += [(d, False) for d in sorted(ex.names(inst.value or ("num", 0))) if d not in memo and d not in seen]
    params = {p.id for p in t.params}
    for n in order:  # each instance after those it names: resolving its value finds them in the memo
        inst = _value_instance(t, n)
        assert inst is not None and inst.value is not None
        memo[n] = None  # (an instance that names itself, through others, stays a name)
        inner = resolve_enums(inst.value, t)
        assert inner is not None
        folded = _fold(inner)
        if folded is not None:
            memo[n] = folded
        elif ex.names(inner) <= params and len(ex.nodes(inner)) <= _INLINED_NODES and \
                depth(inner) <= MAX_DEPTH:
            memo[n] = inner  # a value over params only: inlined, so layouts stay static
    return memo.get(name)


def _fold(e: Expr | None) -> Expr | None:
    """A constant node if `e` reads no names and gives a number or text, else None."""
    if e is None or ex.names(e) or any(n[0] in ("enum", "sizeof", "bitsizeof") for n in ex.nodes(e)):
        return None
    try:
        v = ex.evaluate(e, None)  # type: ignore[arg-type]
    except Exception:
        return None
    if isinstance(v, str):
        return ("str", v)
    return ("num", v) if isinstance(v, (int, float)) else None


def _size(e: Expr | None, t: TypeDef) -> int | Expr | None:
    e = resolve_enums(e, t)
    if e is not None and e[0] == "num" and type(e[1]) is int:
        return int(e[1])
    return e


def _valid(v: Valid | None, a: Attr, t: TypeDef) -> ValidSpec | None:
    if v is None:
        return None
    members = tuple(sorted(t.resolve_enum(a.enum).members)) if v.in_enum and a.enum else None
    return ValidSpec(
        eq=resolve_enums(v.eq, t), min=resolve_enums(v.min, t), max=resolve_enums(v.max, t),
        any_of=tuple(resolve_enums(x, t) for x in v.any_of) if v.any_of else None,  # type: ignore[misc]
        in_enum=members, expr=resolve_enums(v.expr, t))


def _key(k: Expr | None, t: TypeDef) -> Any:
    """A switch case key: the constant it is, or ("expr", AST) when it reads something."""
    r = resolve_enums(k, t)
    assert r is not None
    if r[0] in ("num", "str"):
        return r[1]
    if not ex.names(r) and not any(n[0] == "enum" for n in ex.nodes(r)):
        try:
            return ex.evaluate(r, None)  # type: ignore[arg-type]  # a constant: a byte array literal
        except Exception:
            pass
    return ("expr", r)


def _element(a: Attr, t: TypeDef, kind: str, ref: TypeRef | None, common: dict[str, Any]) -> FieldSpec:
    """The spec of a field (or of one switch case: `kind`/`ref` name the case's type)."""
    def rx(e: Expr | None) -> Any:
        return resolve_enums(e, t)

    raw: dict[str, Any] = dict(size=_size(a.size, t), size_eos=a.size_eos, term=a.terminator, consume=a.consume,
                               include=a.include, eos_error=a.eos_error, pad=a.pad_right,
                               process=(a.process.name, tuple(rx(x) for x in a.process.args)) if a.process else None)
    if kind in ("prim", "bits") or (ref is not None and (bits_type(ref.name) or _prim(ref.name, t))):
        name = ref.name if ref is not None else None
        prim = a.prim if name is None else _prim(name, t)
        if prim is not None:
            return FieldSpec(kind="prim", np=prim.numpy, fmt=prim.struct, size=prim.size, enum=a.enum,
                             display=a.display, calc_endian=prim.endian == "calc", **common)
        bits = (a.bits, a.bit_endian) if name is None else bits_type(name)
        assert bits is not None
        width, order = bits
        return FieldSpec(kind="bits", bits=width, bit_le=(order or t.inherited("bit_endian") or "be") == "le",
                         enum=a.enum, **common)
    if kind == "str" or (ref is not None and ref.name in ("str", "strz")):
        term = raw["term"]
        if ref is not None and ref.name == "strz" and term is None:
            term = b"\0" * (4 if "32" in (a.encoding or "") else 2 if "16" in (a.encoding or "") else 1)
        raw["term"] = term
        size = raw["size"]
        np_type = f"S{size}" if isinstance(size, int) and not raw["size_eos"] else None
        return FieldSpec(kind="str", np=np_type, encoding=a.encoding or t.inherited("encoding"),
                         zero_terminated=a.zero_terminated or (ref is not None and ref.name == "strz"),
                         **raw, **common)
    if kind in ("bytes", "contents") or (ref is not None and ref.name == "bytes"):
        if kind == "contents":
            raw["size"] = len(a.contents or b"")
        return FieldSpec(kind="contents" if kind == "contents" else "bytes", np="|u1", contents=a.contents,
                         **raw, **common)
    assert ref is not None
    target = t.resolve_type(ref.name)
    parent = rx(a.parent)
    return FieldSpec(kind="user", user=ref_name(target, t.schema),
                     args=tuple(rx(x) for x in ref.args), parent=parent, **raw, **common)


def user_targets(a: Attr, t: TypeDef) -> list[TypeDef]:
    """The user types field `a` of `t` may hold: its type, or every user type among its switch's cases."""
    refs = [a.user] if a.user is not None else [r for _, r in a.switch.cases] if a.switch is not None else []
    return [t.resolve_type(r.name) for r in refs
            if r.name not in ("str", "strz", "bytes") and not bits_type(r.name) and _prim(r.name, t) is None]


def _prim(name: str, t: TypeDef) -> Any:
    from ..schema.model import primitive
    try:
        return primitive(name, t.inherited("endian"))
    except ValueError:
        return None


def field_spec(a: Attr, t: TypeDef) -> FieldSpec:
    """The runtime spec of one seq field or pos instance."""
    rep = a.repeat or ("expr" if a.count is not None else None)
    common: dict[str, Any] = dict(name=a.id, count=_size(a.count, t), valid=_valid(a.valid, a, t),
                                  pos=resolve_enums(a.pos, t), cond=resolve_enums(a.cond, t), repeat=rep,
                                  until=resolve_enums(a.until, t), io=resolve_enums(a.io, t))
    if a.kind != "switch":
        return _element(a, t, a.kind, a.user, common)
    assert a.switch is not None
    cases = []
    default = None
    inner = dict(name=a.id)
    for key, ref in a.switch.cases:
        kind = "bytes" if ref.name == "bytes" else "str" if ref.name in ("str", "strz") else "user"
        case = _element(a, t, kind if not (bits_type(ref.name) or _prim(ref.name, t)) else "prim", ref, inner)
        if key is None:
            default = case
        else:
            cases.append((_key(key, t), case))
    raw = _element(a, t, "bytes", None, {"name": a.id})
    return FieldSpec(kind="switch", size=raw.size, size_eos=raw.size_eos, term=raw.term, consume=raw.consume,
                     include=raw.include, eos_error=raw.eos_error, pad=raw.pad, process=raw.process,
                     switch_on=resolve_enums(a.switch.on, t), cases=tuple(cases), default=default, **common)


def _memo(t: TypeDef, what: str) -> dict[Any, Any]:
    """A table kept on the type for work done once per type (specs, layouts, dtypes): what a schema
    costs to compile grows with the schema, not with how often its types are named."""
    table: dict[Any, Any] = t.__dict__.setdefault("_nb_" + what, {})
    return table


def field_specs(t: TypeDef) -> tuple[FieldSpec, ...]:
    memo = _memo(t, "specs")
    if len(t.seq) not in memo:
        memo[len(t.seq)] = tuple(field_spec(a, t) for a in t.seq)
    out: tuple[FieldSpec, ...] = memo[len(t.seq)]
    return out


def instance_specs(t: TypeDef) -> tuple[FieldSpec, ...]:
    return tuple(field_spec(a, t) for a in t.instances if a.kind != "value")


def _namespace(t: TypeDef) -> dict[str, Any]:
    """Names of user types → functions giving their static layout for given params."""
    memo = _memo(t.schema.root, "namespace")
    if "ns" in memo:
        return memo["ns"]  # type: ignore[no-any-return]
    ns: dict[str, Any] = {}
    memo["ns"] = ns
    roots = [t.schema.root] + [s.root for s in t.schema.all_imports()]
    for root in roots:
        for sub in root.all_types():
            ns[ref_name(sub, t.schema)] = _layout_fn(sub)
    return ns


def _layout_fn(t: TypeDef) -> Any:
    return lambda *args: type_layout(t, dict(zip([p.id for p in t.params], args)))


_LAYING: set[int] = set()  # types whose layout is being worked out (a type that holds itself has none)
_CYCLES = [0]


def type_layout(t: TypeDef, params: dict[str, Any] | None = None) -> StaticLayout | None:
    """Static layout of `t` for the given params, or None when it depends on the data."""
    if id(t) in _LAYING:
        _CYCLES[0] += 1  # what depends on this is not kept (worked out again outside the circle)
        return None
    key = _params_key(params)
    memo = _memo(t, "layouts")
    if key is not None and key in memo:
        return memo[key]  # type: ignore[no-any-return]
    _LAYING.add(id(t))
    before = _CYCLES[0]
    try:
        lay = static_layout(field_specs(t), params or {}, _namespace(t))
    finally:
        _LAYING.discard(id(t))
    if key is not None and _CYCLES[0] == before:  # worked out whole (not through a type that holds itself)
        memo[key] = lay
    return lay


def _params_key(params: dict[str, Any] | None) -> Any:
    try:
        key = tuple(sorted((params or {}).items()))
        hash(key)
    except TypeError:
        return None
    return key


def type_dtype(t: TypeDef, params: dict[str, Any] | None = None) -> np.dtype[Any] | None:
    """Structured dtype of a fixed-size type (explicit offsets and itemsize), else None."""
    params = params or {}
    key = _params_key(params)
    memo = _memo(t, "dtypes")
    if key is not None and key in memo:
        return memo[key]  # type: ignore[no-any-return]
    lay = type_layout(t, params)
    if lay is None:
        return None
    ns: dict[str, Any] = {}
    for f, a in zip(field_specs(t), t.seq):
        if f.kind == "user" and f.size is None and a.user is not None:
            sub = t.resolve_type(a.user.name)
            args = {p.id: static_eval(x, params) for p, x in zip(sub.params, f.args)}
            ns[f.user or ""] = type_dtype(sub, args)
    dt = record_dtype(field_specs(t), lay, params, ns)
    if key is not None:
        memo[key] = dt
    return dt


def read_record(t: TypeDef, buf: Any, offset: int = 0, params: dict[str, Any] | None = None) -> np.ndarray:
    """The record at `offset` as a 0-d structured array view (fixed-size types only)."""
    dt = type_dtype(t, params)
    if dt is None:
        raise FormatError("type has no fixed size", path=t.path)
    return view(buf, dt, offset, ())
