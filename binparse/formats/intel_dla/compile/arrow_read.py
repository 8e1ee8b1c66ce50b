"""Mapping-table rows parsed by Apache Arrow's CSV reader, checked, and handed out as int64 columns.

Arrow (pyarrow, multithreaded C++) parses every numeric column as an unsigned integer, told every
type up front (no inference, no Python object per row or cell). All checks run here, at read time;
only turning a column into numpy waits for its first use (`Columns`), the way `pyarrow.csv.read_csv`
hands out a Table and leaves `to_numpy()` to its caller: a user who needs two of the eleven columns
pays for two.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Union

import mmap
import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numpy.typing import NDArray

from ....core.deps import dependency
from .dialects import Dialect

Raw = Union[bytes, mmap.mmap]

#: What Arrow's integer cells accept and the compiler never writes: hexadecimal "0x1f" (probed
#: on every byte before parsing; a sign is refused by the unsigned parse itself).
ARROW_LENIENT = (b"x", b"X")
INT64_MAX = int(np.iinfo(np.int64).max)


class Columns(Mapping[str, NDArray[np.int64]]):
    """The numeric columns of a mapping table by role, each a read-only int64 array.

    A column is made from Arrow's parsed chunks on first access (one widening concatenation, the
    only copy) and kept; Arrow's memory for it is let go then. Every value was checked when the
    table was read.
    """

    def __init__(self, rows: int, parsed: Mapping[str, Any]) -> None:
        self.rows = rows
        self._parsed = dict(parsed)  # role -> Arrow ChunkedArray (uint32 or uint64), or an ndarray
        self._done: dict[str, NDArray[np.int64]] = {}

    def __getitem__(self, role: str) -> NDArray[np.int64]:
        got = self._done.get(role)
        if got is None:
            if role not in self._parsed:
                raise KeyError(role)
            src = self._parsed.pop(role)
            got = src if isinstance(src, np.ndarray) else np.concatenate(
                [chunk.to_numpy() for chunk in src.chunks], dtype=np.int64)  # uint32 or uint64 chunks
            got.flags.writeable = False
            self._done[role] = got
        return got

    def __iter__(self) -> Iterator[str]:
        return iter([*self._done, *self._parsed])

    def __len__(self) -> int:
        return len(self._done) + len(self._parsed)

    def __repr__(self) -> str:
        return f"Columns({self.rows} rows: {', '.join(self)})"


def parse_rows(d: Dialect, raw: Raw, start: int, file: str | None) -> Columns | None:
    """The numeric columns of the rows from byte `start` of `raw`, or None when a check fails.

    The reader is strict where it can be told to be: no quoting, unsigned columns (Arrow's unsigned
    parse refuses any sign, and is faster than its signed one). Numbers are parsed as uint32 first
    (every offset and index of a tensor under 4 G elements: half the memory, a faster parse, nothing
    past int64 possible); a value that does not fit sends the whole table through uint64, followed by
    one `max` per column for numbers past int64. The arrow cells (and the empty cells after a
    trailing delimiter) are Arrow's null values in columns of the null type: a cell that is anything
    else fails the conversion, a numeric column holding one shows a null count. A hexadecimal cell,
    which Arrow would take, is refused before parsing. Blanks around a number, CRLF line ends and
    blank lines are read as Python's `int()` and `csv` (and the dumps' reader) read them.
    """
    pa = dependency("pyarrow", "pyarrow", purpose="reading a mapping table", file=file)
    pc = dependency("pyarrow.compute", "pyarrow", purpose="reading a mapping table", file=file)

    arrow_at = d.column("arrow")
    numeric = {f"c{k}": role for k, role in enumerate(d.roles) if k != arrow_at}
    stop = len(raw)
    while stop > start and raw[stop - 1] in b" \t\r\n":  # trailing blank lines are no rows
        stop -= 1
    if stop <= start:
        return Columns(0, {role: np.zeros(0, np.int64) for role in numeric.values()})
    if any(raw.find(b, start, stop) >= 0 for b in ARROW_LENIENT):
        return None
    body = pa.py_buffer(raw).slice(start, stop - start)
    for width in (pa.uint32(), pa.uint64()):
        table = _parse(pa, d, body, width, file)
        if table is not None:
            break
    else:
        return None
    parsed = {role: table.column(name) for name, role in numeric.items()}
    if any(c.null_count for c in parsed.values()):  # an arrow or an empty cell among the numbers
        return None
    if width == pa.uint64():
        with ThreadPoolExecutor(min(len(parsed), os.cpu_count() or 1)) as pool:  # Arrow lets go of the GIL
            if any(m.as_py() > INT64_MAX for m in pool.map(pc.max, parsed.values())):  # past int64
                return None
    return Columns(table.num_rows, parsed)


def _parse(pa: Any, d: Dialect, body: Any, width: Any, file: str | None) -> Any:
    """Arrow's Table of `body` with every numeric column of type `width`, or None if Arrow refuses."""
    pa_csv = dependency("pyarrow.csv", "pyarrow", purpose="reading a mapping table", file=file)
    arrow_at = d.column("arrow")
    types = {f"c{k}": pa.null() if k == arrow_at else width for k in range(len(d.roles))}
    if d.trailing_delimiter:
        types["end"] = pa.null()
    try:
        return pa_csv.read_csv(
            pa.BufferReader(body),
            read_options=pa_csv.ReadOptions(column_names=list(types)),
            parse_options=pa_csv.ParseOptions(delimiter=d.delimiter, quote_char=False),
            convert_options=pa_csv.ConvertOptions(column_types=types, null_values=[d.headers[arrow_at], ""],
                                                  strings_can_be_null=False))
    except pa.ArrowException:
        return None


__all__ = ["ARROW_LENIENT", "INT64_MAX", "Columns", "parse_rows"]
