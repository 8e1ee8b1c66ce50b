"""What the code of compiled readers (`codegen.reader`) calls: text, terminators, switch keys, the budget,
streams, records the interpreter reads, makers of such records, and `Records` (fixed-size records made
when first asked for). `runtime.compiled` hands them to generated modules (`_rt.text`, …)."""

from __future__ import annotations

import gc
import mmap
from contextlib import contextmanager
from contextvars import ContextVar
from collections.abc import Callable, Iterator, Sequence
from typing import Any, cast

import numpy as np

from ...core import budget
from ...core.errors import FormatError
from ..expr.encodings import decode
from . import stream as st
from .accessor import MAX_DEPTH, Accessor
from .sequences import RecordArray
from .specs import FieldSpec

_SEARCHABLE = (bytes, mmap.mmap)  # what `find` searches in place (anything else: in chunks)
RECORD_COST = 512  # bytes a record a compiled reader makes is counted at (~310 measured: an ELF relocation with its slots)


class Stop(Exception):
    """A compiled reader cannot go on: the interpreter reads the rest (and names what is wrong)."""


def text(mv: memoryview, a: int, b: int, encoding: str) -> str:
    """Bytes a..b of the stream as text (Kaitai's encoding names)."""
    return decode(bytes(mv[a:b]), encoding)


def find(mv: memoryview, term: bytes, a: int, b: int) -> int:
    """Where `term` first is in bytes a..b (aligned to its width from `a`), or -1."""
    obj: Any = mv.obj
    if len(term) == 1 and type(obj) in _SEARCHABLE and len(obj) == mv.nbytes:
        return int(obj.find(term, a, b))
    return st.find_term(mv, a, b, term)


def term_at(mv: memoryview, p: int, e: int, term: bytes, eos_error: bool) -> int:
    """Where the terminator after `p` is, or `e` when there is none and none is required."""
    at = find(mv, term, p, e)
    if at < 0:
        if eos_error:
            raise Stop("terminator")
        return e
    return at


def stripped(mv: memoryview, a: int, b: int, pad: int | None, term: bytes | None, include: bool) -> int:
    """The end of bytes a..b once `pad-right` is stripped and they are cut at their terminator."""
    if pad is None and term is not None:
        at = find(mv, term, a, b)
        return b if at < 0 else at + (len(term) if include else 0)
    return st.strip_and_terminate(mv, a, b, pad, term, include)


def key(v: Any) -> Any:
    """A switch-on value as the key of its cases' table: byte arrays as bytes, numpy numbers as Python's."""
    if isinstance(v, np.ndarray):
        return v.tobytes() if v.dtype == np.uint8 and v.ndim == 1 else tuple(v.tolist())
    if isinstance(v, (bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, list):
        return tuple(v)
    if isinstance(v, np.generic):
        return v.item()
    return v


def ask(n: int, what: str) -> None:
    """The budget asked for `n` more records a compiled reader makes."""
    budget.ask(n * RECORD_COST, f"the records of {what}")


def stream(mv: memoryview, s: int, e: int, p: int) -> st.KStream:
    """`_io` in an expression of a seq field: the stream, standing where the reader stands."""
    return st.KStream(mv, s, e, p)


def io_of(rec: Any) -> tuple[memoryview, int, int, Any]:
    """The stream a record was read from (an instance's `io: x._io`): its bytes, start, end, and uint8 view."""
    if not isinstance(rec, Accessor):
        raise Stop("io")
    try:
        return rec._mv, rec._io_start, rec._io_end, rec._u8
    except AttributeError:
        return rec._mv, rec._io_start, rec._io_end, rec._bytes_u8()


def child(owner: Accessor, spec: FieldSpec, mv: memoryview, p: int, s: int, e: int, k: int | None) -> Any:
    """A record of a type the generator did not compile, read the interpreter's way: (record, its end)."""
    io = (mv, s, e) if mv is not owner._mv or (s, e) != (owner._io_start, owner._io_end) else None
    rec = owner._child_at(spec, p, k, io, p)
    end = rec._seq_end()
    if type(end) is not int:
        raise Stop("bits")
    return rec, end


def deeper(rec: Any, v: Any) -> Any:
    """`v`, a positioned instance of `rec` its compiled reader read: a record it made is one level deeper
    than `rec`; deeper than MAX_DEPTH, the reader stops (the interpreter then names the nesting)."""
    if isinstance(v, Accessor) and v._parent is rec:
        depth = v._depth = rec._depth + 1
        if depth > MAX_DEPTH:
            raise Stop("_depth")
    return v


def instance(rec: Any, read: Callable[[Any], Any], i: int) -> Any:
    """A positioned instance read by its compiled reader, or, when that stops, by the interpreter
    (whose error names the instance)."""
    try:
        v = read(rec)
    except budget.BudgetError:
        raise
    except Exception:
        return rec._get(i)
    return v


def as_enum(enum: Any, v: int) -> Any:
    """`v` as a member of `enum`, or the bare number when the enum has no such member (as in Kaitai)."""
    return enum._value2member_map_.get(v, v)


def maker(cls: Any) -> Callable[..., Any]:
    """`_MAKE` of a type without a compiled reader: its record made the interpreter's way, its seq
    placed at once (the reader of the record holding it needs its end)."""

    def make(owner: Any, mv: memoryview, p: int, s: int, e: int, root: Any, le: bool, u8: Any, name: str,
             k: int | None, own: bool, params: Any) -> Any:
        rec = cls.__new__(cls)
        path = f"{owner._path}.{name}" if isinstance(owner, Accessor) else cls._TYPE_PATH
        rec._init(mv, p, s, e, owner, root, params or {}, owner._file if isinstance(owner, Accessor) else None,
                  path, k, None, le if cls._INHERITS_ENDIAN else None)
        rec._own_io = own
        end = rec._seq_end()
        if type(end) is not int:
            raise Stop("bits")
        rec._end = end
        return rec

    return make


def many_each(make: Callable[..., Any], owner: Any, mv: memoryview, p: int, s: int, e: int, root: Any, le: bool,
              u8: Any, name: str, n: int, size: int, params: Any) -> tuple[list[Any], int]:
    """`_MANY` by one call of `make` per record (see `codegen.reader.Reader.many`)."""
    items: list[Any] = []
    j, end = 0, e
    while (j < n) if n >= 0 else (p < end):
        if size >= 0:
            if p + size > end:
                raise Stop("size")
            rec = make(owner, mv, p, p, p + size, root, le, u8, name, j, True, params)
            p += size
        else:
            rec = make(owner, mv, p, s, e, root, le, u8, name, j, False, params)
            if rec._end == p and n < 0:
                raise Stop("eos")
            p = rec._end
        items.append(rec)
        j += 1
        if j & 4095 == 0:
            ask(4096, name)
    return items, p


def many_of(cls: Any) -> Callable[..., tuple[list[Any], int]]:
    """`_MANY` of a type without a compiled reader (each record made by its `_MAKE`)."""

    def many(owner: Any, mv: memoryview, p: int, s: int, e: int, root: Any, le: bool, u8: Any, name: str, n: int,
             size: int, params: Any) -> tuple[list[Any], int]:
        return many_each(cls._MAKE, owner, mv, p, s, e, root, le, u8, name, n, size, params)

    return many


_STREAMING: ContextVar[bool] = ContextVar("binparse_streaming", default=False)


def streaming() -> bool:
    """Whether records read now keep a last repeat of records as a `RecordRun` (a dump walking a file
    once: memory by the depth of the tree, not its size). Elsewhere a record's seq is read whole when
    first asked for, its checks in Kaitai's order."""
    return _STREAMING.get()


@contextmanager
def streamed() -> Iterator[None]:
    """Records read inside keep their last repeat of records as a `RecordRun` (see `streaming`)."""
    token = _STREAMING.set(True)
    try:
        yield
    finally:
        _STREAMING.reset(token)


class RecordRun(RecordArray[Any]):
    """The records of a repeat that ends its record (`records: repeat: eos`, counted ones too), read as
    they are asked for: iterating reads them one after another and keeps only where each starts, so
    a walk over a file of a million records holds one at a time (what a dump needs); `len`, an index
    and the end of the repeat read as far as they need. Like the interpreter's `RecordArray`, each
    index makes its record again. One the compiled reader cannot read is asked of the interpreter,
    whose error names it."""

    __slots__ = ("_holder", "_ctx", "_name", "_n", "_next", "_stop", "_field", "start", "_failed")

    def __init__(self, holder: Any, owner: Any, cls: Any, mv: memoryview, p: int, s: int, e: int, root: Any, le: bool,
                 u8: Any, name: str, n: int, params: Any, field: str) -> None:
        super().__init__(owner, cls, [], params or {}, name, None, mv, (s, e))
        self._holder, self._ctx, self._name, self._n, self._field = holder, (mv, s, e, root, le, u8), name, n, field
        self._next = self.start = p  # where the next record not read yet starts; where the first does
        self._stop = False  # read to the end
        self._failed = False  # a record the compiled reader could not read: the interpreter places the field

    def _read(self, k: int, off: int) -> Any:
        """Record `k` at `off`, made by its type's reader, or the interpreter's error."""
        mv, s, e, root, le, u8 = self._ctx
        try:
            return self._cls._MAKE(self._owner, mv, off, s, e, root, le, u8, self._name, k, False,
                                   self._args or None)
        except budget.BudgetError:
            raise
        except Exception:  # the field the interpreter's way: its error names the record (else its record k)
            self._failed = True
            holder = self._holder
            return getattr(type(holder), "_SLOW")[self._field](holder)[k]

    def _step(self) -> Any:
        """The next record not read yet (its start kept), or None at the end."""
        offsets, at = cast("list[int]", self._offsets), self._next
        k = len(offsets)
        n = self._n
        if self._stop or (n >= 0 and k >= n) or (n < 0 and at >= self._ctx[2]):
            self._stop = True
            return None
        rec = self._read(k, at)
        try:
            end = rec._end
        except AttributeError:  # one the interpreter read when the compiled reader could not: placed its way
            end = st.aligned(rec._seq_end())
        if end == at and n < 0:
            raise FormatError("repeat: eos over elements that take no bytes would never end", path=self._name,
                              offset=end)
        offsets.append(at)
        self._next = end
        if k & 4095 == 4095:
            ask(4096 // 64, self._name)  # the starts kept (8 bytes each): a record's worth per 64
        return rec

    def __iter__(self) -> Iterator[Any]:
        offsets = self._offsets
        for k in range(len(offsets)):
            yield self._read(k, offsets[k])
        while (rec := self._step()) is not None:
            yield rec

    def end(self) -> int:
        """Where the repeat ends (read to it)."""
        while self._step() is not None:
            pass
        return self._next

    def __len__(self) -> int:
        self.end()
        return len(self._offsets)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if i < 0:
            i += len(self)
        while len(self._offsets) <= i:
            rec = self._step()
            if rec is None:
                break
            if len(self._offsets) == i + 1:
                return rec
        if not 0 <= i < len(self._offsets):
            raise IndexError(f"{self._name}: no element {i}")
        return self._read(i, self._offsets[i])

    @property
    def array(self) -> Any:
        self.end()
        return RecordArray.array.fget(self)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"<records of {self._name}, read as they are asked for>"


def processed(name: str, args: list[Any], mv: memoryview, a: int, b: int) -> bytes:
    """`process:` of bytes a..b (a copy: the bytes a field's value is made of)."""
    return st.process(name, args, mv[a:b], None, "")


class Records(RecordArray[Any]):
    """Fixed-size records of a compiled type, one after another: each made (by the type's compiled
    reader) when first indexed, and kept; `.array` is the zero-copy structured view of them all."""

    __slots__ = ("_ctx", "_made", "_name", "_size")

    def __init__(self, owner: Any, cls: Any, p: int, n: int, size: int, name: str,
                 ctx: tuple[memoryview, int, int, Any, bool, Any], sub: bool = False, params: Any = None) -> None:
        mv = ctx[0]
        super().__init__(owner, cls, range(p, p + n * size, size), params or {}, "", size if sub else None,
                         mv if mv is not owner._mv else None, (ctx[1], ctx[2]))
        self._ctx, self._name, self._size = ctx, name, size
        self._made: list[Any] | None = None

    def _all(self) -> list[Any]:
        """Every record, made (those not made yet by one loop of the type's compiled reader)."""
        made = self._made
        if made is not None:
            return [self[k] for k in range(len(made))] if None in made else made
        mv, s, e, root, le, u8 = self._ctx
        offsets = self._offsets
        n = len(offsets)
        collecting = gc.isenabled()
        gc.disable()  # the records made live as long as this sequence: the collector would only walk them
        try:
            made = self._cls._MANY(self._owner, mv, offsets[0] if n else 0, s, e, root, le, u8, self._name, n,
                                   self._size if self._sub is not None else -1, self._args or None)[0]
        except budget.BudgetError:
            raise
        except Exception:  # one of them is bad: each made on its own (that one the interpreter's way)
            made = [self[k] for k in range(n)]
        finally:
            if collecting:
                gc.enable()
        self._made = made
        return made

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        made = self._made
        if made is None:
            made = self._made = [None] * len(self._offsets)
        rec = made[i]
        if rec is None:
            k = range(len(made))[i]
            mv, s, e, root, le, u8 = self._ctx
            off = self._offsets[k]
            sub = self._sub is not None
            try:
                rec = self._cls._MAKE(self._owner, mv, off, off if sub else s, off + self._size if sub else e, root,
                                      le, u8, self._name, k, sub, self._args or None)
            except budget.BudgetError:
                raise
            except Exception:  # the interpreter's record: its fields name what is wrong when read
                owner: Any = self._owner
                rec = owner._child(self._cls, off, self._args, f"{owner._path}.{self._name}", index=k,
                                   io=(off, off + self._size) if sub else (s, e), mv=mv)
            made[k] = rec
        return rec

    def __iter__(self) -> Any:
        return iter(self._all())


__all__ = ["RecordRun", "deeper", "streamed", "streaming", 'RECORD_COST', 'Records', 'Stop', 'as_enum', 'ask', 'child', 'find', 'instance', 'io_of', 'key', 'maker', 'many_each', 'many_of', 'processed', 'stream', 'stripped', 'term_at', 'text']
