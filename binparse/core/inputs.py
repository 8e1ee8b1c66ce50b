"""What the running command has read: the identity (device, inode) and size of every input file.

`binparse.core.paths` notes each file it opens for reading; `binparse.core.writes` refuses a destination
that is one of them (the same file by device and inode, whatever path or link leads to it), and
`binparse.core.budget` sizes the command's resource budget from their bytes. The CLI also notes the
paths named on the command line before a command runs (`note_paths`), so that an output named
like an input is refused even before that input is read.

A command runs inside `command()`: a fresh record whose budget claims add up. Outside one (the
Python API) one process-wide record keeps only the size of the largest file read, for the budget
of each claim (see `binparse.core.budget`): a long-running program may well write a file it read
earlier, so no identity is kept there (the API's writers name their source themselves:
`writes.check_target(out, source=…)`). A library call that writes or reads what its caller handed
it (arrays, a table, a buffer) counts those bytes as input for its own duration (`handed`).
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field


@dataclass
class Run:
    """One command's inputs and what it has asked of its budget."""

    cumulative: bool = False
    limit: int | None = None  # bytes, when the user set the budget (--budget)
    files: dict[tuple[int, int], str] = field(default_factory=dict)  # (st_dev, st_ino): a path it was read by
    input_bytes: int = 0
    asked: int = 0
    refused: list[Exception] = field(default_factory=list)  # the budget's refusals (`budget.BudgetError`), newest last


_PROCESS = Run()
_CURRENT: contextvars.ContextVar[Run | None] = contextvars.ContextVar("binparse_run", default=None)
_HANDED: contextvars.ContextVar[int] = contextvars.ContextVar("binparse_handed", default=0)


def current() -> Run:
    """The running command's record (the process-wide one outside a command)."""
    run = _CURRENT.get()
    return run if run is not None else _PROCESS


@contextlib.contextmanager
def command(limit: int | None = None) -> Iterator[Run]:
    """A command's record for the block: its inputs, and a budget whose claims add up (`limit`:
    the user's budget in bytes, or None for the rule of `binparse.core.budget`)."""
    token = _CURRENT.set(Run(cumulative=True, limit=limit))
    try:
        yield current()
    finally:
        _CURRENT.reset(token)


@contextlib.contextmanager
def handed(nbytes: int) -> Iterator[None]:
    """For the block, `nbytes` the caller handed a library call (the arrays a writer writes, the buffer a
    reader reads) count as input: the budget exists to stop a file's claims, not what a caller made.
    Inside a command the inputs are its files (what it builds from them is their claims): no change."""
    extra = 0 if current().cumulative else max(0, int(nbytes))
    token = _HANDED.set(_HANDED.get() + extra)
    try:
        yield
    finally:
        _HANDED.reset(token)


def handed_bytes() -> int:
    """The bytes `handed` counts as input now (0 outside such a call)."""
    return _HANDED.get()


def note(st: os.stat_result, path: str | os.PathLike[str]) -> None:
    """Record a regular file the command reads (its `os.stat`/`os.fstat`), once per file."""
    if not stat.S_ISREG(st.st_mode):
        return
    key = (st.st_dev, st.st_ino)
    run = current()
    if not run.cumulative:  # the Python API: the budget of one claim is that of the largest file
        run.input_bytes = max(run.input_bytes, st.st_size)
    elif key not in run.files:
        run.files[key] = os.fspath(path)
        run.input_bytes += st.st_size


def note_buffer(nbytes: int) -> None:
    """Record a buffer the Python API's caller handed in to be read (`binparse.open(bytes)`,
    `read_table(bytes)`): an input as a file of its size is (the largest one read so far sizes each
    claim). A command's buffers are its files' bytes, counted when they were opened."""
    run = current()
    if not run.cumulative:
        run.input_bytes = max(run.input_bytes, int(nbytes))


def note_paths(paths: Iterable[str | os.PathLike[str]]) -> None:
    """Record the regular files among `paths` (the command line's; what is missing or not a
    regular file is left to the command to report), and those directly inside a folder among them
    (a run's traces, a compile's reports: what a folder reader reads)."""
    for p in paths:
        try:
            st = os.stat(p)
        except (OSError, ValueError):
            continue
        if stat.S_ISDIR(st.st_mode):
            _note_folder(p)
        else:
            note(st, p)


def _note_folder(folder: str | os.PathLike[str]) -> None:
    try:
        with os.scandir(folder) as it:
            for e in it:
                try:
                    if e.is_file():  # a link to a file too: writing to its name would replace what it reads
                        note(e.stat(), e.path)
                except OSError:
                    continue
    except OSError:
        return


def input_at(st: os.stat_result) -> str | None:
    """The path an input of the running command was read by, when `st` is that file; else None."""
    return current().files.get((st.st_dev, st.st_ino))


__all__ = ["Run", "command", "current", "handed", "handed_bytes", "input_at", "note", "note_buffer", "note_paths"]
