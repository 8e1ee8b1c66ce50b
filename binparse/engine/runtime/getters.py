"""The typed getters generated properties call: numbers, bits, arrays, text, records, switches.

A mixin of `Accessor` (kept apart from locating fields and from making accessors): each getter
locates its field through the accessor (`_loc`, `_x`), reads it, applies its `valid` rule and
keeps what is worth keeping per accessor (`_cache`) or per class and params (`kept`).
"""

from __future__ import annotations

import struct
from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from .. import expr as ex
from ...core.errors import FormatError, ValidationError
from . import stream as st
from .kept import DATA, MISSING, NUMS, PARAM_EXPRS, resolve
from .layout import _ParamScope
from .sequences import ItemArray, RecordArray, StrArray, _decode
from .specs import ABSENT, VARIES, Expr, FieldSpec, Size, StaticLayout

_SWAP = str.maketrans("<>", "><")


def _ordered(code: str | None, le: bool) -> str:
    """A struct or numpy type code in the byte order of a record whose order is decided per record."""
    return (code or "") if le else (code or "").translate(_SWAP)


class Getters:
    """Typed getters over an accessor's record (see `Accessor`)."""

    __slots__ = ()

    if TYPE_CHECKING:
        _mv: memoryview
        _off: int
        _file: str | None
        _path: str
        _params: dict[str, Any]
        _pkey: tuple[Any, ...]
        _cache: dict[Any, Any]
        _ext: dict[int, Any]
        _lay: StaticLayout | list[tuple[int, int | None, int | None]] | None
        _io_start: int
        _io_end: int
        _FIELDS: ClassVar[tuple[FieldSpec, ...]]
        _ENUMS: ClassVar[dict[str, type[IntEnum]]]
        _ENDIAN: ClassVar[Any]
        _INHERITS_ENDIAN: ClassVar[bool]

        @property
        def _is_le(self) -> bool: ...
        def _eval(self, e: Size) -> Any: ...
        def _eval_at(self, e: Any, pos: Any, io: Any = None, index: Any = None, elem: Any = ...,
                     own: tuple[str, Any] | None = None) -> Any: ...
        def _spec(self, i: int) -> FieldSpec: ...
        def _loc(self, i: int) -> tuple[int, int | None, int | None]: ...
        def _x(self, i: int) -> Any: ...
        def _case(self, spec: FieldSpec, pos: Any, k: int | None, io: Any) -> FieldSpec | None: ...
        def _check(self, spec: FieldSpec, value: Any, off: int) -> None: ...
        def _args_of(self, args: tuple[Expr, ...], cls: Any) -> dict[str, Any]: ...
        def _child_at(self, spec: FieldSpec, pos: Any, index: int | None, io: Any, item: Any) -> Any: ...
        def _child(self, cls: Any, off: int, args: dict[str, Any], path: str, *,
                   index: int | None = None, io: tuple[int, int] | None = None, mv: Any = None,
                   bit0: Any = None, parent: Any = None) -> Any: ...

    # -- numbers -------------------------------------------------------------------------------------
    def _num(self, i: int) -> Any:
        fast = NUMS.get((type(self), self._pkey, i))
        if fast is not None:  # a fixed place and a range known from the params: no lookups
            unpack, rel, lo, hi = fast
            v = unpack(self._mv, self._off + rel)[0]
            if (lo is None or v >= lo) and (hi is None or v <= hi):
                return v
        spec = self._spec(i)
        off, _, size = self._loc(i)
        if size == ABSENT:
            return None
        ext = self._ext.get(i) if self._ext else None
        mv = ext.mv if ext is not None and ext.mv is not None else self._mv
        fmt = _ordered(spec.fmt, self._is_le) if spec.calc_endian else spec.fmt or ""
        v = struct.unpack_from(fmt, mv, off)[0]
        if spec.valid is not None:
            self._check(spec, v, off)
        if fast is None and isinstance(self._lay, StaticLayout) and i < len(self._FIELDS) and not spec.calc_endian:
            self._keep_num(i, spec, off - self._off)
        return v

    def _keep_num(self, i: int, spec: FieldSpec, rel: int) -> None:
        """Remember how to read scalar field i of this class and params: its place is fixed; its
        `valid` rule, when it has one, must be a range whose bounds depend on params only."""
        v = spec.valid
        lo = hi = None
        if v is not None:
            if v.eq is not None or v.any_of is not None or v.in_enum is not None or v.expr is not None:
                return
            lo, hi = self._param_only(v.min), self._param_only(v.max)
            if lo is DATA or hi is DATA:
                return
        NUMS[(type(self), self._pkey, i)] = (struct.Struct(spec.fmt or "").unpack_from, rel, lo, hi)

    def _param_only(self, e: Size) -> Any:
        """The value of an expression over params only (cached per class and params), else DATA."""
        if e is None or isinstance(e, int):
            return e
        key = (id(e), type(self), self._pkey)
        hit = PARAM_EXPRS.get(key, MISSING)
        if hit is MISSING:
            try:
                hit = ex.evaluate(e, _ParamScope(self._params))
            except Exception:
                hit = DATA
            PARAM_EXPRS[key] = hit
        return hit

    def _enum(self, i: int, enum: type[IntEnum]) -> Any:
        v = self._num(i)
        if v is None:
            return None
        try:
            return enum(v)
        except ValueError:
            return v

    # -- any field -----------------------------------------------------------------------------------
    def _get(self, i: int) -> Any:
        """The value of field i, whatever its kind (cached for arrays, records and text)."""
        hit = self._cache.get(i, MISSING)
        if hit is not MISSING:
            return hit
        spec = self._spec(i)
        building = self._cache.get(~i)
        if building is not None:  # asked for while its elements are read: those read so far, as in Kaitai
            return self._elements(spec, i, building[0], building[1])
        off, count, size = self._loc(i)
        if size == ABSENT:
            return None
        ext = self._ext.get(i) if self._ext else None
        io = (ext.mv or self._mv, *ext.io) if ext is not None and ext.io is not None else \
            (ext.mv, self._io_start, self._io_end) if ext is not None and ext.mv is not None else None
        if count is None and spec.repeat is None and spec.count is None:
            item = ext.items[0] if ext is not None and ext.items else None
            value = self._elem_value(spec, i, None, off, item, io, size)
        elif ext is not None and ext.items is not None:
            value = self._elements(spec, i, ext.items, io)
        else:
            value = self._uniform_elements(spec, i, off, count or 0, size or 0, io)
        if spec.valid is not None:
            self._check(spec, np.array(list(value), dtype=object) if isinstance(value, (list, StrArray))
                        else value, off)
        self._cache[i] = value
        return value

    def _elements(self, spec: FieldSpec, i: int, items: list[Any], io: Any) -> Any:
        if spec.kind in ("user", "switch"):
            return ItemArray(self, spec, i, items, io, f"{self._path}.{spec.name}")
        return [self._elem_value(spec, i, k, 0, item, io, None) for k, item in enumerate(items)]

    def _uniform_elements(self, spec: FieldSpec, i: int, off: int, n: int, size: int, io: Any) -> Any:
        mv = io[0] if io is not None else self._mv
        kind = spec.kind
        if kind == "prim":
            dt = np.dtype(_ordered(spec.np, self._is_le) if spec.calc_endian else spec.np)
            return np.ndarray((n,), dt, buffer=mv, offset=off)  # enums too: an array of their codes
        if kind == "user":
            cls = resolve(type(self), spec.user or "")
            if spec.parent is None and (spec.size is None or spec.pad is None and spec.term is None
                                        and spec.process is None):
                args = self._args_of(spec.args, cls)
                return RecordArray(self, cls, range(off, off + n * size, size) if size else [off] * n, args,
                                   f"{self._path}.{spec.name}", None if spec.size is None else size,
                                   mv if io is not None else None, (io[1], io[2]) if io is not None else None)
            return ItemArray(self, spec, i, [None] * n, io, f"{self._path}.{spec.name}", off, size)
        if kind in ("bytes", "contents") and spec.pad is None and spec.term is None and spec.process is None:
            return np.ndarray((n, size), np.uint8, buffer=mv, offset=off)
        if kind == "str" and spec.pad is None and spec.encoding is not None and spec.process is None:
            arr2: NDArray[Any] = np.ndarray((n,), f"S{size}", buffer=mv, offset=off)
            return StrArray(arr2, spec.encoding, spec.zero_terminated, self, f"{self._path}.{spec.name}", spec.term)
        return [self._elem_value(spec, i, k, off + k * size, None, io, size) for k in range(n)]

    def _elem_value(self, spec: FieldSpec, i: int, k: int | None, start: int, item: Any, io: Any,
                    size: int | None = None) -> Any:
        """The value of one element: from its item when elements differ, else from `start` and `size`."""
        mv = io[0] if io is not None else self._mv
        kind = spec.kind
        if kind == "switch":
            if item is None:  # a fixed-size switch: its case is worked out when the element is read
                case = self._case(spec, start, k, io)
                inner = None if case is None else self._item_of(case, mv, start, size, k)
            else:
                case, inner = item
            return None if case is None else self._elem_value(case, i, k, start, inner, io, size)
        if kind == "prim":
            fmt = _ordered(spec.fmt, self._is_le) if spec.calc_endian else spec.fmt or ""
            v = struct.unpack_from(fmt, mv, start)[0]
            return self._enumed(spec, v)
        if kind == "bits":
            return self._enumed(spec, item) if spec.enum is not None else (bool(item) if spec.bits == 1 else item)
        if item is None and kind != "prim":
            item = self._item_of(spec, mv, start, size, k)
        if kind == "user":
            return self._child_at(spec, item, k, io, item)
        data = self._bytes(spec, mv, start, item, size)
        if kind == "str":
            raw = data.tobytes() if isinstance(data, np.ndarray) else bytes(data)
            path = f"{self._path}.{spec.name}" + (f"[{k}]" if k is not None else "")
            return _decode(raw, spec.encoding or "ascii", False, self, path)
        if kind == "contents" and spec.contents is not None and data.tobytes() != spec.contents:
            err = ValidationError("magic bytes differ", file=self._file, path=f"{self._path}.{spec.name}",
                                  offset=start, expected=spec.contents, found=data.tobytes())
            err.kaitai = "ValidationNotEqualError"  # type: ignore[attr-defined]
            raise err
        return data

    def _item_of(self, spec: FieldSpec, mv: memoryview, start: int, size: int | None, k: int | None) -> Any:
        """The item of an element of fixed size (where its value lies once padding and terminator
        are taken off; the processed bytes when it has `process`)."""
        if spec.kind == "user" and spec.size is None:
            return start
        stop = start + (size or 0)
        if spec.pad is not None or spec.term is not None:
            stop = st.strip_and_terminate(mv, start, stop, spec.pad, spec.term, spec.include)
        if spec.process is not None:
            key = ("p", spec.name, k, start)
            data = self._cache.get(key)
            if data is None:
                name, args = spec.process
                data = self._cache[key] = st.process(name, [self._eval_at(a, start + (size or 0), None, k) for a in args],
                                                     mv[start:stop], self._file, f"{self._path}.{spec.name}")
            return ("p", data)
        return (start, stop)

    def _bytes(self, spec: FieldSpec, mv: memoryview, start: int, item: Any, size: int | None) -> NDArray[np.uint8]:
        if type(item) is tuple and item and item[0] == "p":
            processed: NDArray[np.uint8] = np.frombuffer(item[1], np.uint8)
            return processed
        if item is not None:
            s, stop = item
        else:
            s, stop = start, start + (size or 0)
            if spec.pad is not None or spec.term is not None:
                stop = st.strip_and_terminate(mv, s, stop, spec.pad, spec.term, spec.include)
        view: NDArray[np.uint8] = np.ndarray((stop - s,), np.uint8, buffer=mv, offset=s)
        return view

    def _enumed(self, spec: FieldSpec, v: Any) -> Any:
        if spec.enum is None:
            return v
        enum = type(self)._ENUMS.get(spec.enum)
        return v if enum is None else _as_enum(enum, v)

    # -- the getters generated properties name -------------------------------------------------------
    def _array(self, i: int) -> NDArray[Any]:
        hit = self._cache.get(i)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        spec = self._spec(i)
        if spec.kind == "prim" and spec.calc_endian or spec.process is not None \
                or spec.pad is not None or spec.term is not None or spec.size_eos:
            return self._get(i)  # type: ignore[no-any-return]
        off, count, size = self._loc(i)
        if size == ABSENT:
            return None  # type: ignore[return-value]
        if size == VARIES:
            return self._get(i)  # type: ignore[no-any-return]
        ext = self._ext.get(i) if self._ext else None
        mv = ext.mv if ext is not None and ext.mv is not None else self._mv
        shape: tuple[int, ...] = (count,) if count is not None else ()
        dt = np.dtype(spec.np)
        if spec.kind in ("bytes", "contents"):
            shape += (size or 0,)
        arr: NDArray[Any] = np.ndarray(shape, dt, buffer=mv, offset=off)
        if spec.valid is not None and spec.kind != "str":  # strings are checked decoded (_str, _strs)
            self._check(spec, arr, off)
        if spec.kind == "contents" and spec.contents is not None and arr.tobytes() != spec.contents * (count or 1):
            err = ValidationError("magic bytes differ", file=self._file, path=f"{self._path}.{spec.name}",
                                  offset=off, expected=spec.contents, found=arr.tobytes())
            err.kaitai = "ValidationNotEqualError"  # type: ignore[attr-defined]
            raise err
        self._cache[i] = arr
        return arr

    def _str(self, i: int) -> Any:
        return self._get(i)

    def _strs(self, i: int) -> Any:
        return self._get(i)

    def _obj(self, i: int) -> Any:
        return self._get(i)

    def _objs(self, i: int) -> Any:
        return self._get(i)

    def _switch(self, i: int) -> Any:
        return self._get(i)

    def _bits(self, i: int) -> Any:
        return self._get(i)


def _as_enum(enum: type[IntEnum], v: int) -> Any:
    try:
        return enum(v)
    except ValueError:
        return v


__all__ = ["FormatError", "Getters"]
