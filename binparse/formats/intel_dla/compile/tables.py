"""Reading and writing the compiler's transform-report CSVs.

Dumps are one row per input or output slice and are read row by row. Mapping tables can have
millions of rows: Apache Arrow's CSV reader parses and checks them (`arrow_read`); only when a
check fails is the file walked again, line by line, to name the row and column at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
import io
import mmap
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ....core import csv_rows, inputs
from ....core.errors import FormatError
from ....core.filemap import guard
from ....core.text import integer, shown
from ....core.progress import LONG_TABLE_ROWS, active, task
from .arrow_read import INT64_MAX, Raw, parse_rows
from .dialects import Dialect, detect, dialects
from ..layouts.folding import find_roles

Source = Union[str, "os.PathLike[str]", bytes]


@dataclass
class DumpTable:
    """An input or output transform dump: one dict per row, keyed by role (ints where numeric)."""

    kind: str
    dialect: Dialect
    rows: list[dict[str, Any]]
    file: str | None = None

    def summary(self) -> dict[str, Any]:
        return table_summary(self)

    def report(self) -> str:
        return table_report(self)


@dataclass
class MappingTable:
    """An input or output transform mapping: int64 columns keyed by role (`ip_offset`, `ip_c`, …,
    `logical_offset`, `logical_c`, …), one entry per CSV row.

    Read from a file, `columns` is an `arrow_read.Columns`: every value is checked when the table
    is read, each column becomes a (read-only) numpy array when first used.
    """

    kind: str
    dialect: Dialect
    columns: Mapping[str, NDArray[np.int64]]
    file: str | None = None
    notes: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        rows = getattr(self.columns, "rows", None)  # known without making a column
        return int(self.columns["ip_offset"].shape[0]) if rows is None else int(rows)

    def column_name(self, role: str) -> str:
        return self.dialect.titles[self.dialect.column(role)].strip()

    def summary(self) -> dict[str, Any]:
        return table_summary(self)

    def report(self) -> str:
        return table_report(self)


def table_summary(t: DumpTable | MappingTable) -> dict[str, Any]:
    """JSON summary of one report: kind, dialect, rows, dims, lane/group roles, padding."""
    doc: dict[str, Any] = {"family": "intel_dla", "kind": t.kind, "dialect": t.dialect.name,
                           "dialect_inferred": t.dialect.inferred}
    if isinstance(t, DumpTable):
        doc["rows"] = len(t.rows)
        doc["entries"] = t.rows
        return doc
    cols = t.columns
    doc["rows"] = len(t)
    roles = find_roles(cols, file=t.file)
    doc["roles"] = {"lane": t.column_name(roles.lane), "group": t.column_name(roles.group),
                    "vector_width": roles.vector}
    doc["logical_dims"] = [int(cols[f"logical_{k}"].max()) + 1 for k in "cdhw"]
    groups = int(cols[roles.group].max()) + 1
    doc["ip_dims"] = [groups * roles.vector, *roles.dims]
    doc["padding"] = int(groups * roles.vector * int(np.prod(roles.dims)) - len(t))
    return doc


def table_report(t: DumpTable | MappingTable) -> str:
    s = table_summary(t)
    rows = f"{s['rows']} row" + ("s" if s["rows"] != 1 else "")
    lines = [f"FPGA AI Suite {t.kind} ({t.dialect.name} dialect{', inferred' if t.dialect.inferred else ''}), {rows}"]
    if isinstance(t, DumpTable):
        for row in t.rows:
            lines.append("  " + ", ".join(f"{shown(k)}={shown(v)}" for k, v in row.items()))
    else:
        lines.append(f"  logical C,D,H,W {s['logical_dims']}; IP C,D,H,W {s['ip_dims']}; "
                     f"{s['padding']} padding elements")
        lines.append(f"  roles from the offsets: '{shown(s['roles']['lane'])}' is the lane, '{shown(s['roles']['group'])}' "
                     f"the vector group, vector width {s['roles']['vector_width']}")
    return "\n".join(lines)


def _read(source: Source) -> tuple[Raw, str | None]:
    """The bytes of a source: a file is mapped read-only (a 40 MB report is not copied)."""
    if isinstance(source, bytes):
        inputs.note_buffer(len(source))  # the caller's bytes are the input its budget is sized on
        return source, None
    path = os.fspath(source)
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            inputs.note(st, path)  # an input: the budget of what is read from it
            if st.st_size == 0:
                return b"", path
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            guard(mapped, path)  # a report cut short while it is read: one line and exit 3, not SIGBUS
            return mapped, path
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
    cells_of = csv_rows.rows(io.StringIO(text), file=file, delimiter=d.delimiter, first_line=2)
    for i, cells in enumerate(cells_of, start=2):
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
                row[role] = integer(cell)
            except ValueError:
                raise FormatError("cell is not an integer", file=file, path=f"row {i}, column '{header}'",
                                  expected="an integer", found=cell) from None
        rows.append(row)
    return DumpTable(d.kind, d, rows, file)


def _read_mapping(d: Dialect, raw: Raw, start: int, file: str | None) -> MappingTable:
    """Parse and check the rows from byte `start` of `raw` (`arrow_read.parse_rows`); when a check
    fails, walk them again line by line to name the row and column at fault."""
    columns = parse_rows(d, raw, start, file)
    if columns is None:
        _locate_bad_cell(d, raw[start:], file)
        numeric = [r for r in d.roles if r != "arrow"]
        raise FormatError("mapping table could not be read", file=file, expected=f"rows of {len(numeric)} integers")
    return MappingTable(d.kind, d, columns, file)


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
            if len(digits) > 19 or int(digits) > INT64_MAX:
                raise FormatError("number too large for an offset or index", file=file, path=where,
                                  expected=f"<= {INT64_MAX}", found=cell)


# -- writing (fixtures, and dialect conversion) ------------------------------------------------------

def dialect_of(kind: str, name: str) -> Dialect:
    for d in dialects():
        if d.kind == kind and d.name == name:
            return d
    raise FormatError(f"no dialect {name!r} of {kind}", expected=sorted({x.name for x in dialects()}))


def _header(d: Dialect) -> str:
    return d.delimiter.join(d.titles) + (d.delimiter if d.trailing_delimiter else "")


MAPPING_ROW_BYTES = 400  # working memory a row takes while it is written (its text 73 bytes, as bytes and str; Arrow's columns)


def mapping_text(kind: str, dialect: str, columns: Mapping[str, ArrayLike]) -> str:
    """A mapping table in a dialect; `columns` holds an int array per numeric role. Written by Arrow's CSV
    writer (no loop over rows in Python: a 1,000,000-row table in about a second)."""
    d = dialect_of(kind, dialect)
    numeric = [r for r in d.roles if r != "arrow"]
    arrays = [np.asarray(columns[r], dtype=np.int64) for r in numeric]
    rows = len(arrays[0])
    from ....core.budget import ask
    with inputs.handed(sum(a.nbytes for a in arrays)):  # the caller's table is the input (docs/python-api.md)
        ask(MAPPING_ROW_BYTES * rows, f"the text of a {kind} table of {rows:,} rows", transient=True)
    from ....core.deps import dependency
    pa = dependency("pyarrow", "pyarrow", purpose="writing a mapping table")
    pa_csv = dependency("pyarrow.csv", "pyarrow", purpose="writing a mapping table")
    arrow_at = d.column("arrow")
    cols = [pa.array(a) for a in arrays]
    cols.insert(arrow_at, pa.repeat(pa.scalar(d.headers[arrow_at]), rows))  # the constant arrow cell
    sink = io.BytesIO()
    sink.write((_header(d) + "\n").encode("utf-8"))
    if rows:
        pa_csv.write_csv(pa.table(cols, names=[f"c{k}" for k in range(len(cols))]), sink,
                         pa_csv.WriteOptions(include_header=False, delimiter=d.delimiter, quoting_style="none"))
    return sink.getvalue().decode("utf-8")


def dump_text(kind: str, dialect: str, rows: list[dict[str, Any]]) -> str:
    """A dump table in a dialect; each row is a dict keyed by role (missing numbers are 0)."""
    d = dialect_of(kind, dialect)
    lines = [_header(d)]
    for row in rows:
        cells = [str(row.get(role, "" if role in ("name", "precision") else 0)) for role in d.roles]
        lines.append(d.delimiter.join(cells) + (d.delimiter if d.trailing_delimiter else ""))
    return "\n".join(lines) + "\n"


def write_mapping(path: str | os.PathLike[str], kind: str, dialect: str, columns: Mapping[str, ArrayLike]) -> None:
    """Write a mapping table of the caller's `columns` (an int array per numeric role): the budget is sized
    on them, not on the files read so far (`inputs.handed`)."""
    from ....core.writes import write_text  # regular files only, never through a link (docs/contracts.md)
    text = mapping_text(kind, dialect, columns)
    with inputs.handed(len(text)):  # what is written is what the caller handed, as text
        write_text(path, text)


def write_dump(path: str | os.PathLike[str], kind: str, dialect: str, rows: list[dict[str, Any]]) -> None:
    """Write a dump table of the caller's `rows`: the budget is sized on them (`inputs.handed`)."""
    from ....core.writes import write_text
    text = dump_text(kind, dialect, rows)
    with inputs.handed(len(text)):
        write_text(path, text)
