"""Cross-reference checks of a loaded schema, and the few rewrites that need the whole schema.

Every type, enum and name an expression uses exists, and every attribute asked of a record is one
that record type has (the type of each expression comes from `types`): what would fail when a
file is read fails when the schema is loaded, as a `SchemaError` naming the file, the line of the
key and the field's schema path. `sizeof<T>`, `bitsizeof<T>` and `x._sizeof` of a value that is
not a record are replaced by the number they stand for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...core.errors import SchemaError
from ..expr import Expr
from .excerpt import did_you_mean
from .model import Attr, Switch, TypeDef, TypeRef, Valid, bits_type, is_builtin, primitive
from .types import INT, BYTES, KType, TypeProblem, Types, builtin_type

SPECIAL_NAMES = {"_root", "_parent", "_index", "_io", "_sizeof", "_is_le"}
Fail = Callable[..., SchemaError]  # (message, key, needle=None): the error


def check_references(root: TypeDef) -> None:
    """Every type, enum and expression name refers to something that exists (seq fields: earlier ones)."""
    types = Types(root)
    for t in root.all_types():
        earlier: set[str] = set()
        for a in t.seq:
            check_attr(types, t, a, earlier)
            earlier.add(a.id)
        everything = {s.id for s in t.seq} | {i.id for i in t.instances}
        for a in t.instances:
            check_attr(types, t, a, everything)
        if t.endian_on is not None:
            fail = _failer(t, None)
            for e in [t.endian_on, *(k for k, _ in t.endian_cases if k is not None)]:
                _check_expr(types, t, e, fail, "endian", {}, everything)
    check_holding_depth(root)


MAX_HOLDING = 64  # types holding one another in their seq, each a different type: Kaitai's gallery goes 9 deep


def check_holding_depth(root: TypeDef) -> None:
    """Refuse types that hold one another (seq fields of user types, each type another) deeper than
    MAX_HOLDING: what works out sizes and layouts walks such a chain, and would otherwise need Python's
    recursion that deep. A type that holds itself is no chain (it is read up to the runtime's depth)."""
    edges: dict[int, list[tuple[Attr, TypeDef]]] = {}
    types = root.all_types()
    for t in types:
        out = edges[id(t)] = []
        for a in t.seq:
            for ref in [a.user] if a.user is not None else [r for _, r in a.switch.cases] if a.switch else []:
                if is_builtin(ref.name):
                    continue
                try:
                    out.append((a, t.resolve_type(ref.name)))
                except KeyError:
                    continue
    depth: dict[int, int] = {}
    on_path: set[int] = set()
    for start in types:
        if id(start) in depth:
            continue
        todo: list[tuple[TypeDef, int]] = [(start, 0)]
        on_path.add(id(start))
        while todo:
            t, k = todo[-1]
            out = [x for x in edges.get(id(t), []) if x[1].schema is root.schema]
            if k < len(out):
                todo[-1] = (t, k + 1)
                a, target = out[k]
                if id(target) not in depth and id(target) not in on_path:
                    on_path.add(id(target))
                    todo.append((target, 0))
                continue
            todo.pop()
            on_path.discard(id(t))
            depth[id(t)] = 1 + max((depth.get(id(x), 0) for _, x in out if id(x) not in on_path), default=0)
            if depth[id(t)] > MAX_HOLDING:
                a = out[0][0]
                raise SchemaError(f"types hold one another more than {MAX_HOLDING} deep (from '{t.path}'): binparse "
                                  "reads no schema whose records nest that deep", file=t.schema.file,
                                  line=a.key_lines.get("type", a.line), key="type", path=f"{t.path}.{a.id}")


def _failer(t: TypeDef, a: Attr | None) -> Fail:
    def fail(msg: str, key: str, needle: str | None = None) -> SchemaError:
        line = a.key_lines.get(key, a.line) if a is not None else t.line
        return SchemaError(msg, file=t.schema.file, line=line, key=key, needle=needle,
                           path=f"{t.path}.{a.id}" if a is not None else t.path)
    return fail


def check_attr(types: Types, t: TypeDef, a: Attr, visible: set[str]) -> None:
    fail = _failer(t, a)
    if a.display not in (None, "hex"):  # `-display: hex` (binparse's custom key) prints an integer in hex
        raise fail("-display takes only 'hex' (print the integer in hexadecimal)", "-display")
    if a.enum is not None:
        try:
            t.resolve_enum(a.enum)
        except KeyError:
            raise fail(f"unknown enum '{a.enum}'{did_you_mean(a.enum, _enum_names(t))}", "enum", a.enum) from None
    refs: list[tuple[TypeRef, str]] = [(a.user, "type")] if a.user is not None else []
    if a.switch is not None:
        refs += [(r, "type") for _, r in a.switch.cases]
    for r, key in refs:
        if is_builtin(r.name):
            continue
        try:
            target = t.resolve_type(r.name)
        except KeyError:
            hint = " (meta/ks-opaque-types: an opaque type binparse is not given)" if t.schema.opaque_types else ""
            raise fail(f"unknown type '{r.name}'{hint}{did_you_mean(r.name, _type_names(t))}", key, r.name) from None
        if len(r.args) != len(target.params):
            raise fail(f"type '{r.name}' takes {len(target.params)} argument(s), got {len(r.args)}", key)
    try:
        element = types.attr_type(t, a, element=True) if a.kind != "value" else INT
    except TypeProblem as exc:
        raise fail(str(exc), "type") from None
    local_until = {"_": element, "_index": INT}
    local_valid = {"_": element}
    _Rewriter(types, t, fail).apply(a)  # `x._sizeof` of a field of fixed size is a number, wherever x is
    own = {a.id} if a.kind == "value" else set()
    for key, get, local in _EXPRS:
        # a field's own id: in its valid rule (it is read), in its repeat's expressions (the elements so far)
        mine = {a.id} if key == "valid" or a.repeat is not None and key in ("type", "size", "if", "repeat-until",
                                                                             "process") else own
        for e in get(a):
            if e is not None:
                _check_expr(types, t, e, fail, key, local_until if key == "repeat-until" else
                            local_valid if key == "valid" else {}, visible, mine)


_EXPRS: list[tuple[str, Callable[[Attr], list[Expr | None]], None]] = [
    ("size", lambda a: [a.size], None), ("repeat-expr", lambda a: [a.count], None),
    ("repeat-until", lambda a: [a.until], None), ("value", lambda a: [a.value], None),
    ("pos", lambda a: [a.pos], None), ("io", lambda a: [a.io], None), ("if", lambda a: [a.cond], None),
    ("parent", lambda a: [a.parent], None),
    ("valid", lambda a: [] if a.valid is None else
     [a.valid.eq, a.valid.min, a.valid.max, a.valid.expr, *(a.valid.any_of or ())], None),
    ("switch-on", lambda a: [a.switch.on] if a.switch else [], None),
    ("type", lambda a: [*(a.user.args if a.user else ()),
                        *(x for k, r in (a.switch.cases if a.switch else ()) for x in (k, *r.args))], None),
    ("process", lambda a: list(a.process.args) if a.process else [], None),
]


def _own_names(t: TypeDef) -> frozenset[str]:
    """The params and instances of `t` (named anywhere in it), made once per type."""
    n = len(t.params) + len(t.instances)
    hit = t.__dict__.get("_own_names")
    if hit is None or hit[0] != n:
        hit = t.__dict__["_own_names"] = (n, frozenset([p.id for p in t.params] + [i.id for i in t.instances]))
    return hit[1]


def _check_expr(types: Types, t: TypeDef, e: Expr, fail: Fail, key: str, local: dict[str, KType],
                visible: set[str], mine: set[str] | frozenset[str] = frozenset()) -> None:
    from ..expr import names
    own = _own_names(t)
    for n in names(e):
        if n not in visible and n not in mine and n not in own and n not in SPECIAL_NAMES and n not in local:
            what = "an earlier field" if t.attr(n) is not None else "a field"
            known = visible | mine | own | set(local)  # (an error's list: made only when one is raised)
            close = did_you_mean(n, known) if t.attr(n) is None else ""
            raise fail(f"expression names '{n}', which is not {what}, param or instance of '{t.path}'{close}", key, n)
    from ..expr import nodes
    for node in nodes(e):
        if node[0] == "enum":
            try:
                members = t.resolve_enum(node[1]).members.values()
            except KeyError:
                raise fail(f"unknown enum '{node[1]}'", key) from None
            if node[2] not in members:
                raise fail(f"enum '{node[1]}' has no member '{node[2]}'{did_you_mean(node[2], members)}", key)
    try:
        types.of(e, t, local)
    except TypeProblem as exc:
        raise fail(str(exc), key) from None
    except KeyError as exc:
        raise fail(f"unknown name {exc}", key) from None


def _type_names(t: TypeDef) -> list[str]:
    """The type names `t` can reach: its own nested types and its enclosing types', and imported roots."""
    out: list[str] = []
    x: TypeDef | None = t
    while x is not None:
        out += list(x.types) + ([x.name] if x.parent is None else [])
        x = x.parent
    return out + [s.root.name for s in t.schema.all_imports()]


def _enum_names(t: TypeDef) -> list[str]:
    out: list[str] = []
    x: TypeDef | None = t
    while x is not None:
        out += list(x.enums)
        x = x.parent
    return out


class _Rewriter:
    """Replaces `sizeof<T>`, `bitsizeof<T>` and `value._sizeof` (of a value that is not a record)
    by the number of bytes or bits they stand for (a `SchemaError` when the size is not fixed)."""

    def __init__(self, types: Types, t: TypeDef, fail: Fail) -> None:
        self.types, self.t, self.fail = types, t, fail

    def expr(self, e: Expr | None) -> Expr | None:
        if e is None:
            return None
        op = e[0]
        if op in ("sizeof", "bitsizeof"):
            bits = type_bits(self.t, e[1])
            if bits is None:
                raise self.fail(f"{op}<{e[1]}>: the type has no fixed size", "type")
            return ("num", bits if op == "bitsizeof" else -(-bits // 8))
        if op == "attr" and e[2] == "_sizeof":
            try:
                base = self.types.of(e[1], self.t)
            except TypeProblem:
                base = ("any",)
            size = self.value_bytes(e[1])
            if size is not None or base[0] not in ("user", "struct", "any"):
                if size is None:
                    raise self.fail(f"{e[1]}._sizeof: the value has no fixed size", "value")
                return ("num", size)
        out = []
        for part in e[1:]:
            if isinstance(part, tuple) and part and isinstance(part[0], str):
                out.append(self.expr(part))
            elif isinstance(part, tuple):
                out.append(tuple(self.expr(p) for p in part))
            else:
                out.append(part)
        return (op, *out)

    def value_bytes(self, e: Expr) -> int | None:
        """Bytes of a named field's value (Kaitai: the size of its type)."""
        owner = self.t
        if e[0] == "attr":
            try:
                base = self.types.of(e[1], self.t)
            except TypeProblem:
                return None
            if base[0] != "user":
                return None
            owner = base[1]
        elif e[0] != "name":
            return None
        a = owner.attr(e[-1])
        if a is None or a.repeat is not None:
            return None
        if a.kind in ("user", "switch") and (a.size is None or a.size[0] != "num"):
            return None  # a record's own size: `_sizeof` of the accessor when read
        bits = attr_bits(owner, a)
        return None if bits is None else -(-bits // 8)

    def must(self, e: Expr) -> Expr:
        out = self.expr(e)
        assert out is not None
        return out

    def apply(self, a: Attr) -> None:
        x, y = self.expr, self.must
        a.size, a.count, a.until, a.value, a.pos, a.io, a.cond, a.parent = (
            x(a.size), x(a.count), x(a.until), x(a.value), x(a.pos), x(a.io), x(a.cond), x(a.parent))
        if a.valid is not None:
            v = a.valid
            a.valid = Valid(x(v.eq), x(v.min), x(v.max), tuple(y(i) for i in v.any_of) if v.any_of else v.any_of,
                            v.in_enum, x(v.expr))
        if a.user is not None:
            a.user = TypeRef(a.user.name, tuple(y(i) for i in a.user.args))
        if a.switch is not None:
            a.switch = Switch(y(a.switch.on), tuple((x(k), TypeRef(r.name, tuple(y(i) for i in r.args)))
                                                    for k, r in a.switch.cases))
        if a.process is not None:
            a.process = replace(a.process, args=tuple(y(i) for i in a.process.args))


def type_bits(t: TypeDef, name: str) -> int | None:
    """Size in bits of a type named in `sizeof<…>` (a number, bits, or a user type of fixed size)."""
    try:
        prim = primitive(name, "le")
    except ValueError:
        prim = None
    if prim is not None:
        return prim.size * 8
    bits = bits_type(name)
    if bits is not None:
        return bits[0]
    try:
        target = t.resolve_type(name)
    except KeyError:
        return None
    return typedef_bits(target)


def typedef_bits(t: TypeDef, busy: frozenset[int] = frozenset()) -> int | None:
    """Bits a type's seq takes when that is fixed (Kaitai's CalculateSeqSizes), else None."""
    if id(t) in busy:
        return None
    total = 0
    for a in t.seq:
        if a.cond is not None:
            return None
        bits = attr_bits(t, a, busy | {id(t)})
        if bits is None:
            return None
        if a.kind != "bits":
            total = -(-total // 8) * 8
        total += bits
    return total


def attr_bits(t: TypeDef, a: Attr, busy: frozenset[int] = frozenset()) -> int | None:
    count = 1
    if a.repeat is not None:
        if a.repeat != "expr" or a.count is None or a.count[0] != "num":
            return None
        count = int(a.count[1])
    if a.kind == "prim" and a.prim is not None:
        return a.prim.size * 8 * count
    if a.kind == "bits":
        return a.bits * count
    if a.kind == "contents" and a.contents is not None:
        return len(a.contents) * 8 * count
    if a.size is not None:
        return int(a.size[1]) * 8 * count if a.size[0] == "num" and type(a.size[1]) is int else None
    if a.kind == "user" and a.user is not None and not a.size_eos and a.terminator is None:
        try:
            sub = typedef_bits(t.resolve_type(a.user.name), busy)
        except KeyError:
            return None
        return None if sub is None else -(-sub // 8) * 8 * count
    return None


__all__ = ["BYTES", "builtin_type", "check_references", "type_bits", "typedef_bits"]
