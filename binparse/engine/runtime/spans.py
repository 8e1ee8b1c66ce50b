"""Where each value of a record lies: `[start, end)` of its stream, bits for bit-sized integers.

What `acc.span(name)` answers and what `inspect --offsets`, the text table's size column and the
explorer page show. Worked out from what locating a field found (`Locate._loc`, `_x`, `_end_of`),
never by reading anything again:

- a field of one element: its first byte to the byte after it (a record read from `size:` bytes
  spans those bytes, its padding included; a `strz` its terminator; a `pad-right` its padding);
- a bit-sized integer: the bits `[start_bit, end_bit)` counted from the stream's first bit in
  reading order, and the bytes they touch;
- an element of a repeat: elements follow each other, so each ends where the next begins (the
  last where the field ends);
- a field whose `if` is false, and a value instance: no span (None).

Offsets are the file's, in substreams too (`size:` bytes are a window of the file; Kaitai's `_io.pos`
would count from the window's start); a record read from bytes a `process` made (zlib, xor, rol)
has offsets into those bytes, and its span names them (`stream`: the path of the field whose bytes
they are).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, NamedTuple

from .specs import ABSENT, VARIES, FieldSpec
from .stream import Processed


class Span(NamedTuple):
    """Where a value lies: bytes `[start, end)` of its stream; for a bit-sized integer also its bits
    `[start_bit, end_bit)` (counted from the stream's first bit, in reading order); `stream` is None
    for the file's own bytes, else the path of the field whose processed bytes (`process:`) hold it."""

    start: int
    end: int
    start_bit: int | None = None
    end_bit: int | None = None
    stream: str | None = None

    @property
    def size(self) -> int:
        return self.end - self.start


def bit_of(pos: Any) -> int:
    """A position (a byte offset, or Kaitai's bit state `(next byte, bits left, value)`) as a bit index."""
    return pos * 8 if type(pos) is int else int(pos[0]) * 8 - int(pos[1])


def stream_of(mv: memoryview, file: object = None) -> str | None:
    """Whose bytes `mv` is: None for the file's own (those of `file`, the buffer the root was read from,
    when given), else the path of the field whose processed bytes they are ("" when whoever made them
    did not name them)."""
    obj = mv.obj
    if isinstance(obj, Processed):
        return obj.origin or ""
    return "" if file is not None and obj is not file else None


def file_bytes(acc: Any) -> object:
    """The buffer `acc`'s root record was read from (what `stream_of` calls the file's), or None when
    `acc` has no root of its own schema to ask."""
    root = acc._root_of if acc._root_of is not None else acc
    mv = getattr(root, "_mv", None)
    return mv.obj if mv is not None else None


def field_span(acc: Any, i: int, file: object = None) -> Span | None:
    """The span of field `i` of `acc` (seq fields, then pos instances) as a whole; None when absent.
    `file`: the buffer the root was read from (`stream_of`)."""
    off, count, size = acc._loc(i)
    if size == ABSENT:
        return None
    spec: FieldSpec = acc._spec(i)
    ext = acc._x(i)
    mv = ext.mv if ext is not None and ext.mv is not None else acc._mv
    stream = stream_of(mv, file)
    if spec.kind == "bits":
        end_bit = bit_of(ext.end) if ext is not None else (off + 1) * 8
        n = count if count is not None else 1
        start_bit = end_bit - spec.bits * n
        return Span(start_bit // 8, -(-end_bit // 8), start_bit, end_bit, stream)
    if size is not None and size >= 0:
        return Span(off, off + size * (1 if count is None else count), stream=stream)
    end = acc._end_of(i)
    return Span(off, end if type(end) is int else int(end[0]), stream=stream)


def _item_start(item: Any) -> int | None:
    """Where an element begins, from what locating its repeat kept for it (None: not kept)."""
    t = type(item)
    if t is int:
        return int(item)
    if t is tuple:
        if len(item) == 2 and type(item[0]) is int:  # (first byte, end of the value)
            return int(item[0])
        if len(item) == 2 and isinstance(item[0], FieldSpec):  # a switch's (case, its item)
            return _item_start(item[1])
        return None  # processed bytes, or a bit state
    off = getattr(item, "_off", None)  # a record
    return off if type(off) is int else None


def element_spans(acc: Any, i: int, file: object = None) -> Iterator[Span | None]:
    """The span of each element of repeated field `i`, in order (elements of a size known before
    reading them lie at `start + k * size`; others each end where the next begins)."""
    whole = field_span(acc, i, file)
    if whole is None:
        return
    off, count, size = acc._loc(i)
    spec: FieldSpec = acc._spec(i)
    n = count or 0
    stream = whole.stream
    if spec.kind == "bits":
        b0 = whole.start_bit or 0
        for k in range(n):
            s, e = b0 + k * spec.bits, b0 + (k + 1) * spec.bits
            yield Span(s // 8, -(-e // 8), s, e, stream)
        return
    if size is not None and size >= 0:
        for k in range(n):
            yield Span(off + k * size, off + (k + 1) * size, stream=stream)
        return
    ext = acc._x(i)
    items = ext.items if ext is not None and ext.items is not None else []
    start = whole.start
    for k in range(len(items)):
        nxt = _item_start(items[k + 1]) if k + 1 < len(items) else whole.end
        end = nxt if nxt is not None else _item_end(items[k], start, spec)
        if end is None:
            yield None
            start = whole.end  # nothing after an element of unknown end can be placed
            continue
        yield Span(start, end, stream=stream)
        start = end


def _item_end(item: Any, start: int, spec: FieldSpec) -> int | None:
    """Where an element ends when the next one's start is not known (a number in a switch, a record)."""
    case = spec
    if type(item) is tuple and len(item) == 2 and isinstance(item[0], FieldSpec):
        case, item = item
    if case.kind == "prim" and isinstance(case.size, int):
        return start + case.size
    if hasattr(item, "_nbytes_end"):
        return int(item._nbytes_end())
    return None


def case_of(acc: Any, i: int, k: int | None = None) -> FieldSpec | None:
    """The case switch field `i` of `acc` (element `k` of a repeated one) was read as: the spec of
    that case (a built-in type or a record), or None when no case matched and nothing was read."""
    spec: FieldSpec = acc._spec(i)
    ext = acc._x(i)
    items = ext.items if ext is not None and ext.items else None
    if items is not None and len(items) > (k or 0):
        item = items[k or 0]
        if type(item) is tuple and len(item) == 2 and (item[0] is None or isinstance(item[0], FieldSpec)):
            found: FieldSpec | None = item[0]
            return found
    off, _, size = acc._loc(i)
    at = off + (k or 0) * size if k is not None and size is not None and size >= 0 else off
    case: FieldSpec | None = acc._case(spec, at, k, None)
    return case


def span(acc: Any, name: str, index: int | None = None) -> Span | None:
    """`acc.span(name)`: where field or pos instance `name` lies, or element `index` of it."""
    specs = acc._FIELDS + acc._INSTANCES
    i = next((k for k, s in enumerate(specs) if s.name == name), None)
    if i is None:
        known = [s.name for s in specs]
        raise KeyError(f"{type(acc).__name__} has no field or positioned instance {name!r}; it has {known}")
    file = file_bytes(acc)
    if index is None:
        return field_span(acc, i, file)
    for k, sp in enumerate(element_spans(acc, i, file)):
        if k == index:
            return sp
    raise IndexError(f"{name}[{index}]: the field has no such element")


__all__ = ["Span", "bit_of", "case_of", "element_spans", "field_span", "file_bytes", "span", "stream_of"]
