"""Writing records: each seq field in order, as Kaitai's `_write__seq` does, with `_check`'s rules.

`if` is evaluated where the field stands (a value where it is false, or none where it is true, is
refused), a repeat's count is checked against its `repeat-expr`, `repeat: until` against its
condition (false for every element but the last), `valid` and `contents` against the value, a
switch writes the case its `switch-on` picks. A record with a `size` is written into a substream
of that size (the rest of it zeros, or the original's bytes when editing); a `process`ed one is
written, then processed back. A size or count that no longer fits its value is set to fit where
it can be (`fixes`) and the record holding it is written again; when the values come from a file
(`original`), every field whose value is unchanged is written as the file's own bytes.
"""

from __future__ import annotations

from typing import Any

from ...core import budget
from ...core.errors import BinparseError
from .. import expr as ex
from ..expr import values as kv
from ..schema.model import Schema, TypeDef
from . import edit
from . import frame as fr
from .checks import REST, Checks, short
from .fixes import ConsistencyError, Refit, show
from .plan import Case, FieldPlan
from .records import NO, Scope, WRec, attr_of, plain_of, same
from .stream import SizeNotYet, WStream

REFITS = 10_000  # records written again for lengths that followed their values, at most


class Writer(Checks):
    def __init__(self, schema: Schema, file: str | None = None, original: Any = None) -> None:
        self.schema, self.file, self.original = schema, file, original
        self.gen = 0  # bumped when a value changes: value instances are worked out again
        self.fixed: dict[tuple[int, str], int] = {}
        self.taken: set[tuple[int, str]] = set()  # instances read from the original, not given
        self.refits = 0
        self.sizing: set[int] = set()
        self.notes: dict[str, str] = {}  # what is written other than a file may have had it (no values hold it)

    def stream(self, size: int | None = None) -> WStream:
        io = WStream(size)
        io.notes = self.notes
        return io

    def build(self, values: dict[str, Any], params: dict[str, Any], t: TypeDef | None = None) -> bytes:
        t = t or self.schema.root
        root = WRec(self, t, values, params, None, self.original, None, t.path)
        io = self.stream()
        io.under = edit.under(self.original)
        self.record(root, io)
        if self.original is not None:
            edit.keep_tail(self, root, io)
        return io.finish()

    # -- records -----------------------------------------------------------------------------------
    def record(self, rec: WRec, io: WStream) -> None:
        self.known_keys(rec)
        mark = io.mark()
        while True:
            rec.io, rec.start, rec.end, rec.le = io, io.tell(), None, None
            try:
                for fp in rec.plan.seq:
                    self.field(rec, fp, io)
                rec.end = io.tell()
                self.instances(rec, io)
                return
            except Refit as r:
                if not rec.holds(r.owner):
                    raise
                self.refits += 1
                if self.refits > REFITS:
                    raise self.consistency(rec, None, f"its sizes do not settle after {REFITS:,} rewrites") from None
                io.rewind(mark)

    def field(self, rec: WRec, fp: FieldPlan, io: WStream) -> None:
        a, spec = fp.attr, fp.spec
        v = rec.values.get(a.id, NO)
        if spec.kind == "contents" and v in (NO, None) and not spec.repeated:
            v = spec.contents
        if spec.cond is not None:
            at = io.tell()
            try:
                on = bool(kv.py(rec.eval(spec.cond, at)))
            except SizeNotYet:
                on = v not in (NO, None)
                self.defer(io, at, lambda: bool(kv.py(rec.eval(spec.cond, at))) == on, rec, a,
                           f"its `if` ({show(a.cond)}) gives {not on} once the stream is written")
            if not on:
                if v not in (NO, None):
                    raise self.consistency(rec, a, f"has a value, but its `if` ({show(a.cond)}) is false",
                                           key="if", found=short(v))
                return
        if v is NO:
            raise self.no_value(rec, a)
        if v is None and spec.kind != "switch":  # (a switch with no case for its value reads nothing)
            raise self.consistency(rec, a, "is null, but it is read" + (f" (its `if`, {show(a.cond)}, is true)"
                                                                          if a.cond is not None else ""))
        try:
            if self.original is not None and edit.copy_original(self, rec, fp, v, io):
                return
            if spec.repeated:
                self.repeat(rec, fp, v, io)
            else:
                self.element(rec, fp, None, v, io)
        except SizeNotYet:
            raise self.consistency(rec, a, "needs the size of its stream (_io.size or _io.eof in an expression "
                                   "that decides how it is written), which is known only once the stream is "
                                   "written", hint="binparse writes such a field inside a record with a size") from None

    def repeat(self, rec: WRec, fp: FieldPlan, v: Any, io: WStream) -> None:
        spec = fp.spec
        try:
            n = len(v)
        except TypeError:
            raise self.bad_value(rec, fp.attr, None, v, "a list (the field repeats)") from None
        if spec.count is not None:
            at = io.tell()
            try:
                want = int(rec.eval(spec.count, at))
            except SizeNotYet:
                self.defer(io, at, lambda: int(rec.eval(spec.count, at)) == n, rec, fp.attr,
                           f"its repeat-expr ({show(fp.attr.count)}) does not give {n}")
            else:
                if want != n:
                    self.mismatch(rec, spec.count, n, want, fp, "repeat-expr", at, None, f"has {n} elements")
        if spec.repeat == "until" and n == 0:
            raise self.consistency(rec, fp.attr, "is empty, but `repeat: until` reads at least one element")
        if spec.kind == "prim" and spec.valid is None and not spec.repeat == "until":
            try:
                io.write(fr.numbers(spec, self.nums(rec, spec, v), rec.is_le() if spec.calc_endian else None))
            except fr.Refused as r:
                raise self.bad_value(rec, fp.attr, None, None, str(r)) from None
        else:
            for k in range(n):
                rec.partial[fp.attr.id] = k  # what an expression sees of the repeat: the elements before
                try:
                    self.element(rec, fp, k, v[k], io)
                finally:
                    rec.partial.pop(fp.attr.id, None)
                if spec.repeat == "until":
                    self.until(rec, fp, k, v[k], k == n - 1, io)
        if spec.repeat == "eos":
            self.claim_eos(rec, fp.attr, io)

    def until(self, rec: WRec, fp: FieldPlan, k: int, v: Any, last: bool, io: WStream) -> None:
        """`repeat-until` after element `k`: true for the last element, and for it only."""
        at, elem = io.tell(), rec.seen_one(fp, k, v)
        said = (f"element {k}: its repeat-until ({show(fp.attr.until)}) is {str(not last).lower()}, "
                "but the last element, and only it, must end the repeat")
        try:
            if bool(kv.py(rec.eval(fp.spec.until, at, k, elem))) != last:
                raise self.consistency(rec, fp.attr, said, key="repeat-until")
        except SizeNotYet:
            self.defer(io, at, lambda: bool(kv.py(rec.eval(fp.spec.until, at, k, elem))) == last, rec, fp.attr,
                       said)

    def element(self, rec: WRec, fp: FieldPlan, k: int | None, v: Any, io: WStream) -> None:
        at = io.tell()
        case = rec.case(fp, k, at)
        if case is None:  # a switch with no case for the value and no size: Kaitai reads nothing
            if v is not None:
                raise self.consistency(rec, fp.attr, "has a value, but its switch has no case for "
                                       f"{show(fp.attr.switch.on) if fp.attr.switch else 'it'}")
            return
        spec = case.spec
        try:
            if spec.kind == "prim":
                io.write(fr.number(spec, self.num(rec, spec, v), rec.is_le() if spec.calc_endian else None))
            elif spec.kind == "bits":
                x = self.num(rec, spec, v)
                lo, hi = fr.int_range(spec)
                if not isinstance(x, int) or not lo <= x <= hi:
                    raise fr.Refused(f"an integer {lo}..{hi} (b{spec.bits})")
                io.write_bits(spec.bits, int(x), spec.bit_le)
            elif spec.kind == "contents":
                if fr.raw_bytes(v) != spec.contents:
                    raise fr.Refused(f"its contents {spec.contents!r}")
                io.write(spec.contents or b"")
            elif spec.kind == "user" and spec.size is None and not spec.size_eos and spec.term is None \
                    and spec.process is None:
                self.record(rec.kid(fp, k, case, v, at), io)
            else:
                self.framed(rec, fp, case, k, v, io)
        except fr.Refused as r:
            raise self.bad_value(rec, fp.attr, k, v, str(r)) from None
        if fp.spec.valid is not None:
            self.valid(rec, fp, k, rec.seen_one(fp, k, v), at)

    def framed(self, rec: WRec, fp: FieldPlan, case: Case, k: int | None, v: Any, io: WStream) -> None:
        """A byte array, text or record with a size, a terminator, size-eos or process."""
        spec, at = case.spec, io.tell()
        spec_size = spec.size
        size: int | None = None
        pending = False
        if spec.size is not None:
            try:
                size = int(rec.eval(spec.size, at, k))
            except SizeNotYet:
                pending = True
            if size is not None and size < 0:
                raise self.consistency(rec, fp.attr, f"its size ({show(fp.attr.size)}) is negative: {size}")
        elif spec.size_eos and io.size is not None:  # the rest of a stream whose size is known
            size = io.size - at
            spec_size = REST
        if case.target is not None:
            same_size = spec.process is None or spec.process[0] != "zlib"
            exact = size if same_size and spec.term is None and spec.pad is None else None
            sub = self.stream(exact)
            if exact is not None and spec.size is not None:
                sub.origin = (rec, spec.size, at, k)
            kid = rec.kid(fp, k, case, v, at)
            sub.under = edit.under(kid.orig)
            self.record(kid, sub)
            sub.align()
            if exact is not None and len(sub.buf) != exact:
                if len(sub.buf) > exact or sub.eos_claims or sub.eof_asked:
                    self.mismatch(rec, spec_size, len(sub.buf), exact, fp, "size", at, k, f"is {len(sub.buf)} bytes")
                sub.pos = len(sub.buf)
                fill = edit.gap(kid, len(sub.buf), exact)
                if fill is None:
                    self.notes.setdefault("gap", f"{kid.path}: the bytes of a record with a size after its last field "
                                                 "are written as zeros")
                sub.pad_to(exact, fill, f"the unused bytes of {kid.path}")
            data = sub.finish()
        elif spec.kind == "str":
            data = fr.text(spec, v)
        else:
            data = fr.raw_bytes(v)
        if spec.process is not None:  # its arguments as the reader sees them: once the bytes are read
            name, args = spec.process
            if name == "zlib":
                self.notes.setdefault("zlib", f"{rec.path}.{fp.attr.id}: zlib data is compressed again (the same "
                                              "values, other compressed bytes than a file may have)")
            after = at + size if size is not None else at + len(data)
            data = fr.unprocess(name, [rec.eval(x, after, k) for x in args], data)
        if size is not None:
            fits = len(data) <= size if spec.term is not None or spec.pad is not None else len(data) == size
            if not fits:
                self.mismatch(rec, spec_size, len(data), size, fp, "size", at, k, f"is {len(data)} bytes")
        room = io.size is None or io.tell() + len(data) < io.size
        if size is not None and size > len(data):  # padding as long as an expression says: asked first
            budget.ask(size - len(data), f"the padding of {rec.path}.{fp.attr.id} ({size:,} bytes)", file=self.file,
                       path=f"{rec.path}.{fp.attr.id}")
        filler = edit.filler(rec, fp, k) if self.original is not None else None
        if size is not None and len(data) < size and filler is None and spec.term is not None:
            self.notes.setdefault("fill", f"{rec.path}.{fp.attr.id}: the bytes after a value's terminator, up to its "
                                          "size, are written as Kaitai writes them (pad bytes, or zeros)")
        out, back = fr.frame(spec, data, size, spec.size_eos, room, filler)
        if pending:
            n = len(out)
            self.defer(io, at, lambda: int(rec.eval(spec.size, at, k)) == n, rec, fp.attr,
                       f"its size ({show(fp.attr.size)}) does not give its {n} bytes")
        io.write(out)
        io.pos -= back
        if spec.size_eos:
            self.claim_eos(rec, fp.attr, io)

    def instances(self, rec: WRec, io: WStream) -> None:
        """Instances read at a position whose values the caller gave (or changed): written there."""
        for name, ip in rec.plan.instances.items():
            if name not in rec.values or (id(rec), name) in self.taken:
                continue
            v = rec.values[name]
            if rec.orig is not None and same(v, plain_of(attr_of(rec.orig, name))):
                continue
            at = rec.end
            if ip.spec.cond is not None and not kv.py(rec.eval(ip.spec.cond, at)):
                if v is not None:
                    raise self.consistency(rec, ip.attr, "has a value, but its `if` is false", key="if")
                continue
            target = io
            if ip.spec.io is not None:
                target = rec.eval(ip.spec.io, at).stream
            pos = int(rec.eval(ip.spec.pos, at)) if ip.spec.pos is not None else target.tell()
            scratch = self.stream()
            if ip.spec.repeated:
                self.repeat(rec, ip, v, scratch)
            else:
                self.element(rec, ip, None, v, scratch)
            target.patches.append((pos, scratch.finish()))

    def dry_size(self, rec: WRec) -> int:
        """`_sizeof` of a record not written yet: it is written aside to measure it."""
        if id(rec) in self.sizing:
            raise self.consistency(rec, None, "its _sizeof depends on itself")
        self.sizing.add(id(rec))
        try:
            scratch = self.stream()
            self.record(rec, scratch)
            return scratch.tell()
        finally:
            self.sizing.discard(id(rec))

    # -- values ------------------------------------------------------------------------------------
    def num(self, rec: WRec, spec: Any, v: Any) -> Any:
        v = kv.py(v)
        if isinstance(v, str) and spec.enum:
            members = {m: n for n, m in rec.t.resolve_enum(spec.enum).members.items()}
            member = v.rpartition("::")[2]
            if member in members:
                return members[member]
            raise fr.Refused(f"a member of enum {spec.enum} ({', '.join(members)}) or a number, not {v!r}")
        return int(v) if isinstance(v, bool) or (hasattr(v, "__index__") and not isinstance(v, int)) else v

    def nums(self, rec: WRec, spec: Any, v: Any) -> Any:
        if isinstance(v, (list, tuple)) and spec.enum and any(isinstance(x, str) for x in v):
            return [self.num(rec, spec, x) for x in v]
        return v

    def coerce(self, rec: WRec, fp: FieldPlan, spec: Any, v: Any, k: int | None) -> Any:
        """A number, text or byte array as expressions see it."""
        if spec.kind in ("bytes", "contents"):
            try:
                return fr.raw_bytes(v)
            except fr.Refused:
                return v
        if spec.kind in ("prim", "bits"):
            try:
                return self.num(rec, spec, v)
            except fr.Refused:
                return v
        return v

    def evaluate(self, e: Any, scope: Scope, rec: WRec) -> Any:
        try:
            return ex.evaluate(e, scope)
        except (SizeNotYet, Refit, BinparseError):
            raise
        except Exception as exc:  # an expression over values that do not fit it
            raise self.consistency(rec, None, f"cannot evaluate {show(e)}: {exc}") from None

    def orig_kid(self, rec: WRec, fp: FieldPlan, k: int | None, case: Case) -> Any:
        return edit.orig_kid(rec, fp, k, case)


__all__ = ["ConsistencyError", "Writer"]
