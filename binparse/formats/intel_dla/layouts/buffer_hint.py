"""What to say of a binary file no format matches, when FPGA AI Suite files beside it describe an IP
buffer: the `view --intel-dla` command of a compile folder whose output is the file's size, else the
architecture file a buffer is read with (`registry.register_buffer_hint`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..compile.folder import KINDS


def _is_compile_folder(folder: Path) -> bool:
    return any(p.name.startswith(KINDS) and p.suffix == ".csv" for p in folder.iterdir() if p.is_file())


def _bytes(configuration: Callable[[], Any]) -> int:
    """The FP16 IP buffer's bytes of a compile folder's input or output configuration, -1 unread."""
    from ....core.errors import BinparseError
    try:
        return int(configuration().ip_size) * 2
    except BinparseError:
        return -1


def hint(path: str, size: int) -> str | None:
    """The command that reads `path` as the IP output buffer of the compile folder it lies in (its
    size is the output's FP16 IP elements); or, with an .arch file in its folder or the one above, the
    options that read it with that architecture (the shape is the user's to give); else None."""
    from ....family.hints import command, stem_output
    folder = Path(os.path.dirname(path) or ".")
    if _is_compile_folder(folder):
        from ..compile.folder import CompileFolder
        compile_folder = CompileFolder(folder)
        if size == _bytes(compile_folder.output_configuration):
            return (f"the compile folder it lies in describes an IP output buffer of its size ({size:,} bytes, "
                    f"FP16): {command('view', '--intel-dla', str(folder), path, '--npy', stem_output(path, '.npy'))}")
        if size == _bytes(compile_folder.input_configuration):
            return (f"the compile folder it lies in describes an IP input buffer of its size ({size:,} bytes, FP16): "
                    f"pack --intel-dla {folder} writes one from a logical array, draw --intel-dla {folder} pictures "
                    "the output")
    for where in (folder, folder.parent):
        arch = sorted(p for p in where.glob("*.arch") if p.is_file()) if where.is_dir() else []
        if arch:
            return (f"an FPGA AI Suite IP buffer ({size // 2:,} FP16 values) is read with its architecture and its "
                    f"tensor's shape: view --intel-dla --arch {arch[0]} --shape N,C,H,W (--side input for an input) "
                    f"{path} --npy {stem_output(path, '.npy')}")
    return None


__all__ = ["hint"]
