"""Where each field of a record lies: Kaitai's reading order, worked out lazily, one field at a time.

A mixin of `Accessor`. Fixed-size types use the offsets computed at generation time; other types
place their fields one after another when a field is first asked for, as Kaitai's generated
code reads them: `if`, sizes, terminators, `size-eos`, the three repeats, bit-sized integers
(the bit state carries from field to field, and into and out of records), switches and
`process`. Every place is checked against the bytes really there; an element that varies in size
gets an item in the field's `Ext` (where its value lies), everything else is `off + k * size`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...core.errors import FormatError
from . import stream as st
from .kept import DATA, resolve
from .repeats import Ext, Repeats, uses
from .specs import ABSENT, VARIES, FieldSpec, StaticLayout, respec

class Locate(Repeats):
    """Locating fields (see the module doc)."""

    __slots__ = ()

    if TYPE_CHECKING:
        _mv: memoryview
        _off: int
        _bit0: Any
        _io_start: int
        _io_end: int
        _file: str | None
        _path: str
        _params: dict[str, Any]
        _cache: dict[Any, Any]
        _ext: dict[int, Ext]
        _DEBUG: ClassVar[bool]
        _IN_ORDER: ClassVar[bool]
        _lay: StaticLayout | list[tuple[int, int | None, int | None]] | None
        _pre: Any
        _FIELDS: ClassVar[tuple[FieldSpec, ...]]
        _INSTANCES: ClassVar[tuple[FieldSpec, ...]]
        _PARAMS: ClassVar[tuple[str, ...]]

        def _eval(self, e: Any) -> Any: ...
        def _param_only(self, e: Any) -> Any: ...
        def _eval_at(self, e: Any, pos: Any, io: Any = None, index: Any = None, elem: Any = ...,
                     own: tuple[str, Any] | None = None) -> Any: ...
        def _int_at(self, e: Any, pos: Any, io: Any, what: str, path: str, index: Any = None) -> int: ...
        def _child_at(self, spec: FieldSpec, pos: Any, index: int | None, io: Any, item: Any) -> Any: ...
        def _args_at(self, args: Any, cls: Any, pos: Any, io: Any, index: int | None = None) -> dict[str, Any]: ...
        def _elem_value(self, spec: FieldSpec, i: int, k: int | None, start: int, item: Any, io: Any,
                        size: int | None = None) -> Any: ...
        def _sharer_end(self) -> Any: ...
        def _prefix(self) -> Any: ...
        def _get(self, i: int) -> Any: ...

    # -- the place of a field ----------------------------------------------------------------------
    def _loc(self, i: int) -> tuple[int, int | None, int | None]:
        """(absolute offset, count or None, element size or None) of field i (seq, then pos instances)."""
        if i >= len(self._FIELDS):
            return self._inst_loc(i)
        lay = self._lay
        if isinstance(lay, StaticLayout):
            return self._off + lay.offsets[i], lay.counts[i], lay.elem_sizes[i]
        assert lay is not None
        entries, end = self._pre if self._pre is not None else self._prefix()
        k = len(entries)
        if i < k:
            o, c, z = entries[i]
            return self._off + o, c, z
        while len(lay) <= i - k:
            j = k + len(lay)
            pos = (self._bit0 if self._bit0 is not None and end == 0 else self._off + end) if j == k \
                else self._end_of(j - 1)
            spec = self._FIELDS[j]
            in_order = self._IN_ORDER  # a user's record: each field checked where Kaitai checks it, before the
            if in_order and j == k:  # fields after it are placed (a bad magic named, not an overrun records later)
                for x in range(k):  # the leading fields placed by params alone: their checks first
                    if self._FIELDS[x].valid is not None or self._FIELDS[x].kind == "contents":
                        self._get(x)
            lay.append(self._place(j, spec, pos, None))
            if in_order and (spec.valid is not None or spec.kind == "contents"):
                self._get(j)
        return lay[i - k]

    def _x(self, i: int) -> Ext | None:
        """Field i's `Ext` (after locating it), or None when its place says everything."""
        self._loc(i)
        return self._ext.get(i) if self._ext else None

    def _end_of(self, i: int) -> st.Pos:
        off, count, size = self._loc(i)
        ext = self._ext.get(i) if self._ext else None
        if ext is not None:
            if ext.end is None:  # a record without a size: its end is where its own seq ends
                spec = self._FIELDS[i] if i < len(self._FIELDS) else self._INSTANCES[i - len(self._FIELDS)]
                item: Any = ext.items[0] if ext.items else off
                case = None
                if spec.kind == "switch":
                    case, item = item
                io = (ext.mv or self._mv, *ext.io) if ext.io is not None else None
                child = self._child_at(case or spec, item, None, io, item)
                if ext.items:
                    ext.items[0] = child if case is None else (case, child)
                ext.end = child._seq_end()
            return ext.end
        if size == ABSENT:
            return off
        assert size is not None and size >= 0
        return off + size * (1 if count is None else count)

    def _seq_end(self) -> st.Pos:
        """The position after this record's seq (bit state included)."""
        lay = self._lay
        if isinstance(lay, StaticLayout):
            return self._off + lay.size
        if not self._FIELDS:
            return self._bit0 if self._bit0 is not None else self._off
        return self._end_of(len(self._FIELDS) - 1)

    def _nbytes_end(self) -> int:
        return st.aligned(self._seq_end()) if not isinstance(self._lay, StaticLayout) else self._off + self._lay.size

    def _inst_loc(self, i: int) -> tuple[int, int | None, int | None]:
        hit = self._cache.get(("loc", i))
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        spec = self._INSTANCES[i - len(self._FIELDS)]
        here = st.current(self._mv, self._io_start, self._io_end)
        if here is None and spec.pos is not None and uses(spec.pos, "_io"):
            self._sharer_end()  # Kaitai reads the seq first: an instance it asks for sees the seq's positions
            hit = self._cache.get(("loc", i))
            if hit is not None:
                return hit  # type: ignore[no-any-return]
        at = here if here is not None else None
        loc: tuple[int, int | None, int | None]
        if spec.cond is not None and not self._eval_at(spec.cond, at):
            loc = (self._io_start, None, ABSENT)
            self._cache[("loc", i)] = loc
            return loc
        io = None
        if spec.io is not None:
            s = self._eval_at(spec.io, at)
            if not isinstance(s, st.KStream):
                raise FormatError("io: does not name a stream", file=self._file, path=f"{self._path}.{spec.name}")
            io = (s.mv, s.start, s.end, at if at is not None else self._sharer_end())
        mv, start, end = io[:3] if io is not None else (self._mv, self._io_start, self._io_end)
        if spec.pos is None:
            off = here if here is not None else st.aligned(self._sharer_end())
        else:
            rel = self._eval_at(spec.pos, at, io)
            off = start + int(rel)
            if off < start or off > end:
                raise FormatError("instance position outside the data", file=self._file,
                                  path=f"{self._path}.{spec.name}", offset=off, expected=f"{start}..{end}")
        loc = self._place(i, spec if spec.cond is None else _without_if(spec), st.aligned(off), io)
        self._cache[("loc", i)] = loc
        return loc

    # -- placing one field ---------------------------------------------------------------------------
    def _place(self, i: int, spec: FieldSpec, pos: st.Pos, io: Any) -> tuple[int, int | None, int | None]:
        mv, start, end = io[:3] if io is not None else (self._mv, self._io_start, self._io_end)
        ext_mv = io[0] if io is not None and io[0] is not self._mv else None
        ext_io = (start, end) if io is not None else None
        special = ext_mv is not None or ext_io is not None
        if spec.cond is not None and not self._eval_at(spec.cond, pos, io):
            if type(pos) is not int or special:
                self._ext[i] = Ext(pos, None, ext_mv, ext_io)
            return st.aligned(pos), None, ABSENT
        rep = spec.repeat or ("expr" if spec.count is not None else None)
        uniform = self._uniform_size(spec, pos, io)
        s0 = (pos if type(pos) is int else pos[0]) if spec.kind != "bits" else (pos if type(pos) is int else pos[0] - 1)
        path = self._path + "." + spec.name
        if rep is not None and uniform is None:
            items: list[Any] = []
            self._cache[~i] = (items, io)
            try:
                return self._place_items(i, spec, pos, io, rep, items, s0, path, ext_mv, ext_io)
            finally:
                del self._cache[~i]
        if rep is None:
            if uniform is not None:
                if s0 + uniform > end:
                    raise st.overrun(self._file, path, s0, None, uniform, end)
                if special:
                    self._ext[i] = Ext(s0 + uniform, None, ext_mv, ext_io)
                return s0, None, uniform
            s, e, item = self._one(spec, pos, None, io)
            self._ext[i] = Ext(e, [item], ext_mv, ext_io)
            return s, None, (e - s if type(e) is int and spec.kind != "bits" else VARIES if e is not None else None)
        if rep == "expr":
            n = self._int_at(spec.count, pos, io, "repeat count", path)
            if n < 0:
                raise FormatError("negative repeat count", file=self._file, path=path, offset=s0,
                                  expected="a count >= 0", found=n)
            if uniform is not None:
                if s0 + n * uniform > end:
                    if not (self._DEBUG and spec.kind == "user" and uniform):
                        raise st.overrun(self._file, path, s0, n, uniform, end)
                    n = min(n, max(end - s0, 0) // uniform + 1)  # ks-debug: the records begun, the last cut short
                if not uniform and n > self._io_end - self._io_start:
                    # Records of no size: a count beyond the data's byte length cannot be real, and
                    # honouring it would loop or allocate without bound.
                    raise FormatError("repeat count larger than the data could describe", file=self._file, path=path,
                                      offset=s0, expected=f"at most {self._io_end - self._io_start}", found=n)
                if special:
                    self._ext[i] = Ext(s0 + n * uniform, None, ext_mv, ext_io)
                return s0, n, uniform
        elif rep == "eos":
            if uniform:
                n, rest = divmod(end - s0, uniform)
                if rest and self._DEBUG and spec.kind == "user":
                    n += 1  # ks-debug: the record the data cuts short is kept (its fields raise when read)
                elif rest:
                    raise st.eof_error(uniform, rest, file=self._file, path=f"{path}[{n}]", offset=s0 + n * uniform)
                if special:
                    self._ext[i] = Ext(end, None, ext_mv, ext_io)
                return s0, n, uniform
        return self._place_items(i, spec, pos, io, rep, [], s0, path, ext_mv, ext_io)

    def _uniform_size(self, spec: FieldSpec, pos: st.Pos, io: Any) -> int | None:
        """The size every element has, known before reading any (else None): then element k lies at
        `off + k * size` and its value is worked out from there when it is read."""
        kind = spec.kind
        if kind == "prim":
            return int(spec.size)  # type: ignore[arg-type]
        if kind == "contents":
            return len(spec.contents or b"")
        if kind in ("bits", "switch") or spec.process is not None or spec.size_eos:
            return None
        if kind == "user" and spec.size is None:
            if spec.term is not None or spec.args and any(uses(a, "_index") or uses(a, "_io") for a in spec.args):
                return None
            cls = resolve(type(self), spec.user or "")
            lay = cls._STATIC if not cls._PARAMS else cls._static_for(self._args_at(spec.args, cls, pos, io))
            return None if lay is None else int(lay.size)
        if spec.size is None:
            return None
        if isinstance(spec.size, int):
            return spec.size
        if self._PARAMS:  # a size over params only: worked out once per class and params
            hit = self._param_only(spec.size)
            if hit is not DATA:
                return int(hit)
        if uses(spec.size, "_index") or uses(spec.size, "_io"):
            return None
        return self._int_at(spec.size, pos, io, "size", f"{self._path}.{spec.name}")

    def _one(self, spec: FieldSpec, pos: st.Pos, k: int | None, io: tuple[memoryview, int, int] | None,
             need_end: bool = False) -> tuple[int, st.Pos, Any]:
        """Place one element at `pos`: (its first byte, the position after it, its item). The item of
        a record without a size is its position; its end is worked out now only if `need_end`."""
        mv, start, end = io[:3] if io is not None else (self._mv, self._io_start, self._io_end)
        kind = spec.kind
        path = f"{self._path}.{spec.name}" + (f"[{k}]" if k is not None else "")
        if kind == "bits":
            first = pos if type(pos) is int else pos[0] - 1
            value, after = st.read_bits(mv, pos, spec.bits, spec.bit_le, end, self._file, path)
            return first, after, value
        s = st.aligned(pos)
        if kind == "switch":
            case = self._case(spec, pos, k, io)
            if case is None:
                return s, pos, (None, None)
            inner_s, after, item = self._one(case, pos, k, io, need_end)
            return inner_s, after, (case, item)
        if kind in ("prim", "contents"):
            n = spec.size if kind == "prim" else len(spec.contents or b"")
            assert isinstance(n, int)
            if s + n > end:
                raise st.eof_error(n, end - s, file=self._file, path=path, offset=s)
            return s, s + n, None
        if kind == "user" and spec.size is None and not spec.size_eos and spec.term is None:
            if not need_end:
                return s, None, pos
            child = self._child_at(spec, pos, k, io, pos)
            return s, child._seq_end(), child  # kept: its fields were placed where Kaitai reads them
        # byte arrays, strings and records read from them
        if spec.size is not None:
            n = self._int_at(spec.size, pos, io, "size", path, k)
            if n < 0:
                raise FormatError("negative size", file=self._file, path=path, offset=s, expected="a size >= 0",
                                  found=n)
            if s + n > end:
                raise st.eof_error(n, end - s, file=self._file, path=path, offset=s)
            after = s + n
            stop = st.strip_and_terminate(mv, s, after, spec.pad, spec.term, spec.include)
        elif spec.size_eos:
            after = end
            stop = st.strip_and_terminate(mv, s, after, spec.pad, spec.term, spec.include)
        else:
            term = spec.term or b"\0"
            at = st.find_term(mv, s, end, term)
            if at < 0:
                if spec.eos_error:
                    err = FormatError(f"no terminator {term!r} before the end of the data", file=self._file,
                                      path=path, offset=s, expected=f"a {term!r} byte", found="end of the data")
                    err.kaitai = "EndOfStreamError"  # type: ignore[attr-defined]
                    raise err
                stop = after = end
            else:
                stop = at + (len(term) if spec.include else 0)
                after = at + (len(term) if spec.consume else 0)
        if spec.process is not None:  # its arguments are evaluated once the bytes are read, as Kaitai does
            name, args = spec.process
            values = [self._eval_at(a, after, io, k) for a in args]
            return s, after, ("p", st.process(name, values, mv[s:stop], self._file, path))
        return s, after, (s, stop)

    def _case(self, spec: FieldSpec, pos: st.Pos, k: int | None, io: Any) -> FieldSpec | None:
        """The spec of the switch case that the value of `switch-on` picks."""
        from ..expr import values as kv
        on = self._eval_at(spec.switch_on, pos, io, k)
        for key, case in spec.cases:
            want = self._eval_at(key[1], pos, io, k) if type(key) is tuple and key and key[0] == "expr" else key
            if kv.eq(on, want):
                return case
        if spec.default is not None:
            return spec.default
        if spec.size is not None or spec.size_eos or spec.term is not None:
            return FieldSpec(name=spec.name, kind="bytes", np="|u1", size=spec.size, size_eos=spec.size_eos,
                             term=spec.term, consume=spec.consume, include=spec.include, eos_error=spec.eos_error,
                             pad=spec.pad, process=spec.process)
        return None  # no case and no size: Kaitai reads nothing, and the field is null


def _without_if(spec: FieldSpec) -> FieldSpec:
    return respec(spec, cond=None)


__all__ = ["Ext", "Locate", "resolve", "uses"]
