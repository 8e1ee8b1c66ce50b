"""What to say of a binary file no format matches, when a TIDL io descriptor beside it describes a
buffer of its size: the `view` command that reads it (`registry.register_buffer_hint`)."""

from __future__ import annotations

import fnmatch
import os
from typing import Any

from ..plugin import IO_NAMES

MAX_DESCRIPTORS = 16  # io descriptors of the folder looked at (a folder of many compiles: the first ones)


def hint(path: str, size: int) -> str | None:
    """`binparse view IO BUFFER --output NAME --npy OUT.npy` for the first tensor of an io descriptor
    in the buffer's folder whose device buffer is `size` bytes (its stored or computed buffer size, or
    the bytes its view spans); None when no descriptor there describes such a buffer."""
    from ....family import opening
    from ....core.errors import BinparseError
    from ....family.hints import command, stem_output
    folder = os.path.dirname(path)
    names = sorted(n for n in os.listdir(folder or ".") if any(fnmatch.fnmatch(n, p) for p in IO_NAMES))
    for name in names[:MAX_DESCRIPTORS]:
        io_path = os.path.join(folder, name)
        try:
            io: Any = opening.open(io_path)
        except BinparseError:
            continue
        for t in [*getattr(io, "inputs", ()), *getattr(io, "outputs", ())]:
            if size in (t.buf_size * t.dtype.itemsize, t.layout_desc.nbytes):
                which = str(t.name) if t.name else str(t.index)
                return (f"{name} describes an {t.direction} buffer of its size ({size:,} bytes): "
                        + command("view", io_path, path, f"--{t.direction}", which, "--npy", stem_output(path, ".npy")))
    return None


__all__ = ["hint"]
