"""The writer's checks (Kaitai's `_check`) and its messages: values a type does not have, `valid`,
a size or count that no longer fits its value (set to fit, or refused: `fixes`), checks that wait
for a stream's end, and the `ConsistencyError`s that name the field. A mixin of `Writer`."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING, Any

from ..expr import values as kv
from ..schema.model import Attr
from . import frame as fr
from .fixes import ConsistencyError, Refit, show, solve
from .plan import FieldPlan
from .records import WRec, attr_of, plain_of, same
from .stream import WStream

REST = ("bin", "-", ("attr", ("name", "_io"), "size"), ("attr", ("name", "_io"), "pos"))  # size-eos's size


class Checks:
    """Checks and errors of the writer (see the module doc)."""

    if TYPE_CHECKING:
        file: str | None
        original: Any
        fixed: dict[tuple[int, str], int]
        gen: int

    def known_keys(self, rec: WRec) -> None:
        """Values may name the seq fields, and instances read at a position; nothing else."""
        p = rec.plan
        extra = [k for k in rec.values if k not in p.by_id and k not in p.instances]
        if not extra:
            return
        name = extra[0]
        if name in p.values:
            raise self.consistency(rec, p.values[name], "is a value instance, worked out from the fields: it is "
                                   "never written", hint="set the fields it is computed from instead")
        known = [*p.by_id, *p.instances]
        close = difflib.get_close_matches(name, known, n=1)
        raise ConsistencyError(f"the values name {name!r}, which {rec.t.path} does not have", file=self.file,
                               path=rec.path, expected=known, hint=f"did you mean {close[0]!r}?" if close else None)

    def valid(self, rec: WRec, fp: FieldPlan, k: int | None, x: Any, at: int) -> None:
        v = fp.spec.valid
        assert v is not None
        ok = True
        if v.expr is not None:
            ok = bool(kv.py(rec.eval(v.expr, at, k, x)))
        if ok and v.eq is not None:
            ok = kv.eq(x, rec.eval(v.eq, at, k))
        if ok and v.min is not None:
            ok = not kv.lt(x, rec.eval(v.min, at, k))
        if ok and v.max is not None:
            ok = not kv.gt(x, rec.eval(v.max, at, k))
        if ok and v.any_of is not None:
            ok = any(kv.eq(x, rec.eval(e, at, k)) for e in v.any_of)
        if ok and v.in_enum is not None:
            ok = int(kv.py(x)) in v.in_enum
        if not ok:
            raise self.consistency(rec, fp.attr, "breaks its `valid` rule", key="valid", found=short(x),
                                   index=k)

    def mismatch(self, rec: WRec, e: Any, actual: int, claimed: int, fp: FieldPlan, key: str, at: int,
                 k: int | None, what: str) -> None:
        """A value that does not have the size or count its expression gives: set the length it reads
        (then `Refit`), or refuse naming both."""
        hit = solve(rec, e, actual, at, k)
        expr = "size-eos: the rest of its stream" if e is REST else show(
            getattr(fp.attr, "count" if key == "repeat-expr" else "size") or e)
        said = f"{what}, but its {key} ({expr}) gives {claimed}"
        if hit is None:
            raise self.consistency(rec, fp.attr, said, key=key, index=k,
                                   hint=f"change the values {expr} is computed from so that it gives {actual}")
        owner, name, value = hit
        if not self.free(owner, name):
            raise self.consistency(rec, fp.attr, said, key=key, index=k,
                                   hint=f"set {owner.path}.{name} to {value} as well (it was set to "
                                        f"{owner.values.get(name)!r}), or leave it as the file has it: it then follows")
        prev = self.fixed.get((id(owner), name))
        if prev is not None and prev != value:
            raise self.consistency(rec, fp.attr, f"{said}; {owner.path}.{name} is also the length of a value of "
                                   f"{prev}", key=key, index=k)
        ofp = owner.plan.by_id[name]
        try:
            fr.number(ofp.spec, value, None) if ofp.spec.kind == "prim" else None
            lo, hi = fr.int_range(ofp.spec)
            if not lo <= value <= hi:
                raise fr.Refused("")
        except fr.Refused:
            raise self.consistency(rec, fp.attr, f"{what}: {owner.path}.{name} would be {value}, which its type "
                                   f"({ofp.attr.prim.name if ofp.attr.prim else 'b' + str(ofp.spec.bits)}) cannot hold",
                                   key=key, index=k) from None
        self.fixed[(id(owner), name)] = value
        owner.values[name] = value
        self.gen += 1
        raise Refit(owner)

    def free(self, owner: WRec, name: str) -> bool:
        """Whether a length may be set to follow a value: the caller did not set it themselves."""
        if (id(owner), name) in self.fixed or self.original is None or owner.orig is None:
            return True
        return same(owner.values.get(name), plain_of(attr_of(owner.orig, name)))

    def defer(self, io: WStream, at: int, ok: Any, rec: WRec, a: Attr, said: str) -> None:
        def check() -> None:
            if not ok():
                raise self.consistency(rec, a, said)
        io.deferred.append((at, check))

    def claim_eos(self, rec: WRec, a: Attr, io: WStream) -> None:
        end = io.tell()
        io.eos_claims += 1
        self.defer(io, end, lambda: end == io.known_size(), rec, a,
                   "is read to the end of its stream, but more is written after it")

    def consistency(self, rec: WRec, a: Attr | None, message: str, *, key: str | None = None, found: Any = None,
                    hint: str | None = None, index: int | None = None) -> ConsistencyError:
        path = rec.path + (f".{a.id}" if a is not None else "") + (f"[{index}]" if index is not None else "")
        return ConsistencyError(message, file=self.file, path=path, found=found, hint=hint)

    def no_value(self, rec: WRec, a: Attr) -> ConsistencyError:
        return self.consistency(rec, a, "has no value", hint=f"give {a.id} in the values of {rec.path}")

    def no_instance(self, rec: WRec, a: Attr) -> ConsistencyError:
        return self.consistency(rec, a, "is an instance read at a position, which an expression needs: give its value",
                                hint="or build with original=PARSED, the file the values were read from")

    def bad_value(self, rec: WRec, a: Attr, k: int | None, v: Any, expected: str) -> ConsistencyError:
        path = f"{rec.path}.{a.id}" + (f"[{k}]" if k is not None else "")
        return ConsistencyError("the value does not fit the field", file=self.file, path=path,
                                expected=expected, found=None if v is None else short(v))


def short(v: Any) -> str:
    text = repr(kv.plain(v)) if not isinstance(v, dict) else "{" + ", ".join(list(v)[:6]) + (", …}" if len(v) > 6 else "}")
    return text if len(text) <= 80 else text[:77] + "..."


__all__ = ["REST", "Checks", "short"]
