"""`binparse explore FILE --schema S.ksy -o PAGE.html`: one self-contained HTML page (its style,
script and data inline: it loads nothing, needs no server) showing the file's bytes in hex beside
the value tree its schema reads (the script: `explorer_page`).

The page is written as the walk goes, through `core.writes` (atomically, asking the budget): the
tree's rows (`ExplorerSink`, at most `MAX_NODES` of them), then the file's bytes in base64 chunks
(at most `max_bytes` of them: the hex view stops there and the page says so), then the script.
Names and values from the file are JSON inside `<script type="application/json">` with `<`, `>`
and `&` escaped, and are set as text by the script; the title is HTML-escaped.
"""

from __future__ import annotations

import base64
import html
import json
from dataclasses import dataclass, field
from typing import IO, Any

from ..runtime import Accessor, FieldSpec
from . import values as dv
from .explorer_page import SCRIPT, STYLE
from .tree import find
from .sink import Info
from .walk import Walk

MAX_NODES = 500_000
CHUNK = 1 << 16  # bytes of the file in one base64 block (decoded when a page of the hex view needs it)
PAGE = 1024  # bytes of one page of the hex view


def _json(v: Any) -> str:
    """JSON that cannot end the `<script>` it is in, whatever text it holds."""
    return json.dumps(v).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class Full(Exception):
    """The page holds `MAX_NODES` rows: the walk stops there."""


class ExplorerSink:
    """A walk's rows as the page's `nodes` (see `explorer_page`), written to `out` as they come."""

    detail = True

    def __init__(self, out: Any, root_name: str | None) -> None:
        self.out, self.count = out, 0
        self.buf: list[str] = []
        self.shift = 0 if root_name is None else 1  # the root's own row is depth 0, its fields 1
        self.root_name = root_name

    def _node(self, info: Info, type_: str, value: str, kind: str) -> None:
        if self.count >= MAX_NODES:
            raise Full
        sp = info.span
        name = f"[{info.key}]" if isinstance(info.key, int) else info.key if info.key is not None else \
            self.root_name or ""
        depth = info.depth + self.shift if info.key is not None or not self.root_name else 0
        if info.count is not None and kind != "l":
            type_ = f"{type_} ×{info.count}"
        end = None if sp is None or sp.end < 0 else sp.end
        row = [depth, name, type_, value, None if sp is None else sp.start, end,
               None if sp is None else sp.start_bit, None if sp is None else sp.end_bit,
               1 if sp is not None and sp.stream is not None else 0, kind]
        self.buf.append(("," if self.count else "") + _json(row))
        self.count += 1
        if len(self.buf) >= 1024:
            self.flush()

    def flush(self) -> None:
        self.out.write("\n".join(self.buf).encode())
        self.buf = []

    def begin(self, info: Info) -> None:
        if info.kind == "list":
            self._node(info, info.type, f"{info.count} element{'s' if info.count != 1 else ''}", "l")
        else:
            text = info.repr or ""
            if info.note:
                text = f"{text} ({info.note})" if text else f"({info.note})"
            self._node(info, info.type, text, "r")

    def end(self, info: Info) -> None:
        pass

    def leaf(self, info: Info, v: Any, acc: Any, spec: FieldSpec | None) -> None:
        text = "null (if is false)" if info.note == "if is false" else dv.cell(v, acc, spec, 100)
        self._node(info, info.type, text, "v")

    def plain(self, key: str, v: Any, acc: Any, spec: FieldSpec | None) -> None:
        raise AssertionError("a detail sink is told every field with `leaf`")

    def omit(self, info: Info, why: str) -> None:
        self._node(info, info.type, why, "o")


@dataclass
class Page:
    """What was written: the walk (what it left out), rows, bytes of the file held, notes on caps."""

    walk: Walk
    nodes: int
    size: int
    embedded: int
    written: int = 0
    capped: list[str] = field(default_factory=list)


def write_page(path: str, root: Accessor, *, title: str, path_in_tree: str = "", max_bytes: int = 16 * 2**20,
               name: str = "") -> Page:
    """Write the explorer page of `root` (or of its subtree at `path_in_tree`) to `path`."""
    from ...core.writes import open_for_write
    target = find(root, path_in_tree)
    data = memoryview(root._mv).cast("B") if memoryview(root._mv).format != "B" else memoryview(root._mv)
    size = data.nbytes
    embedded = min(size, max(0, max_bytes))
    capped: list[str] = []
    with open_for_write(path) as out:
        counted = _Counted(out)
        counted.write(_head(title).encode())
        sink = ExplorerSink(counted, None if path_in_tree else root._TYPE_PATH.rsplit("::", 1)[-1])
        walk = Walk(sink, name, size, root._mv.obj)
        try:
            walk.top(target, path_in_tree or None)
        except Full:
            capped.append(f"the page holds the first {MAX_NODES:,} rows of the tree (the walk stopped there)")
        finally:
            sink.flush()
            walk.finish()
        if embedded < size:
            capped.append(f"the page holds the first {embedded:,} of the file's {size:,} bytes (--max-bytes): "
                          "the hex view stops there")
        meta = {"size": size, "embedded": embedded, "page": PAGE, "chunk": CHUNK, "rooted": not path_in_tree}
        counted.write(f']</script>\n<script type="application/json" id="meta">{_json(meta)}</script>\n'.encode())
        for k in range(0, embedded, CHUNK):
            block = base64.b64encode(data[k:min(k + CHUNK, embedded)]).decode()
            counted.write(f'<script type="application/octet-stream" id="d{k // CHUNK}">{block}</script>\n'.encode())
        notes = "".join(f"<div>{html.escape(c)}</div>" for c in capped + walk.unread[:20])
        counted.write(f'<script>document.getElementById("notes").innerHTML = {_json(notes)};</script>\n'
                      f"<script>{SCRIPT}</script>\n</body>\n</html>\n".encode())
    return Page(walk, sink.count, size, embedded, counted.n, capped)


class _Counted:
    def __init__(self, out: IO[bytes]) -> None:
        self.out, self.n = out, 0

    def write(self, data: bytes) -> None:
        self.out.write(data)
        self.n += len(data)


def _head(title: str) -> str:
    t = html.escape(title)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src \'unsafe-inline\'; '
            f'style-src \'unsafe-inline\'">\n<title>{t}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n'
            f'<header><h1>{t}</h1><div id="notes"></div><div id="nav"><button id="prev">\u25c2</button> '
            f'<span id="where"></span> <button id="next">\u25b8</button> offset <input id="at" size="10"> '
            f'<button id="go">go</button></div><div id="info">choose a field, or a byte</div></header>\n'
            f'<main><div id="tree"></div><div id="hexpane"><div id="hex"></div></div></main>\n'
            f'<script type="application/json" id="nodes">[')


__all__ = ["ExplorerSink", "MAX_NODES", "Page", "write_page"]
