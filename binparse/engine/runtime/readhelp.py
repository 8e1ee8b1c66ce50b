"""What the code of compiled readers (`codegen.reader`) calls: text, terminators, switch keys, the budget,
streams, records the interpreter reads, makers of such records, and `Records` (fixed-size records made
when first asked for). `runtime.compiled` hands them to generated modules (`_rt.text`, …)."""

from __future__ import annotations

import gc
import mmap
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core import budget
from ..expr.encodings import decode
from . import stream as st
from .accessor import Accessor
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


def instance(rec: Any, read: Callable[[Any], Any], i: int) -> Any:
    """A positioned instance read by its compiled reader, or, when that stops, by the interpreter
    (whose error names the instance)."""
    try:
        return read(rec)
    except budget.BudgetError:
        raise
    except Exception:
        return rec._get(i)


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


__all__ = ['RECORD_COST', 'Records', 'Stop', 'as_enum', 'ask', 'child', 'find', 'instance', 'io_of', 'key', 'maker', 'many_each', 'many_of', 'processed', 'stream', 'stripped', 'term_at', 'text']
