"""Is a file text? Is it named like an artifact? (The two questions every open asks of every sign.)
And names from files as text: `shown` (terminal), `xml_text` (SVG), escaped, never raw; and the
value of a `NAME = value; // comment` statement, cut in linear time (`statement_value`)."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable
from typing import Any


def is_text(head: bytes) -> bool:
    """True for text (UTF-8 without NUL bytes; JSON included): never a binary artifact."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:  # a multi-byte character cut by the read limit is still text
        return exc.start >= len(head) - 3
    return True


LFS_POINTER = b"version https://git-lfs.github.com/spec/"


def is_lfs_pointer(head: bytes) -> bool:
    """True for a Git-LFS pointer: the text git leaves in place of a file it did not fetch."""
    return head.startswith(LFS_POINTER)


def name_matches(name: str, pattern: str) -> bool:
    """`fnmatch.fnmatchcase(name, pattern)`, without compiling a regular expression for the
    `*`-only patterns the families' signs use: every open asks about some twenty of them, and
    fnmatch compiles each on first use (~0.15 ms apiece, a few percent of a CLI call). Patterns
    with `?` or `[` go to fnmatch itself; a test holds the two to the same answers."""
    parts = _PARTS.get(pattern)
    if parts is None:
        parts = _PARTS[pattern] = _parts(pattern)
    return _match_parts(name, pattern, parts)


def _parts(pattern: str) -> tuple[str, tuple[str, ...], str | None, int] | None:
    """A `*`-only pattern as (before the first `*`, the parts between, after the last `*` or None
    when it has no `*`, the least length of a match); None for a pattern fnmatch must match."""
    if "?" in pattern or "[" in pattern:
        return None
    first, *rest = pattern.split("*")
    if not rest:
        return first, (), None, len(first)
    *middle, last = rest
    return first, tuple(middle), last, len(first) + len(last)


def _match_parts(name: str, pattern: str, parts: tuple[str, tuple[str, ...], str | None, int] | None) -> bool:
    if parts is None:
        return fnmatch.fnmatchcase(name, pattern)
    first, middle, last, least = parts
    if last is None:
        return name == first
    if len(name) < least or not name.startswith(first) or not name.endswith(last):
        return False
    pos, end = len(first), len(name) - len(last)
    for part in middle:
        found = name.find(part, pos, end)
        if found < 0:
            return False
        pos = found + len(part)
    return True


_PARTS: dict[str, tuple[str, tuple[str, ...], str | None, int] | None] = {}
# per tuple of patterns: the endings every match has (None where a pattern could end otherwise),
# and each pattern with its parts
_TUPLES: dict[tuple[str, ...], tuple[tuple[str, ...] | None, tuple[tuple[str, Any], ...]]] = {}


def pattern_endings(patterns: Iterable[str]) -> tuple[str, ...] | None:
    """What every name a pattern matches ends with, one per pattern (duplicates dropped): a name
    ending with none of them matches none. None when a pattern has `?` or `[` (it may end
    otherwise); a pattern ending in `*` gives "", which every name ends with."""
    pats = tuple(patterns)
    if any("?" in p or "[" in p for p in pats):
        return None
    return tuple(dict.fromkeys(p.rpartition("*")[2] for p in pats))


def matches_any(name: str, patterns: tuple[str, ...]) -> bool:
    """Whether `name` matches one of `patterns` (`name_matches`). Every open asks this of every
    sign and sniffer: the patterns are split once per tuple, and a name that ends as none of them
    do is answered by one `str.endswith`."""
    known = _TUPLES.get(patterns)
    if known is None:
        parsed = tuple((p, _parts(p)) for p in patterns)
        endings = pattern_endings(patterns)
        known = _TUPLES[patterns] = (endings, parsed)
    endings, parsed = known
    if endings is not None and not name.endswith(endings):
        return False
    for pattern, parts in parsed:
        if _match_parts(name, pattern, parts):
            return True
    return False


_NONSPACE = re.compile(r"\S")
MAX_DIGITS = 100  # digits of an integer a file may write (no count, size or id has more than 20)


def integer(text: str, base: int = 10) -> int:
    """`int(text, base)` of a number a file writes; `ValueError` (as `int`'s) when it is not one or
    has more than MAX_DIGITS digits (Python refuses 4,300 digits with a ValueError its readers do
    not expect, and converting fewer is quadratic in them)."""
    digits = len(text.strip().lstrip("+-"))
    if digits > MAX_DIGITS:
        raise ValueError(f"a number of {digits:,} digits (more than {MAX_DIGITS})")
    return int(text, base)


def statement_value(rest: str) -> str | None:
    """The value of a C or SystemVerilog statement's `rest` (what follows its `=`): the text up to
    the first `;` that only spaces or a `// comment` follow (with its spaces), else None. Linear in
    the line, where an expression `(.*?)\\s*;\\s*(?://.*)?$` tries every split of it."""
    at = rest.find(";")
    while at >= 0:
        nxt = _NONSPACE.search(rest, at + 1)  # scans only the spaces after this `;`: linear in all
        if nxt is None or rest.startswith("//", nxt.start()):
            return rest[:at].lstrip()
        at = rest.find(";", at + 1)
    return None


def _escapes() -> dict[int, str]:
    table = {c: f"\\x{c:02x}" for c in [*range(0x20), *range(0x7F, 0xA0)]}
    table.update({0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"})
    # line and paragraph separators, the bidirectional overrides and isolates (they reorder what
    # follows them on a terminal), the two XML-forbidden non-characters
    table.update({c: f"\\u{c:04x}" for c in (0x2028, 0x2029, *range(0x202A, 0x202F), *range(0x2066, 0x206A),
                                              0xFFFE, 0xFFFF)})
    # bytes of a file name that are not UTF-8 (os.fsdecode's surrogate escapes), as the byte
    table.update({c: f"\\x{c - 0xDC00:02x}" for c in range(0xDC80, 0xDD00)})
    table.update({c: f"\\u{c:04x}" for c in (*range(0xD800, 0xDC80), *range(0xDD00, 0xE000))})
    return table


_TABLES: list[dict[int, str]] = []  # built on first use: most calls print nothing that needs it


def _tables() -> list[dict[int, str]]:
    if not _TABLES:
        every = _escapes()
        _TABLES.extend([every, {k: v for k, v in every.items() if k not in (0x09, 0x0A)}])
    return _TABLES


def shown(name: object) -> str:
    """A name taken from a file (a file, tensor, layer or op name), safe to print on one line:
    control characters (C0 with newline, CR and tab, DEL, C1 with CSI), line separators,
    bidirectional overrides and undecodable bytes are written as backslash escapes (`\\n`,
    `\\x1b`, `\\u202e`). Printable text, non-ASCII letters included, is unchanged."""
    text = str(name)
    return text if text.isascii() and text.isprintable() else text.translate(_tables()[0])


def shown_lines(text: str) -> str:
    """`shown` for a whole multi-line report: line breaks and tabs kept, every other control
    character escaped (the CLI's last guard on everything it prints)."""
    return text if text.isascii() and text.isprintable() else text.translate(_tables()[1])


def xml_text(name: object, quote: bool = False) -> str:
    """A name as SVG/XML character data (`quote`: as an attribute value, quotes escaped too):
    `shown`, then XML's escapes; the result holds no character XML 1.0 forbids."""
    text = shown(name).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text.replace('"', "&quot;").replace("'", "&apos;") if quote else text


__all__ = ["LFS_POINTER", "MAX_DIGITS", "is_lfs_pointer", "is_text", "matches_any", "name_matches", "pattern_endings", "shown", "integer", "shown_lines", "statement_value", "xml_text"]
