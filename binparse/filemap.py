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
"""

from __future__ import annotations

import mmap
import os

from .errors import FormatError
from .paths import open_regular_stat

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
    return m


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




def map_file(path: str | os.PathLike[str]) -> mmap.mmap | bytes:
    """A file's bytes, read-only: a file of up to `filemap.READ_WHOLE` bytes read whole (`bytes`),
    a larger one mapped (a `filemap.FileMap`, which knows its file). A path that is not a regular
    file (a FIFO, socket or device is refused before anything is read: `paths.open_regular`), is
    missing or cannot be read gives a `PathError`."""
    p = os.fspath(path)
    fd, st = open_regular_stat(p)
    try:
        if st.st_size <= READ_WHOLE:  # a small file costs less read than mapped (see filemap)
            return read_fd(fd, st.st_size)
        return map_fd(fd, p, st)
    except OSError as exc:
        raise FormatError(f"cannot read the file: {exc.strerror or exc}", file=os.fspath(path)) from None
    finally:
        os.close(fd)


__all__ = ["FileMap", "PREAD_FROM", "READ_WHOLE", "map_fd", "map_file", "read_fd", "read_range"]
