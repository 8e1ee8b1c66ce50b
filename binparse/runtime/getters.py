"""The typed getters generated properties call: numbers, arrays, text, records, switches.

A mixin of `Accessor` (kept apart from locating fields and from making accessors): each getter
locates its field through the accessor (`_loc`), reads it, applies its `valid` rule and keeps
what is worth keeping per accessor (`_cache`) or per class and params (`kept`).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from ..errors import FormatError, ValidationError
from ..schema import expr as ex
from .kept import DATA, MISSING, NUMS, PARAM_EXPRS, resolve
from .layout import _ParamScope
from .sequences import RecordArray, StrArray, _decode
from .specs import ABSENT, Expr, FieldSpec, Size, StaticLayout


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
        _lay: StaticLayout | list[tuple[int, int | None, int | None]] | None
        _FIELDS: ClassVar[tuple[FieldSpec, ...]]

        def _eval(self, e: Size) -> Any: ...
        def _spec(self, i: int) -> FieldSpec: ...
        def _loc(self, i: int) -> tuple[int, int | None, int | None]: ...
        def _check(self, spec: FieldSpec, value: Any, off: int) -> None: ...
        def _args_of(self, args: tuple[Expr, ...], cls: Any) -> dict[str, Any]: ...
        def _user_at(self, spec: FieldSpec, off: int, index: int | None) -> Any: ...
        def _child(self, cls: Any, off: int, args: dict[str, Any], path: str, *,
                   index: int | None = None, io: tuple[int, int] | None = None) -> Any: ...

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
        v = struct.unpack_from(spec.fmt or "", self._mv, off)[0]
        if spec.valid is not None:
            self._check(spec, v, off)
        if fast is None and isinstance(self._lay, StaticLayout) and i < len(self._FIELDS):
            self._keep_num(i, spec, off - self._off)
        return v

    def _keep_num(self, i: int, spec: FieldSpec, rel: int) -> None:
        """Remember how to read scalar field i of this class and params: its place is fixed; its
        `valid` rule, when it has one, must be a range whose bounds depend on params only."""
        v = spec.valid
        lo = hi = None
        if v is not None:
            if v.eq is not None or v.any_of is not None or v.in_enum is not None:
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
            except (KeyError, TypeError, ZeroDivisionError, IndexError):
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

    def _array(self, i: int) -> NDArray[Any]:
        hit = self._cache.get(i)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        spec = self._spec(i)
        off, count, size = self._loc(i)
        if size == ABSENT:
            return None  # type: ignore[return-value]
        shape: tuple[int, ...] = (count,) if count is not None else ()
        dt = np.dtype(spec.np)
        if spec.kind in ("bytes", "contents"):
            shape += (size or 0,)
        arr: NDArray[Any] = np.ndarray(shape, dt, buffer=self._mv, offset=off)
        if spec.valid is not None and spec.kind != "str":  # strings are checked decoded (_str, _strs)
            self._check(spec, arr, off)
        if spec.kind == "contents" and spec.contents is not None and bytes(arr) != spec.contents:
            raise ValidationError("magic bytes differ", file=self._file, path=f"{self._path}.{spec.name}",
                                  offset=off, expected=spec.contents, found=bytes(arr))
        self._cache[i] = arr
        return arr

    def _str(self, i: int) -> Any:
        spec = self._spec(i)
        off, _, size = self._loc(i)
        if size == ABSENT:
            return None
        raw = bytes(self._mv[off:off + (size or 0)])
        text = _decode(raw, spec.encoding or "ascii", spec.zero_terminated, self, f"{self._path}.{spec.name}")
        if spec.valid is not None:
            self._check(spec, text, off)
        return text

    def _strs(self, i: int) -> Any:
        spec = self._spec(i)
        if self._loc(i)[2] == ABSENT:
            return None
        out = StrArray(self._array(i), spec.encoding or "ascii", spec.zero_terminated, self,
                       f"{self._path}.{spec.name}")
        if spec.valid is not None:
            self._check(spec, np.array(list(out), dtype=object), self._loc(i)[0])
        return out

    def _obj(self, i: int) -> Any:
        hit = self._cache.get(i)
        if hit is None:
            if self._loc(i)[2] == ABSENT:
                return None
            hit = self._user_at(self._spec(i), self._loc(i)[0], None)
            self._cache[i] = hit
        return hit

    def _objs(self, i: int) -> Any:
        hit = self._cache.get(i)
        if hit is None:
            spec = self._spec(i)
            off, count, size = self._loc(i)
            if size == ABSENT:
                return None
            cls = resolve(type(self), spec.user or "")
            n = count or 0
            offsets: Sequence[int]
            if size is not None:
                offsets = range(off, off + n * size, size) if size else [off] * n
            else:
                offsets = []
                for k in range(n):
                    offsets.append(off)
                    off = self._user_at(spec, off, k)._nbytes_end()
            hit = RecordArray(self, cls, offsets, self._args_of(spec.args, cls), f"{self._path}.{spec.name}",
                              substream=size if spec.size is not None else None)
            self._cache[i] = hit
        return hit

    def _switch(self, i: int) -> Any:
        hit = self._cache.get(i)
        if hit is not None:
            return hit
        spec = self._spec(i)
        off, count, size = self._loc(i)
        if size == ABSENT:
            return None
        on = self._eval(spec.switch_on)
        target = spec.default
        for key, cname, args in spec.cases:
            if on == key:
                target = (cname, args)
                break
        if target is None:
            if size is None:
                raise FormatError("no case of the switch matches and it has no size to skip",
                                  file=self._file, path=f"{self._path}.{spec.name}", offset=off,
                                  expected=[k for k, _, _ in spec.cases], found=on)
            hit = np.ndarray((size,), np.uint8, buffer=self._mv, offset=off)
        else:
            cls = resolve(type(self), target[0])
            io = (off, off + size) if size is not None else None
            hit = self._child(cls, off, self._args_of(target[1], cls), f"{self._path}.{spec.name}", io=io)
        self._cache[i] = hit
        return hit

