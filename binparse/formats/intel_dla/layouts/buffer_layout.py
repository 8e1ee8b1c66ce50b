"""FPGA AI Suite IP buffers as a `BufferLayout`: `view/draw --intel-dla SOURCE` (the output) and
`pack --intel-dla FOLDER` (an input), from a compile folder or a saved output configuration, or
from an architecture file alone (`--arch X.arch --shape N,C,H,W`, arch_layout.py)."""

from __future__ import annotations

import os
from typing import Any

from ....core.errors import BinparseError
from .config import OutputConfiguration
from .drawing import intel_map
from ..compile.folder import CompileFolder


class IpBuffer:
    """The IP's buffers of one compile: its output (view, draw) and its input (pack)."""

    def __init__(self, source: CompileFolder | OutputConfiguration, cvec: int | None = None) -> None:
        self.source, self.cvec = source, cvec

    def output(self) -> OutputConfiguration:
        src = self.source
        return src.output_configuration() if isinstance(src, CompileFolder) else src

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        return self.output().to_logical(buffer), "FPGA AI Suite output"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        if not isinstance(self.source, CompileFolder):
            raise BinparseError("packing an input needs a compile folder with the input dump",
                                file=getattr(self.source, "file", None))
        cfg = self.source.input_configuration(cvec=self.cvec)
        return bytes(cfg.to_ip(logical)), f"FPGA AI Suite input {cfg.name}, FP16, {cfg.ip_size} elements"

    def memory_map(self) -> Any:
        return intel_map(self.output())


def _warn_if_arch_differs(buf: IpBuffer, arch_path: str) -> None:
    """The compile folder's reports win over --arch; say so when their KVEC differs from it."""
    from ....core.errors import warn
    from ..arch.file import ArchFile
    arch = ArchFile(arch_path)
    try:
        v = buf.output().vector_width
    except BinparseError:
        return
    if v != arch.k_vector:
        warn(f"the compile folder's reports pad outputs to {v}, {arch.name} has k_vector {arch.k_vector}: the reports "
             "are used (this .arch is not the one the graph was compiled for)")


def make(options: Any, sources: list[str]) -> Any:
    """SOURCE: a compile folder or a saved output configuration (.json): their reports win; an
    .arch file, or none with --arch: the layout the .arch gives (arch_layout.py)."""
    if not sources or sources[0].endswith(".arch"):
        from .arch_layout import make as from_arch
        return from_arch(options, sources)
    source = sources[0]
    if source.endswith(".json"):
        return IpBuffer(OutputConfiguration.load(source), getattr(options, "cvec", None))
    if os.path.isdir(source):
        buf = IpBuffer(CompileFolder(source), getattr(options, "cvec", None))
        if getattr(options, "arch", None):
            _warn_if_arch_differs(buf, options.arch)
        return buf
    raise BinparseError("SOURCE must be a compile folder or a saved output configuration (.json)", file=source)


__all__ = ["IpBuffer", "make"]
