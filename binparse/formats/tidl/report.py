"""Human-readable tables of TIDL artifacts (what `binparse inspect` prints without --json)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .tensors import Tensor


def columns(head: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> list[str]:
    """Left-aligned text columns."""
    text = [[str(c) for c in head]] + [[str(c) for c in r] for r in rows]
    widths = [max(len(r[k]) for r in text) for k in range(len(head))]
    return [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in text]


def tail(text: str, width: int = 40) -> str:
    """The end of a long name, as TI's netLog shows it."""
    return text if len(text) <= width else "…" + text[-(width - 1):]


def tensor_rows(tensors: Sequence[Tensor]) -> list[list[Any]]:
    rows = []
    for t in tensors:
        p = t.pad
        rows.append([t.index, tail(t.name) or "-", t.dtype.name, ",".join(map(str, t.shape)),
                     f"{p.left},{p.top},{p.right},{p.bottom},{p.channel}", t.channel_pitch, t.line_pitch,
                     "-" if t.scale is None else f"{t.scale:g}", t.zero_point, t.layout,
                     f"{t.buf_size} ({t.buf_size_source})"])
    return rows


def io_table(title: str, inputs: Sequence[Tensor], outputs: Sequence[Tensor]) -> str:
    head = ["#", "name", "dtype", "N,D1,D2,C,H,W", "pad L,T,R,B,ch", "ch pitch", "line pitch", "scale",
            "zero pt", "layout", "buf size"]
    lines = [title]
    for label, tensors in (("inputs", inputs), ("outputs", outputs)):
        lines.append(f"{label}: {len(tensors)}")
        if tensors:
            lines.extend(columns(head, tensor_rows(tensors)))
    padded = [t for t in (*inputs, *outputs) if t.has_padding]
    if padded:
        names = ", ".join(f"{t.direction} {t.name or t.index}" for t in padded)
        lines.append(f"padded in the device buffer: {names}; `binparse view` reads them without the padding")
    return "\n".join(lines)
