"""Repeats whose elements differ, placed one element after another (a mixin of `Accessor`).

`expr`, `eos` and `until` repeats of elements whose size is not known before they are read, placed
by the interpreter's `_one`, which names the element and its offset in any error (a user's
records are read whole by their compiled readers first: `runtime.compiled`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...core import budget
from ...core.errors import FormatError
from . import stream as st
from .specs import VARIES, FieldSpec


_USES: dict[tuple[int, str], tuple[Any, bool]] = {}  # (id(expression), name) -> (the expression, whether it reads name)


def uses(e: Any, name: str) -> bool:
    """Whether expression `e` reads the bare name `name` (worked out once per expression and name)."""
    key = (id(e), name)
    hit = _USES.get(key)
    if hit is None or hit[0] is not e:  # the expression itself is kept: its id is not reused while it is here
        from ..expr import names
        hit = _USES[key] = (e, name in names(e))
    return hit[1]


class Ext:
    """What a field's place needs beyond (offset, count, element size): the position after it
    (bit state included), each element's item when elements differ, the stream it was read from."""

    __slots__ = ("end", "items", "mv", "io")

    def __init__(self, end: st.Pos, items: list[Any] | None = None, mv: memoryview | None = None,
                 io: tuple[int, int] | None = None) -> None:
        self.end, self.items, self.mv, self.io = end, items, mv, io


class Repeats:
    """Placing the elements of a repeat (see the module doc)."""

    __slots__ = ()

    if TYPE_CHECKING:
        _mv: memoryview
        _io_start: int
        _io_end: int
        _file: str | None
        _ext: dict[int, Any]
        _DEBUG: ClassVar[bool]

        def _one(self, spec: FieldSpec, pos: Any, k: int | None, io: Any, need_end: bool = False) -> Any: ...
        def _uniform_size(self, spec: FieldSpec, pos: Any, io: Any) -> int | None: ...
        def _eval_at(self, e: Any, pos: Any, io: Any = None, index: Any = None, elem: Any = ...,
                     own: tuple[str, Any] | None = None) -> Any: ...
        def _int_at(self, e: Any, pos: Any, io: Any, what: str, path: str, index: Any = None) -> int: ...
        def _args_at(self, args: Any, cls: Any, pos: Any, io: Any, index: int | None = None) -> dict[str, Any]: ...
        def _elem_value(self, spec: FieldSpec, i: int, k: int | None, start: int, item: Any, io: Any,
                        size: int | None = None) -> Any: ...

    def _place_items(self, i: int, spec: FieldSpec, pos: st.Pos, io: Any, rep: str, items: list[Any], s0: int,
                     path: str, ext_mv: Any, ext_io: Any) -> tuple[int, int | None, int | None]:
        """A repeat read element by element (elements that differ, or a repeat-until)."""
        mv, start, end = io[:3] if io is not None else (self._mv, self._io_start, self._io_end)
        uniform = self._uniform_size(spec, pos, io) if rep == "until" else None
        special = ext_mv is not None or ext_io is not None
        n = -1
        if rep == "expr":
            n = self._int_at(spec.count, pos, io, "repeat count", path)
            if n < 0:
                raise FormatError("negative repeat count", file=self._file, path=path, offset=s0,
                                  expected="a count >= 0", found=n)
            if n > end - s0 + 1:
                budget.ask(8 * n, f"the {n:,} elements of {path}", file=self._file)
        if rep in ("expr", "eos") and self._DEBUG and spec.kind == "user":
            pos = self._debug_items(spec, pos, io, n, items, end)
        elif rep == "expr":
            stuck = 0
            for k in range(len(items), n):
                before = pos
                _, pos, item = self._one(spec, pos, k, io, True)
                items.append(item)
                stuck = stuck + 1 if pos == before else 0
                if stuck > max(1024, end - start):  # records of no size, more than the data could describe
                    raise FormatError("repeat count larger than the data could describe", file=self._file,
                                      path=path, offset=st.aligned(pos), expected=f"at most {end - start}", found=n)
        elif rep == "eos":
            while type(pos) is not int or pos < end:
                before = pos
                _, pos, item = self._one(spec, pos, len(items), io, True)
                items.append(item)
                if pos == before:
                    raise FormatError("repeat: eos over elements that take no bytes would never end",
                                      file=self._file, path=path, offset=st.aligned(pos))
        else:
            stuck = 0
            while True:
                k = len(items)
                if uniform is not None:
                    s = st.aligned(pos)
                    if s + uniform > end:
                        raise st.eof_error(uniform, end - s, file=self._file, path=f"{path}[{k}]", offset=s)
                    after, item = s + uniform, None
                else:
                    s, after, item = self._one(spec, pos, k, io, True)
                items.append(item)
                value = self._elem_value(spec, i, k, s, item, io, uniform)
                before, pos = pos, after
                if self._eval_at(spec.until, pos, io, k, value):
                    break
                stuck = stuck + 1 if pos == before else 0
                if pos == before and type(pos) is int and pos >= end or stuck > max(1024, end - start):
                    raise FormatError("repeat: until over elements that take no bytes, and its condition does not "
                                      "hold: it would never end", file=self._file, path=path, offset=st.aligned(pos))
            if uniform is not None:
                if special:
                    self._ext[i] = Ext(pos, None, ext_mv, ext_io)
                return s0, len(items), uniform
        self._ext[i] = Ext(pos, items, ext_mv, ext_io)
        return s0, len(items), VARIES

    def _debug_items(self, spec: FieldSpec, pos: Any, io: Any, n: int, items: list[Any], end: int) -> Any:
        """Records of a repeat in a ks-debug schema: read one after another; the one the data cuts short
        is kept (as Kaitai's debug mode keeps it: its fields raise when read) and ends the repeat."""
        while len(items) < n if n >= 0 else type(pos) is not int or pos < end:
            before = pos
            try:
                _, pos, item = self._one(spec, pos, len(items), io, True)
            except FormatError:
                items.append(before)  # placed at its start: read when asked for, the error then named
                return end
            items.append(item)
            if pos == before and n < 0:
                raise FormatError("repeat: eos over elements that take no bytes would never end",
                                  file=self._file, path=spec.name, offset=st.aligned(pos))
        return pos
