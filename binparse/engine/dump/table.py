"""The text table of a walk (`TableSink`): one row per field, element and instance, the tree shown
by indentation: the field, where it starts (`byte:bit` for a bit-sized integer), its size (bytes, or
bits), the type that was read (a switch's case, the enum, a record's own type) and its value (a
record's `-webide-representation`, a repeat's number of elements, what was left out and why).

Rows are printed as the walk goes, a block at a time, each block's columns as wide as its widest
cell and never narrower than those of the blocks before (a small tree is one block: aligned whole).
"""

from __future__ import annotations

from typing import Any, TextIO

from ...core.text import shown
from ..runtime import FieldSpec
from ..runtime.spans import Span
from . import values as dv
from .sink import Info

HEAD = ("field", "offset", "size", "type", "value")
BLOCK = 2048  # rows printed at a time


def where(sp: Span | None) -> tuple[str, str]:
    """The offset and size cells of a span."""
    if sp is None:
        return "", ""
    if sp.start_bit is not None and sp.end_bit is not None:
        b0, n = sp.start_bit, sp.end_bit - sp.start_bit
        return f"{b0 // 8}:{b0 % 8}", f"{n} bit{'s' if n != 1 else ''}"
    return str(sp.start), str(sp.end - sp.start) if sp.end >= 0 else ""


class TableSink:
    """A walk as the text table on `out` (see the module doc); `title`, if any, is its first line."""

    detail = True

    def __init__(self, out: TextIO, title: str = "", top: str = "") -> None:
        self.out, self.top = out, top
        self.rows: list[tuple[str, ...]] = [HEAD]
        self.widths = [0] * 4
        if title:
            out.write(shown(title) + "\n")

    def _name(self, info: Info) -> str:
        key = info.key
        name = f"[{key}]" if isinstance(key, int) else key if key is not None else self.top
        return "  " * info.depth + (name or "")

    def _row(self, info: Info, typ: str, value: str) -> None:
        if info.count is not None and typ:
            typ = f"{typ} ×{info.count}"
        self.rows.append((self._name(info), *where(info.span), typ, value))
        if len(self.rows) >= BLOCK:
            self.flush()

    def begin(self, info: Info) -> None:
        if info.kind == "list":
            value = f"{info.count} element{'s' if info.count != 1 else ''}"
        else:
            value = info.repr or ""
            if info.note:
                value = f"{value}  ({info.note})" if value else f"({info.note})"
        if info.key is None and not self.top:
            return  # the root record: its fields are the rows
        self._row(info, info.type, value)

    def end(self, info: Info) -> None:
        pass

    def leaf(self, info: Info, v: Any, acc: Any, spec: FieldSpec | None) -> None:
        if info.note == "if is false":
            self._row(info, info.type, "null (if is false)")
        else:
            self._row(info, info.type, dv.cell(v, acc, spec))

    def plain(self, key: str, v: Any, acc: Any, spec: FieldSpec | None) -> None:
        raise AssertionError("a detail sink is told every field with `leaf`")

    def omit(self, info: Info, why: str) -> None:
        self._row(info, info.type, why)

    def flush(self) -> None:
        rows = [tuple(shown(c) for c in r) for r in self.rows]
        self.widths = [max(self.widths[k], *(len(r[k]) for r in rows)) for k in range(4)]
        w = self.widths
        self.out.write("".join(f"{r[0].ljust(w[0])}  {r[1].rjust(w[1])}  {r[2].rjust(w[2])}  {r[3].ljust(w[3])}  "
                               f"{r[4]}".rstrip() + "\n" for r in rows))
        self.rows = []


__all__ = ["HEAD", "TableSink", "where"]
