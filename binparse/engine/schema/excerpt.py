"""Where on its line a schema error is: the column, and the line itself (shown with a caret), and
the closest names to a misspelt one ("did you mean").

A `SchemaError` raised while loading names the file, the line and the key; `place` adds the line's
text and the column of what the error is about: its `needle` when the raise site gave one (a
misspelt name, the token an expression stops at; ending with NUL: just after it), else the last name the message quotes that
stands on the line after the key, else the key, else the line's first character.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from ...core.errors import SchemaError

_QUOTED = re.compile(r"'([^'\n]{1,200})'")


def did_you_mean(name: str, names: Iterable[str]) -> str:
    """`; did you mean 'x'?` for the closest of `names` to a misspelt `name`, or ''."""
    close = difflib.get_close_matches(name, sorted(set(names) - {name}), n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def _after_key(text: str, key: str | None) -> int:
    """Where the value of `key` starts on the line (0 when the key is not on it)."""
    if not key:
        return 0
    m = re.search(rf"(?:^|[\s{{,-]){re.escape(key)}\s*:", text)
    return m.end() if m else 0


def column(text: str, err: SchemaError) -> int:
    """The 1-based column of what `err` is about on `text`, its line."""
    start = _after_key(text, err.key)
    said = err.message.partition("; did you mean")[0]  # the names the error is about, not the suggestion
    needles = [err.needle] if err.needle else _QUOTED.findall(said)[::-1]
    for needle in needles:
        if not needle:
            continue
        after = needle.endswith("\0")  # the column just after it (an expression that ends too soon)
        needle = needle.rstrip("\0")
        at = text.find(needle, start)
        if at < 0 and start:
            at = text.find(needle)
        if at >= 0:
            return at + 1 + (len(needle) if after else 0)
    if err.key:
        m = re.search(rf"(?:^|[\s{{,-])({re.escape(err.key)})\s*:", text)
        if m:
            return m.start(1) + 1
    return len(text) - len(text.lstrip(" -")) + 1


def place(err: SchemaError, source: str | None) -> SchemaError:
    """`err` with the text of its line and its column (from `source`, the schema's text); returns it."""
    if err.line is None or source is None or err.text is not None:
        return err
    lines = source.splitlines()
    if not 1 <= err.line <= len(lines):
        return err
    err.text = lines[err.line - 1]
    if err.column is None:
        err.column = column(err.text, err)
    err.args = (str(err),)
    return err


__all__ = ["column", "did_you_mean", "place"]
