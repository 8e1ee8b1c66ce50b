"""How numbers and tables read in every report: text columns, float32-exact floats, strict JSON.

Numbers read the same everywhere: a float that is exactly a float32 (every float32 field, scale
or value read from a file) is shown as the shortest decimal that reads back as that float32
(`0.01`, not `0.009999999776482582`), in text and in JSON (`shortest`, `json_text`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from .text import shown


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
