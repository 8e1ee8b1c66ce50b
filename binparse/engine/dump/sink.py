"""What a walk of the value tree tells the output it writes (`walk.Walk` into a `Sink`: JSON or YAML,
the text table, the explorer page): one `Info` a node."""

from __future__ import annotations

from typing import Any, Protocol

from ..runtime import FieldSpec
from ..runtime.spans import Span


class Info:
    """What a sink is told of a node: its key (a field id, an element's index, None for the
    top), kind ("record", "list", "value"), the type read, its span, its record's representation,
    the elements of a list, a note (`if` false, a record in processed bytes)."""

    __slots__ = ("key", "kind", "type", "span", "repr", "count", "note", "depth", "io")

    def __init__(self, key: str | int | None, kind: str, depth: int, type_: str = "", span: Span | None = None,
                 repr_: str | None = None, count: int | None = None, note: str = "") -> None:
        self.key, self.kind, self.depth, self.type, self.span = key, kind, depth, type_, span
        self.repr, self.count, self.note = repr_, count, note
        self.io: tuple[int, int] | None = None  # a record read from a substream of `size:` bytes: its bounds


class Sink(Protocol):
    """Where a walk goes: `detail` sinks are told types, spans and representations (with `leaf`); the
    others get a field's plain value with its id alone (`plain`)."""

    detail: bool

    def begin(self, info: Info) -> None: ...
    def end(self, info: Info) -> None: ...
    def leaf(self, info: Info, v: Any, acc: Any, spec: FieldSpec | None) -> None: ...
    def omit(self, info: Info, why: str) -> None: ...
    def plain(self, key: str, v: Any, acc: Any, spec: FieldSpec | None) -> None: ...


__all__ = ["Info", "Sink"]
