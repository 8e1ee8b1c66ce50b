"""Every value of a parsed file, read the same way from binparse's records, from the objects of the
Python the official Kaitai compiler writes, and from plain Python objects holding the same values.

For the gallery tests (the same value tree from both parsers: `tree`) and the real-file bench
(`walk` reads every value and counts them; `plain_copy` gives the plain objects whose walk is the
walk's own cost, which no reader can go under). A record's values are its seq fields, then its
instances, as the schema lists them. Instances may point anywhere (back up the tree, at each
other): a walk follows records reached through instances `hops` deep, and no deeper.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from enum import Enum
from keyword import iskeyword
from types import ModuleType
from typing import Any

import numpy as np

from .backends.numpy_backend import camel
from .runtime.compiled import CompiledRecord, lazy_class

Names = dict[type, tuple[tuple[str, bool], ...]]  # class -> (attribute, is an instance) of each value
ERROR, DEEP, IO = "<error>", "<deeper>", "<io>"


def _attr(name: str) -> str:
    return name + "_" if iskeyword(name) else name


def binparse_names(classes: Iterable[type]) -> Names:
    """The values of each generated accessor class: its seq fields, then its instances."""
    out: Names = {}
    for cls in classes:
        fields = getattr(cls, "_FIELDS", None)
        if fields is None or not getattr(cls, "_TYPE_PATH", ""):
            continue
        out[cls] = tuple((_attr(f.name), False) for f in fields) + tuple(
            (_attr(n), True) for n in getattr(cls, "_INSTANCE_ORDER", ()))
        if issubclass(cls, CompiledRecord):  # its records not read yet (a file's root) are of its lazy twin
            out[lazy_class(cls)] = out[cls]
    return out


def generated_classes(modules: Iterable[ModuleType]) -> list[type]:
    """The accessor classes of generated modules."""
    return [v for m in modules for v in vars(m).values()
            if isinstance(v, type) and "_TYPE_PATH" in vars(v) and v.__module__ == m.__name__]


def kaitai_names(modules: Iterable[ModuleType], binparse: Names) -> Names:
    """The same values of the classes the Kaitai compiler writes (nested as Kaitai nests them),
    matched to binparse's classes by their types' paths."""
    by_qualname = {".".join(camel(p) for p in cls._TYPE_PATH.split("::")): names  # type: ignore[attr-defined]
                   for cls, names in binparse.items()}
    out: Names = {}

    def visit(c: type) -> None:
        names = by_qualname.get(c.__qualname__)
        if names is not None:
            out[c] = names
        for v in vars(c).values():
            if isinstance(v, type) and v.__qualname__.startswith(c.__qualname__ + "."):
                visit(v)

    for m in modules:
        for v in vars(m).values():
            if isinstance(v, type) and v.__module__ == m.__name__ and "." not in v.__qualname__:
                visit(v)
    return out


def _get(obj: Any, name: str) -> Any:
    try:
        return getattr(obj, name)
    except AttributeError:
        if hasattr(type(obj), name) or type(obj).__module__.startswith("binparse"):
            raise  # an instance (a property) that failed
        return None  # Kaitai's objects leave a field whose `if` is false unset


def _is_items(v: Any) -> bool:
    return isinstance(v, (list, tuple)) or hasattr(v, "_owner") and hasattr(v, "__len__")


def walk(obj: Any, names: Names, hops: int = 2) -> int:
    """Read every value of `obj` (records through instances `hops` deep); the number of values read.
    A value that cannot be read counts as read (both parsers fail on the same values). An array of
    numbers is read whole (`tolist`: every element a Python number, as Kaitai's lists hold them); a
    byte array is one value (as Kaitai's `bytes`)."""
    n = 0
    for name, inst in names[type(obj)]:
        try:
            v = _get(obj, name)
        except Exception:
            n += 1
            continue
        t = type(v)
        if t in names:
            if not inst or hops:
                n += walk(v, names, hops - inst)
        elif t is list or _is_items(v):
            for x in v:
                if type(x) in names:
                    if not inst or hops:
                        n += walk(x, names, hops - inst)
                else:
                    n += 1
        elif t is np.ndarray and v.dtype != np.uint8:
            n += len(v.tolist())
        else:
            n += 1
    return n


def tree(obj: Any, names: Names, hops: int = 2) -> dict[str, Any]:
    """The values of `obj` as plain data, to compare two parsers: numbers, text, byte arrays as
    lists of numbers, enums as their numbers, records as dicts, a value that cannot be read ERROR,
    a record reached through more than `hops` instances DEEP, a stream IO."""
    out: dict[str, Any] = {}
    for name, inst in names[type(obj)]:
        try:
            v = _get(obj, name)
        except Exception:
            out[name] = ERROR
            continue
        out[name] = _plain(v, names, hops - inst)
    return out


def _plain(v: Any, names: Names, hops: int) -> Any:
    if type(v) in names:
        return tree(v, names, hops) if hops >= 0 else DEEP
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, Enum):
        return int(v.value)
    if isinstance(v, (int, np.integer)):
        return int(v)
    if isinstance(v, (float, np.floating)):
        f = float(v)
        return "nan" if math.isnan(f) else f
    if isinstance(v, (bytes, bytearray, memoryview)):
        return list(bytes(v))
    if isinstance(v, np.ndarray):
        return v.tolist()
    if _is_items(v):
        out = []
        for k in range(len(v)):
            try:
                x = v[k]
            except Exception:
                out.append(ERROR)
                continue
            out.append(_plain(x, names, hops))
        return out
    if hasattr(v, "pos") or hasattr(v, "_io"):
        return IO
    return repr(v)


def _has_error(v: Any) -> bool:
    if v == ERROR:
        return True
    if isinstance(v, dict):
        return any(_has_error(x) for x in v.values())
    return isinstance(v, list) and any(_has_error(x) for x in v)


def difference(reference: Any, ours: Any, path: str = "") -> str | None:
    """Where two value trees (`tree`) differ (None: nowhere): keys, lengths, values. A value the
    reference could not read (ERROR) matches one binparse could not read, or a record or array of
    which binparse read some values and not all (its reading is lazy: Kaitai's Python stops a
    record at its first error, binparse only the values that error reaches)."""
    if reference == ERROR and _has_error(ours):
        return None
    if type(reference) is not type(ours):
        return f"{path or '/'}: {str(reference)[:80]} != {str(ours)[:80]}"
    if isinstance(reference, dict):
        for k in [*reference, *(k for k in ours if k not in reference)]:
            if k not in reference or k not in ours:
                return f"{path}.{k}: only in {'ours' if k in ours else 'the reference'}"
            d = difference(reference[k], ours[k], f"{path}.{k}")
            if d:
                return d
        return None
    if isinstance(reference, list):
        if len(reference) != len(ours):
            return f"{path}: {len(reference)} elements != {len(ours)}"
        for i, (x, y) in enumerate(zip(reference, ours)):
            d = difference(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if reference == ours else f"{path or '/'}: {str(reference)[:80]} != {str(ours)[:80]}"


class Plain:
    """A plain Python object holding a record's values (its class's name in `_kind`)."""

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


def plain_copy(obj: Any, names: Names, hops: int = 2) -> tuple[Any, Names]:
    """Plain objects holding the values `walk` reads from `obj` (one class per record class, values
    as they are: numbers, text, arrays), and their names: `walk` over them costs what the walk
    itself costs."""
    classes: dict[type, type] = {}
    out_names: Names = {Plain: ()}

    def copy(o: Any, hops: int) -> Any:
        src = type(o)
        cls = classes.get(src)
        if cls is None:
            cls = classes[src] = type(src.__name__, (Plain,), {})
            out_names[cls] = names[src]
        values: dict[str, Any] = {}
        for name, inst in names[src]:
            try:
                v = _get(o, name)
            except Exception:
                values[name] = None
                continue
            values[name] = value(v, hops - inst)
        return cls(**values)

    def record(v: Any, hops: int) -> Any:
        return copy(v, hops) if hops >= 0 else Plain()  # a record the walk does not enter: no values

    def value(v: Any, hops: int) -> Any:
        if type(v) in names:
            return record(v, hops)
        if type(v) is list or _is_items(v):
            return [record(x, hops) if type(x) in names else x for x in v]
        return v

    return copy(obj, hops), out_names


__all__ = ["DEEP", "ERROR", "IO", "Names", "binparse_names", "difference", "generated_classes", "kaitai_names", "plain_copy",
           "tree", "walk"]
