"""Records of a user's types read by compiled readers (`binparse.engine.codegen.reader`).

A generated class of a user's package whose seq the generator could compile extends
`CompiledRecord`: its seq fields are slots, set all at once by the type's compiled reader (`_READ`,
straight-line code: runs of numbers by one `struct` call, switches through tables, records read
where they lie) the first time any of them is asked for, exactly as Kaitai's own code reads a
record (in its order, checks included). Records such a reader meets are made whole by the readers
of their own types, with only what the reader needs set; everything else an accessor holds (its
path, its file name, the interpreter's state) is worked out from its parent when first asked for.

When a compiled reader cannot go on (the data is truncated, a check fails, a value cannot be
decoded, an expression fails), nothing it half-read is trusted beyond the fields already set:
the record is read from then on by the interpreter (`Accessor`'s getters), field by field, so the
error names the field and the offset, and the fields before it stay readable.
"""

from __future__ import annotations

import mmap
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar, overload

import numpy as np

from ...core import budget
from ..expr.encodings import decode
from . import stream as st
from .accessor import Accessor
from .evaluate import NO_ROOT
from .kept import MISSING, PKEY_OF, STATIC_CACHE, pkey_getter
from .sequences import RecordArray
from .specs import FieldSpec, StaticLayout

_SEARCHABLE = (bytes, mmap.mmap)  # what `find` searches in place (anything else: in chunks)
BUSY: Any = "busy"  # `_ok` of a record while its compiled reader runs
RECORD_COST = 512  # bytes a record a compiled reader makes is counted at (~310 measured: an ELF relocation with its slots)
_DEFAULTS = {"_own_io": False, "_index": None, "_bit0": None, "_pre": None, "_pbase": "", "_ok": True}


class Stop(Exception):
    """A compiled reader cannot go on: the interpreter reads the rest (and names what is wrong)."""


class CompiledRecord(Accessor):
    """A record of a user's type whose seq is read by its compiled reader (see the module doc)."""

    __slots__ = ("_end",)

    _end: int  # where the record's seq ends (set by its compiled reader)
    _READ: ClassVar[Callable[..., None] | None] = None  # (self, mv, p, s, e, root, le, u8): every seq field, `_end`
    _MAKE: ClassVar[Callable[..., Any]]  # (owner, mv, p, s, e, root, le, u8, name, k, own, params): a record read
    _MANY: ClassVar[Callable[..., tuple[list[Any], int]]]  # records one after another (codegen.reader: many)
    _SLOW: ClassVar[dict[str, Callable[[Any], Any]]] = {}  # seq field -> its interpreter getter
    _LAZY: ClassVar[dict[str, Callable[[Any], Any]]] = {}  # value instance set by the reader -> its getter

    def __getattr__(self, name: str) -> Any:
        slow = type(self)._SLOW.get(name)
        if slow is not None:  # a seq field not set yet
            if self._ok is None and self._read_all():
                return object.__getattribute__(self, name)
            if self._ok is BUSY:  # asked for by an expression of its own seq before it is read
                raise Stop(name)
            return slow(self)
        lazy = type(self)._LAZY.get(name)
        if lazy is not None:  # a value its compiled reader did not work out (it raised): now, and its error
            value = lazy(self)
            object.__setattr__(self, name, value)
            return value
        if name == "_u8":  # the buffer as numpy: its parent's, when the same
            owner = self._parent
            u8 = owner._u8 if isinstance(owner, Accessor) and owner._mv is self._mv else np.frombuffer(self._mv, np.uint8)
            self._u8 = u8
            return u8
        if name in _DEFAULTS:
            value = _DEFAULTS[name]
            object.__setattr__(self, name, value)
            return value
        if name in _FROM_PARENT:
            self._state()
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _state(self) -> None:
        """What a record made by a compiled reader was not given: from its parent (or its defaults)."""
        owner: Any = self._parent
        top = owner if isinstance(owner, Accessor) else None
        self._file = top._file if top is not None else None
        k = self._index
        base = f"{top._path}.{self._pbase}" if top is not None else self._TYPE_PATH
        self._path = base if k is None else f"{base}[{k}]"
        self._cache, self._ext = {}, {}
        try:
            params = object.__getattribute__(self, "_params")
        except AttributeError:
            params = self._params = {}
        try:
            object.__getattribute__(self, "_le")
        except AttributeError:
            self._le = None
        try:
            object.__getattribute__(self, "_root_of")
        except AttributeError:
            self._root_of = None
        self._layout_state(params)

    def _layout_state(self, params: dict[str, Any]) -> None:
        cls = type(self)
        lay: Any
        if cls._PARAMS:
            key_of = PKEY_OF.get(cls)
            if key_of is None:
                key_of = PKEY_OF[cls] = pkey_getter(cls._PARAMS)
            self._pkey = pkey = key_of(params)
            try:
                lay = STATIC_CACHE.get((cls, pkey), MISSING)
            except TypeError:
                self._pkey = (object(),)
                lay = None
            if lay is MISSING:
                lay = cls._static_for(params)
        else:
            self._pkey, lay = (), cls._STATIC
        self._lay = lay if lay is not None else []

    def _read_all(self) -> bool:
        """Read the whole seq with the compiled reader; False (and the interpreter from now on) when it
        cannot go on. The budget's refusal is not swallowed."""
        read = type(self)._READ
        if read is None or self._bit0 is not None:  # no compiled reader, or a record starting inside a byte
            self._ok = False
            return False
        self._ok = BUSY
        try:
            root: Any = self._root
            le = self._is_le if type(self)._INHERITS_ENDIAN else True
            read(self, self._mv, self._off, self._io_start, self._io_end, root if root is not None else NO_ROOT,
                 le, self._bytes_u8())
        except budget.BudgetError:
            self._ok = False
            raise
        except Exception:
            self._ok = False
            return False
        self._ok = True
        return True

    def _seq_end(self) -> Any:
        ok = self._ok
        if ok is True or ok is None and self._read_all():
            return self._end
        if ok is BUSY:
            raise Stop("_sizeof")
        return Accessor._seq_end(self)

    def _nbytes_end(self) -> int:
        return st.aligned(self._seq_end())

    def _check_fixed_size(self) -> None:
        if isinstance(self._lay, StaticLayout):
            Accessor._check_fixed_size(self)


T = TypeVar("T")


class kept(Generic[T]):  # noqa: N801 - used as a decorator, like `property`
    """An instance worked out when first asked for and kept in the record (the record's `__dict__`,
    which Python reads before asking this descriptor again: later uses cost a dictionary lookup)."""

    def __init__(self, fn: Callable[[Any], T]) -> None:
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, cls: type | None = None) -> kept[T]: ...

    @overload
    def __get__(self, obj: object, cls: type | None = None) -> T: ...

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if obj is None:
            return self
        v = obj.__dict__[self.name] = self.fn(obj)
        return v


_FROM_PARENT = frozenset({"_file", "_path", "_cache", "_ext", "_params", "_le", "_root_of", "_pkey", "_lay"})


# -- what compiled readers call --------------------------------------------------------------------
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
        if True:
            mv, s, e, root, le, u8 = self._ctx
            offsets = self._offsets
            n = len(offsets)
            try:
                made = self._cls._MANY(self._owner, mv, offsets[0] if n else 0, s, e, root, le, u8, self._name, n,
                                       self._size if self._sub is not None else -1, self._args or None)[0]
            except budget.BudgetError:
                raise
            except Exception:  # one of them is bad: each made on its own (that one the interpreter's way)
                made = [self[k] for k in range(n)]
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


__all__ = ["NO_ROOT", "budget", "kept", "Records", "as_enum", "instance", "maker", "processed", "st", "BUSY", "CompiledRecord", "Stop", "ask", "child", "io_of", "key", "stream", "stripped", "term_at", "text"]
