"""Text and JSON renderings of an accessor's fields (what `binparse inspect` prints).

Numbers read the same everywhere: a float that is exactly a float32 (every float32 field, scale
or value read from a file) is shown as the shortest decimal that reads back as that float32
(`0.01`, not `0.009999999776482582`), in text and in JSON (`shortest`, `json_text`); an integer
field the schema marks `-display: hex` (versions, magics) is shown as `0x…` with the digits of its
size, in text and, as a string, in JSON.
"""

from __future__ import annotations

import math
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


def shortest(x: float) -> float:
    """`x`, when it is exactly a float32, as the shortest decimal that reads back as that float32
    (numpy's float32 repr); any other float unchanged."""
    s = np.float32(x)
    if float(s) != x or x == 0.0:
        return x
    return float(str(s))


def float_text(x: float) -> str:
    """A number for a report's column: a float32 value as its shortest text (`shortest`), an
    integral value without ".0" (35.14227, 4, 0.01)."""
    text = repr(shortest(float(x)))
    return text[:-2] if text.endswith(".0") else text


NOT_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}  # JSON has no such numbers


def json_string(s: str) -> str:
    """`s` as strict JSON may hold it: a lone surrogate (what Python makes of a file name's bytes
    that are not UTF-8, U+DC80..U+DCFF) written as the text `\\xff` of its byte, as text output
    shows it (`text.shown`); any other lone surrogate as the text `\\ud800`. Other text unchanged."""
    if s.isascii():
        return s
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return "".join(c if not 0xD800 <= ord(c) <= 0xDFFF else
                       f"\\x{ord(c) - 0xDC00:02x}" if 0xDC80 <= ord(c) <= 0xDCFF else f"\\u{ord(c):04x}" for c in s)
    return s


def jsonable(v: Any) -> Any:
    """A strict JSON document (docs/contracts.md, "JSON"): every float32-exact float as its
    shortest float32 text (`shortest`), NaN and infinities as the strings "NaN", "Infinity" and
    "-Infinity", strings with lone surrogates as `json_string` writes them."""
    if isinstance(v, float):
        return shortest(v) if math.isfinite(v) else NOT_FINITE[repr(float(v))]
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, dict):
        return {(json_string(k) if isinstance(k, str) else k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v


def json_text(doc: Any) -> str:
    """What the commands print for `--json`: strict JSON (`jsonable`; `allow_nan=False`), indented."""
    import json
    return json.dumps(jsonable(doc), indent=1, allow_nan=False)  # ASCII: C1 controls and bidi marks as \u escapes


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
    from . import budget
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
