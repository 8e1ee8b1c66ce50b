"""A value of a user's schema as a dump shows it: JSON-ready (`plain`), as a table cell (`cell`), and
the name of the type that was read (`type_name`).

Numbers are exact: a float is the double it is (`repr`), an `f4` field the double of its float32
(EDID's `red_x` 0.6181640625, never a shorter decimal that reads back as another double). The
families' own reports keep `core.render`'s rule (a float32-exact float as its shortest float32 text);
a user's schema is printed as read. An enum value is its member's name (a number no member has
stays that number); raw bytes are lowercase hex; a `-display: hex` integer is "0x…" with the
digits of its size.
"""

from __future__ import annotations

import math
from enum import IntEnum
from typing import Any

import numpy as np

from ..runtime import Accessor, FieldSpec
from ..runtime.sequences import StrArray

BYTES_VALUE = FieldSpec(name="", kind="bytes", np="|u1")  # how a value instance of bytes is shown
NOT_FINITE = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}  # strict JSON has no such numbers


def number(v: float) -> Any:
    """A float as JSON may hold it: itself, or "NaN", "Infinity", "-Infinity"."""
    return v if math.isfinite(v) else NOT_FINITE[repr(v)]


def hexed(v: Any, digits: int) -> Any:
    """`-display: hex`: a non-negative integer (or a list of them) as "0x…" of `digits` digits."""
    if isinstance(v, list):
        return [hexed(x, digits) for x in v]
    return f"0x{int(v):0{digits}X}" if isinstance(v, (int, np.integer)) and not isinstance(v, bool) and v >= 0 else v


def enum_of(acc: Any, spec: FieldSpec | None) -> type[IntEnum] | None:
    if spec is None or spec.enum is None:
        return None
    enums: dict[str, type[IntEnum]] = type(acc)._ENUMS
    return enums.get(spec.enum)


def is_bytes(v: Any, spec: FieldSpec | None) -> bool:
    """A byte array (a `bytes`/`contents` field, a switch case or value read as bytes), not a list of u1."""
    return isinstance(v, np.ndarray) and v.dtype == np.uint8 and v.ndim == 1 and spec is not None \
        and spec.kind in ("bytes", "contents", "switch", "user")


def plain(v: Any, acc: Any, spec: FieldSpec | None) -> Any:
    """`v` (a scalar or an array of scalars `acc` gave for `spec`) as JSON-ready data; records and
    repeats of records are walked, not converted (see `walk`)."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, IntEnum):
        return v.name
    if isinstance(v, (int, np.integer)):
        enum = enum_of(acc, spec)
        if enum is not None and int(v) in enum._value2member_map_:
            return enum(int(v)).name
        return hexed(int(v), _digits(spec)) if _hex(spec) else int(v)
    if isinstance(v, (float, np.floating)):
        return number(float(v))
    if isinstance(v, np.ndarray):
        if is_bytes(v, spec) or v.dtype == np.uint8 and v.ndim == 2 and spec is not None and spec.kind in (
                "bytes", "contents"):
            return v.tobytes().hex() if v.ndim == 1 else [r.tobytes().hex() for r in v]
        return plain_list(v.reshape(-1).tolist() if v.ndim > 1 else v.tolist(), acc, spec)
    if isinstance(v, (StrArray, list, tuple)):
        return plain_list(list(v), acc, spec)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return None


def plain_list(items: list[Any], acc: Any, spec: FieldSpec | None) -> list[Any]:
    """A list of scalars as JSON-ready data (the numbers of a numpy array as they are: `tolist`)."""
    enum = enum_of(acc, spec)
    if enum is None and not _hex(spec) and all(type(x) is int for x in items[:1]) \
            and all(type(x) is int for x in items):
        return items
    return [plain(x, acc, spec) for x in items]


def _hex(spec: FieldSpec | None) -> bool:
    return spec is not None and spec.display == "hex" and isinstance(spec.size, int)


def _digits(spec: FieldSpec | None) -> int:
    """Hex digits of a `-display: hex` number: two a byte."""
    return 2 * spec.size if spec is not None and isinstance(spec.size, int) else 0


def type_name(cls: type) -> str:
    """A record type as the schema names it: `chunk`, `riff_chunk` (nested types by their own name)."""
    path: str = getattr(cls, "_TYPE_PATH", "") or cls.__name__
    return path.rsplit("::", 1)[-1]


def spec_type(spec: FieldSpec, size: int | None = None) -> str:
    """A built-in type as the schema names it: `u4`, `f8`, `b3`, `str[12]`, `strz`, `bytes[8]`; with
    its enum (`u2 enum codec`)."""
    n = f"[{size}]" if size is not None and size >= 0 else ""
    base = {"prim": (spec.np or "").lstrip("<>|"), "bits": f"b{spec.bits}",
            "str": f"{'strz' if spec.zero_terminated else 'str'}{n}", "bytes": f"bytes{n}",
            "contents": f"magic{n}", "user": spec.user or "", "switch": "switch"}[spec.kind]
    if spec.kind == "prim" and base[:1] in "iuf":  # numpy's i4 / u4 / f8: Kaitai's s4 / u4 / f8
        base = ("s" if base[0] == "i" else base[0]) + base[1:]
    if spec.process is not None:
        base += f" ({spec.process[0]})"
    return f"{base} enum {spec.enum}" if spec.enum else base


def read_type(v: Any, spec: FieldSpec, case: FieldSpec | None = None, size: int | None = None) -> str:
    """The type that was read for `spec`: a record's own type, a switch's case (`case`), else the declared one."""
    if hasattr(v, "_FIELDS"):
        return type_name(type(v))
    if spec.kind == "switch":
        return spec_type(case, size) if case is not None else "switch"
    return spec_type(spec, size)


# -- table cells ------------------------------------------------------------------------------------
def _item_text(v: Any) -> str:
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else NOT_FINITE[repr(v)]
    return repr(v)


def runs(values: Any, limit: int) -> str:
    """`[512, 0 ×31]`: a list with runs of equal neighbours folded, cut after about `limit` characters."""
    parts: list[str] = []
    n = len(values)
    i = used = 0
    while i < n and used <= limit:
        j = i
        while j + 1 < n and values[j + 1] == values[i]:
            j += 1
        text = _item_text(values[i])
        parts.append(text if j == i else f"{text} ×{j - i + 1}")
        used += len(parts[-1]) + 2
        i = j + 1
    return "[" + ", ".join(parts) + (", …" if i < n else "") + "]"


def cell(v: Any, acc: Any, spec: FieldSpec | None, limit: int = 120) -> str:
    """`v` as the value column of the text table: exact numbers, enum members with their number,
    strings quoted, the first 32 bytes of a byte array, runs of equal numbers folded."""
    if isinstance(v, IntEnum):
        text = f"{v.name} ({int(v)})"
    elif isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        enum = enum_of(acc, spec)
        text = f"{enum(int(v)).name} ({int(v)})" if enum is not None and int(v) in enum._value2member_map_ \
            else str(hexed(int(v), _digits(spec))) if _hex(spec) else str(int(v))
    elif isinstance(v, np.ndarray) and is_bytes(v, spec):
        text = bytes(v[:32]).hex(" ") + (" …" if v.size > 32 else "")
    elif isinstance(v, np.ndarray):
        head = v.reshape(-1)[: 4 * limit]
        items = plain_list(head.tolist(), acc, spec) if enum_of(acc, spec) or _hex(spec) else head.tolist()
        text = runs(items, limit)
        if v.size > head.size and not text.endswith(", …]"):
            text = text[:-1] + ", …]"
    elif isinstance(v, (StrArray, list, tuple)):
        text = runs([x if type(x) in (int, float, str, bool) else plain(x, acc, spec) for x in v[: 4 * limit]],
                    limit)
    elif isinstance(v, (float, np.floating)):
        text = _item_text(float(v))
    else:
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def same_record(a: Accessor, b: Accessor) -> bool:
    """`a` is `b`, or the same type read at the same place of the same stream with the same params."""
    if a is b:
        return True
    if type(a) is not type(b) or a._off != b._off or (a._io_start, a._io_end) != (b._io_start, b._io_end) \
            or a._mv.obj is not b._mv.obj:
        return False
    try:
        return bool(a._params == b._params)
    except Exception:  # params that do not compare as one truth value (arrays): not the same
        return False


__all__ = ["BYTES_VALUE", "cell", "enum_of", "hexed", "is_bytes", "number", "plain", "plain_list",
           "read_type", "runs", "same_record", "spec_type", "type_name"]
