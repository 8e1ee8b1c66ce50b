"""Reading and writing the compiler's transform-report CSVs.

Dumps are one row per input or output slice and are read row by row. Mapping tables can have
millions of rows: they are parsed in one pass by numpy's C text parser into int64 columns (no
Python object per row or cell); only when that fails is the file walked again, line by line, to
name the row and column at fault.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping
import io
import os
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

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


def _read(source: Source) -> tuple[bytes, str | None]:
    if isinstance(source, bytes):
        return source, None
    path = os.fspath(source)
    try:
        return Path(path).read_bytes(), path
    except IsADirectoryError:
        raise FormatError("is a directory, not a CSV file", file=path) from None
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", file=path) from None


def read_table(source: Source) -> DumpTable | MappingTable:
    """Read any of the four report kinds; the header decides which."""
    raw, file = _read(source)
    nl = raw.find(b"\n")
    head = raw[: nl if nl >= 0 else len(raw)]
    try:
        header = head.decode("utf-8")
    except UnicodeDecodeError:
        raise FormatError("header is not text", file=file, found=head[:40]) from None
    dialect = detect(header, file=file)
    body = raw[nl + 1:] if nl >= 0 else b""
    rows = body.count(b"\n") if active() else 0  # counted only for the progress message
    with task(f"reading {file or 'table'} ({rows:,} rows)", long=rows > LONG_TABLE_ROWS):
        if dialect.kind.endswith("_mapping"):
            return _read_mapping(dialect, body, file)
        return _read_dump(dialect, body, file)


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


def _read_mapping(d: Dialect, body: bytes, file: str | None) -> MappingTable:
    """Parse every row with numpy's C text parser in one call.

    One `bytes.translate` pass turns line ends into separators and the arrow's bytes into '9's, so
    the arrow column reads as a sentinel number (99 for '->'); checking that sentinel in every row
    proves each row has its cells in place. Anything unusual (spaces, CR, a stray arrow byte, a
    minus sign) takes the careful path instead, which names the bad row and column.
    """
    numeric = [r for r in d.roles if r != "arrow"]
    arrow_at = d.column("arrow")
    arrow = d.headers[arrow_at].encode("utf-8")
    table = _fast_grid(d, body, arrow, len(d.roles))
    if table is None or not np.all(table[:, arrow_at] == int(b"9" * len(arrow))):
        _locate_bad_cell(d, body, file)
        raise FormatError("mapping table could not be read", file=file, expected=f"rows of {len(numeric)} integers")
    keep = [k for k in range(len(d.roles)) if k != arrow_at]
    columns = {role: table[:, k] for role, k in zip(numeric, keep)}  # views of one int64 block
    return MappingTable(d.kind, d, columns, file)


def _fast_grid(d: Dialect, body: bytes, arrow: bytes, ncols: int) -> NDArray[np.int64] | None:
    """The rows as an (n, ncols) int64 array, or None when the fast path does not apply."""
    data = body.rstrip(b"\n") if body.endswith(b"\n\n") else body
    nrows = data.count(b"\n") + (0 if data.endswith(b"\n") else 1) if data else 0
    if nrows == 0:
        return np.zeros((0, ncols), np.int64)
    if b" " in data or b"\t" in data or b"\r" in data or any(c in b"0123456789;,\n" for c in arrow):
        return None
    for byte in set(arrow):  # every arrow byte belongs to one arrow per row: no stray '-' or '>'
        if data.count(bytes([byte])) != nrows * arrow.count(bytes([byte])):
            return None
    # A line end becomes a separator; after a trailing separator it becomes blank space instead
    # (numpy skips whitespace around separators).
    line_end = b" " if d.trailing_delimiter else d.delimiter.encode()
    text = data.translate(bytes.maketrans(b"\n" + arrow, line_end + b"9" * len(arrow)))
    # Exactly one separator between cells (and after the last with a trailing delimiter or line end):
    # then the text holds at most nrows · ncols numbers, and numpy can be told the count up front
    # (it preallocates instead of growing, a quarter faster) without ignoring a surplus number.
    trailing = d.trailing_delimiter or data.endswith(b"\n")
    if text.count(d.delimiter.encode()) != nrows * ncols - (0 if trailing else 1):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy warns when it stops before the end of the text
        try:
            values = np.fromstring(text, dtype=np.int64, sep=d.delimiter, count=nrows * ncols)
        except (DeprecationWarning, ValueError):
            return None
    return values.reshape(nrows, ncols) if values.size == nrows * ncols else None


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
            if role == "arrow":
                if cell.strip() != header:
                    raise FormatError("arrow column missing", file=file, path=f"row {i}, column {len(d.roles)}",
                                      expected=header, found=cell)
                continue
            try:
                int(cell)
            except ValueError:
                raise FormatError("cell is not an integer", file=file, path=f"row {i}, column '{header}'",
                                  expected="an integer", found=cell) from None


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
