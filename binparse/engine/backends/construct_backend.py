"""construct backend: schema model → construct objects that parse and build.

Types of numbers, strings, byte arrays, records, switches and counted repeats work here, fixed-size
or not (counts over earlier fields, switch-on, pos instances, params); what it cannot parse and build
the way Kaitai reads it (bit-sized integers, terminators, size-eos, process, eos and until repeats,
io instances) is a `SchemaError` naming the feature. `build` is how binparse makes fixtures from values. Constant sizes and
counts become plain integers, so schemas without data-dependent sizes also `compile()`.
"""

from __future__ import annotations

from typing import Any

import construct as c

from ...core.errors import FormatError, ValidationError
from .. import expr as ex
from ..schema.model import Attr, Schema, TypeDef, is_builtin
from ..expr.values import KaitaiTypeError
from .numpy_backend import resolve_enums


class _CtxScope:
    """Kaitai names over a construct context (`_parent` is construct's `_`); `x.name` goes through
    `binparse.engine.expr.values.member` (a record here is construct's container: a mapping)."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx

    def lookup(self, name: str) -> Any:
        ctx = self.ctx
        if name[:1] == "_":
            if name == "_parent":
                return ctx.get("_")
            if name == "_root":
                return ctx.get("_root")
            if name == "_io":
                return _Stream(ctx.get("_io"))
            if name == "_index":
                return ctx.get("_index")
            raise KaitaiTypeError(f"{name} is not known when building bytes")
        if name in ctx:
            return ctx[name]
        parent = ctx.get("_")
        if isinstance(parent, _ParamContext) and name in parent.params:
            return parent.params[name]
        params = ctx.get("_params")  # the root type's params: keyword arguments of parse/build
        if isinstance(params, dict) and name in params:
            return params[name]
        raise KaitaiTypeError(f"'{name}' has no value here (give it, or the field it is computed from)")

    def enum_value(self, enum: str, member: str) -> int:
        raise KeyError(f"{enum}::{member}")


class _Stream:
    """`_io` of a construct context: Kaitai's `pos`, `size` and `eof` of the stream being read or written."""

    def __init__(self, stream: Any) -> None:
        self._s = stream

    def pos(self) -> int:
        return int(self._s.tell())

    def size(self) -> int:
        here = self._s.tell()
        end = self._s.seek(0, 2)
        self._s.seek(here)
        return int(end)

    def is_eof(self) -> bool:
        return self.pos() >= self.size()


def _run(e: ex.Expr, ctx: Any) -> Any:
    """`e` evaluated in a construct context; what the expression cannot do is construct's error."""
    try:
        return ex.evaluate(e, _CtxScope(ctx))
    except c.ConstructError:
        raise
    except Exception as exc:  # noqa: BLE001  (an expression over the values: a key missing, a division by zero)
        raise c.ExplicitError(f"cannot evaluate {_shown(e)}: {exc}") from None


def _shown(e: ex.Expr) -> str:
    return "the expression" if len(repr(e)) > 200 else repr(e)


def _fn(e: ex.Expr | None, t: TypeDef) -> Any:
    """An int for a constant expression, else a function of the construct context."""
    e = resolve_enums(e, t)
    assert e is not None
    if e[0] == "num":
        return e[1]
    return lambda ctx: _run(e, ctx)


def _substitute(e: ex.Expr, values: dict[str, int]) -> ex.Expr:
    if e[0] == "name" and e[1] in values:
        return ("num", values[e[1]])
    return tuple(_substitute(p, values) if isinstance(p, tuple) else p for p in e)


def _stream_relative(pos: Any) -> Any:
    """Kaitai's `pos` counts from the start of the current stream (a sized type's substream);
    construct's substreams report offsets in their parent, so add where this one starts."""
    def offset(ctx: Any) -> int:
        base = getattr(ctx.get("_io"), "parent_stream_offset", 0)
        return int(pos(ctx) if callable(pos) else pos) + base
    return offset


def _bounded(count: Any, ctx: Any, name: str) -> int:
    """A repeat count from the data, refused when it exceeds the stream's length in bytes (no
    element is smaller than a byte unless it is empty, and empty ones must not loop unbounded)."""
    stream = ctx.get("_io")
    if ctx.get("_parsing") and stream is not None:
        limit = c.stream_size(stream) if hasattr(c, "stream_size") else len(stream.getvalue())
        if int(count) > limit:
            raise c.ExplicitError(f"{name}: repeat count {count} exceeds the {limit} bytes of data")
    return int(count)


def _string(size: Any, encoding: str, zterm: bool) -> c.Construct:
    def decode(raw: bytes, ctx: Any) -> str:
        try:
            return (raw.split(b"\0", 1)[0] if zterm else raw).decode(encoding)
        except UnicodeDecodeError as exc:
            raise c.StringError(f"text is not valid {encoding}: {exc.reason} at byte {exc.start}") from None

    def encode(text: str, ctx: Any) -> bytes:
        n = size(ctx) if callable(size) else size
        raw = text.encode(encoding)
        if len(raw) > n or (zterm and b"\0" in raw):
            raise c.ExplicitError(f"string {text!r} does not fit {n} bytes")
        return raw.ljust(n, b"\0")

    return c.ExprAdapter(c.Bytes(size), decode, encode)


class _Builder:
    def __init__(self, schema: Schema, instances: bool, checks: bool = True,
                 params: dict[str, int] | None = None) -> None:
        self.schema = schema
        self.params = params or {}  # root params fixed now: they fold into constants
        self.instances = instances  # building writes the seq only: instances are derived data
        self.checks = checks
        self.done: dict[int, c.Construct] = {}
        self.busy: set[int] = set()

    def fn(self, e: ex.Expr | None, t: TypeDef) -> Any:
        """Like `_fn`, with the root type's fixed params substituted first."""
        if t is self.schema.root and self.params and e is not None:
            e = _substitute(resolve_enums(e, t) or e, self.params)
        return _fn(e, t)

    def type(self, t: TypeDef, nested: bool) -> c.Construct:
        key = id(t) * 2 + nested
        if key in self.done:
            return self.done[key]
        if id(t) in self.busy:  # construct's objects are made whole, each type once: one that holds itself cannot be
            from ...core.errors import SchemaError
            raise SchemaError(f"type '{t.path}' holds itself: binparse builds bytes from values (fixtures) for "
                              "schemas without such types; it reads them", file=t.schema.file, line=t.line,
                              path=t.path)
        self.busy.add(id(t))
        # Lazy so types may refer to each other; params become Computed from the caller's args.
        members: list[c.Construct] = []
        for a in t.seq:
            members.append(a.id / self.attr(a, t))
            if a.valid is not None and self.checks:
                members.append(c.Check(self.check(a, t)))
        for a in t.instances if self.instances else ():
            if a.kind == "value":
                members.append(a.id / c.Computed(self.fn(a.value, t)))
            else:
                members.append(a.id / c.Pointer(_stream_relative(self.fn(a.pos, t)), self.attr(a, t)))
        struct = c.Struct(*members)
        self.done[key] = struct
        self.busy.discard(id(t))
        return struct

    def user(self, name: str, args: tuple[ex.Expr, ...], t: TypeDef) -> c.Construct:
        target = t.resolve_type(name)
        inner = self.type(target, True)
        if not target.params:
            return inner
        # The callee's params are evaluated in the caller's context, then visible by name.
        params = [p.id / c.Computed(self.fn(arg, t)) for p, arg in zip(target.params, args)]
        return _WithParams(params, inner)

    def one(self, a: Attr, t: TypeDef) -> c.Construct:
        _buildable(a, t)
        if a.kind == "prim":
            assert a.prim is not None
            return c.FormatField(a.prim.struct[0], a.prim.struct[1])
        if a.kind == "str":
            return _string(self.fn(a.size, t), a.encoding or "ascii", a.zero_terminated)
        if a.kind == "bytes":
            return c.Bytes(self.fn(a.size, t))
        if a.kind == "contents":
            return c.Const(a.contents or b"")
        if a.kind == "user":
            assert a.user is not None
            sub = self.user(a.user.name, a.user.args, t)
            return c.FixedSized(self.fn(a.size, t), sub) if a.size is not None else sub
        assert a.switch is not None
        cases: dict[Any, c.Construct] = {}
        default: c.Construct | None = None
        for key, ref in a.switch.cases:
            sub = self.user(ref.name, ref.args, t)
            if key is None:
                default = sub
            else:
                k = resolve_enums(key, t)
                assert k is not None
                cases[k[1]] = sub
        if default is None:
            default = c.GreedyBytes if a.size is not None else c.Error
        sw = c.Switch(self.fn(a.switch.on, t), cases, default)
        return c.FixedSized(self.fn(a.size, t), sw) if a.size is not None else sw

    def attr(self, a: Attr, t: TypeDef) -> c.Construct:
        one = self.one(a, t)
        if a.count is not None:
            count = self.fn(a.count, t)
            if callable(count):
                one = c.Array(lambda ctx: _bounded(count(ctx), ctx, a.id), one)
            else:
                one = c.Array(count, one)
        if a.cond is not None:
            cond = self.fn(a.cond, t)
            if not callable(cond):
                return one if cond else c.Pass
            return c.If(cond, one)
        return one

    def check(self, a: Attr, t: TypeDef) -> Any:
        v = a.valid
        assert v is not None
        allowed = sorted(t.resolve_enum(a.enum).members) if v.in_enum and a.enum else None

        def ok(ctx: Any) -> bool:
            value = ctx[a.id]
            if value is None:  # absent (`if` false)
                return True
            values = value if isinstance(value, list) else [value]

            def ev(e: ex.Expr | None) -> Any:
                e2 = resolve_enums(e, t)
                return None if e2 is None else _run(e2, ctx)
            for x in values:
                if v.eq is not None and x != ev(v.eq):
                    return False
                if v.min is not None and x < ev(v.min):
                    return False
                if v.max is not None and x > ev(v.max):
                    return False
                if v.any_of is not None and x not in [ev(e) for e in v.any_of]:
                    return False
                if allowed is not None and x not in allowed:
                    return False
            return True
        return ok


def _buildable(a: Attr, t: TypeDef) -> None:
    """Refuse, naming the feature, what this backend cannot parse and build the way Kaitai reads it."""
    feature: str | None = None
    key = ""
    if a.kind == "bits":
        feature, key = "bit-sized integers", "type"
    elif a.prim is not None and a.prim.endian == "calc":
        feature, key = "a byte order decided per record (meta/endian switch)", "type"
    elif a.size_eos:
        feature, key = "size-eos", "size-eos"
    elif a.terminator is not None and not (a.zero_terminated and a.size is not None and a.terminator == b"\0"):
        feature, key = "terminator", "terminator"
    elif a.pad_right is not None:
        feature, key = "pad-right", "pad-right"
    elif a.process is not None:
        feature, key = "process", "process"
    elif a.repeat in ("eos", "until"):
        feature, key = f"repeat: {a.repeat}", "repeat"
    elif a.io is not None:
        feature, key = "instances read from another stream (io)", "io"
    elif a.parent is not None:
        feature, key = "parent", "parent"
    elif a.switch is not None and any(is_builtin(r.name) for _, r in a.switch.cases):
        feature, key = "a switch to a built-in type", "type"
    if feature is not None:
        from ...core.errors import SchemaError
        raise SchemaError(f"{feature}: binparse builds bytes from values (fixtures) for schemas without it; "
                          "it reads it", file=t.schema.file, line=a.key_lines.get(key, a.line), key=key,
                          path=f"{t.path}.{a.id}")


class _WithParams(c.Subconstruct):  # type: ignore[misc]
    """Evaluate a user type's params in the caller's context, then parse/build the type with them."""

    def __init__(self, params: list[c.Construct], subcon: c.Construct) -> None:
        super().__init__(subcon)
        self.params = params

    def _parse(self, stream: Any, context: Any, path: str) -> Any:
        values = {p.name: p.subcon._parse(stream, context, path) for p in self.params}
        obj = self.subcon._parsereport(stream, _ParamContext(context, values), path)
        return obj

    def _build(self, obj: Any, stream: Any, context: Any, path: str) -> Any:
        values = {p.name: p.subcon._parse(stream, context, path) for p in self.params}
        return self.subcon._build(obj, stream, _ParamContext(context, values), path)

    def _sizeof(self, context: Any, path: str) -> int:
        values = {p.name: p.subcon._parse(None, context, path) for p in self.params}
        return int(self.subcon._sizeof(_ParamContext(context, values), path))


class _ParamContext(c.Container):  # type: ignore[misc]
    """The caller's context plus the callee's param values; a Struct inside makes it its parent
    (`_`), so Kaitai's bare param names are looked up here before the struct's own fields."""

    def __init__(self, parent: Any, values: dict[str, Any]) -> None:
        super().__init__(parent)
        self.update(values)
        self.params = values


def construct_for(schema: Schema, type_name: str | None = None, *, instances: bool = True,
                  checks: bool = True, params: dict[str, int] | None = None) -> c.Construct:
    """The construct object of the schema's root type (or of a named type).

    With `instances=False` it holds the seq fields only, which is what `build` needs. With
    `checks=False` it leaves out the `valid` checks (Python functions), so that construct's
    `compile()` accepts it. `params` fixes the root type's params now (so they need not be
    passed to parse/build, and conditions on them compile).
    """
    b = _Builder(schema, instances, checks, params)
    t = schema.root if type_name is None else schema.root.resolve_type(type_name)
    return b.type(t, False)


def parse(schema: Schema, data: bytes, *, file: str | None = None, **params: int) -> Any:
    """Parse `data` with the construct backend; construct's errors become `FormatError`s."""
    try:
        return construct_for(schema).parse(data, **params)
    except c.CheckError as exc:
        raise ValidationError("value breaks the schema's valid rule", file=file,
                              path=getattr(exc, "path", None)) from None
    except c.ConstructError as exc:
        raise FormatError(f"construct could not parse: {exc}", file=file,
                          path=getattr(exc, "path", None)) from None


def build(schema: Schema, values: dict[str, Any], **params: int) -> bytes:
    """Bytes of the root type from plain values (see `plain_defaults` for a complete skeleton)."""
    try:
        return bytes(construct_for(schema, instances=False).build(values, **params))
    except c.ConstructError as exc:
        raise FormatError(f"cannot build {schema.id}: {exc}", path=getattr(exc, "path", None)) from None
    except KeyError as exc:  # a field the values do not give
        raise FormatError(f"cannot build {schema.id}: the values give no {exc.args[0]!r}, which the schema needs",
                          hint="give it in the values") from None
    except (TypeError, ValueError, OverflowError) as exc:  # a value the field's type cannot hold
        raise FormatError(f"cannot build {schema.id}: a value does not fit the schema ({exc})") from None


def to_plain(obj: Any, t: TypeDef) -> Any:
    """Plain values (the same shape as accessor `to_dict`) from a construct parse result."""
    if not isinstance(obj, dict):
        return obj
    out: dict[str, Any] = {}
    for a in t.seq:
        v = obj[a.id]
        out[a.id] = _plain_value(v, a, t)
    return out


def _plain_value(v: Any, a: Attr, t: TypeDef) -> Any:
    if isinstance(v, list):
        return [_plain_value(x, a, t) for x in v]
    if isinstance(v, dict):
        if a.kind == "user" and a.user is not None:
            return to_plain(v, t.resolve_type(a.user.name))
        return {k: x for k, x in v.items() if not k.startswith("_")}
    return v
