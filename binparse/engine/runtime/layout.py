"""Static layouts: where fields lie when their sizes, counts and `if`s depend on params only.

Used at generation time (on specs made from the schema model) and at run time (per class and
params, cached by the accessor base).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import expr as ex
from .specs import ABSENT, FieldSpec, Size, StaticLayout


class _ParamScope:
    def __init__(self, params: dict[str, Any]) -> None:
        self.params = params

    def lookup(self, name: str) -> Any:
        if name in self.params:
            return self.params[name]
        raise KeyError(name)

    def attr(self, obj: Any, name: str) -> Any:
        raise KeyError(name)

    def enum_value(self, enum: str, member: str) -> int:
        raise KeyError(enum)


def static_eval(e: Size, params: dict[str, Any]) -> int | None:
    """Value of a size/count expression that depends on params only, else None."""
    if e is None or isinstance(e, int):
        return e
    try:
        return int(ex.evaluate(e, _ParamScope(params)))
    except Exception:  # it reads the data (a field, `_io`), or is not a number
        return None


Prefix = tuple[tuple[tuple[int, int | None, int], ...], int]
_NO_PREFIX: Prefix = ((), 0)


def static_prefix(fields: Sequence[FieldSpec], params: dict[str, Any], namespace: dict[str, Any]) -> Prefix:
    """(offset, count, element size) of the leading fields whose place depends on params only,
    and the offset where the first other field starts.

    `namespace` maps user type names to their classes (or to functions giving their
    `StaticLayout` for given params, at generation time).
    """
    entries: list[tuple[int, int | None, int]] = []
    off = 0
    for f in fields:
        if f.kind == "bits" or f.size_eos or (f.term is not None and f.size is None and f.kind != "contents") \
                or f.repeat in ("eos", "until"):
            break  # a place only reading can tell
        if f.cond is not None:
            present = static_eval(f.cond, params)
            if present is None:
                break
            if not present:
                entries.append((off, None, ABSENT))
                continue
        count = static_eval(f.count, params) if f.count is not None else None
        if f.count is not None and count is None:
            break
        size = _static_size(f, params, namespace)
        if size is None or (count is not None and count < 0) or size < 0:
            break
        entries.append((off, count, size))
        off += size * (1 if count is None else count)
    return tuple(entries), off


def _static_size(f: FieldSpec, params: dict[str, Any], namespace: dict[str, Any]) -> int | None:
    if f.kind == "contents":
        return len(f.contents or b"")
    if f.kind == "switch" and f.size is None:
        return None
    if f.kind != "user" or f.size is not None:
        return static_eval(f.size, params)
    target = namespace[f.user or ""]
    if isinstance(target, StaticLayout):
        return target.size
    args = [static_eval(a, params) for a in f.args]
    if any(a is None for a in args):
        return None
    if callable(target) and not isinstance(target, type):
        sub = target(*args)
    else:  # an accessor class (duck-typed: this module does not import the accessor base)
        cls: Any = target
        sub = cls._static_for(dict(zip(cls._PARAMS, args))) if cls._PARAMS else cls._STATIC
    return None if sub is None else sub.size


def static_layout(fields: Sequence[FieldSpec], params: dict[str, Any],
                  namespace: dict[str, Any]) -> StaticLayout | None:
    """Offsets of a type whose every size, count and `if` is known from params alone, else None."""
    entries, end = static_prefix(fields, params, namespace)
    if len(entries) < len(fields):
        return None
    return StaticLayout(tuple(e[0] for e in entries), tuple(e[1] for e in entries),
                        tuple(e[2] for e in entries), end)


MAX_DTYPE = 2**31 - 1  # numpy's dimensions and this itemsize fit a C int: a larger record has no dtype


def record_dtype(fields: Sequence[FieldSpec], lay: StaticLayout, params: dict[str, Any],
                 namespace: dict[str, Any]) -> np.dtype[Any] | None:
    """Structured dtype with explicit offsets and itemsize; arrays are sub-array fields. None when the
    record or one of its counts is larger than numpy's dtypes take (MAX_DTYPE): it is read field by field."""
    if lay.size > MAX_DTYPE or any(n is not None and n > MAX_DTYPE for n in lay.counts) or \
            any(s is not None and s > MAX_DTYPE for s in lay.elem_sizes):
        return None
    names, formats, offsets = [], [], []
    for f, n, size, off in zip(fields, lay.counts, lay.elem_sizes, lay.offsets):
        if size == ABSENT:
            continue
        if f.kind == "user" and f.size is None:
            target = namespace[f.user or ""]
            if target is None:  # a record of no dtype inside
                return None
            if isinstance(target, np.dtype):
                base: Any = target
            else:
                args = {p: static_eval(a, params) for p, a in zip(target._PARAMS, f.args)}
                base = target._dtype_for(args)
            if base is None:
                return None
        elif f.kind in ("bytes", "contents", "switch", "user") or f.process is not None:
            base = ("u1", (size,)) if size else ("u1", (0,))
        elif f.kind == "str":
            base = np.dtype(f"S{size}") if size else ("u1", (0,))
        else:
            base = np.dtype(f.np)
        if n is not None:
            if isinstance(base, tuple):
                base = (base[0], (n,) + base[1])
            else:
                base = (base, (n,))
        names.append(f.name)
        formats.append(base)
        offsets.append(off)
    return np.dtype({"names": names, "formats": formats, "offsets": offsets, "itemsize": lay.size})
