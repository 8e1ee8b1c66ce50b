"""Reading and writing the compiler's transform-report CSVs.

Dumps are one row per input or output slice and are read row by row. Mapping tables can have
millions of rows: Apache Arrow's CSV reader (pyarrow, multithreaded C++) parses them into int64
columns, told every column's type up front (no inference, no Python object per row or cell);
only when a check fails is the file walked again, line by line, to name the row and column at
fault.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
import io
import mmap
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...deps import dependency
from ...errors import FormatError
from ...progress import LONG_TABLE_ROWS, active, task
from .dialects import Dialect, detect, dialects

Source = Union[str, "os.PathLike[str]", bytes]


@dataclass
class DumpTable:
    """An input or output transform dump: one dict per row, keyed by role (ints where numeric)."""

    kind: str
    dialect: Dialect
    rows: list[dict[str, Any]]
    file: str | None = None

    def summary(self) -> dict[str, Any]:
        from .folder import table_summary
        return table_summary(self)

    def report(self) -> str:
        from .folder import table_report
        return table_report(self)


@dataclass
class MappingTable:
    """An input or output transform mapping: int64 columns keyed by role (`ip_offset`, `ip_c`, …,
    `logical_offset`, `logical_c`, …), one entry per CSV row."""

    kind: str
    dialect: Dialect
    columns: dict[str, NDArray[np.int64]]
    file: str | None = None
    notes: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return int(self.columns["ip_offset"].shape[0])

    def column_name(self, role: str) -> str:
        return self.dialect.titles[self.dialect.column(role)].strip()

    def summary(self) -> dict[str, Any]:
        from .folder import table_summary
        return table_summary(self)

    def report(self) -> str:
        from .folder import table_report
        return table_report(self)


Raw = Union[bytes, mmap.mmap]


def _read(source: Source) -> tuple[Raw, str | None]:
    """The bytes of a source: a file is mapped read-only (a 40 MB report is not copied)."""
    if isinstance(source, bytes):
        return source, None
    path = os.fspath(source)
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                return b"", path
            return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ), path
    except IsADirectoryError:
        raise FormatError("is a directory, not a CSV file", file=path) from None
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", file=path) from None


def read_table(source: Source) -> DumpTable | MappingTable:
    """Read any of the four report kinds; the header decides which."""
    raw, file = _read(source)
    try:
        nl = raw.find(b"\n")
        head = raw[: nl if nl >= 0 else len(raw)]
        try:
            header = head.decode("utf-8")
        except UnicodeDecodeError:
            raise FormatError("header is not text", file=file, found=head[:40]) from None
        dialect = detect(header, file=file)
        start = nl + 1 if nl >= 0 else len(raw)  # the body, without copying it
        rows = _lines(raw, start) if active() else 0  # counted only for the progress message
        with task(f"reading {file or 'table'} ({rows:,} rows)", long=rows > LONG_TABLE_ROWS):
            if dialect.kind.endswith("_mapping"):
                return _read_mapping(dialect, raw, start, file)
            return _read_dump(dialect, raw[start:], file)
    finally:
        if isinstance(raw, mmap.mmap):
            try:
                raw.close()
            except BufferError:  # a view of it is still alive somewhere: unmapped when that goes
                pass


def _lines(raw: Raw, start: int) -> int:
    if len(raw) <= start:
        return 0
    return int(np.count_nonzero(np.frombuffer(raw, np.uint8, offset=start) == ord("\n")))


def _read_dump(d: Dialect, body: bytes, file: str | None) -> DumpTable:
    text = body.decode("utf-8", errors="replace")
    rows = []
    for i, cells in enumerate(csv.reader(io.StringIO(text), delimiter=d.delimiter), start=2):
        if not cells or all(not c.strip() for c in cells):
            continue
        if d.trailing_delimiter and cells[-1] == "":
            cells = cells[:-1]
        if len(cells) != len(d.roles):
            raise FormatError("wrong number of cells", file=file, path=f"row {i}",
                              expected=f"{len(d.roles)} ({d.delimiter.join(d.headers)})", found=len(cells))
        row: dict[str, Any] = {}
        for role, header, cell in zip(d.roles, d.headers, cells):
            cell = cell.strip()
            if role in ("name", "precision"):
                row[role] = cell
                continue
            try:
                row[role] = int(cell)
            except ValueError:
                raise FormatError("cell is not an integer", file=file, path=f"row {i}, column '{header}'",
                                  expected="an integer", found=cell) from None
        rows.append(row)
    return DumpTable(d.kind, d, rows, file)


def _read_mapping(d: Dialect, raw: Raw, start: int, file: str | None) -> MappingTable:
    """Parse the rows from byte `start` of `raw` with Arrow's CSV reader, then check them.

    The reader is strict where it can be told to be (no quoting, no empty lines, unsigned
    columns, the arrow column exactly the arrow); a hexadecimal cell, which Arrow would take and
    the compiler never writes, is refused before it reads, a number past int64 after. Blanks
    around a number and CRLF line ends are read as Python's `int()` and `csv` read them (the
    dumps' reader too). Any refusal takes the careful path, which names the bad row and column.
    """
    numeric = [r for r in d.roles if r != "arrow"]
    columns = _arrow_columns(d, raw, start, file)
    if columns is None:
        _locate_bad_cell(d, raw[start:], file)
        raise FormatError("mapping table could not be read", file=file, expected=f"rows of {len(numeric)} integers")
    return MappingTable(d.kind, d, dict(zip(numeric, columns)), file)


#: What Arrow's integer cells accept and the compiler never writes: hexadecimal "0x1f" (probed
#: on every byte before parsing; a sign is refused by the unsigned parse itself).
_ARROW_LENIENT = (b"x", b"X")
_INT64_MAX = np.iinfo(np.int64).max


def _arrow_columns(d: Dialect, raw: Raw, start: int, file: str | None) -> list[NDArray[np.int64]] | None:
    """The numeric columns of the rows from byte `start` of `raw`, or None when a check fails.

    Numbers are parsed as uint64: Arrow's unsigned parse refuses any sign (no check of every
    value for "negative" afterwards) and is faster than its signed one; the columns are then
    viewed as int64, where a number past int64's range shows as negative (one `min` per column).
    The arrow cells (and the empty cells after a trailing delimiter) are Arrow's null values in
    columns of the null type: a cell that is anything else fails the conversion, a numeric
    column holding one becomes a null count; nothing is materialised for them.
    """
    pa = dependency("pyarrow", "pyarrow", purpose="reading a mapping table", file=file)
    pa_csv = dependency("pyarrow.csv", "pyarrow", purpose="reading a mapping table", file=file)

    arrow_at, ncols = d.column("arrow"), len(d.roles)
    arrow = d.headers[arrow_at]
    stop = len(raw)
    while stop > start and raw[stop - 1] in b" \t\r\n":  # trailing blank lines are no rows
        stop -= 1
    numeric = [f"c{k}" for k in range(ncols) if k != arrow_at]
    if stop <= start:
        return [np.zeros(0, np.int64) for _ in numeric]
    types = {f"c{k}": pa.null() if k == arrow_at else pa.uint64() for k in range(ncols)}
    if d.trailing_delimiter:
        types["end"] = pa.null()
    if any(raw.find(b, start, stop) >= 0 for b in _ARROW_LENIENT):
        return None
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(pa.py_buffer(raw).slice(start, stop - start)),
            read_options=pa_csv.ReadOptions(column_names=list(types)),
            parse_options=pa_csv.ParseOptions(delimiter=d.delimiter, quote_char=False, ignore_empty_lines=False),
            convert_options=pa_csv.ConvertOptions(column_types=types, null_values=[arrow, ""],
                                                  strings_can_be_null=False))
    except pa.ArrowException:
        return None
    if any(table.column(name).null_count for name in numeric):  # an arrow or an empty cell among numbers
        return None
    columns: list[NDArray[np.int64]] = [table.column(name).to_numpy().view(np.int64) for name in numeric]
    if any(c.size and c.min() < 0 for c in columns):  # past int64
        return None
    return columns


def _locate_bad_cell(d: Dialect, body: bytes, file: str | None) -> None:
    """Raise a FormatError naming the first bad row and column (slow path, errors only)."""
    text = body.decode("utf-8", errors="replace")
    for i, line in enumerate(text.splitlines(), start=2):
        if not line.strip():
            continue
        cells = line.split(d.delimiter)
        if d.trailing_delimiter and cells and cells[-1] == "":
            cells = cells[:-1]
        if len(cells) != len(d.roles):
            raise FormatError("wrong number of cells", file=file, path=f"row {i}",
                              expected=len(d.roles), found=len(cells))
        for role, header, cell in zip(d.roles, d.headers, cells):
            where = f"row {i}, column '{header}'"
            digits = cell.strip()
            if role == "arrow":
                if digits != header:
                    raise FormatError("arrow column missing", file=file, path=where, expected=header, found=cell)
                continue
            if digits[:1] == "-" and digits[1:].isascii() and digits[1:].isdigit():
                raise FormatError("negative offset or index", file=file, path=where, expected=">= 0", found=cell)
            if not (digits.isascii() and digits.isdigit()):
                raise FormatError("cell is not an integer", file=file, path=where,
                                  expected="an integer", found=cell)
            if int(digits) > _INT64_MAX:
                raise FormatError("number too large for an offset or index", file=file, path=where,
                                  expected=f"<= {_INT64_MAX}", found=cell)


# -- writing (fixtures, and dialect conversion) ------------------------------------------------------

def dialect_of(kind: str, name: str) -> Dialect:
    for d in dialects():
        if d.kind == kind and d.name == name:
            return d
    raise FormatError(f"no dialect {name!r} of {kind}", expected=sorted({x.name for x in dialects()}))


def _header(d: Dialect) -> str:
    return d.delimiter.join(d.titles) + (d.delimiter if d.trailing_delimiter else "")


def mapping_text(kind: str, dialect: str, columns: Mapping[str, ArrayLike]) -> str:
    """A mapping table in a dialect; `columns` holds an int array per numeric role."""
    d = dialect_of(kind, dialect)
    numeric = [r for r in d.roles if r != "arrow"]
    table = np.stack([np.asarray(columns[r], dtype=np.int64) for r in numeric], axis=1)
    arrow_at = d.column("arrow")
    fmt = d.delimiter.join(["%d"] * arrow_at + [d.headers[arrow_at].replace("%", "%%")] +
                           ["%d"] * (len(numeric) - arrow_at))
    f = io.StringIO()
    f.write(_header(d) + "\n")
    np.savetxt(f, table, fmt=fmt, delimiter=d.delimiter)
    return f.getvalue()


def dump_text(kind: str, dialect: str, rows: list[dict[str, Any]]) -> str:
    """A dump table in a dialect; each row is a dict keyed by role (missing numbers are 0)."""
    d = dialect_of(kind, dialect)
    lines = [_header(d)]
    for row in rows:
        cells = [str(row.get(role, "" if role in ("name", "precision") else 0)) for role in d.roles]
        lines.append(d.delimiter.join(cells) + (d.delimiter if d.trailing_delimiter else ""))
    return "\n".join(lines) + "\n"


def write_mapping(path: str | os.PathLike[str], kind: str, dialect: str, columns: Mapping[str, ArrayLike]) -> None:
    Path(path).write_text(mapping_text(kind, dialect, columns), encoding="utf-8", newline="\n")


def write_dump(path: str | os.PathLike[str], kind: str, dialect: str, rows: list[dict[str, Any]]) -> None:
    Path(path).write_text(dump_text(kind, dialect, rows), encoding="utf-8", newline="\n")
