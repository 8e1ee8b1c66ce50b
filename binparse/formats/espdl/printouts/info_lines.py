"""The declaration and value-entry lines of an ESP-DL `.info` printout, cut with str methods in
linear time (the expressions they replace, a lazy name before `[` or `, shape: [` and a bracket
of anything but `]`, scanned the rest of the line from every `[`: quadratic on a long line).

`DECL.match(line)`: `%NAME[DTYPE, DIMS]` with an optional `, exponents: [EXP]` (a graph input, an
initializer's or a value's declaration); `ENTRY.match(line)`: `%NAME, shape: [DIMS], exponents:
[EXP],` with an optional ` docString: DOC,` (a value section's entry). Each gives the parts by
name (`m["name"]`), or None for a line of another form.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

_WORD = re.compile(r"\w+")
Parts = dict[str, Any]  # str values; "exp" and "doc" None when the line has none

_EXPONENTS = ", exponents: ["
_SHAPE = ", shape: ["
_THEN_EXPONENTS = "], exponents: ["
_DOC = "], docString: "


def declaration(line: str) -> Parts | None:
    """The parts of `%NAME[DTYPE, DIMS][, exponents: [EXP]]`, else None."""
    s = line.strip()
    if not s.startswith("%") or not s.endswith("]"):
        return None
    body, exp = s, None
    e = s.rfind(_EXPONENTS)
    if e >= 0 and "]" not in s[e + len(_EXPONENTS):-1] and s[:e].endswith("]"):
        body, exp = s[:e], s[e + len(_EXPONENTS):-1]
    k = body.rfind("[")
    if k < 2:  # a name of one character at least
        return None
    dtype, sep, dims = body[k + 1:-1].partition(", ")
    if not sep or not _WORD.fullmatch(dtype) or "]" in dims:
        return None
    return {"name": body[1:k], "dtype": dtype, "dims": dims, "exp": exp}


def entry(line: str) -> Parts | None:
    """The parts of `%NAME, shape: [DIMS], exponents: [EXP],[ docString: DOC,]`, else None."""
    s = line.rstrip()
    if not s.startswith("%") or not s.endswith(","):
        return None
    i = s.find(_SHAPE)
    if i < 2:
        return None
    j = s.find("]", i + len(_SHAPE))
    if j < 0 or not s.startswith(_THEN_EXPONENTS, j):
        return None
    k = s.find("]", j + len(_THEN_EXPONENTS))
    if k < 0:
        return None
    tail, doc = s[k:], None
    if tail != "],":
        if not (tail.startswith(_DOC) and len(tail) > len(_DOC)):
            return None
        doc = tail[len(_DOC):-1]
    return {"name": s[1:i], "dims": s[i + len(_SHAPE):j], "exp": s[j + len(_THEN_EXPONENTS):k], "doc": doc}


class _Line:
    """A line form with the `match` of a compiled expression (so its callers read as before)."""

    def __init__(self, cut: Callable[[str], Parts | None]) -> None:
        self.match = cut


DECL = _Line(declaration)
ENTRY = _Line(entry)

__all__ = ["DECL", "ENTRY", "Parts", "declaration", "entry"]
