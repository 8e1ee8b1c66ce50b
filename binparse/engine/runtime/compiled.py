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

import gc
from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar, cast, overload

import numpy as np

from ...core import budget
from . import stream as st
from .accessor import Accessor
from .evaluate import NO_ROOT
from .readhelp import *  # noqa: F401,F403 - what generated modules call as `_rt.…` (text, key, Records, …)
from .readhelp import _STREAMING, RecordRun, Stop
from .repeats import Ext
from .readhelp import __all__ as _HELPERS
from .specs import VARIES, StaticLayout

DEEP = 32  # records the interpreter makes deeper than this read their fields its way (no compiled reader)
BUSY: Any = "busy"  # `_ok` of a record while its compiled reader runs
# the slots of a record a compiled reader does not set (it sets `_mv`, `_off`, `_io_start`, `_io_end`,
# `_parent`, `_root_of`, `_pbase`, `_index`, `_own_io`, the params of a type with params, `_end`)
_DEFAULTS = {"_bit0": None, "_pre": None, "_ok": True}
_FROM_PARENT = ("_file", "_path", "_cache", "_ext", "_params", "_le", "_pkey", "_lay")
_SLOT = {n: Accessor.__dict__[n] for n in (*_DEFAULTS, *_FROM_PARENT, "_u8", "_depth", "_pbase", "_root_of")}


def _derived(name: str, work_out: Callable[[Any, str], Any]) -> property:
    """Slot `name` of a record, worked out when first read (`work_out(record, name)`, which sets it) when
    the record's compiled reader did not set it (what only errors, paths and the interpreter ask for)."""
    slot = _SLOT[name]
    get = slot.__get__

    def read(self: Any) -> Any:
        try:
            return get(self)
        except AttributeError:
            return work_out(self, name)

    return property(read, slot.__set__, slot.__delete__)


def _default(self: Any, name: str) -> Any:
    value = _DEFAULTS[name]
    _SLOT[name].__set__(self, value)
    return value


def _held(rec: Any, name: str, default: Any) -> Any:
    """Slot `name` of `rec` as set, else `default` (its property not asked: it would work it out)."""
    try:
        return _SLOT[name].__get__(rec)
    except AttributeError:
        return default


def _from_parent(self: Any, name: str) -> Any:
    self._state()
    return _SLOT[name].__get__(self)


def _work_u8(self: Any, name: str) -> Any:  # the buffer as numpy: its parent's, when the same
    owner = self._parent
    u8 = owner._u8 if isinstance(owner, Accessor) and owner._mv is self._mv else np.frombuffer(self._mv, np.uint8)
    self._u8 = u8
    return u8


def _work_depth(self: Any, name: str) -> Any:  # records made by a compiled reader: one deeper than the record holding them
    owner = self._parent
    depth = self._depth = owner._depth + 1 if isinstance(owner, Accessor) else 0
    return depth


class CompiledRecord(Accessor):
    """A record of a user's type whose seq is read by its compiled reader (see the module doc).

    The class has no `__getattr__`: Python reads the attributes of a class that has one by its slow
    path (3.11 specialises no attribute read of such a class: each costs 3-4 times a plain slot's, a
    fifth of a reader's time). A record read whole (made by a compiled reader) is of the generated class
    itself; one whose fields are read when first asked for (a file's root, a record the interpreter
    makes) is made of the class's lazy twin (`lazy_class`: the same slots, and a `__getattr__` that
    reads the seq), and becomes one of the class itself once its compiled reader has read it. The
    private slots a compiled reader leaves unset are worked out when first read (`_derived`)."""

    __slots__ = ("_end",)

    _end: int  # where the record's seq ends (set by its compiled reader)
    _READ: ClassVar[Callable[..., None] | None] = None  # (self, mv, p, s, e, root, le, u8): every seq field, `_end`
    _MAKE: ClassVar[Callable[..., Any]]  # (owner, mv, p, s, e, root, le, u8, name, k, own, params): a record read
    _MANY: ClassVar[Callable[..., tuple[list[Any], int]]]  # records one after another (codegen.reader: many)
    _SLOW: ClassVar[dict[str, Callable[[Any], Any]]] = {}  # seq field -> its interpreter getter
    _LAZY: ClassVar[dict[str, Callable[[Any], Any]]] = {}  # value instance set by the reader -> its getter
    _TAIL: ClassVar[str] = ""  # a last field of records read as they are asked for (`RecordRun`), when so read
    _IN_ORDER: ClassVar[bool] = True  # read field by field, a record's checks come before the fields after them
    _FAST: ClassVar[type | None] = None  # of a lazy twin: the generated class (see the class doc)

    def __new__(cls, *args: Any, **kw: Any) -> Any:
        """A record whose fields are read when first asked for: of the lazy twin (made so by the
        interpreter's `cls.__new__(cls)`; compiled readers make records read whole with `object.__new__`)."""
        return object.__new__(lazy_class(cls))

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "_PARAMS" in cls.__dict__ and cls._PARAMS:  # a type with params: every record of it is given them
            setattr(cls, "_params", _SLOT["_params"])  # (the slot read directly)

    def _state(self) -> None:
        """What a record made by a compiled reader was not given: from its parent (or its defaults)."""
        owner: Any = self._parent
        top = owner if isinstance(owner, Accessor) else None
        self._file = top._file if top is not None else None
        k = self._index
        base = f"{top._path}.{_held(self, '_pbase', '')}" if top is not None else self._TYPE_PATH
        self._path = base if k is None else f"{base}[{k}]"
        self._cache, self._ext = {}, {}
        params = self._params = _held(self, "_params", None) or {}
        self._le = _held(self, "_le", None)
        self._root_of = _held(self, "_root_of", None)
        self._layout_state(params)

    def _read_all(self) -> bool:
        """Read the whole seq with the compiled reader; False (and the interpreter from now on) when it
        cannot go on. The budget's refusal is not swallowed."""
        read = type(self)._READ
        if read is None or self._bit0 is not None or self._depth > DEEP:  # no compiled reader, a record starting
            # inside a byte, or one the interpreter made deep in the tree (a compiled reader that recursed too deep)
            self._ok = False
            return False
        self._ok = BUSY
        cls = type(self)
        collecting = gc.isenabled()
        gc.disable()  # every record it makes lives as long as this one: the collector would only walk them
        try:
            root: Any = self._root
            le = self._is_le if cls._INHERITS_ENDIAN else True
            u8 = self._bytes_u8()
            self.__class__ = cls._FAST or cls  # the generated class (a value that fails: the lazy twin, keep_lazy)
            read(self, self._mv, self._off, self._io_start, self._io_end, root if root is not None else NO_ROOT,
                 le, u8, _STREAMING.get())
        except budget.BudgetError:
            self.__class__ = cls
            self._ok = False
            raise
        except Exception:
            self.__class__ = cls
            self._ok = False
            return False
        finally:
            if collecting:
                gc.enable()
        self._ok = True
        return True

    def _seq_end(self) -> Any:
        ok = self._ok
        if ok is True or ok is None and self._read_all():
            end = self._end
            if end is None:  # its last field, records read as they are asked for: read to their end
                end = self._end = getattr(self, type(self)._TAIL).end()
            return end
        if ok is BUSY:
            raise Stop("_sizeof")
        return Accessor._seq_end(self)

    def _loc(self, i: int) -> tuple[int, int | None, int | None]:
        """The place of field i; the records of a last field read as they are asked for (`_TAIL`) are
        placed by reading them one after another, keeping only where each starts (not the
        interpreter's placing, which keeps every record it reads)."""
        fields = type(self)._FIELDS
        if i == len(fields) - 1 and type(self)._TAIL \
                and (self._ok is True or self._ok is None and self._read_all()):
            run = getattr(self, type(self)._TAIL)
            if type(run) is RecordRun and not run._failed:
                if not (self._ext and i in self._ext):
                    end = run.end()  # what the interpreter's placing would read, in its order
                    self._ext[i] = Ext(end, cast("list[Any]", run._offsets))  # every item: the offset of a record
                return run.start, len(run._offsets), VARIES
        return Accessor._loc(self, i)

    def _nbytes_end(self) -> int:
        return st.aligned(self._seq_end())

    def _check_fixed_size(self) -> None:
        if isinstance(self._lay, StaticLayout):
            Accessor._check_fixed_size(self)


for _name, _work in [*((n, _default) for n in _DEFAULTS), *((n, _from_parent) for n in _FROM_PARENT),
                     ("_u8", _work_u8), ("_depth", _work_depth)]:
    setattr(CompiledRecord, _name, _derived(_name, _work))


def _lazy_getattr(self: Any, name: str) -> Any:
    """`__getattr__` of a lazy twin: a seq field not read yet (the record read by its compiled reader,
    else by the interpreter), or a value its compiled reader could not work out (now, and its error)."""
    slow = type(self)._SLOW.get(name)
    if slow is not None:  # a seq field not set yet
        if self._ok is None and self._read_all():
            return getattr(self, name)
        if self._ok is BUSY:  # asked for by an expression of its own seq before it is read
            raise Stop(name)
        return slow(self)
    lazy = type(self)._LAZY.get(name)
    if lazy is not None:
        value = lazy(self)
        setattr(self, name, value)
        return value
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def lazy_class(cls: type[CompiledRecord]) -> type[CompiledRecord]:
    """The lazy twin of generated class `cls` (made when first needed; of a twin: itself)."""
    twin = cls.__dict__.get("_TWIN")
    if twin is None:
        if cls._FAST is not None:
            return cls
        twin = type(cls.__name__, (cls,), {"__slots__": (), "__getattr__": _lazy_getattr, "_FAST": cls,
                                           "__module__": cls.__module__, "__qualname__": cls.__qualname__,
                                           "__doc__": cls.__doc__})
        cls._TWIN = twin  # type: ignore[attr-defined]
    return cast("type[CompiledRecord]", twin)


def keep_lazy(rec: Any) -> None:
    """A record a compiled reader made whole but for a value it could not work out: of the lazy twin,
    which works it out (and raises its error) when asked for."""
    rec.__class__ = lazy_class(type(rec))


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


__all__ = ["BUSY", "CompiledRecord", "NO_ROOT", "budget", "keep_lazy", "kept", "lazy_class", "st", *_HELPERS]
