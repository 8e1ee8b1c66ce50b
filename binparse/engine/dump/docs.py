"""JSON and YAML written as the walk goes (`DocSink`): nothing of the document is held but the
containers it is inside and a buffer of output text.

The JSON is what `json.dumps(doc, indent=1)` writes of the same document (strict: a float that is
not a number is the string "NaN", "Infinity" or "-Infinity"); the YAML is block style, every string
double-quoted, floats as PyYAML writes them (`1.0e-05`, `.nan`, `.inf`), so that `yaml.safe_load`
gives the JSON's document (NaN and the infinities as YAML's own). A big array of numbers or bytes
is written a slice at a time.

With `offsets`, each node is an object holding where it lies: `start`, `end` (bytes of its stream),
`bits` ([first, after] of a bit-sized integer, counted from the stream's first bit), `stream` (the
record read from the processed bytes that hold it, when not the file's), `io` ([start, end] of the substream a
record reads from), `type` (what was read: a switch's case, the enum, a record's own type), `repr`
(its type's `-webide-representation`), then `fields` (a record), `items` (a repeat of records) or
`value`. A value instance has no place: `type` "value" and its `value`.
"""

from __future__ import annotations

import json
import re
from json.encoder import encode_basestring_ascii as _quoted
from typing import Any, TextIO

import numpy as np

from ...core.render import json_string
from ..runtime import FieldSpec
from ..runtime.spans import Span
from . import values as dv
from .sink import Info

FLUSH = 4096  # pieces of output kept before they are written
SLICE = 1 << 15  # elements (or bytes) of a big array converted at a time
_PLAIN_KEY = re.compile(r"[a-z_][a-z0-9_]*")
_YAML_WORDS = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})


class Out:
    """A document written as it is made: containers opened and closed, scalars, big arrays."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.buf: list[str] = []

    def w(self, text: str) -> None:
        buf = self.buf
        buf.append(text)
        if len(buf) > FLUSH:
            self.flush()

    def flush(self) -> None:
        if self.buf:
            self.out.write("".join(self.buf))
            self.buf = []

    def open(self, key: str | None, kind: str) -> None: ...
    def close(self) -> None: ...
    def scalar(self, key: str | None, v: Any) -> None: ...
    def array(self, key: str | None, parts: Any, hexed: bool) -> None: ...
    def finish(self) -> None: ...


def _json_scalar(v: Any) -> str:
    t = type(v)
    if t is int:
        return str(v)
    if t is str:
        return _quoted(v if v.isascii() else json_string(v))
    if t is float:
        return repr(v) if v - v == 0 else _quoted(dv.number(v))
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    return json.dumps(v)


class JsonOut(Out):
    """`json.dumps(indent=1)`'s layout, written as it goes."""

    def __init__(self, out: TextIO) -> None:
        super().__init__(out)
        self.stack: list[list[Any]] = []  # [closing bracket, has children]
        self.lead = [("\n" + " " * k, ",\n" + " " * k) for k in range(256)]  # the start of an item k deep

    def _item(self, key: str | None) -> None:
        stack = self.stack
        if stack:
            top = stack[-1]
            depth = len(stack)
            lead = self.lead[depth] if depth < 256 else ("\n" + " " * depth, ",\n" + " " * depth)
            start = lead[1] if top[1] else lead[0]
            top[1] = True
            self.w(start if key is None else start + _quoted(key) + ": ")

    def open(self, key: str | None, kind: str) -> None:
        self._item(key)
        self.w("{" if kind == "map" else "[")
        self.stack.append(["}" if kind == "map" else "]", False])

    def close(self) -> None:
        bracket, had = self.stack.pop()
        self.w(f"\n{' ' * len(self.stack)}{bracket}" if had else bracket)

    def scalar(self, key: str | None, v: Any) -> None:
        t = type(v)
        if t is int or t is str and v.isascii() and self.stack:  # the common case, in one piece
            top = self.stack[-1]
            depth = len(self.stack)
            lead = self.lead[depth] if depth < 256 else ("\n" + " " * depth, ",\n" + " " * depth)
            start = lead[1] if top[1] else lead[0]
            top[1] = True
            self.w(f"{start}{_quoted(key)}: {str(v) if t is int else _quoted(v)}" if key is not None else
                   f"{start}{str(v) if t is int else _quoted(v)}")
            return
        self._item(key)
        if isinstance(v, list):
            self.w(json.dumps([dv.number(x) if isinstance(x, float) else json_string(x) if isinstance(x, str) else x
                               for x in v], indent=1).replace("\n", "\n" + " " * len(self.stack)))
        else:
            self.w(_json_scalar(v))

    def array(self, key: str | None, parts: Any, hexed: bool) -> None:
        self._item(key)
        if hexed:
            self.w('"')
            for p in parts:
                self.w(p)
            self.w('"')
            return
        ind = "\n" + " " * (len(self.stack) + 1)
        first = True
        self.w("[")
        for chunk in parts:
            if chunk:
                self.w(("," if not first else "") + ind + ("," + ind).join(_json_scalar(x) for x in chunk))
                first = False
        self.w("]" if first else "\n" + " " * len(self.stack) + "]")

    def finish(self) -> None:
        self.w("\n")
        self.flush()


_PAIR = re.compile(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})")


def _yaml_text(s: str) -> str:
    """`s` double-quoted as YAML reads it: JSON's escapes, but a character beyond U+FFFF as YAML's
    `\\UXXXXXXXX` (YAML reads JSON's surrogate pair as two lone surrogates)."""
    text = _quoted(json_string(s))
    if "\\ud" not in text:
        return text
    return _PAIR.sub(lambda m: f"\\U{0x10000 + ((int(m[1], 16) - 0xD800) << 10) + int(m[2], 16) - 0xDC00:08x}",
                     text)


def _yaml_scalar(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return _yaml_text(v)
    if isinstance(v, float):
        if v != v:
            return ".nan"
        if v in (float("inf"), float("-inf")):
            return ".inf" if v > 0 else "-.inf"
        text = repr(v)
        return text.replace("e", ".0e") if "." not in text and "e" in text else text
    return str(v)


def _yaml_key(key: str) -> str:
    return key if _PLAIN_KEY.fullmatch(key) and key not in _YAML_WORDS else json.dumps(key)


class YamlOut(Out):
    """Block-style YAML: `key: value`, `- item`, nested containers indented by two."""

    def __init__(self, out: TextIO) -> None:
        super().__init__(out)
        self.stack: list[list[Any]] = []  # [kind, indent, prefix of its first line or None, line if empty]

    def _start(self, key: str | None) -> tuple[str, int]:
        """The start of the next line of the container the walk is in, and that container's indent."""
        if not self.stack:
            return "", 0
        top = self.stack[-1]
        if top[2] is not None:
            start, top[2] = top[2], None
        else:
            start = " " * top[1]
        return (start + ("- " if top[0] == "seq" else f"{_yaml_key(key or '')}: ")), top[1]

    def open(self, key: str | None, kind: str) -> None:
        empty = "{}" if kind == "map" else "[]"
        if not self.stack:
            self.stack.append([kind, 0, "", empty])
            return
        seq = self.stack[-1][0] == "seq"
        start, ind = self._start(key)
        # in a list `- key: …` (or `- - …`) starts on the item's line; in a mapping the key has a line of its own
        self.stack.append([kind, ind + 2, start if seq else start.rstrip() + "\n" + " " * (ind + 2), start + empty])

    def close(self) -> None:
        top = self.stack.pop()
        if top[2] is not None:  # nothing was written in it: `key: {}`, `- []`
            self.w(top[3] + "\n")

    def scalar(self, key: str | None, v: Any) -> None:
        start, _ = self._start(key)
        if isinstance(v, list):
            self.w(start + "[" + ", ".join(_yaml_scalar(x) for x in v) + "]\n")
        else:
            self.w(start + _yaml_scalar(v) + "\n")

    def array(self, key: str | None, parts: Any, hexed: bool) -> None:
        start, _ = self._start(key)
        self.w(start + ('"' if hexed else "["))
        first = True
        for chunk in parts:
            if hexed:
                self.w(chunk)
            elif chunk:
                self.w(("" if first else ", ") + ", ".join(_yaml_scalar(x) for x in chunk))
                first = False
        self.w('"\n' if hexed else "]\n")

    def finish(self) -> None:
        self.flush()


def _hex_parts(v: np.ndarray) -> Any:
    for k in range(0, v.size, SLICE):
        yield v[k:k + SLICE].tobytes().hex()


def _number_parts(v: np.ndarray, acc: Any, spec: FieldSpec | None) -> Any:
    flat = v.reshape(-1)
    for k in range(0, flat.size, SLICE):
        yield dv.plain_list(flat[k:k + SLICE].tolist(), acc, spec)


class DocSink:
    """A walk's events as a JSON or YAML document (`out`), with or without `offsets`."""

    def __init__(self, out: Out, offsets: bool = False) -> None:
        self.doc, self.offsets, self.detail = out, offsets, offsets

    def _key(self, info: Info) -> str | None:
        return info.key if isinstance(info.key, str) else None

    def _where(self, info: Info) -> None:
        d = self.doc
        sp: Span | None = info.span
        if sp is not None:
            d.scalar("start", sp.start)
            if sp.end >= 0:  # a record that breaks off has no end
                d.scalar("end", sp.end)
            if sp.start_bit is not None:
                d.scalar("bits", [sp.start_bit, sp.end_bit])
            if sp.stream is not None:  # named by the walk: the path of the record read from those bytes
                d.scalar("stream", sp.stream)
        if info.io is not None:
            d.scalar("io", list(info.io))
        d.scalar("type", info.type)
        if info.count is not None:
            d.scalar("count", info.count)
        if info.repr is not None:
            d.scalar("repr", info.repr)

    def begin(self, info: Info) -> None:
        d = self.doc
        if not self.offsets:
            d.open(self._key(info), "map" if info.kind == "record" else "seq")
            return
        d.open(self._key(info), "map")
        self._where(info)
        d.open("fields" if info.kind == "record" else "items", "map" if info.kind == "record" else "seq")

    def end(self, info: Info) -> None:
        self.doc.close()
        if self.offsets:
            self.doc.close()

    def leaf(self, info: Info, v: Any, acc: Any, spec: FieldSpec | None) -> None:
        key = self._key(info)
        if self.offsets:
            self.doc.open(key, "map")
            self._where(info)
            key = "value"
        self.plain(key, v, acc, spec)
        if self.offsets:
            self.doc.close()

    def plain(self, key: str | None, v: Any, acc: Any, spec: FieldSpec | None) -> None:
        """A field's value without its place (`offsets` off)."""
        t = type(v)
        if t is int and (spec is None or spec.enum is None and spec.display is None) or t is str or t is float:
            self.doc.scalar(key, v)
        elif isinstance(v, np.ndarray) and v.size > SLICE:
            raw = dv.is_bytes(v, spec)
            self.doc.array(key, _hex_parts(v) if raw else _number_parts(v, acc, spec), raw)
        else:
            self.doc.scalar(key, dv.plain(v, acc, spec))

    def omit(self, info: Info, why: str) -> None:
        pass  # left out of the document; the walk names it (stderr)


__all__ = ["DocSink", "JsonOut", "Out", "YamlOut"]
