"""`ArchLayout`: an IP feature buffer laid out from an architecture file alone (no compile reports).

The IP Reference Manual's rule: a feature tensor is NCDHW with its channels cut into vectors,
the lane fastest; an IP input is padded to CVEC (c_vector), an output to KVEC (k_vector), here
without slicing or folding (those need the compiler's transform reports, which win where a
compile folder is given). It is the same index arithmetic as `OutputConfiguration.from_layout`,
with the vector width taken from the .arch; a BufferLayout for `view/pack/draw --intel-dla
--arch X.arch --shape N,C,H,W [--side input|output]`.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...errors import BinparseError, LayoutError
from .arch import ArchFile
from .config import OutputConfiguration

SIDES = ("input", "output")


def parse_shape(text: str) -> tuple[int, int, int, int, int]:
    """N,C,H,W (or N,C,D,H,W) as a 5-D NCDHW shape."""
    try:
        dims = [int(x) for x in text.replace("x", ",").split(",") if x.strip()]
    except ValueError:
        raise LayoutError("--shape is N,C,H,W or N,C,D,H,W", found=text) from None
    if len(dims) not in (4, 5) or any(d <= 0 for d in dims):
        raise LayoutError("--shape is N,C,H,W or N,C,D,H,W of positive sizes", found=text)
    n, c, *rest = dims
    d, h, w = rest if len(rest) == 3 else (1, *rest)
    return n, c, d, h, w


class ArchLayout:
    """One IP input or output tensor of logical `shape` (N, C, D, H, W) under an .arch."""

    def __init__(self, arch: ArchFile, shape: tuple[int, int, int, int, int], side: str = "output") -> None:
        if side not in SIDES:
            raise LayoutError("side is input or output", found=side)
        vector = arch.c_vector if side == "input" else arch.k_vector
        param = "c_vector" if side == "input" else "k_vector"
        if vector is None or vector <= 0:
            raise LayoutError(f"the architecture sets no {param}, so an IP {side} has no layout", path=arch.file,
                              expected=f"{param} > 0", found=vector)
        self.arch, self.shape, self.side, self.vector = arch, shape, side, vector
        self.config = OutputConfiguration.from_layout(shape, vector)
        self.config.source = f"{arch.name}: {side} padded to {'CVEC' if side == 'input' else 'KVEC'} {vector}"

    @property
    def ip_size(self) -> int:
        """IP elements (FP16) of the buffer, padding included."""
        return self.config.ip_size

    def what(self) -> str:
        n, c, d, h, w = self.shape
        return (f"FPGA AI Suite IP {self.side} {n}×{c}×{d}×{h}×{w} (N, C, D, H, W) from {self.arch.name}, channels "
                f"padded to {'CVEC' if self.side == 'input' else 'KVEC'} {self.vector}: {self.ip_size:,} FP16 elements")

    def view_array(self, buf: Any, *, dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """The logical tensor of an IP buffer (a copy: a gather drops the padding lanes)."""
        return self.config.to_logical(buf), self.what()

    def pack_bytes(self, logical: ArrayLike, *, quantize: bool = False) -> tuple[bytes, str]:
        """The IP buffer (FP16, padding zero) of a logical (N, C, D, H, W) or (N, C, H, W) array."""
        arr = np.asarray(logical)
        n, c, d, h, w = self.shape
        if arr.shape == (n, c, h, w) and d == 1:
            arr = arr.reshape(self.shape)
        return bytes(self.config.to_ip(arr)), self.what()

    def memory_map(self) -> Any:
        from ...draw.maps import intel_map
        m = intel_map(self.config)
        return dataclasses.replace(m, title=self.what(), axis_x=m.axis_x.replace("KVEC", "CVEC") if self.side == "input"
                                   else m.axis_x)


def make(args: argparse.Namespace, sources: list[str]) -> Any:
    """The layout `--intel-dla` asks for: a compile folder's reports when one is given (they win),
    else the .arch rule with --arch and --shape."""
    arch_path, shape = getattr(args, "arch", None), getattr(args, "shape", None)
    if sources:
        from .folder import CompileFolder
        return CompileFolder(sources[0]).output_configuration()
    if not arch_path or not shape:
        raise BinparseError("--intel-dla needs a compile folder, or --arch X.arch and --shape N,C,H,W")
    return ArchLayout(ArchFile(arch_path), parse_shape(shape), getattr(args, "side", None) or "output")


__all__ = ["ArchLayout", "SIDES", "make", "parse_shape"]
