"""What reads a record as a whole: `valid` rules, `validate()`, rows and plain copies.

A mixin of `Accessor` (kept apart so that the accessor module holds locating and typed getters
only); it uses the accessor's buffer, place and getters, declared below for the type checker.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from enum import IntEnum
from keyword import iskeyword

import numpy as np
from numpy.typing import NDArray

from ...core.errors import BinparseError, FormatError, ValidationError
from .rows import RowPlan, row_plan
from .sequences import ItemArray, RecordArray, StrArray, _decode
from .specs import FieldSpec, Size, StaticLayout

_ROW_PLANS: dict[Any, tuple[StaticLayout, RowPlan]] = {}  # (class, id(layout), blocks or key) -> (layout, plan)


class Whole:
    """Validation, rows and copies of an accessor's record."""

    __slots__ = ()

    if TYPE_CHECKING:
        _FIELDS: ClassVar[tuple[FieldSpec, ...]]
        _TYPE_PATH: ClassVar[str]
        _mv: memoryview
        _off: int
        _file: str | None
        _path: str
        _pkey: tuple[Any, ...]
        _lay: StaticLayout | list[tuple[int, int | None, int | None]] | None

        def _eval(self, e: Size) -> Any: ...
        def _eval_own(self, e: Size, name: str, value: Any) -> Any: ...
        def _eval_at(self, e: Any, pos: Any, io: Any = None, index: Any = None, elem: Any = ...,
                     own: tuple[str, Any] | None = None) -> Any: ...
        def _array(self, i: int) -> NDArray[Any]: ...
        def _loc(self, i: int) -> tuple[int, int | None, int | None]: ...
        def _child(self, cls: Any, off: int, args: dict[str, Any], path: str, *,
                   index: int | None = None, io: tuple[int, int] | None = None, mv: Any = None) -> Any: ...
        def _elem_value(self, spec: FieldSpec, i: int, k: int | None, start: int, item: Any, io: Any,
                        size: int | None = None) -> Any: ...

    # -- validation --------------------------------------------------------------------------------
    def _check(self, spec: FieldSpec, value: Any, off: int) -> None:
        v = spec.valid
        assert v is not None
        if v.expr is not None:
            self._check_expr(spec, value, off)
            return
        if spec.kind in ("bytes", "contents") and isinstance(value, np.ndarray) and value.ndim == 1:
            self._check_bytes(spec, value, off)
            return
        if not isinstance(value, np.ndarray) and v.eq is None and v.any_of is None and v.in_enum is None:
            lo, hi = self._eval_own(v.min, spec.name, value), self._eval_own(v.max, spec.name, value)
            if (lo is None or value >= lo) and (hi is None or value <= hi):
                return  # the common scalar range check, without numpy
        arr = np.asarray(value) if not isinstance(value, (list, tuple)) else np.array(value, dtype=object)
        bad: Any = None
        expected = ""
        kind = "ValidationNotEqualError"
        if v.eq is not None:
            want = self._eval_own(v.eq, spec.name, value)
            bad, expected = arr != want, f"{want}"
        elif v.any_of is not None:
            allowed = [self._eval_own(e, spec.name, value) for e in v.any_of]
            bad, expected, kind = ~np.isin(arr, allowed), f"one of {allowed}", "ValidationNotAnyOfError"
        elif v.in_enum is not None:
            bad, expected = ~np.isin(arr, v.in_enum), f"a value of enum {spec.enum} {list(v.in_enum)}"
            kind = "ValidationNotInEnumError"
        else:
            lo, hi = self._eval_own(v.min, spec.name, value), self._eval_own(v.max, spec.name, value)
            bad = np.zeros(arr.shape, bool)
            kind = "ValidationLessThanError"
            if lo is not None:
                bad |= arr < lo
            if hi is not None and not np.any(bad):
                bad |= arr > hi
                kind = "ValidationGreaterThanError"
            expected = f"{'' if lo is None else lo}..{'' if hi is None else hi}"
        if np.any(bad):
            path = f"{self._path}.{spec.name}"
            where = off
            found = value
            if arr.ndim:
                k = int(np.flatnonzero(bad)[0])
                path += f"[{k}]"
                where = off + k * arr.dtype.itemsize
                found = arr.flat[k].item()
            err = ValidationError("value breaks the schema's valid rule", file=self._file, path=path,
                                  offset=where, expected=expected, found=found)
            err.kaitai = kind  # type: ignore[attr-defined]
            raise err

    def _check_expr(self, spec: FieldSpec, value: Any, off: int) -> None:
        """`valid/expr`: the expression, `_` being the value (each element of a repeat)."""
        v = spec.valid
        assert v is not None
        many = spec.repeat is not None or spec.count is not None
        for k, one in enumerate(value if many else [value]):
            if not self._eval_at(v.expr, off, None, k if many else None, one, (spec.name, one)):
                err = ValidationError("value breaks the schema's valid/expr rule", file=self._file,
                                      path=f"{self._path}.{spec.name}" + (f"[{k}]" if many else ""), offset=off,
                                      found=one)
                err.kaitai = "ValidationExprError"  # type: ignore[attr-defined]
                raise err

    def _check_bytes(self, spec: FieldSpec, value: NDArray[Any], off: int) -> None:
        """`valid` of a byte array or string compares whole values, as Kaitai does."""
        from ..expr import values as kv
        v = spec.valid
        assert v is not None
        data, kind, expected = value.tobytes(), "", ""
        if v.eq is not None:
            want = self._eval_own(v.eq, spec.name, value)
            if not kv.eq(data, want):
                kind, expected = "ValidationNotEqualError", kv.plain(want)
        elif v.any_of is not None:
            allowed = [self._eval_own(e, spec.name, value) for e in v.any_of]
            if not any(kv.eq(data, a) for a in allowed):
                kind, expected = "ValidationNotAnyOfError", f"one of {allowed}"
        else:
            lo, hi = self._eval_own(v.min, spec.name, value), self._eval_own(v.max, spec.name, value)
            if lo is not None and kv.lt(data, lo):
                kind, expected = "ValidationLessThanError", f"at least {kv.plain(lo)}"
            elif hi is not None and kv.gt(data, hi):
                kind, expected = "ValidationGreaterThanError", f"at most {kv.plain(hi)}"
        if kind:
            err = ValidationError("value breaks the schema's valid rule", file=self._file,
                                  path=f"{self._path}.{spec.name}", offset=off, expected=expected, found=data)
            err.kaitai = kind  # type: ignore[attr-defined]
            raise err

    def validate(self) -> None:
        """Read every field now and apply every `valid`/`contents` rule (raises on the first break):
        everything Kaitai's generated code reads when it parses. Nested records are walked with a
        stack of their own, so records nested as deep as a file says are no Python recursion."""
        todo: list[Whole] = [self]
        try:
            while todo:
                todo.extend(reversed(todo.pop()._fields_records()))
        except RecursionError:  # a record whose end is where records nested in it end, deeper than Python follows
            raise FormatError("records nest deeper than binparse follows (a type that holds itself, with "
                              "nothing in the data to end it soon)", file=self._file, path=self._path) from None

    def _fields_records(self) -> list[Whole]:
        """Read every seq field; the records among them (to be read in turn)."""
        out: list[Whole] = []
        for name in Whole.field_names.__func__(type(self)):  # type: ignore[attr-defined]  # (a field may be
            v = getattr(self, name if not iskeyword(name) else name + "_")  # called field_names: the base's own)
            if isinstance(v, Whole):
                out.append(v)
            elif isinstance(v, (RecordArray, ItemArray, list)):
                out.extend(r for r in v if isinstance(r, Whole))
            elif isinstance(v, StrArray):
                list(v)
        return out

    # -- introspection and copies -----------------------------------------------------------------
    @classmethod
    def field_names(cls) -> list[str]:
        return [f.name for f in cls._FIELDS]

    def to_rows(self, names: Sequence[str], count: int) -> list[tuple[Any, ...]]:
        """Entries 0..count-1 of parallel array fields as rows of plain Python values (a copy).

        Row k is `(getattr(self, names[0])[k], getattr(self, names[1])[k], ...)`: ints, floats,
        and strings decoded as the field declares; a field this version lacks gives None. Made for
        structs of arrays (one array per attribute, one entry per item): for a fixed layout all rows
        come from one numpy call (see `runtime.rows`), not a view per field.
        """
        return Whole.to_row_blocks(self, ((tuple(names), count),))[0]

    def to_row_blocks(self, blocks: tuple[tuple[tuple[str, ...], int], ...]) -> list[list[tuple[Any, ...]]]:
        """`to_rows` of several (names, count) blocks in one read (e.g. a struct's inputs and outputs)."""
        return self._row_blocks(blocks, blocks)

    def _row_blocks(self, blocks: tuple[tuple[tuple[str, ...], int], ...], key: Hashable,
                    absent: dict[str, Any] | None = None) -> list[list[tuple[Any, ...]]]:
        """`to_row_blocks(blocks)`, its plan kept under `key` (for this class and params): a caller
        that reads the same blocks again and again names them by something quicker to hash than
        their column names (equal keys must mean equal blocks and `absent`). A column this version
        lacks reads as `absent[name]` when given, else None."""
        lay = self._lay  # one fixed layout object per class and params, kept for good: a cheap key
        hit = _ROW_PLANS.get((type(self), id(lay), key))
        if hit is not None and hit[0] is lay:
            plan = hit[1]
        else:
            if not isinstance(lay, StaticLayout):  # located through the data: read field by field
                return [self._rows_by_field(names, count) for names, count in blocks]
            try:
                plan = row_plan(self._FIELDS, lay, blocks, self._TYPE_PATH, absent)
            except BinparseError as exc:
                raise FormatError(exc.message, file=self._file, path=self._path, expected=exc.expected,
                                  found=exc.found) from None
            if len(_ROW_PLANS) < 4096:  # a few per class, params and counts; bounded all the same
                _ROW_PLANS[(type(self), id(lay), key)] = (lay, plan)  # the layout kept: its id stays its own
        if plan.checked:
            for i in plan.checked:
                self._array(i)  # applies the field's `valid` rule to its whole array
        unpack = plan.unpack  # every entry's value (text as raw bytes), then what absent columns point to
        values: list[Any] = [*unpack(self._mv, self._off + plan.base), *plan.tail] if unpack is not None \
            else list(plan.tail)
        for j, b, k, pos, enc, zterm in plan.strings:
            raw = values[j]
            end = raw.find(0) if zterm else -1  # zero-terminated: up to the first NUL
            try:
                values[j] = (raw if end < 0 else raw[:end]).decode(enc)
            except UnicodeDecodeError:  # the error names the entry
                _decode(raw, enc, zterm, self, f"{self._path}.{blocks[b][0][pos]}[{k}]")
        out = []
        for block in plan.rows:  # plain loops: quicker than comprehensions here (a few rows per block)
            rows = []
            for row in block:
                rows.append(row(values))
            out.append(rows)
        return out

    def _rows_by_field(self, names: tuple[str, ...], count: int) -> list[tuple[Any, ...]]:
        """`to_rows` for a layout that depends on the data: one view per field."""
        cols = [getattr(self, n) for n in names]
        have = min([len(c) for c in cols if c is not None], default=count)
        if count < 0 or count > have:
            raise FormatError("asked for more entries than the arrays hold", file=self._file,
                              path=self._path, expected=f"0..{have}", found=count)
        return list(zip(*[[None] * count if c is None else list(c[:count]) if isinstance(c, StrArray)
                          else c[:count].tolist() for c in cols]))

    def field_info(self, name: str) -> tuple[int, int | None, int | None]:
        """(absolute offset, count, element size) of a seq field."""
        i = Whole.field_names.__func__(type(self)).index(name)  # type: ignore[attr-defined]
        return self._loc(i)

    def to_dict(self) -> dict[str, Any]:
        """A copy of the seq fields as plain Python values (ints, floats, str, bytes, lists, dicts)."""
        out: dict[str, Any] = {}
        for spec in self._FIELDS:
            v = getattr(self, spec.name if not iskeyword(spec.name) else spec.name + "_")
            out[spec.name] = v.tolist() if spec.kind == "prim" and isinstance(v, np.ndarray) else to_plain(v)
        return out


def to_plain(v: Any) -> Any:
    """Plain Python value of anything an accessor returns (a copy)."""
    if isinstance(v, Whole):
        return Whole.to_dict(v)
    if isinstance(v, (RecordArray, StrArray, ItemArray, list)):
        return [to_plain(x) for x in v]
    if isinstance(v, np.ndarray):
        if v.dtype == np.uint8 and v.ndim >= 1:
            return bytes(v) if v.ndim == 1 else [bytes(r) for r in v]
        return v.tolist()
    if isinstance(v, IntEnum):
        return int(v)
    if isinstance(v, np.generic):
        return v.item()
    return v
