"""Rows across parallel array fields (a struct of arrays), read in one numpy call.

Vendor structs such as TIDL's `sTIDL_IOBufDesc_t` keep one array per attribute (`outWidth[32]`,
`outPadL[32]`, …), so one tensor's description is entry k of twenty arrays. Reading it field by
field costs a property, a view and a scalar conversion per value. For a type whose layout is
fixed for its params, a `RowPlan` instead names every wanted entry (row k, column j) as a field of
one structured dtype at its byte offset; one `np.frombuffer(...).item()` then turns all of them
into Python values in C, row after row. Plans depend on the class, its params, the column names
and the row count only, so they are made once and kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable

import numpy as np

from ..errors import BinparseError
from .specs import ABSENT, FieldSpec, StaticLayout


Block = tuple[tuple[str, ...], int]  # (column names, row count)


@dataclass(frozen=True)
class RowPlan:
    """How to read blocks of rows (each: some columns, rows 0..count-1) of one fixed layout.

    `dtype`: one field per entry read (block by block, row by row, column by column) at its
    offset from `base` (the lowest entry's offset in the record); `rows`: per block, per row, a
    getter picking that row's columns from those values followed by one None (where the columns
    this version lacks point); `strings`: (position in the values, block, row, column, encoding,
    and for text that is not zero-terminated its (offset, size) in the record, since numpy drops
    trailing NULs) of every text entry; `checked`: indices of fields with a `valid` rule
    (checked through the field getter).
    """

    dtype: np.dtype[Any] | None  # None: nothing to read
    base: int
    rows: tuple[tuple[Callable[[list[Any]], tuple[Any, ...]], ...], ...]
    strings: tuple[tuple[int, int, int, int, str, tuple[int, int] | None], ...]
    checked: tuple[int, ...]


def row_plan(fields: tuple[FieldSpec, ...], lay: StaticLayout, blocks: tuple[Block, ...], owner: str) -> RowPlan:
    """The plan for `blocks` of a type with `fields` laid out as `lay`.

    Raises `BinparseError` for a name that is no field or no array of numbers or strings, and
    for a count outside 0..(entries of its arrays).
    """
    index = {f.name: i for i, f in enumerate(fields)}
    entries: list[tuple[str, int]] = []  # (numpy type, offset in the record) of every value read
    texts: list[tuple[int, int, int, int, str, tuple[int, int] | None]] = []
    checked: set[int] = set()
    picks: list[list[list[int | None]]] = []  # per block, per row: value index per column (None: absent)
    for b, (names, count) in enumerate(blocks):
        cols: list[FieldSpec | None] = []
        places: list[tuple[int, int]] = []  # (offset, element size) of each present column
        for name in names:
            i = index.get(name)
            if i is None:
                raise BinparseError(f"{owner} has no field {name!r}", expected=sorted(index))
            spec, n, size = fields[i], lay.counts[i], lay.elem_sizes[i]
            if size == ABSENT:
                cols.append(None)
                continue
            if n is None or spec.kind not in ("prim", "str") or spec.np is None:
                raise BinparseError(f"{owner}.{name} is not an array of numbers or strings", found=spec.kind)
            if not 0 <= count <= n:
                raise BinparseError(f"{owner}.{name} has {n} entries", expected=f"0..{n} rows", found=count)
            cols.append(spec)
            places.append((lay.offsets[i], size))
            if spec.valid is not None:
                checked.add(i)
        block: list[list[int | None]] = []
        for k in range(count):
            row: list[int | None] = []
            present = iter(places)
            for pos, col in enumerate(cols):
                if col is None:
                    row.append(None)
                    continue
                off, size = next(present)
                if col.kind == "str":
                    texts.append((len(entries), b, k, pos, col.encoding or "ascii",
                                  None if col.zero_terminated else (off + k * size, size)))
                row.append(len(entries))
                entries.append((col.np or "", off + k * size))
            block.append(row)
        picks.append(block)
    none = len(entries)  # the None after the values
    rows = tuple(tuple(_getter([none if j is None else j for j in row]) for row in block) for block in picks)
    if not entries:
        return RowPlan(None, 0, rows, (), ())
    base = min(off for _, off in entries)
    end = max(off + np.dtype(t).itemsize for t, off in entries)
    dtype = np.dtype({"names": [f"f{j}" for j in range(len(entries))], "formats": [t for t, _ in entries],
                      "offsets": [off - base for _, off in entries], "itemsize": end - base})
    return RowPlan(dtype, base, rows, tuple(texts), tuple(sorted(checked)))


def _getter(picks: list[int]) -> Callable[[list[Any]], tuple[Any, ...]]:
    if len(picks) == 1:
        only = picks[0]
        return lambda values: (values[only],)
    return itemgetter(*picks)


def read_values(plan: RowPlan, buf: memoryview, off: int) -> list[Any]:
    """The values of the plan's entries in the record at byte `off` of `buf` (the caller knows it
    fits), then one None; text entries as raw bytes, for the caller to decode. `plan.rows` turns
    them into rows."""
    if plan.dtype is None:
        return [None]
    values: list[Any] = list(np.frombuffer(buf, plan.dtype, 1, off + plan.base).item())
    values.append(None)
    return values
