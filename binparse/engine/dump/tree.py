"""The whole value tree of a record read with a user's schema: what `inspect --schema` prints.

JSON (`json_tree`): the root object, its seq fields in order, then its instances; each key the
field's id. Integers, floats and booleans are JSON numbers and booleans (a float that is not a
number is the string "NaN", "Infinity" or "-Infinity": the output stays strict JSON); text
(`str`, `strz`) a string; raw bytes a lowercase hex string; an enum value its member's name (a
number no member has stays that number); a record an object; a repeat a list; a field whose `if`
is false `null`. `_io`, `_root`, `_parent` and params are not printed. An instance that cannot be
read is left out, and its path is returned so that the caller names it (on stderr, exit code 2);
so is an instance whose record is one the tree is already inside (a value that points back up, or
the same type read again at the same place), returned apart: it was read (a note, exit code 0).

Text (`text_rows`): one row per field, nested records expanded, as `binparse inspect` prints a
registered format's fields (path, offset, type, value), instances after the seq fields.
"""

from __future__ import annotations

import math
from enum import IntEnum
from keyword import iskeyword
from typing import Any

import numpy as np

from ...core import budget
from ...core.errors import BinparseError, FormatError
from ..runtime import Accessor, FieldSpec, RecordArray, StrArray
from ..runtime.sequences import ItemArray
from ..runtime.stream import KStream
from ..runtime.specs import ABSENT

MAX_DEPTH = 200
# bytes a record of the tree is counted at, asked of the budget 1,024 at a time: measured at 2.0 KB (text rows)
# and 2.4 KB (JSON) of peak RSS a record on a tree of a million records (its accessor, cached instances, rows)
RECORD_COST = 2560
# the tree being printed: records made, the budget's refusal once it came, records not printed inside themselves
_TALLY: list[Any] = [0, None, []]


def _count(acc: Accessor) -> None:
    """One more record in the tree: records that point at each other (a file's offsets forming a
    graph) may make a tree far larger than the file, so the tree asks the command's budget."""
    if _TALLY[1] is not None:
        raise _TALLY[1]
    _TALLY[0] += 1
    if _TALLY[0] % 1024 == 0:
        try:
            budget.ask(1024 * RECORD_COST, f"the value tree's records ({_TALLY[0]:,} so far)", file=acc._file,
                       path=acc._path)
        except budget.BudgetError as exc:
            _TALLY[1] = exc
            raise
BYTES_VALUE = FieldSpec(name="", kind="bytes", np="|u1")  # how a value instance of bytes is shown


def _attr(acc: Accessor, name: str) -> Any:
    return getattr(acc, name + "_" if iskeyword(name) else name)


def value_names(acc: Accessor) -> list[str]:
    """The value instances of `acc`'s class (instances that are not read from a position)."""
    cls = type(acc)
    positioned = {s.name for s in cls._INSTANCES}
    return [n for n in cls._INSTANCE_ORDER if n not in positioned]


def _number(v: float) -> Any:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def _enum_of(acc: Accessor, spec: FieldSpec | None) -> type[IntEnum] | None:
    if spec is None or spec.enum is None:
        return None
    return type(acc)._ENUMS.get(spec.enum)


def plain(v: Any, acc: Accessor, spec: FieldSpec | None, stack: list[Any], skipped: list[str], path: str) -> Any:
    """`v` (a value `acc` gave for `spec`) as JSON-ready data."""
    if v is None or isinstance(v, (bool, str)):
        return v
    if isinstance(v, IntEnum):
        return v.name
    if isinstance(v, (int, np.integer)):
        enum = _enum_of(acc, spec)
        if enum is not None and int(v) in enum._value2member_map_:
            return enum(int(v)).name
        return int(v)
    if isinstance(v, (float, np.floating)):
        return _number(float(v))
    if isinstance(v, Accessor):
        return record(v, stack, skipped, path)
    if isinstance(v, np.ndarray):
        if v.dtype == np.uint8 and spec is not None and spec.kind in ("bytes", "contents", "switch", "user"):
            return v.tobytes().hex() if v.ndim == 1 else [r.tobytes().hex() for r in v]
        return [plain(x, acc, spec, stack, skipped, path) for x in v.tolist()]
    if isinstance(v, (StrArray, RecordArray, ItemArray, list, tuple)):
        return [plain(x, acc, spec, stack, skipped, f"{path}[{k}]") for k, x in enumerate(v)]
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    return None  # a stream (`_io`) or anything else that is no value of the file


def record(acc: Accessor, stack: list[Any] | None = None, skipped: list[str] | None = None,
           path: str = "") -> dict[str, Any]:
    """A record as a JSON object: seq fields, then pos and value instances."""
    stack = [] if stack is None else stack
    skipped = [] if skipped is None else skipped
    path = path or acc._path
    if len(stack) >= MAX_DEPTH:
        raise FormatError(f"records nest deeper than {MAX_DEPTH}: the tree is not printed that deep",
                          file=acc._file, path=path)
    _count(acc)
    stack.append(acc)
    try:
        out: dict[str, Any] = {}
        for spec in type(acc)._FIELDS:
            out[spec.name] = plain(_attr(acc, spec.name), acc, spec, stack, skipped, f"{path}.{spec.name}")
        positioned = {s.name: s for s in type(acc)._INSTANCES}
        for name in type(acc)._INSTANCE_ORDER:
            _instance(acc, name, positioned.get(name), out, stack, skipped, path)
        return out
    finally:
        stack.pop()


def _same_record(a: Accessor, b: Accessor) -> bool:
    """`a` is `b`, or the same type read at the same place of the same stream with the same params
    (an instance that reads its own record again, as Kaitai's cast_to_top: never printed inside itself)."""
    if a is b:
        return True
    if type(a) is not type(b) or a._off != b._off or (a._io_start, a._io_end) != (b._io_start, b._io_end) \
            or a._mv.obj is not b._mv.obj:
        return False
    try:
        return bool(a._params == b._params)
    except Exception:  # params that do not compare as one truth value (arrays): not the same
        return False


def _instance(acc: Accessor, name: str, spec: FieldSpec | None, out: dict[str, Any], stack: list[Any],
              skipped: list[str], path: str) -> None:
    where = f"{path}.{name}"
    if spec is None and name in type(acc)._BYTES_VALUES:
        spec = BYTES_VALUE
    try:
        v = _attr(acc, name)
        if isinstance(v, KStream):  # a stream (`_io` under another name) is no value of the file: left out as `_io` is
            return
        if isinstance(v, Accessor) and (any(_same_record(v, s) for s in stack) or len(stack) > MAX_DEPTH):
            _TALLY[2].append(f"{where}: a record the tree is already inside (not printed again)")
            return
        out[name] = plain(v, acc, spec, stack, skipped, where)
    except budget.BudgetError:  # the tree itself is over the budget: the walk stops, the command exits 2
        raise
    except BinparseError as exc:
        skipped.append(f"{where}: {exc.describe(acc._file)}")


def json_tree(acc: Accessor) -> tuple[dict[str, Any], list[str], list[str]]:
    """The root's JSON object, the instances left out because they could not be read (path: why),
    and those left out because the tree is inside the record they hold (read; path: why)."""
    skipped: list[str] = []
    _TALLY[:] = [0, None, []]
    doc = record(acc, [], skipped)
    return doc, skipped, _TALLY[2]


def text_rows(acc: Accessor, prefix: str = "", depth: int = 0,
              above: tuple[Accessor, ...] = ()) -> list[tuple[str, str, str, str]]:
    """(path, offset, type, value) of every field and instance, nested records expanded (a record
    the rows are already inside, `above`, is named, not expanded again)."""
    if not above:
        _TALLY[:] = [0, None, []]
    _count(acc)
    above = (*above, acc)
    from .fields import type_text, value_text
    out: list[tuple[str, str, str, str]] = []
    cls = type(acc)
    for i, spec in enumerate(cls._FIELDS + cls._INSTANCES):
        name = prefix + spec.name
        try:
            off, count, size = acc._loc(i)
            if size == ABSENT:
                out.append((name, str(off), type_text(spec, None, None), "null (if is false)"))
                continue
            v = _attr(acc, spec.name)
        except BinparseError as exc:
            out.append((name, "", type_text(spec, None, None), f"not read: {exc.message}"))
            continue
        _rows_of(out, name, str(off), type_text(spec, count, size), v, spec, depth, above)
    for vname in value_names(acc):
        try:
            v = _attr(acc, vname)
        except BinparseError as exc:
            out.append((prefix + vname, "", "value", f"not read: {exc.message}"))
            continue
        if isinstance(v, Accessor):
            out.append((prefix + vname, str(v._off), "value", f"the record at {v._path}"))
        else:
            out.append((prefix + vname, "", "value",
                        value_text(v, spec=BYTES_VALUE if vname in cls._BYTES_VALUES else None)))
    return out


def _rows_of(out: list[tuple[str, str, str, str]], name: str, off: str, typ: str, v: Any,
             spec: FieldSpec, depth: int, above: tuple[Accessor, ...]) -> None:
    from .fields import value_text
    same = next((s for s in above if _same_record(v, s)), None) if isinstance(v, Accessor) else None
    if same is not None:
        out.append((name, off, typ, f"the same record as {same._path} (not expanded inside itself)"))
    elif isinstance(v, Accessor) and depth < MAX_DEPTH:
        out.append((name, off, typ, ""))
        out.extend(text_rows(v, name + ".", depth + 1, above))
    elif (isinstance(v, (RecordArray, ItemArray)) or isinstance(v, list) and v and isinstance(v[0], Accessor)) \
            and depth < MAX_DEPTH:  # a list: the records a compiled reader read one after another
        out.append((name, off, typ, f"{len(v)} elements"))
        for k, item in enumerate(v):
            if isinstance(item, Accessor):
                out.extend(text_rows(item, f"{name}[{k}].", depth + 1, above))
            else:
                out.append((f"{name}[{k}]", "", "", value_text(item)))
    else:
        out.append((name, off, typ, value_text(v, spec=spec)))


__all__ = ["json_tree", "plain", "record", "text_rows", "value_names"]
