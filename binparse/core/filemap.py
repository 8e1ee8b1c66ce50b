"""A read-only mapping of a file that remembers which file it maps, for dense reads by `pread`.

`binparse.open(path)` maps the file: nothing is read until a field is touched, and arrays are
views of the file. Touching a large range of a fresh mapping costs one page fault per page (or
per few pages), and a fault costs far more than copying the page: on the 2-core virtual machine
the benchmarks run on, reading the 371 KB of a net's layer records through a fresh mapping took
~40 µs of faults, and `pread` of the same bytes ~10 µs with the file's opening. A reader that
needs a private copy of a dense range anyway (a table of columns; not a view, which stays a view
of the mapping) asks `read_range`: from the file by `pread` when the buffer is a whole `FileMap`
and the file at its path is still the one mapped (device, inode, size, modification time), else
copied from the buffer itself. Both give the bytes the mapping shows.

A mapped file that another program cuts short while binparse reads it would end the process
with SIGBUS (the pages past the new end no longer exist). Every mapping binparse makes is
registered with `guard`, which installs (once, where the C library's `sigaction` layout is known:
glibc on x86-64 and AArch64) a SIGBUS handler that prints one line naming the file and exits with
code 3 (an I/O error: docs/contracts.md), instead of the signal's silent death.
"""

from __future__ import annotations

import mmap
import os
import platform
import sys
from collections.abc import Callable
from typing import Any, TypeVar

from .errors import FormatError
from .paths import open_regular_stat

_T = TypeVar("_T")

READ_WHOLE = 256 * 1024  # bytes: a file up to this size is read whole by `read_fd`, not mapped
PREAD_FROM = 64 * 1024  # bytes: a smaller range costs few faults; copying it from the mapping is quicker


class FileMap(mmap.mmap):
    """`mmap.mmap` (read-only) of the file at `path`, with the file's identity when it was mapped."""

    path: str
    identity: tuple[int, int, int, int]


def map_fd(fd: int, path: str, st: os.stat_result | None = None) -> FileMap:
    """A read-only mapping of the whole open file `fd`, remembering `path` and the file's identity
    (`st`: its `os.fstat`, when the caller has it)."""
    st = st if st is not None else os.fstat(fd)
    m = FileMap(fd, 0, access=mmap.ACCESS_READ)
    m.path = path
    m.identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    guard(m, path)
    return m


def map_npy(path: str | os.PathLike[str]) -> Any:
    """A .npy file's array, memory-mapped read-only (`np.load(mmap_mode="r")`, no pickles) and
    guarded (`guard`); a FIFO or device is refused first (`paths.require_regular`: it could hang).
    Raises what `np.load` raises for a file that is not a .npy (`OSError`, `ValueError`)."""
    import numpy as np
    from .paths import require_regular
    require_regular(path)
    arr = np.load(path, mmap_mode="r", allow_pickle=False)
    if isinstance(arr, np.memmap):
        guard(arr, path)
    return arr


_MAPPED: list[tuple[int, int, str]] = []  # (first address, end, path) of the mappings made, newest last
_KEPT = 256  # mappings remembered for the message (an address reused later names a newer file first)
_HANDLER: list[Any] = []  # the installed handler, kept alive (None when it could not be installed)
EXIT_IO = 3  # binparse.core.exitcodes.USAGE (imported by the handler's caller would be a cycle-free copy)


def guard(mapping: Any, path: str | os.PathLike[str]) -> None:
    """Register `mapping` (an `mmap.mmap` or a numpy array over one, e.g. `np.memmap`) of the file
    at `path`: if the file is cut short while it is read, the process ends with one line naming it
    and exit code 3, not a SIGBUS."""
    try:
        import numpy as np
        arr = mapping if isinstance(mapping, np.ndarray) else np.frombuffer(mapping, np.uint8)
        start = int(arr.__array_interface__["data"][0])
        end = start + int(arr.nbytes)
    except (TypeError, ValueError, BufferError):
        return
    if end <= start:
        return
    _MAPPED.append((start, end, os.fspath(path)))
    del _MAPPED[:-_KEPT]
    if not _HANDLER:
        _HANDLER.append(_install())


def _message(address: int | None) -> bytes:
    from .text import shown
    path = next((p for a, e, p in reversed(_MAPPED) if address is not None and a <= address < e), None)
    where = f"{shown(path)}: " if path else ""
    return (f"binparse: error: {where}the file was cut short while binparse read it (another program truncated or "
            "rewrote it): nothing was verified. Read it again once it is complete\n").encode("utf-8", "replace")


def _install() -> Any:
    """A SIGBUS handler (glibc's `sigaction` through ctypes) that says which mapped file was cut
    short and exits with code 3; None where it cannot be installed, or when the program installed
    its own."""
    import signal
    if not sys.platform.startswith("linux") or platform.machine() not in ("x86_64", "aarch64"):
        return None
    if platform.libc_ver()[0] != "glibc" or signal.getsignal(signal.SIGBUS) != signal.SIG_DFL:
        return None
    import ctypes
    handler_type = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)

    class SigAction(ctypes.Structure):  # glibc's struct sigaction on x86-64 and AArch64
        _fields_ = [("sa_sigaction", handler_type), ("sa_mask", ctypes.c_ulong * 16), ("sa_flags", ctypes.c_int),
                    ("sa_restorer", ctypes.c_void_p)]

    def on_sigbus(signum: int, info: int | None, context: int | None) -> None:
        address = ctypes.c_void_p.from_address(info + 16).value if info else None  # siginfo_t.si_addr
        try:
            os.write(2, _message(address))
        finally:
            os._exit(EXIT_IO)

    handler = handler_type(on_sigbus)
    action = SigAction(sa_sigaction=handler, sa_flags=0x4)  # SA_SIGINFO
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.sigaction(signal.SIGBUS, ctypes.byref(action), None) != 0:
            return None
    except (OSError, AttributeError):
        return None
    return handler, action


def read_fd(fd: int, size: int) -> bytes:
    """The first `size` bytes of the open file `fd` (fewer if it is shorter now), read whole: for a
    small file one `read` costs a few microseconds where mapping it and the first page fault cost
    ~15 µs on the benchmarks' machine, and the bytes are freed with the last accessor."""
    data = os.read(fd, size)
    if len(data) < size:  # a short read (a pipe-like file system, or the file shrank): read on to EOF
        parts, got = [data], len(data)
        while got < size and (more := os.read(fd, size - got)):
            parts.append(more)
            got += len(more)
        data = b"".join(parts)
    return data


STDIN = "<stdin>"  # how errors name the bytes read from standard input (`-` on the command line)


def read_stdin(fd: int = 0) -> memoryview:
    """Standard input (`-` for a file), read into memory a MiB at a time, each asked of the command's
    budget first (`core.budget`), then counted as an input of that many bytes; a read-only view of them.
    A terminal is refused
    (reading it would wait for typing): a `PathError`."""
    from . import budget, inputs
    from .errors import PathError
    if os.isatty(fd):
        raise PathError("standard input is a terminal: give the file's bytes on it (`… | binparse inspect - …`) "
                        "or name the file", file=STDIN)
    data = bytearray()
    while chunk := os.read(fd, 1 << 20):
        budget.ask(len(chunk), f"standard input read into memory ({len(data) + len(chunk):,} bytes so far)",
                   file=STDIN)
        data += chunk
    inputs.current().input_bytes += len(data)
    return memoryview(data).toreadonly()  # no copy; read-only as a file's bytes are


def read_range(mv: memoryview, offset: int, size: int) -> bytes:
    """A private copy of `mv[offset:offset + size]`: by `pread` from the mapped file when `mv` is a
    whole `FileMap`, the range is large and the file is unchanged, else copied from `mv`."""
    base = mv.obj
    if isinstance(base, FileMap) and size >= PREAD_FROM and mv.nbytes == len(base) and 0 <= offset <= mv.nbytes - size:
        try:
            fd = os.open(base.path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            fd = -1
        if fd >= 0:
            try:
                st = os.fstat(fd)
                if (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns) == base.identity:
                    data = os.pread(fd, size, offset)
                    if len(data) == size:
                        return data
            except OSError:
                pass
            finally:
                os.close(fd)
    return bytes(mv[offset:offset + size])




def _read_regular(path: str | os.PathLike[str], read: Callable[[int, str, os.stat_result], _T]) -> _T:
    """`read(fd, path, stat)` of a regular file (a FIFO, socket or device refused unread:
    `paths.open_regular_stat`), the descriptor closed after; a read the system refuses is a `FormatError`."""
    p = os.fspath(path)
    fd, st = open_regular_stat(p)
    try:
        return read(fd, p, st)
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", file=p) from None
    finally:
        os.close(fd)


def map_file(path: str | os.PathLike[str]) -> mmap.mmap | bytes:
    """A file's bytes, read-only: a file of up to `filemap.READ_WHOLE` bytes read whole (`bytes`),
    a larger one mapped (a `filemap.FileMap`, which knows its file). A path that is not a regular
    file (a FIFO, socket or device is refused before anything is read: `paths.open_regular`), is
    missing or cannot be read gives a `PathError`."""
    return _read_regular(path, lambda fd, p, st: read_fd(fd, st.st_size) if st.st_size <= READ_WHOLE  # read: cheaper
                         else map_fd(fd, p, st))


def read_head(path: str | os.PathLike[str]) -> tuple[bytes | None, bytes, int]:
    """(the whole file when it is small (`READ_WHOLE`) else None, its first 4 KiB, its size): what the
    sniffers decide by, before a large file is mapped (`map_file`)."""
    def read(fd: int, p: str, st: os.stat_result) -> tuple[bytes | None, bytes, int]:
        if st.st_size <= READ_WHOLE:
            data = read_fd(fd, st.st_size)
            return data, data[:4096], len(data)
        return None, os.pread(fd, 4096, 0), st.st_size
    return _read_regular(path, read)


__all__ = ["FileMap", "PREAD_FROM", "READ_WHOLE", "guard", "map_fd", "map_file", "map_npy", "read_fd", "read_head",
           "read_range"]
