"""What generated accessor classes stand on: making accessors and locating their fields.

A generated class lists its fields as `FieldSpec`s (plain data: kinds, numpy types, sizes and
counts as ints or expression ASTs) and exposes one typed property per field that calls a getter
(`getters.py`; validation, rows and copies are in `whole.py`). Nothing is read when an accessor is made: `from_buffer` checks the size and keeps a
`memoryview`; a field is located when first touched (fixed-size types use offsets computed at
generation time; others are walked field by field, with every count checked against the bytes
that are really there). Arrays come back as numpy views of the caller's buffer (see
`binparse.buffers`); copies happen only in methods named so (`to_dict`).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, ClassVar, TypeVar

import numpy as np

from ..buffers import BufferLike, byte_view
from ..errors import BinparseError, FormatError
from ..schema import expr as ex
from .getters import Getters
from .kept import DATA, MISSING, PKEY_OF, STATIC_CACHE, module_of, pkey_getter, resolve
from .layout import _NO_PREFIX, Prefix, record_dtype, static_layout, static_prefix
from .specs import ABSENT, Expr, FieldSpec, Size, StaticLayout
from .whole import Whole

A = TypeVar("A", bound="Accessor")


class _Scope:
    __slots__ = ("acc",)

    def __init__(self, acc: Accessor) -> None:
        self.acc = acc

    def lookup(self, name: str) -> Any:
        a = self.acc
        if name == "_root":
            return a._root
        if name == "_parent":
            return a._parent
        if name == "_index":
            return a._index
        if name in a._params:
            return a._params[name]
        return getattr(a, name)

    def attr(self, obj: Any, name: str) -> Any:
        return getattr(obj, name)

    def enum_value(self, enum: str, member: str) -> int:  # generator resolves enum literals
        raise BinparseError(f"unresolved enum literal {enum}::{member}")


class Accessor(Getters, Whole):
    """Base of every generated accessor: a typed window onto one record of a buffer."""

    __slots__ = ("_mv", "_off", "_io_start", "_io_end", "_parent", "_root_of", "_params", "_file",
                 "_path", "_index", "_lay", "_pre", "_pkey", "_cache", "__weakref__")

    _FIELDS: ClassVar[tuple[FieldSpec, ...]] = ()
    _INSTANCES: ClassVar[tuple[FieldSpec, ...]] = ()
    _PARAMS: ClassVar[tuple[str, ...]] = ()
    _STATIC: ClassVar[StaticLayout | None] = None
    _STATIC_BY_PARAMS: ClassVar[bool] = False
    _DTYPE: ClassVar[np.dtype[Any] | None] = None
    _TYPE_PATH: ClassVar[str] = ""
    _SCHEMA: ClassVar[str] = ""
    _ENUMS: ClassVar[dict[str, type[IntEnum]]] = {}

    @property
    def _root(self) -> Accessor:
        """The outermost accessor of this buffer (`_root` in schema expressions)."""
        r = self._root_of
        return self if r is None else r

    # -- construction ------------------------------------------------------------------------------
    @classmethod
    def from_buffer(cls: type[A], buf: BufferLike, offset: int = 0, *, file: str | None = None,
                    **params: int) -> A:
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
        if cls.from_buffer.__func__ is not _FROM_BUFFER:  # type: ignore[attr-defined]
            return cls.from_buffer(mv, file=file, **params)
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
            self._check_fixed_size()  # raises
        return self

    def _init(self, mv: memoryview, off: int, io_start: int, io_end: int, parent: Accessor | None,
              root: Accessor | None, params: dict[str, Any], file: str | None, path: str,
              index: int | None) -> None:
        self._mv = mv
        self._off = off
        self._io_start = io_start
        self._io_end = io_end
        self._parent = parent
        self._root_of = root  # None for the root itself: no reference cycle, so a file's mapping
        # is released when its last accessor goes, not at the next garbage collection
        self._params = params
        self._file = file
        self._path = path
        self._index = index
        self._cache: dict[Any, Any] = {}
        cls = type(self)
        if cls._PARAMS:
            key_of = PKEY_OF.get(cls)
            if key_of is None:
                key_of = PKEY_OF[cls] = pkey_getter(cls._PARAMS)
            self._pkey = pkey = key_of(params)
            lay = STATIC_CACHE.get((cls, pkey), MISSING)
            if lay is MISSING:
                lay = cls._static_for(params)
        else:
            self._pkey, lay = (), self._STATIC
        self._lay: StaticLayout | list[tuple[int, int | None, int | None]] | None = lay if lay is not None else []
        if lay is None:  # leading fields whose place depends on params only are located once per class
            pre = type(self)._prefix_for(params)
            # Data shorter than the prefix: walk field by field, so each field gets its bounds check.
            self._pre = pre if off + pre[1] <= io_end else _NO_PREFIX

    def _check_fixed_size(self) -> None:
        lay = self._lay
        if isinstance(lay, StaticLayout) and self._off + lay.size > self._io_end:
            raise FormatError(
                "data too short for the record", file=self._file, path=self._path, offset=self._off,
                expected=f"{lay.size} bytes", found=f"{self._io_end - self._off} bytes",
                hint="the file is truncated or is not this format")

    def _child(self, cls: type[A], off: int, args: dict[str, Any], path: str, *,
               index: int | None = None, io: tuple[int, int] | None = None) -> A:
        obj = cls.__new__(cls)
        start, end = io if io is not None else (self._io_start, self._io_end)
        obj._init(self._mv, off, start, end, self, self._root, args, self._file, path, index)
        obj._check_fixed_size()
        return obj

    # -- layout ------------------------------------------------------------------------------------
    @classmethod
    def _static_for(cls, params: dict[str, Any]) -> StaticLayout | None:
        """Layout of a parameterised type whose sizes depend on params only (cached per params)."""
        key = (cls, tuple([params[p] for p in cls._PARAMS]))
        lay = STATIC_CACHE.get(key, MISSING)
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
            STATIC_CACHE[key] = None if lay is None else record_dtype(cls._FIELDS, lay, params, module_of(cls))
        dt: np.dtype[Any] | None = STATIC_CACHE[key]
        return dt

    def _eval(self, e: Size) -> Any:
        if e is None or isinstance(e, int):
            return e
        if self._PARAMS:  # expressions over params only are evaluated once per class and params
            hit = self._param_only(e)
            if hit is not DATA:
                return hit
        try:
            return ex.evaluate(e, _Scope(self))
        except BinparseError:
            raise
        except Exception as exc:  # an expression over bad data (index out of range, zero division)
            raise FormatError(f"cannot evaluate schema expression: {exc}", file=self._file,
                              path=self._path) from None

    def _spec(self, i: int) -> FieldSpec:
        """Spec of field i: seq fields first, then pos instances."""
        n = len(self._FIELDS)
        return self._FIELDS[i] if i < n else self._INSTANCES[i - n]

    def _loc(self, i: int) -> tuple[int, int | None, int | None]:
        """(absolute offset, count or None, element size or None) of field i."""
        if i >= len(self._FIELDS):
            return self._pos_loc(self._INSTANCES[i - len(self._FIELDS)])
        lay = self._lay
        if isinstance(lay, StaticLayout):
            return self._off + lay.offsets[i], lay.counts[i], lay.elem_sizes[i]
        assert lay is not None
        entries, end = self._pre
        k = len(entries)
        if i < k:
            o, c, z = entries[i]
            return self._off + o, c, z
        while len(lay) <= i - k:
            j = k + len(lay)
            off = self._off + end if j == k else self._end_of(j - 1)
            lay.append(self._place(self._FIELDS[j], off))
        return lay[i - k]

    def _place(self, spec: FieldSpec, off: int) -> tuple[int, int | None, int | None]:
        if spec.cond is not None and not self._eval(spec.cond):
            return off, None, ABSENT
        count = self._eval(spec.count) if spec.count is not None else None
        path = f"{self._path}.{spec.name}"
        if count is not None:
            count = int(count)
            if count < 0:
                raise FormatError("negative repeat count", file=self._file, path=path, offset=off,
                                  expected="a count >= 0", found=count)
        size = self._elem_size(spec)
        if count is not None and not size and count > self._io_end - self._io_start:
            # Records of zero or unknown size: a count beyond the data's byte length cannot be
            # real, and honouring it would loop or allocate without bound.
            raise FormatError("repeat count larger than the data could describe", file=self._file,
                              path=path, offset=off, expected=f"at most {self._io_end - self._io_start}",
                              found=count)
        if size is not None:
            total = size * (1 if count is None else count)
            if size < 0:
                raise FormatError("negative size", file=self._file, path=path, offset=off,
                                  expected="a size >= 0", found=size)
            if off + total > self._io_end:
                raise FormatError(
                    "field runs past the end of the data", file=self._file, path=path, offset=off,
                    expected=f"{total} bytes ({count if count is not None else 1} x {size})",
                    found=f"{max(self._io_end - off, 0)} bytes left",
                    hint="the file is truncated, or a count in it is corrupt")
        return off, count, size

    def _elem_size(self, spec: FieldSpec) -> int | None:
        if spec.kind == "contents":
            return len(spec.contents or b"")
        if spec.kind == "user" and spec.size is None:
            cls = resolve(type(self), spec.user or "")
            lay = cls._STATIC if not cls._PARAMS else cls._static_for(self._args_of(spec.args, cls))
            return None if lay is None else lay.size
        if spec.kind == "switch" and spec.size is None:
            return None
        v = self._eval(spec.size)
        return None if v is None else int(v)

    def _end_of(self, i: int) -> int:
        off, count, size = self._loc(i)
        if size == ABSENT:
            return off
        if size is not None:
            return off + size * (1 if count is None else count)
        spec = self._FIELDS[i]  # variable-size user records: walk them
        n = 1 if count is None else count
        for k in range(n):
            child = self._user_at(spec, off, k if count is not None else None)
            off = child._nbytes_end()
        return off

    def _nbytes_end(self) -> int:
        lay = self._lay
        if isinstance(lay, StaticLayout):
            return self._off + lay.size
        return self._off if not self._FIELDS else self._end_of(len(self._FIELDS) - 1)

    @property
    def nbytes(self) -> int:
        """Bytes this record spans in the buffer."""
        return self._nbytes_end() - self._off

    @property
    def offset(self) -> int:
        """Byte offset of this record in the buffer."""
        return self._off

    def _args_of(self, args: tuple[Expr, ...], cls: type[Accessor]) -> dict[str, Any]:
        return {p: self._eval(a) for p, a in zip(cls._PARAMS, args)}

    def _user_at(self, spec: FieldSpec, off: int, index: int | None) -> Accessor:
        cls: type[Accessor] = resolve(type(self), spec.user or "")
        path = f"{self._path}.{spec.name}" + (f"[{index}]" if index is not None else "")
        io = None
        if spec.size is not None:
            io = (off, off + int(self._eval(spec.size)))
        return self._child(cls, off, self._args_of(spec.args, cls), path, index=index, io=io)

    def _pos_loc(self, spec: FieldSpec) -> tuple[int, int | None, int | None]:
        """Location of a `pos` instance: relative to the start of this record's stream."""
        off = self._io_start + int(self._eval(spec.pos))
        if off < self._io_start or off > self._io_end:
            raise FormatError("instance position outside the data", file=self._file,
                              path=f"{self._path}.{spec.name}", offset=off,
                              expected=f"{self._io_start}..{self._io_end}")
        return self._place(spec, off)

    @property
    def path(self) -> str:
        return self._path

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._path} at offset {self._off}>"


_FROM_BUFFER = Accessor.from_buffer.__func__  # type: ignore[attr-defined]
