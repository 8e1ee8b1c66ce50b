"""Rows of a vendor's CSV text through the csv module, with its errors as `FormatError`s.

A quote that is never closed makes the csv module take the lines after it into one cell, until
it raises `csv.Error` ("field larger than field limit"): every CSV reader of binparse goes through
`rows`, so such a file is refused, naming the line where the row began."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Iterator

from .errors import FormatError


def rows(lines: Iterable[str], *, file: str | None, delimiter: str = ",", first_line: int = 1) -> Iterator[list[str]]:
    """The cells of each row of `lines` (whose first is line `first_line` of the file)."""
    reader = csv.reader(lines, delimiter=delimiter)
    while True:
        start = first_line + reader.line_num  # the row's first line
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise FormatError("a row the CSV reader cannot read", file=file, path=f"line {start}",
                              found=f"{exc} (read on to line {first_line + reader.line_num - 1})",
                              hint="a quote (\") opened in a cell and never closed takes in the lines after it") from None
        yield cells


__all__ = ["rows"]
