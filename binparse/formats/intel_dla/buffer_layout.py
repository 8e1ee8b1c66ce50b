"""FPGA AI Suite IP buffers as a `BufferLayout`: `view/draw --intel-dla SOURCE` (the output) and
`pack --intel-dla FOLDER` (an input), from a compile folder or a saved output configuration."""

from __future__ import annotations

import os
from typing import Any

from ...errors import BinparseError
from .config import OutputConfiguration
from .drawing import intel_map
from .folder import CompileFolder


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


def make(options: Any, sources: list[str]) -> IpBuffer:
    """SOURCE: a compile folder or a saved output configuration (.json)."""
    source = sources[0]
    if source.endswith(".json"):
        return IpBuffer(OutputConfiguration.load(source), getattr(options, "cvec", None))
    if os.path.isdir(source):
        return IpBuffer(CompileFolder(source), getattr(options, "cvec", None))
    raise BinparseError("SOURCE must be a compile folder or a saved output configuration (.json)", file=source)


__all__ = ["IpBuffer", "make"]
