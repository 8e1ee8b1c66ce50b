"""The walk of a value tree read with a user's schema: every seq field, then every instance, nested
records and repeats depth first, each handed to a sink (JSON, YAML, the text table, the explorer
page) as it is read. Nothing is kept but the records the walk is inside: memory is bounded by the
depth of the tree, not its size.

What is left out, the same for every sink, and named by `Walk.unread` / `Walk.notes` (the command
prints them on stderr):
- a field or instance that cannot be read (`not read: PATH: why`, exit code 2); the seq fields
  after a seq field that cannot be read are left out with it (their places are not known), and
  what was read before it stays printed (as Kaitai's debug mode keeps it);
- an instance whose record is one the walk is already inside (the same type read at the same place
  with the same params: Kaitai's cast to the top type) is named, not printed inside itself (a note:
  it was read, exit code 0);
- an instance whose value is a stream (`value: _io`): no value of the file, left out as `_io` is.

Records that point at each other can make a tree far larger than its file: the walk stops with a
`BudgetError` (exit code 2) once it has made more records than its input has bytes plus the
command's budget over `RECORD_COST` (at the default budget of a small file about 65,000 records):
what was written before stays written (a JSON or YAML document then ends unfinished).
"""

from __future__ import annotations

import time
from keyword import iskeyword
from typing import Any

from ...core import budget, inputs, progress
from ...core.errors import BinparseError, FormatError
from ..runtime import Accessor, FieldSpec, RecordArray
from ..runtime.sequences import ItemArray
from ..runtime.spans import Span, case_of, element_spans, field_span, stream_of
from ..runtime.compiled import CompiledRecord
from ..runtime.kept import resolve
from ..runtime.specs import ABSENT
from ..runtime.stream import KStream
from . import values as dv
from .values import same_record
from .sink import Info, Sink
from .webide import representation

MAX_DEPTH = 200
RECORD_COST = 4096  # bytes of the budget one record beyond the input's bytes stands for
MAX_MESSAGES = 1000  # lines of what was left out kept for stderr (the rest are counted)


def short(path: str) -> str:
    """A path as a message names it: records nested as deep as a file says keep their paths readable."""
    return path if len(path) <= 300 else f"{path[:100]}…{path[-180:]}"


def reason(exc: BinparseError, here: str) -> str:
    """Why a value was not read: the error's message, where in the tree it arose when that is below
    `here`, its offset, and what was expected and found."""
    where = []
    inner = exc.path.partition(".")[2] if exc.path and "." in exc.path else None  # without the root type's name
    if inner and inner != here:
        where.append(inner)
    if exc.offset is not None:
        where.append(f"offset {exc.offset} (0x{exc.offset:x})")
    text = exc.message + (f" ({', '.join(where)})" if where else "")
    if exc.expected is not None:
        text += f"; expected {exc.expected}"
    if exc.found is not None:
        text += f", found {exc.found}" if exc.expected is not None else f"; found {exc.found}"
    return text


def span_of(acc: Accessor, i: int, v: Any, file: object = None) -> Span | None:
    """Where field `i` of `acc` lies (its value `v`; `file` the buffer the root was read from): a record
    that breaks off has a start and no end (-1), and is walked for what it holds."""
    try:
        return field_span(acc, i, file)
    except BinparseError:
        if not isinstance(v, Accessor):
            raise
        ext = acc._x(i)
        return Span(acc._loc(i)[0], -1, stream=stream_of(ext.mv if ext is not None and ext.mv is not None
                                                         else acc._mv, file))


def declared(acc: Accessor, spec: FieldSpec) -> str:
    """The type the schema declares for a field (a record's own name, `u4`, `switch`): what a row says of a
    field that was not read or whose `if` is false."""
    if spec.kind == "user" and spec.user:
        return dv.type_name(resolve(type(acc), spec.user))
    return dv.spec_type(spec)


def attr(acc: Any, name: str) -> Any:
    return getattr(acc, name + "_" if iskeyword(name) else name)


class Walk:
    """One walk of a tree into `sink` (see the module doc); `name` says what is walked (progress)."""

    def __init__(self, sink: Sink, name: str = "", size: int = 0, file: object = None) -> None:
        self.sink, self.detail = sink, sink.detail
        self.file = file  # the buffer the root was read from: the file's bytes (any other, a process made)
        self.keys: list[str | int] = []
        self.stack: list[Accessor] = []
        self.depths: list[int] = []  # how many keys name each record of the stack
        self.streams: list[str | None] = []  # the bytes each record of the stack lies in: None the file's, else
        # the path of the record read from bytes a `process` made (how spans in them name their stream)
        self.unread: list[str] = []
        self.notes: list[str] = []
        self.dropped = 0
        self.records = 0
        self.name, self.size, self.at = name, size, 0
        self.started = time.perf_counter()
        self.showing = progress.active()
        self.cap = inputs.current().input_bytes + budget.limit() // RECORD_COST

    # -- what the walk tells besides the tree ---------------------------------------------------------
    def path(self, key: str | int | None = None, keys: list[str | int] | None = None) -> str:
        out = ""
        for k in (*(self.keys if keys is None else keys), *(() if key is None else (key,))):
            out += f"[{k}]" if isinstance(k, int) else (f".{k}" if out else k)
        return out

    def _say(self, where: list[str], line: str) -> None:
        if len(where) < MAX_MESSAGES:
            where.append(line)
        else:
            self.dropped += 1

    def named(self, span: Span | None) -> Span | None:
        """`span` with its stream named by the path of the record read from those processed bytes."""
        if span is None or span.stream is None or not self.streams or self.streams[-1] is None:
            return span
        return span._replace(stream=self.streams[-1])

    def _unread(self, info: Info, exc: BinparseError) -> None:
        here = self.path(info.key)
        why = reason(exc, here)
        self._say(self.unread, f"{short(here)}: {why}")
        self.sink.omit(info, f"not read: {why}")

    def _count(self, acc: Accessor) -> None:
        self.records += 1
        if self.records & 255:
            return
        if self.records > self.cap:
            run = inputs.current()
            raise budget.BudgetError(
                f"the value tree has made {self.records:,} records, more than its input has bytes "
                f"({run.input_bytes:,}) plus one per {RECORD_COST // 1024} KiB of the budget ({budget.describe()}): "
                "records that point at each other make a tree far larger than the file; the output stops here",
                file=acc._file, path=acc._path,
                hint=f"if the file really holds that many records, raise the budget: pass --budget SIZE or set "
                     f"{budget.ENV}")
        if self.showing:
            if not self.stack or acc._mv.obj is self.stack[0]._mv.obj:
                self.at = max(self.at, acc._off)
            now = time.perf_counter() - self.started
            if now > 1.0:
                share = f" ({100 * self.at // self.size} %)" if self.size else ""
                progress.line(f"{self.name}: {self.records:,} records, byte {self.at:,} of {self.size:,}{share}")

    def finish(self) -> None:
        if self.showing:
            progress.clear()
        if self.dropped:
            self.unread.append(f"and {self.dropped:,} more left out (not listed)")

    # -- records ------------------------------------------------------------------------------------
    def top(self, target: Any, key: str | None) -> None:
        """Walk what `target` (a `tree.Target`) names as the top of the output: the root record, or what
        `--path` names (its id `key`)."""
        v, spec, owner, span = target.value, target.spec, target.owner, target.span
        if isinstance(v, Accessor):
            self.record(v, key, span, dv.type_name(type(v)))
        elif isinstance(v, (RecordArray, ItemArray)) or isinstance(v, list) and any(isinstance(x, Accessor) for x in v):
            self.records_of(v, key, target.field if target.index is None else None, spec, owner, span)
        else:
            info = Info(key, "value", len(self.keys), span=span)
            sized = spec is not None and (target.case or spec).kind in ("str", "bytes", "contents") and \
                span is not None and span.end >= 0 and (not spec.repeated or target.index is not None)
            info.type = dv.read_type(v, spec, target.case, span.size if sized and span else None) \
                if spec is not None else "value"
            if spec is not None and spec.repeated and target.index is None and hasattr(v, "__len__"):
                info.count = len(v)
            self.sink.leaf(info, v, owner, target.case or spec)

    def record(self, acc: Accessor, key: str | int | None, span: Span | None, type_: str) -> None:
        if len(self.stack) >= MAX_DEPTH:  # named, and left out: the rest of the tree goes on
            self._unread(Info(key, "record", len(self.keys), type_, span), FormatError(
                f"records nest deeper than {MAX_DEPTH}: the tree is not printed that deep"))
            return
        self._count(acc)
        info = Info(key, "record", len(self.keys), type_, self.named(span))
        up = self.stack[-1] if self.stack else None
        stream = self.streams[-1] if self.streams else None
        here = acc._mv.obj
        entered = self.file is not None and here is not self.file and (up is None or here is not up._mv.obj)
        if self.detail:
            info.repr = representation(acc)
            if entered:
                info.note = "offsets in the bytes its process made"
            elif up is not None and acc._own_io and (acc._io_start, acc._io_end) != (up._io_start, up._io_end):
                info.io = (acc._io_start, acc._io_end)
        self.sink.begin(info)
        if key is not None:
            self.keys.append(key)
        self.stack.append(acc)
        self.depths.append(len(self.keys))
        self.streams.append(self.path() if entered else stream)
        try:
            self.fields(acc)
        finally:
            self.stack.pop()
            self.depths.pop()
            self.streams.pop()
            if key is not None:
                self.keys.pop()
        self.sink.end(info)

    def fields(self, acc: Accessor) -> None:
        cls = type(acc)
        seq = cls._FIELDS
        for i, spec in enumerate(seq):
            if not self.field(acc, i, spec, False):
                rest = [s.name for s in seq[i + 1:]]
                if rest:
                    self._say(self.unread, f"{', '.join(short(self.path(n)) for n in rest)}: after "
                                           f"{short(self.path(spec.name))}, which could not be read")
                    for after in seq[i + 1:]:
                        self.sink.omit(Info(after.name, "value", len(self.keys), declared(acc, after)),
                                       f"not read: after {spec.name}")
                break
        positioned = {s.name: len(seq) + j for j, s in enumerate(cls._INSTANCES)}
        for name in cls._INSTANCE_ORDER:
            at = positioned.get(name)
            if at is not None:
                self.field(acc, at, cls._INSTANCES[at - len(seq)], True)
            else:
                self.value_instance(acc, name)

    def field(self, acc: Accessor, i: int, spec: FieldSpec, instance: bool) -> bool:
        """One seq field or pos instance; False when it could not be read."""
        detail = self.detail
        # a record its compiled reader read whole, in a sink without offsets: its values as read, not placed
        placed = detail or not (isinstance(acc, CompiledRecord) and acc._ok is True)
        count = size = None
        span = case = None
        try:
            if placed:
                off, count, size = acc._loc(i)  # placed first in every sink: the same reads in the same order
            if placed and size == ABSENT:
                if not detail:
                    self.sink.plain(spec.name, None, acc, spec)
                    return True
                info = Info(spec.name, "value", len(self.keys), declared(acc, spec), note="if is false")
                self.sink.leaf(info, None, acc, spec)
                return True
            v = attr(acc, spec.name)
            if placed:  # where it ends (which may read further), in every sink alike: the same reads in order
                span = self.named(span_of(acc, i, v, self.file)) if detail or size is None or size < 0 else None
                case = case_of(acc, i) if detail and spec.kind == "switch" and not spec.repeated else None
        except budget.BudgetError:
            raise
        except BinparseError as exc:
            self._unread(Info(spec.name, "value", len(self.keys), declared(acc, spec)), exc)
            return False
        if isinstance(v, Accessor):
            if instance and self._inside(v, Info(spec.name, "record", len(self.keys))):
                return True
            self.record(v, spec.name, span, dv.type_name(type(v)))
        elif isinstance(v, (RecordArray, ItemArray)) or type(v) is list and spec.kind in ("user", "switch") \
                and any(isinstance(x, Accessor) for x in v):  # a list: records a compiled reader read in a row
            self.records_of(v, spec.name, i, spec, acc, span)
        elif not detail:
            self.sink.plain(spec.name, v, acc, spec)
        else:
            info = Info(spec.name, "value", len(self.keys), span=span)
            info.type = dv.read_type(v, spec, case, size if size is not None and size >= 0 and (case or spec).kind in (
                "str", "bytes", "contents") else None)
            if spec.repeated:
                info.count = len(v) if hasattr(v, "__len__") else count or 0
            self.sink.leaf(info, v, acc, case or spec)
        return True

    def _inside(self, v: Accessor, info: Info) -> bool:
        same = next((k for k, s in enumerate(self.stack) if same_record(v, s)), None)
        if same is None:
            return False
        self._say(self.notes, f"{short(self.path(info.key))}: a record the tree is already inside (not printed again)")
        info.type = dv.type_name(type(v))
        where = self.path(keys=self.keys[:self.depths[same]]) or "the root"
        self.sink.omit(info, f"the same record as {where} (not expanded inside itself)")
        return True

    def records_of(self, v: Any, key: str | int | None, i: int | None, spec: FieldSpec | None, acc: Any,
                   span: Span | None) -> None:
        """A repeat whose elements are records (or, in a switch, records and other values)."""
        n = len(v)
        elem = dv.type_name(v._cls) if isinstance(v, RecordArray) else dv.type_name(resolve(type(acc), spec.user)) \
            if spec is not None and spec.kind == "user" and spec.user else "switch"
        info = Info(key, "list", len(self.keys), elem, span, count=n)
        self.sink.begin(info)
        if key is not None:
            self.keys.append(key)
        try:
            spans = element_spans(acc, i, self.file) if self.detail and i is not None else None
            for k in range(n):
                sp = self.named(next(spans, None)) if spans is not None else None
                einfo = Info(k, "value", len(self.keys), span=sp)
                try:
                    item = v[k]
                except budget.BudgetError:
                    raise
                except BinparseError as exc:
                    self._unread(einfo, exc)
                    continue
                if isinstance(item, Accessor):
                    self.record(item, k, sp, dv.type_name(type(item)))
                else:
                    case = case_of(acc, i, k) if self.detail and i is not None and spec is not None \
                        and spec.kind == "switch" else None
                    if self.detail and spec is not None:
                        einfo.type = dv.read_type(item, spec, case)
                    self.sink.leaf(einfo, item, acc, case or spec)
        finally:
            if key is not None:
                self.keys.pop()
        self.sink.end(info)

    def value_instance(self, acc: Accessor, name: str) -> None:
        info = Info(name, "value", len(self.keys), "value")
        try:
            v = attr(acc, name)
        except budget.BudgetError:
            raise
        except BinparseError as exc:
            self._unread(info, exc)
            return
        if isinstance(v, KStream):  # a stream (`_io` under another name) is no value of the file
            return
        if isinstance(v, Accessor):
            if not self._inside(v, info):
                if not self.detail:  # no place shown
                    self.record(v, name, None, dv.type_name(type(v)))
                    return
                try:
                    end = v._nbytes_end()
                except BinparseError:  # it breaks off: walked for what it holds
                    end = -1
                self.record(v, name, self.named(Span(v._off, end, stream=stream_of(v._mv, self.file))),
                            dv.type_name(type(v)))
            return
        if isinstance(v, (RecordArray, ItemArray)) or isinstance(v, list) and any(isinstance(x, Accessor) for x in v):
            self.value_records(v, name)
            return
        spec = dv.BYTES_VALUE if name in type(acc)._BYTES_VALUES else None
        self.sink.leaf(info, v, acc, spec)

    def value_records(self, v: Any, name: str) -> None:
        """A value instance that is a list of records (or of records and other values)."""
        info = Info(name, "list", len(self.keys), "value", count=len(v))
        self.sink.begin(info)
        self.keys.append(name)
        try:
            for k, item in enumerate(v):
                if isinstance(item, Accessor):
                    if not self._inside(item, Info(k, "record", len(self.keys))):
                        self.record(item, k, None, dv.type_name(type(item)))
                else:
                    self.sink.leaf(Info(k, "value", len(self.keys), "value"), item, None, None)
        finally:
            self.keys.pop()
        self.sink.end(info)


__all__ = ["Info", "MAX_DEPTH", "RECORD_COST", "Sink", "Walk", "attr", "reason", "same_record", "span_of"]
