"""Rows across parallel array fields (a struct of arrays), read in one call.

Vendor structs such as TIDL's `sTIDL_IOBufDesc_t` keep one array per attribute (`outWidth[32]`,
`outPadL[32]`, …), so one tensor's description is entry k of twenty arrays. Reading it field by
field costs a property, a view and a scalar conversion per value. For a type whose layout is
fixed for its params, a `RowPlan` instead lists every wanted entry (row k, column j) by its byte
offset, sorted, and reads all of them in one `struct.Struct.unpack_from` (pad bytes skip what
lies between), which turns them into Python values in C; numpy (a structured dtype and `.item()`,
several times slower) serves the plans struct cannot express (byte orders mixed in one plan).
Plans depend on the class, its params, the column names and the row counts only, so they are
made once and kept.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, Callable

import numpy as np

from ...core.errors import BinparseError
from .specs import ABSENT, FieldSpec, StaticLayout


Block = tuple[tuple[str, ...], int]  # (column names, row count)


@dataclass(frozen=True)
class RowPlan:
    """How to read blocks of rows (each: some columns, rows 0..count-1) of one fixed layout.

    `unpack` returns the values of every entry read, in the order of their offsets from `base`
    (the lowest entry's offset in the record), text as its raw bytes; `rows`: per block, per row,
    a getter picking that row's columns from those values followed by `tail` (None, where the
    columns this version lacks point, then the values asked for some of them); `strings`: (position in the values, block, row, column, encoding,
    zero-terminated) of every text entry; `checked`: indices of fields with a `valid` rule
    (checked through the field getter); `size`: bytes from `base` to the end of the last entry.
    """

    unpack: Callable[[memoryview, int], tuple[Any, ...]] | None  # None: nothing to read
    base: int
    size: int
    tail: tuple[Any, ...]
    rows: tuple[tuple[Callable[[list[Any]], tuple[Any, ...]], ...], ...]
    strings: tuple[tuple[int, int, int, int, str, bool], ...]
    checked: tuple[int, ...]


def row_plan(fields: tuple[FieldSpec, ...], lay: StaticLayout, blocks: tuple[Block, ...], owner: str,
             absent: dict[str, Any] | None = None) -> RowPlan:
    """The plan for `blocks` of a type with `fields` laid out as `lay`; a column this version lacks
    reads as None, or as `absent[name]` when given.

    Raises `BinparseError` for a name that is no field or no array of numbers or strings, and
    for a count outside 0..(entries of its arrays).
    """
    index = {f.name: i for i, f in enumerate(fields)}
    # (offset in the record, field index) of every entry read -> (field, element size)
    entries: dict[tuple[int, int], tuple[FieldSpec, int]] = {}
    texts: dict[tuple[int, int], tuple[int, int, int, str, bool]] = {}  # -> (block, row, column, encoding, zero-term.)
    checked: set[int] = set()
    picks: list[list[list[tuple[int, int] | str]]] = []  # per block, per row: entry per column (absent: its name)
    for b, (names, count) in enumerate(blocks):
        cols: list[tuple[int, FieldSpec, int, int] | str] = []  # (index, field, offset, element size) per column
        for name in names:
            i = index.get(name)
            if i is None:
                raise BinparseError(f"{owner} has no field {name!r}", expected=sorted(index))
            spec, n, size = fields[i], lay.counts[i], lay.elem_sizes[i]
            if size == ABSENT:
                cols.append(name)
                continue
            if n is None or spec.kind not in ("prim", "str") or spec.np is None:
                raise BinparseError(f"{owner}.{name} is not an array of numbers or strings", found=spec.kind)
            if not 0 <= count <= n:
                raise BinparseError(f"{owner}.{name} has {n} entries", expected=f"0..{n} rows", found=count)
            cols.append((i, spec, lay.offsets[i], size))
            if spec.valid is not None:
                checked.add(i)
        block: list[list[tuple[int, int] | str]] = []
        for k in range(count):
            row: list[tuple[int, int] | str] = []
            for pos, col in enumerate(cols):
                if isinstance(col, str):
                    row.append(col)
                    continue
                i, spec, off, size = col
                at = (off + k * size, i)
                entries[at] = (spec, size)
                if spec.kind == "str":
                    texts.setdefault(at, (b, k, pos, spec.encoding or "ascii", spec.zero_terminated))
                row.append(at)
            block.append(row)
        picks.append(block)
    order = {at: j for j, at in enumerate(sorted(entries))}  # value index of each offset
    fills = list(dict.fromkeys(absent.values())) if absent else []  # the values absent columns ask for
    tail = (None, *fills)
    none = len(order)  # the None after the values, then the fills

    def pick(at: tuple[int, int] | str) -> int:
        if not isinstance(at, str):
            return order[at]
        return none + 1 + fills.index(absent[at]) if absent and at in absent else none

    rows = tuple(tuple(_getter([pick(at) for at in row]) for row in block) for block in picks)
    strings = tuple((order[at], *texts[at]) for at in sorted(texts))
    if not entries:
        return RowPlan(None, 0, 0, tail, rows, (), ())
    base = min(entries)[0]
    size = max(at + z for (at, _), (_, z) in entries.items()) - base
    return RowPlan(_unpacker(entries, base, size), base, size, tail, rows, strings, tuple(sorted(checked)))


def _unpacker(entries: dict[tuple[int, int], tuple[FieldSpec, int]], base: int, size: int
              ) -> Callable[[memoryview, int], tuple[Any, ...]]:
    """One `struct.Struct(...).unpack_from` reading the entries in offset order (text as raw bytes),
    or, when their byte orders differ, the same values through a structured numpy dtype."""
    ordered = sorted(entries.items())
    orders = {spec.fmt[0] for _, (spec, _) in ordered if spec.kind == "prim" and spec.fmt and spec.fmt[0] in "<>"}
    if len(orders) <= 1 and all(spec.kind == "str" or spec.fmt for _, (spec, _) in ordered):
        fmt, pos = (orders.pop() if orders else "<"), base
        for (at, _), (spec, z) in ordered:
            fmt += f"{at - pos}x" if at > pos else ""
            fmt += f"{z}s" if spec.kind == "str" else (spec.fmt or "").lstrip("<>=!@")
            pos = at + z
        return struct.Struct(fmt).unpack_from
    dtype = np.dtype({"names": [f"f{j}" for j in range(len(ordered))],
                      "formats": [f"V{z}" if spec.kind == "str" else spec.np for _, (spec, z) in ordered],
                      "offsets": [at - base for (at, _), _ in ordered], "itemsize": size})

    def by_numpy(buf: memoryview, off: int) -> tuple[Any, ...]:
        out: Any = np.frombuffer(buf, dtype, 1, off).item()
        return tuple(out)

    return by_numpy


def _getter(picks: list[int]) -> Callable[[list[Any]], tuple[Any, ...]]:
    if len(picks) == 1:
        only = picks[0]
        return lambda values: (values[only],)
    return itemgetter(*picks)

