"""Is a file text? Is it named like an artifact? (The two questions every open asks of every sign.)"""

from __future__ import annotations

import fnmatch


def is_text(head: bytes) -> bool:
    """True for text (UTF-8 without NUL bytes; JSON included): never a binary artifact."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:  # a multi-byte character cut by the read limit is still text
        return exc.start >= len(head) - 3
    return True


def name_matches(name: str, pattern: str) -> bool:
    """`fnmatch.fnmatchcase(name, pattern)`, without compiling a regular expression for the
    `*`-only patterns the families' signs use: every open asks about some twenty of them, and
    fnmatch compiles each on first use (~0.15 ms apiece, a few percent of a CLI call). Patterns
    with `?` or `[` go to fnmatch itself; a test holds the two to the same answers."""
    if "?" in pattern or "[" in pattern:
        return fnmatch.fnmatchcase(name, pattern)
    first, *middle_last = pattern.split("*")
    if not middle_last:
        return name == pattern
    *middle, last = middle_last
    if len(name) < len(first) + len(last) or not name.startswith(first) or not name.endswith(last):
        return False
    pos, end = len(first), len(name) - len(last)
    for part in middle:
        found = name.find(part, pos, end)
        if found < 0:
            return False
        pos = found + len(part)
    return True


_ENDINGS: dict[tuple[str, ...], tuple[str, ...] | None] = {}


def matches_any(name: str, patterns: tuple[str, ...]) -> bool:
    """Whether `name` matches one of `patterns` (`name_matches`). Every open asks this of every
    sign and sniffer: a name that ends as none of the patterns do is answered by one `str.endswith`
    (the endings are worked out once per tuple of patterns; None where a pattern could end otherwise)."""
    endings = _ENDINGS.get(patterns, ())
    if endings == ():
        simple = all("?" not in p and "[" not in p and not p.endswith("*") for p in patterns)
        endings = _ENDINGS[patterns] = tuple(p.rpartition("*")[2] for p in patterns) if simple else None
    if endings is not None and not name.endswith(endings):
        return False
    return any(name_matches(name, p) for p in patterns)


__all__ = ["is_text", "matches_any", "name_matches"]
