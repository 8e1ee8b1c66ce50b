"""The whole value tree of a file read with a user's schema, or one subtree of it: what `inspect
--schema` prints, written as it is read (`dump`), and the value a path names (`find`).

    from binparse.engine.dump import dump, find
    dump(root, sys.stdout, "yaml", path="chunks[1].body", offsets=True)
    find(root, "chunks[1].body").span          # Span(start=44, end=60, ...)

A path is field ids joined by dots, each maybe followed by `[k]` for an element of a repeat:
`chunks[3].body`, `header.tag`, `sections[0]` (seq fields and instances alike).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, TextIO

from ...core.errors import BinparseError, UsageError
from ..runtime import Accessor, FieldSpec
from ..runtime.spans import Span, case_of, element_spans, stream_of
from .docs import DocSink, JsonOut, YamlOut
from .values import BYTES_VALUE
from .table import TableSink
from .walk import Walk, attr, span_of

FORMATS = ("text", "json", "yaml")
_STEP = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)")


@dataclass
class Target:
    """What a path names: its value, the record that holds it (`owner`, None for the root), the
    field's index in that record's fields and its spec, the element (`index`) and where it lies."""

    path: str
    value: Any
    owner: Any = None
    field: int | None = None
    spec: FieldSpec | None = None
    index: int | None = None
    span: Span | None = None
    case: FieldSpec | None = None

    def stream(self) -> memoryview:
        """The bytes the value lies in (the file's, or those a `process` made)."""
        if self.owner is None:
            mv: memoryview = self.value._mv
            return mv
        ext = self.owner._x(self.field) if self.field is not None else None
        return ext.mv if ext is not None and ext.mv is not None else self.owner._mv  # type: ignore[no-any-return]


def _steps(path: str) -> list[tuple[str, list[int]]]:
    out = []
    for part in path.split("."):
        m = _STEP.fullmatch(part)
        if not m:
            raise UsageError(f"{path!r} is not a path of fields: ids joined by dots, each maybe with [index] "
                             "(e.g. chunks[3].body)")
        out.append((m.group(1), [int(x) for x in re.findall(r"\d+", m.group(2))]))
    return out


def _named(span: Span | None, stream: str | None) -> Span | None:
    """`span` with its processed bytes named by the path of the record read from them (as the walk names them)."""
    return span._replace(stream=stream) if span is not None and span.stream is not None and stream else span


def find(root: Accessor, path: str) -> Target:
    """The value at `path` in the tree of `root` (see the module doc), where it lies, and what holds it.
    Raises `UsageError` naming the record's fields for a name it has not, or the elements for an index."""
    if not path:
        try:
            # the base's own place, not properties (a schema may well call a field `offset` or `nbytes`)
            span: Span | None = Span(root._off, root._nbytes_end())
        except BinparseError:  # a seq that breaks off: where it ends is not known (the walk says what broke)
            span = None
        return Target("", root, span=span)
    t = Target("", root)
    done = ""
    stream: str | None = None  # the record read from processed bytes the path is in (names their spans)
    bytes_of = root._mv.obj
    for name, indexes in _steps(path):
        acc = t.value
        if not isinstance(acc, Accessor):
            raise UsageError(f"{done or 'the root'} is no record: it has no field {name!r}", found=path)
        if acc._mv.obj is not bytes_of:
            bytes_of, stream = acc._mv.obj, (done if acc._mv.obj is not root._mv.obj else None)
        cls = type(acc)
        specs = cls._FIELDS + cls._INSTANCES
        names = [s.name for s in specs] + [n for n in cls._INSTANCE_ORDER if n not in {s.name for s in specs}]
        if name not in names:
            from difflib import get_close_matches
            near = get_close_matches(name, names, 1)
            raise UsageError(f"{done or cls._TYPE_PATH} has no field {name!r}" +
                             (f" (did you mean {near[0]!r}?)" if near else "") + f"; it has {', '.join(names)}",
                             found=path)
        done = f"{done}.{name}" if done else name
        i = next((k for k, s in enumerate(specs) if s.name == name), None)
        try:
            value = attr(acc, name)
            t = Target(done, value, acc, i, specs[i] if i is not None else
                       BYTES_VALUE if name in cls._BYTES_VALUES else None)
            if i is not None:
                t.span = _named(span_of(acc, i, value, root._mv.obj), stream)
                t.case = case_of(acc, i) if specs[i].kind == "switch" and not specs[i].repeated else None
        except BinparseError as exc:
            raise exc.with_file(acc._file) if acc._file else exc
        for k in indexes:
            seq = t.value
            try:
                n = len(seq)
            except TypeError:
                raise UsageError(f"{done} is no repeat: it has no element [{k}]", found=path) from None
            if k >= n:
                raise UsageError(f"{done} has {n} elements: there is no [{k}]", found=path)
            done = f"{done}[{k}]"
            sp, case = None, None
            if t.index is None and t.field is not None:
                sp = _named(next((s for j, s in enumerate(element_spans(acc, t.field, root._mv.obj)) if j == k),
                                 None), stream)
                case = case_of(acc, t.field, k) if t.spec is not None and t.spec.kind == "switch" else None
            t = Target(done, seq[k], acc, t.field, t.spec, k, sp, case)
    return t


def dump(root: Accessor, out: TextIO, format: str = "json", *, offsets: bool = False, path: str = "",  # noqa: A002
         title: str = "", name: str = "", size: int = 0) -> Walk:
    """Write the tree of `root` (or the subtree at `path`) to `out` as it is read: `format` "json",
    "yaml" or "text" (the table `inspect` prints; `title` its first line), with each value's place
    when `offsets` (the text table always shows them). Returns the walk: what it left out is in
    `.unread` (could not be read) and `.notes` (read, not printed inside itself)."""
    if format not in FORMATS:
        raise UsageError(f"no dump format {format!r}: one of {', '.join(FORMATS)}")
    target = find(root, path)
    if format == "text":
        sink: Any = TableSink(out, title, path)
    else:
        doc = JsonOut(out) if format == "json" else YamlOut(out)
        sink = DocSink(doc, offsets)
    walk = Walk(sink, name, size, root._mv.obj)
    try:
        walk.top(target, path or None)
    finally:
        (sink.flush if format == "text" else doc.finish)()
        walk.finish()
    return walk


__all__ = ["FORMATS", "Target", "dump", "find"]
