"""What a path is, before anything is opened: a regular file, a folder, a link out of the folder
given, a FIFO, socket or device node (never opened: reading one can hang or have effects), or
something that cannot be looked at (permission denied). The one place the commands ask it
(`docs/contracts.md`, "Hostile folders").
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from . import inputs
from .errors import PathError
from .text import shown

_SPECIAL = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
            (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def special_kind(mode: int) -> str | None:
    """'a FIFO (named pipe)', 'a socket', 'a character device', 'a block device', or None."""
    return next((what for test, what in _SPECIAL if test(mode)), None)


def _stat_error(path: str, exc: OSError) -> PathError:
    if isinstance(exc, FileNotFoundError):
        return PathError("no such file or folder", file=path)
    if isinstance(exc, PermissionError):
        return PathError("cannot read it (permission denied)", file=path)
    return PathError(f"cannot read it: {exc.strerror or exc}", file=path)


def open_regular(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of `path`, which must be a regular file (a link to one is followed:
    the user named it). Opened with O_NONBLOCK and checked with fstat before anything is read, so
    a FIFO or device is refused at once instead of hanging. Raises `PathError`."""
    return open_regular_stat(path)[0]


def _no_nul(p: str) -> None:
    """A path holding a NUL character names no file (the system cannot be asked for it)."""
    if "\0" in p:
        raise PathError("holds a NUL character, which no file name can: no such file", file=shown(p))


def open_regular_stat(path: str | os.PathLike[str]) -> tuple[int, os.stat_result]:
    """`open_regular`, with the `os.fstat` of the file it opened."""
    p = os.fspath(path)
    _no_nul(p)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise PathError("is a directory, not a file", file=p) from None
    except OSError as exc:
        raise _stat_error(p, exc) from None
    try:
        st = os.fstat(fd)
    except OSError as exc:
        os.close(fd)
        raise _stat_error(p, exc) from None
    mode = st.st_mode
    if stat.S_ISREG(mode):
        inputs.note(st, p)  # an input of the command: never written over, counted in its budget
        return fd, st
    os.close(fd)
    if stat.S_ISDIR(mode):
        raise PathError("is a directory, not a file", file=p)
    raise PathError(f"is {special_kind(mode) or 'not a regular file'}, not a regular file: never read",
                    file=p, hint="give the path of a regular file")


def read_unlinked(path: str | os.PathLike[str], max_bytes: int) -> tuple[os.stat_result, bytes] | None:
    """(its fstat, its bytes) of a regular file of at most `max_bytes`, read through a descriptor opened
    without following a link (nor blocking on a FIFO); None for anything else or any error. For the
    caches, which use an entry only when it is exactly what they wrote."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError):
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > max_bytes:
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return st, f.read(max_bytes + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def require_regular(path: str | os.PathLike[str]) -> None:
    """Raise `PathError` unless `path` is a regular file (checked by stat, nothing opened)."""
    p = os.fspath(path)
    _no_nul(p)
    try:
        st = os.stat(p)
    except OSError as exc:
        raise _stat_error(p, exc) from None
    mode = st.st_mode
    if stat.S_ISREG(mode):
        inputs.note(st, p)  # the caller reads it next (np.load, open): an input of the command
    if stat.S_ISDIR(mode):
        raise PathError("is a directory, not a file", file=p)
    if not stat.S_ISREG(mode):
        raise PathError(f"is {special_kind(mode) or 'not a regular file'}, not a regular file: never read", file=p)


def read_text(path: str | os.PathLike[str]) -> str:
    """The UTF-8 text of the file at `path`: a FIFO or device is refused (`PathError`) before it is
    read; a missing or unreadable file raises `OSError` as `Path.read_text` does."""
    p = os.fspath(path)
    if os.path.exists(p):
        require_regular(p)
    with open(p, encoding="utf-8") as f:
        return f.read()


def within(path: str | os.PathLike[str], root: str | os.PathLike[str]) -> bool:
    """True when `path`, links resolved, is `root` or below it (`root` resolved too)."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


@dataclass(frozen=True)
class Entry:
    """One name in a folder: `kind` is 'file' or 'folder' (read), else why it is skipped."""

    path: Path
    kind: str
    why: str = ""

    @property
    def readable(self) -> bool:
        return self.kind in ("file", "folder")


def classify(path: Path, root: str | os.PathLike[str]) -> Entry:
    """What `path` (a name in a folder below `root`) is, without opening it: links are followed only
    to a target inside `root`; FIFOs, sockets and devices are never opened."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return Entry(path, "skipped", str(_stat_error(str(path), exc).message))
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(path)
        except FileNotFoundError:
            return Entry(path, "skipped", "a dangling link (its target does not exist)")
        except OSError as exc:
            return Entry(path, "skipped", f"a link whose target cannot be read ({exc.strerror or exc})")
        if not within(path, root):
            return Entry(path, "skipped", f"a link to {shown(os.readlink(path))}, outside the folder given: "
                                          "not followed")
        if stat.S_ISDIR(st.st_mode):  # walked where it is, never twice (and never in a loop)
            return Entry(path, "skipped", f"a link to the folder {shown(os.readlink(path))}: not followed")
    if stat.S_ISDIR(st.st_mode):
        return Entry(path, "folder")
    if stat.S_ISREG(st.st_mode):
        if not os.access(path, os.R_OK):
            return Entry(path, "skipped", "permission denied")
        return Entry(path, "file")
    return Entry(path, "skipped", f"{special_kind(st.st_mode) or 'not a regular file'}: never opened")


def entries(folder: Path, root: str | os.PathLike[str] | None = None) -> list[Entry]:
    """The names in `folder`, sorted, each classified (`classify`); raises `PathError` when the
    folder itself cannot be listed."""
    try:
        names = sorted(os.listdir(folder))
    except OSError as exc:
        raise _stat_error(str(folder), exc) from None
    return [classify(folder / n, folder if root is None else root) for n in names]


def files_in(folder: Path, root: str | os.PathLike[str] | None = None) -> list[Path]:
    """The regular files of `folder` that may be read: no link out of `root` (default the folder),
    no FIFO, socket or device, nothing unreadable."""
    return [e.path for e in entries(folder, root) if e.kind == "file"]


__all__ = ["Entry", "classify", "entries", "files_in", "open_regular", "open_regular_stat", "read_text", "require_regular", "special_kind", "within"]
