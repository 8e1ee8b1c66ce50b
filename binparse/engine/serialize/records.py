"""A record being written (`WRec`) and what its expressions see (`Scope`): Kaitai's names over
plain values instead of bytes.

A record's values are a plain dict (what `to_dict()` gives: numbers, strings, bytes, lists, dicts),
its params evaluated from the record that holds it. Expressions (`size`, `repeat-expr`, `if`,
`switch-on`, `valid`, value instances, params) are evaluated by the engine's one expression
evaluator (`binparse.engine.expr.evaluate`), with this scope: the record's fields, params and
instances, `_parent`, `_root`, `_index`, `_` and `_io` (the stream being written, at the position
of the expression). A value instance is worked out from the values, never taken from them; an
instance read at a position (`pos:`) comes from the values when they give it, else from the
original file the values were read from.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from keyword import iskeyword
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from ...core.errors import BinparseError
from .. import expr as ex
from ..backends.numpy_backend import resolve_enums
from .plan import Case, FieldPlan, TypePlan, plan
from .stream import IoView, WStream

if TYPE_CHECKING:
    from ..schema.model import Attr, Schema, TypeDef

NO = object()  # no `_` (the element just written) in this scope


class Host(Protocol):
    """What a record being written asks of the writer (`Writer`): evaluating, values, errors."""

    schema: Schema
    gen: int  # bumped when a value changes: value instances are worked out again
    taken: set[tuple[int, str]]

    def evaluate(self, e: Any, scope: Scope, rec: WRec) -> Any: ...
    def coerce(self, rec: WRec, fp: FieldPlan, spec: Any, v: Any, k: int | None) -> Any: ...
    def orig_kid(self, rec: WRec, fp: FieldPlan, k: int | None, case: Case) -> Any: ...
    def dry_size(self, rec: WRec) -> int: ...
    def claim_eos(self, rec: WRec, a: Attr, io: WStream) -> None: ...
    def consistency(self, rec: WRec, a: Attr | None, message: str, *, key: str | None = None, found: Any = None,
                    hint: str | None = None, index: int | None = None) -> BinparseError: ...
    def no_value(self, rec: WRec, a: Attr) -> BinparseError: ...
    def no_instance(self, rec: WRec, a: Attr) -> BinparseError: ...
    def bad_value(self, rec: WRec, a: Attr, k: int | None, v: Any, expected: str) -> BinparseError: ...


def plain_of(v: Any) -> Any:
    """A value the original accessor gives, as plain values (records as dicts), or NO when it cannot be read."""
    from ..runtime.whole import to_plain
    try:
        return to_plain(v)
    except BinparseError:
        return NO


class WRec:
    """One record being written: its type, values, params, where it stands in the tree and in its
    stream, and its counterpart in the original file (an accessor, or None)."""

    __slots__ = ("w", "plan", "values", "params", "parent", "up", "root", "orig", "index", "path", "io",
                 "start", "end", "kids", "inst", "le", "partial")

    def __init__(self, w: Host, t: TypeDef, values: dict[str, Any], params: dict[str, Any],
                 up: WRec | None, orig: Any, index: int | None, path: str, parent: Any = NO) -> None:
        self.w = w
        self.plan: TypePlan = plan(t)
        self.values = values
        self.params = params
        self.up = up  # the record that holds this one (who writes it)
        self.parent = up if parent is NO else parent  # `_parent` (`parent:` may say otherwise)
        self.root: Any = self if up is None else up.root
        if up is not None and t.schema is not up.t.schema:  # a type of another schema, as Kaitai has it:
            self.root = self if t is t.schema.root else None  # its own root if it is that schema's root
            self.parent = None if parent is NO else parent  # type, and no parent
        self.orig = orig
        self.index = index
        self.path = path
        self.io: WStream | None = None
        self.start = 0
        self.end: int | None = None
        self.kids: dict[tuple[str, int | None], WRec] = {}
        self.inst: dict[str, tuple[int, Any]] = {}
        self.le: bool | None = None
        self.partial: dict[str, int] = {}  # a repeat being written: how many of its elements exist yet

    @property
    def t(self) -> TypeDef:
        return self.plan.t

    def holds(self, other: WRec) -> bool:
        """Whether `other` is this record or one inside it."""
        r: WRec | None = other
        while r is not None:
            if r is self:
                return True
            r = r.up
        return False

    # -- what expressions ask ------------------------------------------------------------------------
    def _ks_member(self, name: str) -> Any:
        """`rec.name` in an expression (`binparse.engine.expr.values.member`, the one whitelist dispatch):
        Kaitai's `_io`, `_sizeof`, `_parent`, `_root`, or a declared field, param or instance (`get`)."""
        if name == "_io":
            return self.io_view(self.end)
        if name == "_sizeof":
            return self.sizeof()
        if name == "_parent":
            return self.parent
        if name == "_root":
            return self.root
        return self.get(name)

    def get(self, name: str) -> Any:
        fp = self.plan.by_id.get(name)
        if fp is not None:
            return self.field_value(fp)
        if name in self.params:
            return self.params[name]
        a = self.plan.values.get(name)
        if a is not None:
            return self.value_instance(a)
        ip = self.plan.instances.get(name)
        if ip is not None:
            return self.pos_instance(ip)
        raise AttributeError(f"{self.t.path} has no field, param or instance {name!r}")

    def field_value(self, fp: FieldPlan) -> Any:
        v = self.values.get(fp.attr.id, NO)
        if v is NO:
            raise self.w.no_value(self, fp.attr)
        n = self.partial.get(fp.attr.id)
        if n is not None and v is not None:
            return Seen(self, fp, v, n)
        return self.seen(fp, v)

    def seen(self, fp: FieldPlan, v: Any) -> Any:
        """A value as expressions see it: records as `WRec`s, byte arrays as bytes, enum names as numbers."""
        if v is None:
            return None
        if fp.spec.repeated:
            return v if _numeric(v) else Seen(self, fp, v, len(v))
        return self.seen_one(fp, None, v)

    def seen_one(self, fp: FieldPlan, k: int | None, v: Any) -> Any:
        case = fp.one if fp.one is not None else self.case(fp, k, None)
        if case is None:
            return v
        if case.target is not None:
            return self.kid(fp, k, case, v)
        return self.w.coerce(self, fp, case.spec, v, k)

    def case(self, fp: FieldPlan, k: int | None, at: int | None) -> Case | None:
        """The case a switch's `switch-on` picks (the element `k` of a repeat), at position `at`."""
        from ..expr import values as kv
        if fp.one is not None:
            return fp.one
        spec = fp.spec
        assert spec.switch_on is not None
        on = self.eval(spec.switch_on, at, k)
        for key, case in fp.cases:
            want = self.eval(key[1], at, k) if type(key) is tuple and key and key[0] == "expr" else key
            if kv.eq(on, want):
                return case
        return fp.default if fp.default is not None else fp.raw

    def kid(self, fp: FieldPlan, k: int | None, case: Case, v: Any, at: int | None = None) -> WRec:
        """The record element `k` (or the only one) of field `fp`, made once per values dict."""
        key = (fp.attr.id, k)
        hit = self.kids.get(key)
        if hit is not None and hit.values is v and hit.t is case.target:
            return hit
        assert case.target is not None
        if not isinstance(v, dict):
            raise self.w.bad_value(self, fp.attr, k, v, f"a record of type {case.target.name} (a mapping of its fields)")
        params = {p.id: self.eval(a, at, k) for p, a in zip(case.target.params, case.args)}
        parent: Any = NO
        if fp.spec.parent is not None:
            p = self.eval(fp.spec.parent, at, k)
            parent = None if p is False else p
        path = f"{self.path}.{fp.attr.id}" + (f"[{k}]" if k is not None else "")
        rec = WRec(self.w, case.target, v, params, self, self.w.orig_kid(self, fp, k, case), k, path, parent)
        self.kids[key] = rec
        return rec

    def value_instance(self, a: Attr) -> Any:
        hit = self.inst.get(a.id)
        if hit is not None and hit[0] == self.w.gen:
            return hit[1]
        if a.cond is not None and not self.eval(resolve_enums(a.cond, self.t), None):
            value = None
        else:
            assert a.value is not None
            value = self.eval(resolve_enums(a.value, self.t), None)
        self.inst[a.id] = (self.w.gen, value)
        return value

    def pos_instance(self, ip: FieldPlan) -> Any:
        name = ip.attr.id
        if name in self.values:
            return self.seen(ip, self.values[name])
        v = NO if self.orig is None else plain_of(attr_of(self.orig, name))
        if v is NO:
            raise self.w.no_instance(self, ip.attr)
        self.values[name] = v  # kept: the same dict each time (its records are made once)
        self.w.taken.add((id(self), name))
        return self.seen(ip, v)

    def is_le(self) -> bool:
        """The byte order of a record whose `meta/endian` is a switch (or inherits one)."""
        if self.le is None:
            from ..expr import values as kv
            t = self.t
            if t.endian_on is None:
                self.le = self.up.is_le() if self.up is not None else True
            else:
                on = self.eval(resolve_enums(t.endian_on, t), self.start)
                for key, order in t.endian_cases:
                    if key is None or kv.eq(on, self.eval(resolve_enums(key, t), self.start)):
                        self.le = order == "le"
                        break
                else:
                    raise self.w.consistency(self, None, "the byte order switch (meta/endian) has no case for "
                                             f"{on!r}", key="endian")
        return self.le

    def sizeof(self) -> int:
        if self.end is None:
            return self.w.dry_size(self)
        return self.end - self.start

    def io_view(self, at: int | None) -> Any:
        if self.io is None and self.orig is not None:  # a record taken whole from the original
            return self.orig._io
        if self.io is None:
            raise self.w.consistency(self, None, "its _io is asked for before it is written")
        return IoView(self.io, self.io.tell() if at is None else at)

    def eval(self, e: Any, at: int | None, index: int | None = None, elem: Any = NO) -> Any:
        """An expression of this record (an AST with enums resolved, or a constant)."""
        if e is None or type(e) is int:
            return e
        return self.w.evaluate(e, Scope(self, at, index, elem), self)


class Seen(Sequence[Any]):
    """A repeat as expressions see it: its first `n` elements, each made when it is asked for."""

    def __init__(self, rec: WRec, fp: FieldPlan, values: Any, n: int) -> None:
        self.rec, self.fp, self.values, self.n = rec, fp, values, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self.n))]
        if not -self.n <= k < self.n:
            raise IndexError(f"index {k} of a repeat of {self.n} elements")
        k %= self.n
        return self.rec.seen_one(self.fp, k, self.values[k])


def _numeric(v: Any) -> bool:
    return isinstance(v, np.ndarray) and v.dtype != object or isinstance(v, (bytes, bytearray))


def attr_of(obj: Any, name: str) -> Any:
    """`obj.name` of an accessor (a keyword gets its `_`), or NO when it cannot be read."""
    try:
        return getattr(obj, name + "_" if iskeyword(name) else name)
    except (BinparseError, AttributeError):
        return NO


class Scope:
    """Kaitai's names while a record is written (see the module doc)."""

    __slots__ = ("rec", "at", "index", "elem")

    def __init__(self, rec: WRec, at: int | None = None, index: int | None = None, elem: Any = NO) -> None:
        self.rec, self.at, self.index, self.elem = rec, at, index, elem

    def lookup(self, name: str) -> Any:
        r = self.rec
        if name[0] == "_":
            if name == "_root":
                return r.root
            if name == "_parent":
                return r.parent
            if name == "_io":
                return r.io_view(self.at)
            if name == "_index":
                return self.index if self.index is not None else r.index
            if name == "_" and self.elem is not NO:
                return self.elem
            if name == "_is_le":
                return r.is_le()
            if name == "_sizeof":
                return r.sizeof()
        return r.get(name)

    def enum_value(self, enum: str, member: str) -> Any:
        raise ex.ExprError(f"unresolved enum literal {enum}::{member}")


def same(a: Any, b: Any) -> bool:
    """Whether a value equals the original's (numbers, text, byte arrays, arrays, records as dicts)."""
    if a is b:
        return True
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(
            same(a[k], b[k]) for k in a)
    if isinstance(a, IntEnum) or isinstance(b, IntEnum):
        return bool(_num(a) == _num(b))
    ab, bb = _as_bytes(a), _as_bytes(b)
    if ab is not None or bb is not None:
        return ab is not None and bb is not None and ab == bb
    if isinstance(a, (list, tuple, np.ndarray)) or isinstance(b, (list, tuple, np.ndarray)):
        if not isinstance(a, (list, tuple, np.ndarray)) or not isinstance(b, (list, tuple, np.ndarray)):
            return False
        if len(a) != len(b):
            return False
        if isinstance(a, np.ndarray) and a.dtype != object and isinstance(b, np.ndarray) and b.dtype != object:
            return bool(np.array_equal(a, b, equal_nan=a.dtype.kind == "f" and b.dtype.kind == "f"))
        return all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return type(a) is type(b) and bool(a == b) or _num(a) == _num(b) and _num(a) is not NO


def _num(v: Any) -> Any:
    if isinstance(v, np.generic):
        v = v.item()
    return int(v) if isinstance(v, (int, bool)) else v if isinstance(v, float) else NO


def _as_bytes(v: Any) -> bytes | None:
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, np.ndarray) and v.dtype == np.uint8 and v.ndim == 1:
        return v.tobytes()
    return None


__all__ = ["NO", "Scope", "WRec", "attr_of", "plain_of", "same"]
