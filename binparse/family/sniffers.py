"""Sniffers: how a text format, a folder or a file a family works out by its content is recognised.

A sniffer looks at (path or None, first bytes) and returns a function that opens the source, or
None. Families register theirs with `register_sniffer` (re-exported by `binparse.family.registry`),
saying which names, heads, folders or text they are asked about, so that `sniff` calls (and
imports) only the ones a source may be.
"""

from __future__ import annotations

import os
from typing import Any, Callable, NamedTuple

from . import plugins
from ..core.text import matches_any, pattern_endings

# Text formats and folders have no size or magic: a sniffer looks at (path or None, first bytes)
# and returns a function that opens the source, or None.
Sniffer = Callable[[Any, bytes], Any]


class _Sniffer(NamedTuple):
    fn: Sniffer | str  # or "module:function", imported the first time it is asked
    names: tuple[str, ...] = ()  # asked only for a path named so (fnmatch) ...
    head: Callable[[bytes], Any] | None = None  # ... or whose first bytes pass this cheap test ...
    folders: bool = False  # ... or, for a sniffer of folders, only about folders
    text: bool = False  # a sniffer of text formats: never asked about a binary file
    min_size: int = 0  # asked by its names only about a file at least this big (its head test: always)

    def function(self) -> Sniffer:
        fn: Sniffer = plugins.resolve(self.fn) if isinstance(self.fn, str) else self.fn
        return fn


_SNIFFERS: list[_Sniffer] = []


def register_sniffer(fn: Sniffer | str, *, names: tuple[str, ...] = (), head: Callable[[bytes], Any] | None = None,
                     folders: bool = False, text: bool = False, min_size: int = 0) -> Sniffer | str:
    """Add a sniffer. With `names` or `head` it is asked only about a file named so (and, with
    `min_size`, at least that big) or whose first bytes pass `head`; with `folders`, only about
    folders; with `text`, never about a binary file (a NUL in its first 64 bytes); `fn` may be
    "module:function", imported when first asked."""
    entry = _Sniffer(fn, tuple(names), head, folders, text, min_size)
    if entry not in _SNIFFERS:
        _SNIFFERS.append(entry)
    return fn


# (_SNIFFERS, its length, those a binary buffer asks, their head tests or None when one must be called)
_FOR_BINARY_BUFFERS: tuple[list[Any], int, list[Any], tuple[Callable[[bytes], Any], ...] | None] = ([], 0, [], ())


def _binary_sniffers() -> tuple[list[Any], tuple[Callable[[bytes], Any], ...] | None]:
    """The sniffers a binary buffer without a name can answer to (no folder, name-only or text
    ones), and their head tests (None when one of them has none: it is asked about every buffer);
    kept until a sniffer is added."""
    global _FOR_BINARY_BUFFERS
    listed, n, ask, heads = _FOR_BINARY_BUFFERS
    if listed is not _SNIFFERS or n != len(_SNIFFERS):
        ask = [e for e in _SNIFFERS if not isinstance(e, _Sniffer) or not (
            e.folders or e.text or (e.names and e.head is None))]
        tests = [e.head for e in ask if isinstance(e, _Sniffer) and e.head is not None]
        heads = tuple(tests) if len(tests) == len(ask) else None
        _FOR_BINARY_BUFFERS = (_SNIFFERS, len(_SNIFFERS), ask, heads)
    return ask, heads


def _as_path(path: Any) -> Any:
    """A sniffer is given a `Path` (`binparse.open` passes the name as it came, a str, to be quick)."""
    from pathlib import Path
    return Path(path) if isinstance(path, str) else path


# (_SNIFFERS, its length, those a named binary file asks as (sniffer, names, least size, head test),
# the endings of all their names or None)
_FOR_BINARY_FILES: tuple[list[Any], int, list[tuple[Any, tuple[str, ...], int, Any]], tuple[str, ...] | None] = \
    ([], 0, [], ())


def _binary_file_sniffers() -> tuple[list[tuple[Any, tuple[str, ...], int, Any]], tuple[str, ...] | None]:
    """The sniffers a named binary file can answer to (no folder or text ones) as (sniffer, its
    names, the least size it is asked by name about, its head test), and the endings of all their
    names (None when a name pattern may end otherwise): a file name ending as none of them do
    skips every name test. Kept until a sniffer is added."""
    global _FOR_BINARY_FILES
    listed, n, ask, endings = _FOR_BINARY_FILES
    if listed is not _SNIFFERS or n != len(_SNIFFERS):
        ask = [(e, e.names, e.min_size, e.head) if isinstance(e, _Sniffer) else (e, (), 0, None)
               for e in _SNIFFERS if not isinstance(e, _Sniffer) or not (e.folders or e.text)]
        endings = pattern_endings(p for _, patterns, _, _ in ask for p in patterns)
        _FOR_BINARY_FILES = (_SNIFFERS, len(_SNIFFERS), ask, endings)
    return ask, endings


def sniff(path: Any, head: bytes, size: int | None = None) -> Any:
    """The opener of the first sniffer that recognises the source, or None.

    Every open asks: the sniffers' declared names, heads, folders and text are tested here in one
    loop, and only a sniffer they let through is called (and imported)."""
    binary = head.find(0, 0, 64) >= 0  # a NUL in the first 64 bytes
    if binary and path is not None:  # a named binary file: no folder or text sniffer is asked
        return _sniff_binary_file(path, head, size)
    name = os.path.basename(path) if path is not None else None
    folder: bool | None = None
    entries = _binary_sniffers()[0] if binary else _SNIFFERS
    for entry in entries:
        if not isinstance(entry, _Sniffer):  # a plain function (tests register one directly)
            opener = entry(_as_path(path), head)
        else:
            if entry.folders:
                if head or path is None:
                    continue
                if folder is None:
                    folder = os.path.isdir(path)
                if not folder:
                    continue
            elif entry.text and binary:
                continue
            elif entry.names or entry.head is not None:
                by_name = size is None or size >= entry.min_size
                if not ((by_name and name is not None and matches_any(name, entry.names))
                        or (entry.head is not None and head and entry.head(head))):
                    continue
            opener = entry.function()(_as_path(path), head)
        if opener is not None:
            return opener
    return None


def _sniff_binary_file(path: Any, head: bytes, size: int | None) -> Any:
    """`sniff` of a named binary file (most opens): the names of all sniffers tested by one
    `str.endswith` first, then only the sniffers whose name or head test lets the file through."""
    asked, endings = _binary_file_sniffers()
    name = os.path.basename(path)
    by_name = endings is None or name.endswith(endings)
    for entry, names, least, head_test in asked:
        if names or head_test is not None:
            if not ((by_name and names and (size is None or size >= least) and matches_any(name, names))
                    or (head_test is not None and head_test(head))):
                continue
            opener = entry.function()(_as_path(path), head)
        else:  # a plain function (tests register one directly), or a sniffer asked about every file
            opener = entry(_as_path(path), head) if not isinstance(entry, _Sniffer) else \
                entry.function()(_as_path(path), head)
        if opener is not None:
            return opener
    return None


__all__ = ["Sniffer", "register_sniffer", "sniff"]
