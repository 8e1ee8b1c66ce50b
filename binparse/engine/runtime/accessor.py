"""What generated accessor classes stand on: making accessors, evaluating their expressions.

A generated class lists its fields as `FieldSpec`s (plain data: kinds, numpy types, sizes and
counts as ints or expression ASTs) and exposes one typed property per field that calls a getter
(`getters.py`; where fields lie: `locate.py`; validation, rows and copies: `whole.py`). Nothing
is read when an accessor is made: `from_buffer` checks the size and keeps a `memoryview`; a field
is located when first touched (fixed-size types use offsets computed at generation time; others
are placed field by field as Kaitai reads them, with every size and count checked against the
bytes that are really there). Arrays come back as numpy views of the caller's buffer (see
`binparse.core.buffers`); copies happen only in methods named so (`to_dict`) and where the schema
says the bytes are transformed (`process`).
"""

from __future__ import annotations

import sys
from enum import IntEnum
from typing import Any, ClassVar, TypeVar

import numpy as np
from numpy.typing import NDArray

from .. import expr as ex
from ..expr.idents import attr_name, is_id
from ..expr.values import KaitaiTypeError
from ...core.buffers import BufferLike, byte_view
from ...core.errors import BinparseError, FormatError
from . import stream as st
from .evaluate import NO_ROOT, Evaluate
from .getters import Getters
from .kept import DATA, MISSING, PKEY_OF, STATIC_CACHE, module_of, pkey_getter, resolve
from .layout import _NO_PREFIX, Prefix, record_dtype, static_layout, static_prefix
from .locate import Ext, Locate
from .specs import Expr, FieldSpec, Size, StaticLayout
from .whole import Whole

A = TypeVar("A", bound="Accessor")
# How deep records may nest inside records as a file is read: a type that holds itself ends here (exit 2),
# before Python's own recursion limit (a few frames a level) and before memory runs out
MAX_DEPTH = 200
# ... which takes up to ~8 frames a level when a compiled record hands its fields to the interpreter (its
# wrappers, then the interpreter's placing): Python's default limit of 1000 frames would end first
FRAMES = 4000
if sys.getrecursionlimit() < FRAMES:
    sys.setrecursionlimit(FRAMES)


class Accessor(Getters, Locate, Evaluate, Whole):
    """Base of every generated accessor: a typed window onto one record of a buffer."""

    __slots__ = ("_mv", "_off", "_io_start", "_io_end", "_parent", "_root_of", "_params", "_file",
                 "_path", "_pbase", "_index", "_lay", "_pre", "_pkey", "_cache", "_ext", "_bit0", "_le",
                 "_own_io", "_ok", "_u8", "_depth", "__weakref__")

    _pbase: str  # a record a compiled reader made: the name of the field holding it (its path is worked out)
    _index: int | None  # the element of a repeat this record is (`_index`), else None
    _ok: Any  # a user's record: read by its compiled reader (True), not yet (None), by the interpreter (False)
    _u8: NDArray[np.uint8]  # the buffer as a uint8 array (byte arrays of compiled records are slices of it)
    _FIELDS: ClassVar[tuple[FieldSpec, ...]] = ()
    _INSTANCES: ClassVar[tuple[FieldSpec, ...]] = ()
    _PARAMS: ClassVar[tuple[str, ...]] = ()
    _STATIC: ClassVar[StaticLayout | None] = None
    _STATIC_BY_PARAMS: ClassVar[bool] = False
    _DTYPE: ClassVar[np.dtype[Any] | None] = None
    _TYPE_PATH: ClassVar[str] = ""
    _SCHEMA: ClassVar[str] = ""
    _ENUMS: ClassVar[dict[str, type[IntEnum]]] = {}
    _ENDIAN: ClassVar[tuple[Expr, tuple[tuple[Any, bool], ...]] | None] = None  # calc-endian: switch-on, cases
    _INHERITS_ENDIAN: ClassVar[bool] = False  # byte order decided by the record that reads this one
    _BYTES_VALUES: ClassVar[tuple[str, ...]] = ()  # value instances whose values are byte arrays
    _INSTANCE_ORDER: ClassVar[tuple[str, ...]] = ()  # every instance's id (pos and value), as the schema lists them
    _DEBUG: ClassVar[bool] = False  # `meta/ks-debug`: a repeat of records cut short by the data keeps those begun
    _IN_ORDER: ClassVar[bool] = False  # placing a field checks the `valid` and `contents` before it (a user's records)
    _REPR: ClassVar[str | None] = None  # the type's `-webide-representation` (how dumps name one record)
    # what a schema expression may name of a record of this class: its declared fields and instances
    # (Kaitai id -> Python attribute), made from the specs when the class is made (`__init_subclass__`)
    _MEMBERS: ClassVar[dict[str, str]] = {}

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        names = [f.name for f in cls._FIELDS] + [f.name for f in cls._INSTANCES] + list(cls._INSTANCE_ORDER)
        cls._MEMBERS = {n: attr_name(n) for n in names if is_id(n)}

    def _ks_member(self, name: str) -> Any:
        """`record.name` in a schema expression (`binparse.engine.expr.values.member`): a declared field,
        instance or param of this record's type, or Kaitai's `_parent`, `_root`, `_io`, `_sizeof`;
        anything else is a `KaitaiTypeError`, never a Python attribute."""
        py = self._MEMBERS.get(name)
        if py is not None:
            return getattr(self, py)
        if name in self._PARAMS:
            return self._params[name]
        if name == "_parent":
            return self._parent
        if name == "_root":
            return self._root
        if name == "_io":
            return self._io
        if name == "_sizeof":
            return self._sizeof
        raise KaitaiTypeError(f"a record of type '{self._TYPE_PATH}' has no field, instance or param {name!r}")


    @property
    def _root(self) -> Any:
        """The outermost accessor of this buffer (`_root` in schema expressions). A nested type of
        another schema has none (as in Kaitai, which passes `_root` only within one schema)."""
        r = self._root_of
        return self if r is None else None if r is NO_ROOT else r

    @property
    def _sizeof(self) -> int:
        """Bytes this record spans (`_sizeof` in schema expressions)."""
        return self._nbytes_end() - self._off

    @property
    def _io(self) -> st.KStream:
        """This record's stream (`_io` in schema expressions): its size, position and end."""
        return self._stream(None, None)

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_buffer(cls: type[A], buf: BufferLike, offset: int = 0, *, file: str | None = None,
                    **params: Any) -> A:
        """An accessor over `buf` at byte `offset`; nothing is copied and nothing read yet.

        `buf` may be bytes, bytearray, memoryview, mmap.mmap or a C-contiguous np.ndarray; views
        are read-only when `buf` is. Raises `FormatError` when the record does not fit.
        """
        mv = buf if type(buf) is memoryview and buf.format == "B" and buf.ndim == 1 else byte_view(buf, file=file)
        return cls._over(mv, offset, file, params)

    @classmethod
    def _open(cls: type[A], mv: memoryview, file: str | None, params: dict[str, Any]) -> A:
        """`cls.from_buffer(mv, file=file, **params)` for `binparse.open_as`: straight to `_over`
        (no keywords packed and unpacked) unless the class has a `from_buffer` of its own."""
        own = next((k.__dict__["from_buffer"] for k in cls.__mro__ if "from_buffer" in k.__dict__), None)
        if isinstance(own, classmethod) and own.__func__ is not _FROM_BUFFER:  # a family's own (a field called
            return cls.from_buffer(mv, file=file, **params)  # from_buffer is a property: the base's is used)
        return cls._over(mv, 0, file, params)

    @classmethod
    def _over(cls: type[A], mv: memoryview, offset: int, file: str | None, params: dict[str, Any]) -> A:
        """`from_buffer` over a flat byte memoryview, `params` a dict the accessor keeps."""
        end = mv.nbytes
        if offset < 0 or offset > end:
            raise FormatError("offset outside the buffer", file=file, path=cls._TYPE_PATH,
                              offset=offset, expected=f"0..{end}")
        self = cls.__new__(cls)
        try:  # as many params as declared, and each declared one given (_init looks each up)
            if len(params) != len(cls._PARAMS):
                raise KeyError
            self._init(mv, offset, offset, end, None, None, params, file, cls._TYPE_PATH, None)
        except KeyError:
            raise BinparseError(f"{cls.__name__} takes params {list(cls._PARAMS)}", file=file,
                                path=cls._TYPE_PATH, found=sorted(params)) from None
        lay = self._lay
        if isinstance(lay, StaticLayout) and offset + lay.size > end:
            if not cls._DEBUG:
                self._check_fixed_size()  # raises
            self._lay = []  # ks-debug: its fields placed one by one, those the data holds readable
        return self

    def _init(self, mv: memoryview, off: int, io_start: int, io_end: int, parent: Accessor | None,
              root: Accessor | None, params: dict[str, Any], file: str | None, path: str,
              index: int | None, bit0: Any = None, le: bool | None = None) -> None:
        self._mv = mv
        self._off = off
        self._io_start = io_start
        self._io_end = io_end
        self._parent = parent
        self._root_of = root  # None for the root itself: no reference cycle, so a file's mapping
        # is released when its last accessor goes, not at the next garbage collection
        self._params = params
        self._file = file
        self._path = path if index is None else f"{path}[{index}]"  # path: of the field; index: of the element
        self._index = index
        self._cache: dict[Any, Any] = {}
        self._ext: dict[int, Ext] = {}
        self._bit0 = bit0
        self._le = le
        self._own_io = parent is None
        self._ok = None
        self._layout_state(params)
        self._pre = None  # the leading fields placed by params alone: worked out when a field is first located
        self._depth = 0

    def _layout_state(self, params: dict[str, Any]) -> None:
        """The record's key of its params (`_pkey`) and its layout (`_lay`): fixed, or placed as it is read."""
        cls = type(self)
        lay: Any
        if cls._PARAMS:
            key_of = PKEY_OF.get(cls)
            if key_of is None:
                key_of = PKEY_OF[cls] = pkey_getter(cls._PARAMS)
            self._pkey = pkey = key_of(params)
            try:
                lay = STATIC_CACHE.get((cls, pkey), MISSING)
            except TypeError:  # a param that is an array or a record: nothing kept per params
                self._pkey = (object(),)
                lay = None
            if lay is MISSING:
                lay = cls._static_for(params)
        else:
            self._pkey, lay = (), cls._STATIC
        self._lay: StaticLayout | list[tuple[int, int | None, int | None]] | None = lay if lay is not None else []

    def _prefix(self) -> Prefix:
        """Leading fields whose place depends on params only, located once per class and params."""
        pkey = self._pkey
        if self._bit0 is not None or pkey and type(pkey[0]) is object:  # inside a byte, or unhashable params
            pre = _NO_PREFIX
        else:
            pre = STATIC_CACHE.get(("prefix", type(self), pkey)) or type(self)._prefix_for(self._params)
        # Data shorter than the prefix: walk field by field, so each field gets its bounds check.
        self._pre = pre = pre if self._off + pre[1] <= self._io_end else _NO_PREFIX
        return pre

    def _bytes_u8(self) -> NDArray[np.uint8]:
        """The buffer as one uint8 array (the byte arrays of compiled records are slices of it)."""
        try:
            return self._u8
        except AttributeError:
            u8 = self._u8 = np.frombuffer(self._mv, np.uint8)
            return u8

    def _check_fixed_size(self) -> None:
        lay = self._lay
        if isinstance(lay, StaticLayout) and self._off + lay.size > self._io_end:
            err = FormatError(
                "data too short for the record", file=self._file, path=self._path, offset=self._off,
                expected=f"{lay.size} bytes", found=f"{self._io_end - self._off} bytes",
                hint="the file is truncated or is not this format")
            err.kaitai = "EndOfStreamError"  # type: ignore[attr-defined]
            raise err

    def _child(self, cls: type[A], off: int, args: dict[str, Any], path: str, *,
               index: int | None = None, io: tuple[int, int] | None = None, mv: memoryview | None = None,
               bit0: Any = None, parent: Any = MISSING) -> A:
        obj = cls.__new__(cls)
        start, end = io if io is not None else (self._io_start, self._io_end)
        le = self._is_le if cls._INHERITS_ENDIAN else None
        root: Any = self._root_of if self._root_of is not None else self
        if cls._SCHEMA != self._SCHEMA:  # a type of another schema is read as Kaitai reads it: no parent, and
            # a root of its own when it is that schema's root type, else none
            root, parent = (None if "::" not in cls._TYPE_PATH else NO_ROOT), None if parent is MISSING else parent
        obj._init(self._mv if mv is None else mv, off, start, end, self if parent is MISSING else parent,
                  root, args, self._file, path, index, bit0, le)
        obj._own_io = io is not None or mv is not None
        depth = obj._depth = self._depth + 1  # records made inside records: bounded (a type that holds itself)
        if depth > MAX_DEPTH:
            err = FormatError(f"records nest deeper than {MAX_DEPTH} levels: binparse follows no deeper (a type that "
                              "holds itself, with nothing in the data to end it soon)", file=self._file, path=path,
                              offset=off)
            err.kaitai = "RecursionError"  # type: ignore[attr-defined]
            raise err
        if self._DEBUG and isinstance(obj._lay, StaticLayout) and off + obj._lay.size > end:
            obj._lay = []  # a record the data cuts short (ks-debug): its fields are placed one by one, each checked
        else:
            obj._check_fixed_size()
        return obj

    def _child_at(self, spec: FieldSpec, pos: Any, index: int | None, io: Any, item: Any) -> Accessor:
        """The record element `index` (or the only one) of field `spec` is, from its item."""
        if isinstance(item, Accessor):
            return item
        cls: type[Accessor] = resolve(type(self), spec.user or "")
        base = self._path
        if len(base) > 300:  # records nested as deep as a file says: their paths stay short
            base = f"{base[:100]}…{base[-180:]}"
        path = f"{base}.{spec.name}"
        args = self._args_at(spec.args, cls, pos, io, index)
        parent: Any = MISSING
        if spec.parent is not None:
            p = self._eval_at(spec.parent, pos, io, index)
            parent = None if p is False else p
        mv = io[0] if io is not None else None
        if type(item) is tuple and item and item[0] == "p":  # processed bytes: a stream of their own
            data = memoryview(item[1])
            return self._child(cls, 0, args, path, index=index, io=(0, len(data)), mv=data, parent=parent)
        if type(item) is tuple and len(item) == 2:  # read from a substream of these bytes
            return self._child(cls, item[0], args, path, index=index, io=item, mv=mv, parent=parent)
        at = item if item is not None else pos
        sub = (io[1], io[2]) if io is not None else None
        return self._child(cls, st.aligned(at), args, path, index=index, io=sub, mv=mv,
                           bit0=at if type(at) is tuple else None, parent=parent)

    # -- layout ------------------------------------------------------------------------------------
    @classmethod
    def _static_for(cls, params: dict[str, Any]) -> StaticLayout | None:
        """Layout of a parameterised type whose sizes depend on params only (cached per params)."""
        key = (cls, tuple([params[p] for p in cls._PARAMS]))
        try:
            lay = STATIC_CACHE.get(key, MISSING)
        except TypeError:  # a param that is an array or a record: no layout kept per params
            return None
        if lay is MISSING:
            lay = static_layout(cls._FIELDS, params, module_of(cls)) if cls._STATIC_BY_PARAMS else None
            STATIC_CACHE[key] = lay
        out: StaticLayout | None = lay
        return out

    @classmethod
    def _prefix_for(cls, params: dict[str, Any]) -> Prefix:
        key = ("prefix", cls, tuple(params[p] for p in cls._PARAMS))
        pre = STATIC_CACHE.get(key)
        if pre is None:
            pre = static_prefix(cls._FIELDS, params, module_of(cls))
            STATIC_CACHE[key] = pre
        out: Prefix = pre
        return out

    @classmethod
    def _dtype_for(cls, params: dict[str, Any]) -> np.dtype[Any] | None:
        if not cls._PARAMS:
            return cls._DTYPE
        key = ("dtype", cls, tuple(params[p] for p in cls._PARAMS))
        if key not in STATIC_CACHE:
            lay = cls._static_for(params)
            STATIC_CACHE[key] = None if lay is None or cls._ENDIAN is not None or cls._INHERITS_ENDIAN \
                else record_dtype(cls._FIELDS, lay, params, module_of(cls))
        dt: np.dtype[Any] | None = STATIC_CACHE[key]
        return dt

    # -- where -------------------------------------------------------------------------------------
    @property
    def nbytes(self) -> int:
        """Bytes this record spans in the buffer."""
        return self._nbytes_end() - self._off

    @property
    def offset(self) -> int:
        """Byte offset of this record in the buffer."""
        return self._off

    @property
    def path(self) -> str:
        return self._path

    def span(self, name: str, index: int | None = None) -> Any:
        """Where field (or positioned instance) `name` lies, or element `index` of a repeated one: a
        `runtime.spans.Span` (`start`, `end`, `start_bit`/`end_bit` of bit-sized integers, `stream`),
        or None when its `if` is false. Reads the field's place, not its value."""
        from .spans import span
        return span(self, name, index)

    def _spec(self, i: int) -> FieldSpec:
        """Spec of field i: seq fields first, then pos instances."""
        n = len(self._FIELDS)
        return self._FIELDS[i] if i < n else self._INSTANCES[i - n]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._path} at offset {self._off}>"


_FROM_BUFFER = Accessor.from_buffer.__func__  # type: ignore[attr-defined]
