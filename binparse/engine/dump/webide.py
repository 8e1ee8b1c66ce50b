"""A record named as its type's `-webide-representation` says (Kaitai's Web IDE key), e.g.
`'{name}: {len_body:dec} bytes'` → `"IHDR: 13 bytes"`.

The template's text is kept; each `{path:options}` is replaced by the value at `path` (field ids
joined by dots, `_parent` for the record that holds this one), as the Web IDE writes it: an integer
in hexadecimal (`0x1f`) unless `:dec`, an enum value by its member's name (its number with `:dec`),
a record by its own representation (empty without one), a repeat by its elements joined with
`, ` (`:sep=TEXT` another separator), bytes as ASCII with `:str` and else as hexadecimal (`0x` and
two digits a byte: the Web IDE drops the leading zero of each byte, binparse keeps it), text and
other numbers as they are. A path that names nothing, or a value that cannot be read, gives an
empty part: a representation never stops a dump.
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any

import numpy as np

from ...core.errors import BinparseError

_PART = re.compile(r"\{(.*?)\}")
_DEPTH = 4  # records inside representations inside representations: no deeper (a type naming itself)
_LIMIT = 200  # characters of one representation


def representation(acc: Any, depth: int = 0) -> str | None:
    """The record's `-webide-representation`, filled in; None when its type has none."""
    template: str | None = getattr(type(acc), "_REPR", None)
    if template is None:
        return None
    if depth > _DEPTH:
        return "…"
    out: list[str] = []
    for k, part in enumerate(_PART.split(template)):
        out.append(part if k % 2 == 0 else _placeholder(acc, part, depth))
        if sum(map(len, out)) > _LIMIT:
            break
    text = "".join(out)
    return text if len(text) <= _LIMIT else text[: _LIMIT - 1] + "…"


def _options(text: str) -> dict[str, str | bool]:
    opts: dict[str, str | bool] = {"sep": ", "}
    for kv in text.split(","):
        key, eq, value = kv.partition("=")
        opts[key] = value if eq else True
    return opts


def _placeholder(acc: Any, spec: str, depth: int) -> str:
    path, _, opts_text = spec.partition(":")
    opts: dict[str, str | bool] = _options(opts_text) if opts_text else {"sep": ", "}
    v: Any = acc
    raw = False
    try:
        for name in path.split("."):
            if not hasattr(v, "_FIELDS") or isinstance(v, type):
                return ""
            owner = v
            v = v._ks_member(name)  # a declared member or Kaitai's `_parent`…: the one whitelist dispatch
            field = next((f for f in (*owner._FIELDS, *owner._INSTANCES) if f.name == name), None)
            raw = field is not None and field.kind in ("bytes", "contents", "switch") or \
                name in getattr(owner, "_BYTES_VALUES", ())  # bytes, not a repeat of u1
    except (BinparseError, AttributeError, TypeError, RecursionError):  # (TypeError: a name no record declares)
        return ""
    return _text(v, opts, depth, raw)


def _text(v: Any, opts: dict[str, str | bool], depth: int, raw: bool = False) -> str:
    if v is None:
        return ""
    if hasattr(v, "_FIELDS"):
        return representation(v, depth + 1) or ""
    if isinstance(v, bool) or isinstance(v, np.bool_):
        return "true" if v else "false"
    if isinstance(v, IntEnum):
        return str(int(v)) if opts.get("dec") else v.name
    if isinstance(v, (int, np.integer)):
        return str(int(v)) if opts.get("dec") else f"0x{int(v):x}" if v >= 0 else f"-0x{-int(v):x}"
    if isinstance(v, np.ndarray) and v.dtype == np.uint8 and v.ndim == 1 and raw:
        data = v[:_LIMIT].tobytes()
        return data.decode("latin-1") if opts.get("str") else "0x" + data.hex()
    if isinstance(v, str):
        return v
    if isinstance(v, (float, np.floating)):
        return repr(float(v))
    try:
        items = list(v[:_LIMIT]) if hasattr(v, "__getitem__") else []
    except (BinparseError, TypeError):
        return ""
    sep = opts.get("sep", ", ")
    return str(sep).join(_text(x, opts, depth) for x in items)


__all__ = ["representation"]
