"""Text and JSON renderings of an accessor's fields (what `binparse inspect` prints).

Numbers read as every report reads them (`binparse.core.render`: a float32-exact float as its
shortest text); an integer field the schema marks `-display: hex` (versions, magics) is shown as
`0x…` with the digits of its size, in text and, as a string, in JSON.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any

import numpy as np

from ...core.render import shortest
from ..runtime import ABSENT, Accessor, FieldSpec, RecordArray, StrArray, to_plain


def _hex(v: Any, digits: int) -> Any:
    if isinstance(v, list):
        return [_hex(x, digits) for x in v]
    return f"0x{int(v):0{digits}X}" if isinstance(v, (int, np.integer)) and v >= 0 else v


def _item_text(v: Any) -> str:
    return repr(shortest(v)) if isinstance(v, float) else repr(v)


def _runs(values: list[Any]) -> str:
    """`[512, 0 ×31]`: a list with runs of equal neighbours folded."""
    parts: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[i]:
            j += 1
        text = _item_text(values[i])
        parts.append(text if j == i else f"{text} ×{j - i + 1}")
        i = j + 1
    return "[" + ", ".join(parts) + "]"


def value_text(v: Any, limit: int = 120, spec: FieldSpec | None = None) -> str:
    if spec is not None and spec.display == "hex" and isinstance(spec.size, int):
        v = _hex(v.tolist() if isinstance(v, np.ndarray) else v, 2 * spec.size)
        text = v if isinstance(v, str) else "[" + ", ".join(map(str, v)) + "]" if isinstance(v, list) else repr(v)
    elif isinstance(v, IntEnum):
        text = f"{v.name} ({int(v)})"
    elif isinstance(v, StrArray) or isinstance(v, list) and all(isinstance(x, (int, float, str)) for x in v):
        text = _runs([int(x) if isinstance(x, IntEnum) else x for x in v])
    elif isinstance(v, list):
        text = "[" + ", ".join(value_text(x, 40) for x in v) + "]"
    elif isinstance(v, np.ndarray):
        if v.dtype == np.uint8 and v.ndim == 1:
            text = bytes(v[:32]).hex(" ") + (" …" if v.size > 32 else "")
        else:
            text = _runs(v.reshape(-1).tolist() if v.ndim > 1 else v.tolist())
    else:
        text = _item_text(v)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def type_text(spec: FieldSpec, count: int | None, size: int | None) -> str:
    """A field's type as the field tables show it: `u4`, `b3`, `str[12]`, `bytes[8]`, `Header ×4`."""
    n = f"[{size}]" if size is not None and size >= 0 else ""
    base = {"prim": (spec.np or "").lstrip("<>|"), "bits": f"b{spec.bits}",
            "str": f"{'strz' if spec.zero_terminated else 'str'}{n}", "bytes": f"bytes{n}",
            "contents": f"magic{n}", "user": spec.user or "", "switch": "switch"}[spec.kind]
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
            out.append((name, str(off), type_text(spec, count, size), ""))
            out.extend(rows(v, name + "."))
        elif isinstance(v, RecordArray):
            out.append((name, str(off), type_text(spec, count, size), f"{len(v)} records"))
            for k, rec in enumerate(v):
                out.extend(rows(rec, f"{name}[{k}]."))
        else:
            out.append((name, str(off), type_text(spec, count, size), value_text(v, spec=spec)))
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
    return v


PLAIN_BYTES = 32  # bytes of Python objects (a list's slot and its number) per byte of the fields made plain


def plain_json(acc: Accessor) -> Any:
    """Every seq field as JSON-ready values (bytes as hex; `-display: hex` integers as "0x…"); the
    Python objects of as many as the buffer's bytes asked of the budget first."""
    from ...core import budget
    nbytes = memoryview(acc._mv).nbytes
    budget.ask(PLAIN_BYTES * nbytes, f"every field of {nbytes:,} bytes as JSON values", file=acc._file)
    return _hexed(acc, _jsonable(to_plain(acc)))


def _hexed(acc: Any, doc: Any) -> Any:
    """`doc` (the plain form of `acc`) with the fields the schema shows in hex as "0x…" strings."""
    if isinstance(acc, RecordArray) and isinstance(doc, list):
        return [_hexed(rec, d) for rec, d in zip(acc, doc)]
    if not isinstance(acc, Accessor) or not isinstance(doc, dict):
        return doc
    for spec in acc._FIELDS:
        if spec.name not in doc:
            continue
        if spec.display == "hex" and isinstance(spec.size, int):
            doc[spec.name] = _hex(doc[spec.name], 2 * spec.size)
        elif spec.kind in ("user", "switch"):
            doc[spec.name] = _hexed(getattr(acc, spec.name), doc[spec.name])
    return doc
