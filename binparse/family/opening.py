"""`binparse.open`: detect a file's format and return its typed accessor, without reading it."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..core import inputs
from ..core.buffers import BufferLike, byte_view
from ..core.errors import BinparseError, FormatError
from .hints import command
from ..core.filemap import map_file as map_file
from ..core.filemap import read_head
from . import plugins
from .registry import Format, detect, get, has_candidate, quick_detect, sniff
from ..engine.runtime import Accessor
from ..core.text import is_lfs_pointer


def open(source: str | os.PathLike[str] | BufferLike, format: str | None = None,  # noqa: A001
         version: str | None = None, *, schema: str | os.PathLike[str] | None = None,
         import_path: Sequence[str | os.PathLike[str]] = (), **params: Any) -> Any:
    """Open a file path or a buffer and return the typed accessor of its format.

    With `schema` (a Kaitai Struct .ksy of your own), the file is read with it:
    `binparse.compile(schema, import_path).parse(source, **params)` (see `binparse.engine.compiler`).

    A path is read whole when it is small and memory-mapped when larger (`filemap.READ_WHOLE`);
    nothing is decoded until a field is touched, and every view is read-only. `format` names a
    registered format (see `binparse schemas`); without it the format is detected from the size
    or magic, among the formats of `version` when given (e.g. version="09.02": then the size only
    picks the core count). Raises `FormatError` (wrong size, unknown file).
    """
    if schema is not None:
        if format or version:
            raise BinparseError("give either a schema or a format (and version), not both")
        from ..engine.compiler import compile as compile_ksy
        if isinstance(source, (str, os.PathLike)):  # a missing file is said before anything about the schema
            from ..core.paths import require_regular
            require_regular(source)
        return compile_ksy(schema, import_path).parse(source, **params)
    file: str | None = None
    if format:
        plugins.load_family_of_format(format)
    if not isinstance(source, (bytes, bytearray, memoryview)) and isinstance(source, (str, os.PathLike)):
        file = os.fspath(source)
        try:
            whole, head, size = read_head(file)
        except BinparseError:  # a folder a family reads (asked only when the path is not a file)
            if format or not os.path.isdir(file):
                raise
            opener = _sniff_loading(file, b"", None)
            if opener is None:
                raise
            return opener(file)
        if not format:
            if is_lfs_pointer(head):
                raise FormatError("is a Git-LFS pointer, not the file itself (it was not fetched)", file=file,
                                  hint="run `git lfs pull` in its repository")
            opener = _sniff_loading(file, head, size)
            if opener is not None:  # read by its path (a text format, a trace): never mapped whole here, so
                return opener(file)  # a 40 GB trace is named the same under a memory cap and without one
        buf: Any = whole if whole is not None else map_file(file)
    else:
        buf = source
    mv = byte_view(buf, file=file)
    if file is None:  # the caller's buffer is the input: its claims are budgeted on its size, as a file's
        inputs.note_buffer(mv.nbytes)
    if format:
        fmt = get(format)
    else:
        if file is None:
            head = bytes(mv[:4096])
            if is_lfs_pointer(head):  # the artifact itself is not here: say so, not "no known format"
                raise FormatError("is a Git-LFS pointer, not the file itself (it was not fetched)",
                                  hint="run `git lfs pull` in its repository")
            quick = quick_detect(mv.nbytes, head) if not version else None
            if quick is not None:  # a nameless binary buffer of one format's size or magic
                return open_as(quick, mv, file=None, **params)
            opener = _sniff_loading(None, head, mv.nbytes)
            if opener is not None:  # a text format, a file of a size or version the family works out
                return opener(bytes(mv))
        fmt = detect(mv.nbytes, head, file=file, version=version, buf=mv)
    return open_as(fmt, mv, file=file, **params)


def _sniff_loading(path: str | None, head: bytes, size: int | None) -> Any:
    """The opener a sniffer gives, after importing the families whose signs the file shows.

    When none of them claims it (no sniffer, no format of its size or magic), every family is
    imported and asked: signs make opening fast, they never make a file unreadable.
    """
    if plugins.all_loaded():  # nothing left to import, nothing more to ask
        return sniff(path, head, size)
    plugins.load_for(path, head)
    opener = sniff(path, head, size)
    if opener is None and (size is None or not has_candidate(size, head[:16])) and not plugins.all_loaded():
        plugins.load_all()
        opener = sniff(path, head, size)
    return opener


def open_as(fmt: Format, buf: BufferLike, *, file: str | None = None, **params: int) -> Accessor:
    """The accessor of `fmt` over `buf`, after the format's size check."""
    mv = buf if type(buf) is memoryview and buf.format == "B" and buf.ndim == 1 else byte_view(buf, file=file)
    if fmt.size is not None and fmt.exact_size and mv.nbytes != fmt.size:
        raise FormatError(
            f"wrong size for {fmt.name}", file=file, expected=f"{fmt.size:,} bytes ({fmt.version})",
            found=f"{mv.nbytes:,} bytes",
            hint="the file is truncated or padded, or was written by another SDK version; "
                 f"{command('schemas')} lists the sizes each version writes")
    try:
        return fmt.accessor_class._open(mv, file, {**fmt.params, **params} if params else dict(fmt.params))
    except BinparseError as exc:
        raise exc.with_file(file) if file else exc
