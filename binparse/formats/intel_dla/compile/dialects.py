"""The transform-report CSV dialects of the FPGA AI Suite compiler, from `schemas/intel_dla/`.

`detect(header_line)` says which kind of report and which dialect a header is; an unknown header
is a `FormatError` naming the columns found and the headers binparse knows.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ....engine.accessors.intel_dla.transform_csv import SCHEMA
from ....core.errors import FormatError


@dataclass(frozen=True)
class Dialect:
    """One header layout of one kind of report."""

    kind: str
    name: str
    delimiter: str
    trailing_delimiter: bool
    headers: tuple[str, ...]  # normalised (lower case, trimmed): what detection compares
    roles: tuple[str, ...]
    titles: tuple[str, ...]  # as written (what the writer writes)
    inferred: bool = False
    lane: str = ""  # mappings: the IP column holding the lane within a vector, in this dialect

    def column(self, role: str) -> int:
        return self.roles.index(role)

    def has(self, role: str) -> bool:
        return role in self.roles


def normalise(cell: str) -> str:
    return " ".join(cell.strip().lower().split())


@functools.cache
def dialects() -> tuple[Dialect, ...]:
    """Every (kind, dialect) of schemas/intel_dla/transform_csv.yaml (through its generated module)."""
    out = []
    for kind, spec in SCHEMA["kinds"].items():
        for name, d in spec["dialects"].items():
            cols = d["columns"]
            out.append(Dialect(kind, name, d["delimiter"], bool(d["trailing_delimiter"]),
                               tuple(normalise(str(c[0])) for c in cols), tuple(str(c[1]) for c in cols),
                               tuple(str(c[0]) for c in cols), bool(d.get("inferred", False)),
                               str(d.get("lane", ""))))
    return tuple(out)


def split_header(line: str) -> tuple[str, list[str]]:
    """(delimiter, normalised cells) of a header line; a trailing empty cell is dropped."""
    delimiter = ";" if ";" in line else ","
    cells = [normalise(c) for c in line.rstrip("\r\n").split(delimiter)]
    if len(cells) > 1 and cells[-1] == "" and line.rstrip("\r\n").endswith(delimiter):
        cells.pop()
    return delimiter, cells


def detect(header_line: str, *, file: str | None = None) -> Dialect:
    """The dialect whose header this is (FormatError naming found and expected columns)."""
    delimiter, cells = split_header(header_line)
    for d in dialects():
        if d.delimiter == delimiter and list(d.headers) == cells:
            return d
    guess = _kind_from_name(file)
    pool = [d for d in dialects() if guess in (None, d.kind)]
    have = set(cells)
    best = max(pool, key=lambda d: len(have & set(d.headers)) - len(have ^ set(d.headers)) / 100)
    missing = [h for h in best.headers if h not in have]
    extra = [c for c in cells if c not in best.headers]
    detail = "; ".join(x for x in (f"missing {missing}" if missing else "", f"unexpected {extra}" if extra else "",
                                   "" if missing or extra or delimiter == best.delimiter else
                                   f"separator {delimiter!r} instead of {best.delimiter!r}") if x)
    raise FormatError("unknown CSV header", file=file,
                      expected=f"a header of one of {sorted({d.kind for d in pool})}; closest: {best.kind} "
                               f"({best.name} dialect) — {detail or 'columns in another order'}",
                      found=f"{len(cells)} columns {cells}",
                      hint="see schemas/intel_dla/transform_csv.yaml for the headers binparse reads")


def _kind_from_name(file: str | None) -> str | None:
    name = Path(file).name.lower() if file else ""
    for kind in ("input_transform_dump", "output_transform_dump", "input_transform_mapping",
                 "output_transform_mapping"):
        if name.startswith(kind):
            return kind
    return None
