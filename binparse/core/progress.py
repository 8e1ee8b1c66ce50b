"""Progress for long operations on stderr, only when stderr is a terminal (silent in pipes, CI, tests).

Long means: an output mapping of more than 1,000,000 rows, a device buffer over 256 MB, a fixture
of many files, a doctor walking many folders. Messages are overwritten in place with a carriage
return and end with the time taken; what they name (file names) is shown escaped (`text.shown`),
written to the terminal's own stream (the CLI's escaping stream would escape the carriage return
itself). A command that prints its output while a progress line shows (`doctor -r`, folder by
folder) calls `clear` first, so that the line never runs into the output.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from .text import shown

LONG_TABLE_ROWS = 1_000_000
LONG_BUFFER_BYTES = 256 * 2**20
MANY_FILES = 10
_SHOWN = [0]  # the length of the progress line on the terminal now (0: none)


def _stream() -> TextIO | None:
    err = getattr(sys.stderr, "unescaped", sys.stderr)  # the stream under the CLI's escaping one
    return err if err is not None and err.isatty() else None


def active() -> bool:
    """Whether progress would show (skip counting work for it when not)."""
    return _stream() is not None


@contextmanager
def task(what: str, long: bool = True) -> Iterator[None]:
    """`what…` before and `what: 1.2 s` after a step that is `long`; nothing otherwise."""
    err = _stream() if long else None
    start = time.perf_counter()
    what = shown(what)
    if err:
        err.write(f"\r{what}…")
        err.flush()
    yield
    if err:
        err.write(f"\r{what}: {time.perf_counter() - start:.1f} s\n")
        err.flush()


def steps(what: str, total: int, done: int) -> None:
    """`what: done/total` in place, when there are many steps; a newline after the last."""
    err = _stream() if total >= MANY_FILES else None
    if err:
        err.write(f"\r{shown(what)}: {done}/{total}" + ("\n" if done == total else ""))
        err.flush()


def counting(what: str, total: int, done: int, now: str = "") -> None:
    """`what: done/total (now)` in place while a command works through `total` steps (many of them),
    rewritten at each; the line is taken away after the last (`clear`), leaving the output alone."""
    err = _stream() if total >= MANY_FILES else None
    if not err:
        return
    if done >= total:
        clear()
        return
    line(f"{what}: {done}/{total}" + (f" ({now})" if now else ""))


def line(text: str) -> None:
    """`text` in place on the terminal's progress line, rewritten at each call (a long walk's "how far");
    `clear` takes it away. Nothing when stderr is no terminal."""
    err = _stream()
    if not err:
        return
    text = shown(text)
    width = 120
    text = text if len(text) <= width else text[:width - 1] + "…"
    err.write("\r" + text.ljust(_SHOWN[0]))
    err.flush()
    _SHOWN[0] = len(text)


def clear() -> None:
    """Take the progress line away (before printing output on the terminal it shows on)."""
    err = _stream()
    if err and _SHOWN[0]:
        err.write("\r" + " " * _SHOWN[0] + "\r")
        err.flush()
    _SHOWN[0] = 0


__all__ = ["LONG_BUFFER_BYTES", "LONG_TABLE_ROWS", "MANY_FILES", "active", "clear", "counting", "line", "steps", "task"]
