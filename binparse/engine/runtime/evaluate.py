"""Expressions of a record: evaluated where Kaitai evaluates them, with what they may name.

A mixin of `Accessor`: `_eval` (an expression over params only is worked out once per class and
params), `_eval_at` (while a field is read: `_io.pos` is where the read stands, `_index` the
element of a repeat, `_` the element just read), the arguments of a child's params, the record's
stream (`_io`) and its byte order when `meta/endian` is a switch (`_is_le`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .. import expr as ex
from ..expr.values import KaitaiTypeError, checked
from ...core.errors import BinparseError, FormatError
from . import stream as st
from .kept import DATA
from .specs import Expr, Size

_NO_ELEM = object()
_SEQ_ONLY: dict[tuple[type, int], tuple[Any, bool]] = {}  # (class, id(expression)) -> (it, reads seq fields only)


def _of_seq(cls: type, e: Any) -> bool:
    """Whether `e` reads only the seq fields and params of a record of `cls`, with plain operators (no
    `_io`, no instance, no attribute of another record): its value does not depend on where a read stands."""
    key = (cls, id(e))
    hit = _SEQ_ONLY.get(key)
    if hit is None or hit[0] is not e:
        fields = {f.name for f in getattr(cls, "_FIELDS", ())} | set(getattr(cls, "_PARAMS", ()))
        ok = all(n[0] in ("num", "str", "bin", "un", "cond") or n[0] == "name" and n[1] in fields
                 for n in ex.nodes(e))
        hit = _SEQ_ONLY[key] = (e, ok)
    return hit[1]
NO_ROOT: Any = object()  # `_root_of` of a record read as a nested type of another schema


class _Scope:
    __slots__ = ("acc", "pos", "io", "index", "elem", "own")

    def __init__(self, acc: Any, pos: Any = None, io: Any = None, index: Any = None,
                 elem: Any = _NO_ELEM, own: tuple[str, Any] | None = None) -> None:
        self.acc, self.pos, self.io, self.index, self.elem, self.own = acc, pos, io, index, elem, own

    def lookup(self, name: str) -> Any:
        own = self.own
        if own is not None and name == own[0]:  # a field's own name in its `valid`: the value being checked
            return own[1]
        a = self.acc
        if name[0] == "_":
            if name == "_root":
                return a._root
            if name == "_parent":
                return a._parent
            if name == "_io":
                return a._stream(self.pos, self.io)
            if name == "_index":
                return self.index if self.index is not None else a._index
            if name == "_" and self.elem is not _NO_ELEM:
                return self.elem
            if name == "_is_le":
                return a._is_le
            if name == "_sizeof":
                return a._nbytes_end() - a._off
        if name in a._params:
            return a._params[name]
        py = a._MEMBERS.get(name)  # the record's declared fields and instances (its class's table)
        if py is None:
            raise KaitaiTypeError(f"'{name}' is not a field, instance or param of {a._TYPE_PATH!r}")
        return getattr(a, py)

    def enum_value(self, enum: str, member: str) -> int:  # generator resolves enum literals
        raise BinparseError(f"unresolved enum literal {enum}::{member}")


class Evaluate:
    """Evaluating a record's expressions (see the module doc)."""

    __slots__ = ()

    if TYPE_CHECKING:
        _mv: memoryview
        _off: int
        _io_start: int
        _io_end: int
        _file: str | None
        _path: str
        _params: dict[str, Any]
        _cache: dict[Any, Any]
        _parent: Any
        _own_io: bool
        _PARAMS: ClassVar[tuple[str, ...]]
        _ENDIAN: ClassVar[Any]
        _INHERITS_ENDIAN: ClassVar[bool]

        def _param_only(self, e: Size) -> Any: ...
        def _seq_end(self) -> Any: ...
        def _nbytes_end(self) -> int: ...

    def _value(self, fn: Any, name: str) -> Any:
        """A value instance's expression, run: bad data gives a `FormatError` naming the instance, kept
        and raised again when the instance is asked again (an instance that names a failing one twice,
        in a chain of them, is worked out once, not once per path to it)."""
        failed = self._cache.get(("!", name))
        if failed is not None:
            raise failed.with_traceback(None)
        try:
            return checked(fn())
        except Exception as exc:
            err = self._value_error(exc, name)
            self._cache[("!", name)] = err
            raise err from None

    def _value_error(self, exc: Exception, name: str) -> Exception:
        """The error to raise for value instance `name` whose expression raised `exc`."""
        if isinstance(exc, BinparseError):
            return exc
        return self._expr_error(exc, f"{self._path}.{name}")

    def _expr_error(self, exc: Exception, path: str) -> FormatError:
        """The error of an expression over bad data (index out of range, zero division, too large)."""
        err = FormatError(f"cannot evaluate schema expression: {exc}", file=self._file, path=path)
        if isinstance(exc, ValueError) and not isinstance(exc, UnicodeError):
            err.kaitai = "ConversionError"  # type: ignore[attr-defined]
        return err

    # -- expressions -------------------------------------------------------------------------------
    def _eval(self, e: Size) -> Any:
        if e is None or isinstance(e, int):
            return e
        if self._PARAMS:  # expressions over params only are evaluated once per class and params
            hit = self._param_only(e)
            if hit is not DATA:
                return hit
        return self._run(e, _Scope(self))

    def _eval_own(self, e: Size, name: str, value: Any) -> Any:
        """`e` (a bound of field `name`'s `valid`) where the field's own name is the value checked (as
        in Kaitai, which checks a value once it is read: asking the field would read it again)."""
        if e is None or isinstance(e, int) or name not in ex.names(e):
            return self._eval(e)
        return self._run(e, _Scope(self, own=(name, value)))

    def _int_at(self, e: Any, pos: Any, io: Any, what: str, path: str, index: Any = None) -> int:
        """A size or a count: `e` evaluated at `pos`, which must be an integer (a null, from a
        value whose `if` is false, or a float is a FormatError naming the field, never a guess)."""
        v = self._eval_at(e, pos, io, index)
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise FormatError(f"the {what} of this field is not an integer", file=self._file, path=path,
                              expected=f"an integer {what}", found="null" if v is None else repr(v))
        if v < 0:  # a negative size or count is no size: said here, once, for every way a field is placed
            raise FormatError(f"negative {what}", file=self._file, path=path, expected=f"a {what} >= 0", found=int(v))
        return int(v)

    def _eval_at(self, e: Any, pos: Any, io: Any = None, index: Any = None, elem: Any = _NO_ELEM,
                 own: tuple[str, Any] | None = None) -> Any:
        """`e` evaluated while reading at `pos` (what `_io.pos` says), element `index` of a repeat
        (`_index`), `elem` the element just read (`_` in repeat-until and valid/expr), `own` a field's
        name and the value its `valid` checks."""
        if e is None or isinstance(e, int):
            return e
        if index is None and elem is _NO_ELEM and own is None:
            if self._PARAMS:
                hit = self._param_only(e)
                if hit is not DATA:
                    return hit
            if io is None and _of_seq(type(self), e):  # reads seq fields only: where the reading stands is moot
                return self._run(e, _Scope(self))
        if io is not None and len(io) > 3:  # an instance read from another stream (`io:`): its expressions
            pos, io = io[3], None  # still see this record's own stream, where it stands
        s = io if io is not None else (self._mv, self._io_start, self._io_end)
        st.AT.append((s[0], s[1], s[2], st.aligned(pos) if pos is not None else None))
        try:
            return self._run(e, _Scope(self, pos, io, index, elem, own))
        finally:
            st.AT.pop()

    def _run(self, e: Expr, scope: _Scope) -> Any:
        try:
            return ex.evaluate(e, scope)
        except BinparseError:
            raise
        except Exception as exc:
            raise self._expr_error(exc, self._path) from None

    def _args_of(self, args: tuple[Expr, ...], cls: Any) -> dict[str, Any]:
        """A child's params (each checked as a value instance is: params handed on from record to record
        grow no integer past values.MAX_INT_BITS)."""
        return {p: self._arg(self._eval(a)) for p, a in zip(cls._PARAMS, args)}

    def _arg(self, v: Any) -> Any:
        try:
            return checked(v)
        except KaitaiTypeError as exc:
            raise self._expr_error(exc, self._path) from None

    def _args_at(self, args: tuple[Expr, ...], cls: Any, pos: Any, io: Any,
                 index: int | None = None) -> dict[str, Any]:
        if not args:
            return {}
        return {p: self._arg(self._eval_at(a, pos, io, index)) for p, a in zip(cls._PARAMS, args)}

    def _stream(self, pos: Any, io: Any) -> st.KStream:
        mv, start, end = io[:3] if io is not None else (self._mv, self._io_start, self._io_end)
        if pos is None:
            here = st.current(mv, start, end)
            pos = here if here is not None else self._sharer_end()
        return st.KStream(mv, start, end, st.aligned(pos), type(pos) is tuple)

    def _sharer_end(self) -> Any:
        """Where Kaitai's stream stands once its reading is done: after the seq of the outermost
        record reading from this record's stream."""
        top: Any = self
        p = self._parent
        while not top._own_io and isinstance(p, Evaluate) and p._mv is self._mv:
            top, p = p, p._parent
        return top._seq_end()

    @property
    def _is_le(self) -> bool:
        """The byte order of this record (`meta/endian` as a switch): decided once, on first use."""
        le: bool | None = getattr(self, "_le")
        if le is None:
            spec = self._ENDIAN
            if spec is None:
                if self._INHERITS_ENDIAN and isinstance(self._parent, Evaluate):
                    le = self._parent._is_le
                else:
                    le = True
            else:
                from ..expr import values as kv
                on = self._eval_at(spec[0], self._off)
                le = next((is_le for key, is_le in spec[1] if key is None or kv.eq(on, self._eval_at(key[1], self._off)
                           if type(key) is tuple and key and key[0] == "expr" else key)), None)
                if le is None:
                    err = FormatError("the byte order switch has no case for this value", file=self._file,
                                      path=self._path, offset=self._off, found=on,
                                      expected=[k for k, _ in spec[1]])
                    err.kaitai = "UndecidedEndiannessError"  # type: ignore[attr-defined]
                    raise err
            setattr(self, "_le", le)  # the accessor's slot (this mixin has none of its own)
        return le

