"""Text and JSON renderings of an accessor's fields (what `binparse inspect` prints)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from typing import Any

import numpy as np

from .text import shown
from .runtime import ABSENT, Accessor, FieldSpec, RecordArray, StrArray, to_plain


def columns(head: Sequence[str], rows: Sequence[Sequence[Any]], indent: str = "  ") -> list[str]:
    """Left-aligned text columns (the families' printout-like tables); every cell shown escaped
    (`text.shown`: a name from a file cannot break a row or move the cursor)."""
    text = [[shown(c) for c in head]] + [[shown(c) for c in r] for r in rows]
    widths = [max(len(r[k]) for r in text) for k in range(len(head))]
    return [indent + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in text]


def _runs(values: list[Any]) -> str:
    """`[512, 0 ×31]`: a list with runs of equal neighbours folded."""
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        text = repr(values[i])
        parts.append(text if j == i else f"{text} ×{j - i + 1}")
        i = j + 1
    return "[" + ", ".join(parts) + "]"


def value_text(v: Any, limit: int = 120) -> str:
    if isinstance(v, IntEnum):
        text = f"{v.name} ({int(v)})"
    elif isinstance(v, StrArray):
        text = _runs(list(v))
    elif isinstance(v, np.ndarray):
        if v.dtype == np.uint8 and v.ndim == 1:
            text = bytes(v[:32]).hex(" ") + (" …" if v.size > 32 else "")
        else:
            text = _runs(v.reshape(-1).tolist() if v.ndim > 1 else v.tolist())
    else:
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _type_text(spec: FieldSpec, count: int | None, size: int | None) -> str:
    base = {"prim": (spec.np or "").lstrip("<>|"), "str": f"{'strz' if spec.zero_terminated else 'str'}[{size}]",
            "bytes": f"bytes[{size}]", "contents": f"magic[{size}]", "user": spec.user or "",
            "switch": "switch"}[spec.kind]
    if spec.enum:
        base += f" enum {spec.enum}"
    return base if count is None else f"{base} ×{count}"


def rows(acc: Accessor, prefix: str = "") -> list[tuple[str, str, str, str]]:
    """(field path, offset, type, value) for every seq field, nested records expanded."""
    out: list[tuple[str, str, str, str]] = []
    for i, spec in enumerate(acc._FIELDS):
        off, count, size = acc._loc(i)
        if size == ABSENT:
            continue  # not in this version of the struct (`if` false)
        name = prefix + spec.name
        v = getattr(acc, spec.name)
        if isinstance(v, Accessor):
            out.append((name, str(off), _type_text(spec, count, size), ""))
            out.extend(rows(v, name + "."))
        elif isinstance(v, RecordArray):
            out.append((name, str(off), _type_text(spec, count, size), f"{len(v)} records"))
            for k, rec in enumerate(v):
                out.extend(rows(rec, f"{name}[{k}]."))
        else:
            out.append((name, str(off), _type_text(spec, count, size), value_text(v)))
    return out


def table(acc: Accessor, title: str = "") -> str:
    data = rows(acc)
    head = ("field", "offset", "type", "value")
    widths = [max(len(r[k]) for r in data + [head]) for k in range(3)]
    lines = [title] if title else []
    lines.append("  ".join(h.ljust(w) for h, w in zip(head[:3], widths)) + "  " + head[3])
    for r in data:
        lines.append(f"{r[0].ljust(widths[0])}  {r[1].rjust(widths[1])}  {r[2].ljust(widths[2])}  {r[3]}".rstrip())
    return "\n".join(lines)


def _jsonable(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, dict):
        return {k: _jsonable(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_jsonable(x) for x in v]
    if isinstance(v, float) and not np.isfinite(v):
        return repr(v)
    return v


def plain_json(acc: Accessor) -> Any:
    """Every seq field as JSON-ready values (bytes as hex)."""
    return _jsonable(to_plain(acc))
