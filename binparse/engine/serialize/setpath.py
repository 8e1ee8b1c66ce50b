"""`--set PATH=VALUE`: one value of a file's values changed, by its path in the value tree.

PATH is a field path as expressions write it (`chunks[1].body.sample_rate`, `header.tag`); an
instance read at a position may be named too (its value is then taken from the file and changed).
VALUE is a Kaitai literal (`16000`, `0x10`, `-1.5`, `true`, `'text'`, `[1, 2, 3]`, `codec::pcm`); for
a text field a bare word is the text (`header.tag=data`), for an enum field a member's name
(`body.codec=ieee_float`). The new value must be of the kind the old one was (a number for a
number, text for text, bytes for bytes, a list for a repeat).
"""

from __future__ import annotations

import difflib
from enum import IntEnum
from typing import Any

from ...core.errors import UsageError
from .. import expr as ex

_LITERALS = "a number (3, 0x10, -1.5), true or false, text in quotes, a list [1, 2] or an enum member"


def _steps(path: str) -> list[str | int]:
    """`a.b[2].c` as ["a", "b", 2, "c"]."""
    try:
        e = ex.parse(path)
    except ex.ExprError as exc:
        raise UsageError(f"--set {path}: not a field path ({exc})", expected="e.g. chunks[1].body.sample_rate") from None
    out: list[str | int] = []
    while True:
        if e[0] == "name":
            out.append(e[1])
            return out[::-1]
        if e[0] == "attr":
            out.append(e[2])
            e = e[1]
        elif e[0] == "index" and e[2][0] == "num" and type(e[2][1]) is int:
            out.append(e[2][1])
            e = e[1]
        else:
            raise UsageError(f"--set {path}: not a field path (names, dots and [number] only)",
                             expected="e.g. chunks[1].body.sample_rate")


def _suggest(name: str, names: list[str]) -> str | None:
    close = difflib.get_close_matches(name, names, n=1)
    return f"did you mean {close[0]!r}?" if close else None


def apply_set(values: dict[str, Any], item: str, original: Any) -> None:
    """Change the value `item` (`PATH=VALUE`) names in `values` (the plain values of `original`)."""
    from ..runtime.whole import to_plain
    path, eq, text = item.partition("=")
    path = path.strip()
    if not eq or not path:
        raise UsageError("--set takes PATH=VALUE", found=item, expected="e.g. --set chunks[1].body.sample_rate=16000")
    steps = _steps(path)
    node: Any = values
    acc: Any = original
    holder: Any = None
    for i, step in enumerate(steps):
        where = _shown(steps[:i]) or "the root"
        last = i == len(steps) - 1
        if isinstance(step, int):
            if not isinstance(node, list) or not 0 <= step < len(node):
                n = len(node) if isinstance(node, list) else None
                raise UsageError(f"--set {path}: {where} " + ("is not a repeat" if n is None else
                                 f"has {n} elements (0..{n - 1})"))
        else:
            if not isinstance(node, dict):
                raise UsageError(f"--set {path}: {where} is not a record, it has no field {step!r}")
            if step not in node:
                inst = _pos_instance(acc, step)
                if inst is None:
                    if step in getattr(type(acc), "_INSTANCE_ORDER", ()):
                        raise UsageError(f"--set {path}: {step!r} is a value instance, worked out from the fields: "
                                         "it is never written", hint="set the fields it is computed from instead")
                    names = list(node) + _instance_names(acc)
                    raise UsageError(f"--set {path}: {where} has no field {step!r}", expected=names,
                                     hint=_suggest(step, names))
                node[step] = to_plain(inst)
            holder = acc
        if last:
            node[step] = _value(path, text, node[step], _enum(holder, _last_name(steps)))
            return
        node = node[step]
        acc = _child(acc, step)


def _shown(steps: list[str | int]) -> str:
    return "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in steps).lstrip(".")


def _last_name(steps: list[str | int]) -> str:
    return next(s for s in reversed(steps) if isinstance(s, str))


def _child(acc: Any, step: str | int) -> Any:
    if acc is None:
        return None
    try:
        return acc[step] if isinstance(step, int) else getattr(acc, step)
    except Exception:  # noqa: BLE001 - no accessor there: enums are not known below, values still are
        return None


def _instance_names(acc: Any) -> list[str]:
    return [s.name for s in getattr(type(acc), "_INSTANCES", ())] if acc is not None else []


def _pos_instance(acc: Any, name: str) -> Any:
    if acc is None or name not in _instance_names(acc):
        return None
    return getattr(acc, name)


def _enum(acc: Any, name: str) -> type[IntEnum] | None:
    if acc is None:
        return None
    cls = type(acc)
    spec = next((s for s in (*getattr(cls, "_FIELDS", ()), *getattr(cls, "_INSTANCES", ())) if s.name == name), None)
    if spec is None or not spec.enum:
        return None
    found: type[IntEnum] | None = getattr(cls, "_ENUMS", {}).get(spec.enum.rpartition("::")[2])
    return found


class _Literals:
    def __init__(self, enum: type[IntEnum] | None) -> None:
        self.enum = enum

    def lookup(self, name: str) -> Any:
        raise KeyError(name)

    def attr(self, obj: Any, name: str) -> Any:
        raise KeyError(name)

    def enum_value(self, enum: str, member: str) -> int:
        if self.enum is None:
            raise KeyError(enum)
        return int(self.enum[member])


def _value(path: str, text: str, old: Any, enum: type[IntEnum] | None) -> Any:
    """The new value from its text, of the kind the old one is."""
    stripped = text.strip()
    if enum is not None and stripped in enum.__members__:
        return int(enum[stripped])
    try:
        v = ex.evaluate(ex.parse(stripped), _Literals(enum))
    except (ex.ExprError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
        if isinstance(old, str):
            return text  # a bare word for a text field
        members = f" or a member of {enum.__name__} ({', '.join(enum.__members__)})" if enum is not None else ""
        raise UsageError(f"--set {path}: the value is no Kaitai literal", found=text,
                         expected=_LITERALS + members) from None
    if isinstance(old, bool) or isinstance(v, bool):
        if type(v) is type(old):
            return v
    elif isinstance(old, int) and type(v) is int:
        return v
    elif isinstance(old, float) and type(v) in (int, float):
        return float(v)
    elif isinstance(old, str) and isinstance(v, str):
        return v
    elif isinstance(old, (bytes, bytearray)) and isinstance(v, (bytes, list)):
        return bytes(v) if isinstance(v, bytes) or all(type(x) is int and 0 <= x < 256 for x in v) else v
    elif isinstance(old, list) and isinstance(v, (list, bytes)):
        return list(v)
    raise UsageError(f"--set {path}: the field holds {_kind(old)}, not {_kind(v)}", found=text)


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "true or false"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "text"
    if isinstance(v, (bytes, bytearray)):
        return "bytes"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a record (set its fields one by one)"
    return type(v).__name__


__all__ = ["apply_set"]
