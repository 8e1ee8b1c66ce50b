"""`ArchLayout`: an IP feature buffer laid out from an architecture file alone (no compile reports).

The IP Reference Manual's rule: a feature tensor is NCDHW with its channels cut into vectors,
the lane fastest; an IP input is padded to CVEC (c_vector), an output to KVEC (k_vector), here
without slicing or folding (those need the compiler's transform reports, which win where a
compile folder is given). It is the same index arithmetic as `OutputConfiguration.from_layout`,
with the vector width taken from the .arch; a BufferLayout for `view/pack/draw --intel-dla
--arch X.arch --shape N,C,H,W [--side input|output]`.

When the .arch enables the lightweight layout transform, the input is the raw HWC buffer the host
streams (streaming.py) and the commands say so. An .arch with an absurd value (rules.py) lays
nothing out: it is refused before anything is allocated.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ....core.errors import BinparseError, LayoutError
from ..arch.file import ArchFile
from ..arch.rules import first_absurd
from .config import OutputConfiguration
from .streaming import StreamedInput

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
    """A logical tensor `shape` (N, C, D, H, W) in the IP's buffers under an .arch.

    `side` "input" (padded to CVEC) or "output" (padded to KVEC); None: as the compile-folder
    layout does, `pack_bytes` writes an input and `view_array` / `memory_map` read an output.
    """

    def __init__(self, arch: ArchFile, shape: tuple[int, int, int, int, int], side: str | None = None) -> None:
        if side is not None and side not in SIDES:
            raise LayoutError("side is input or output", found=side)
        absurd = first_absurd(arch)
        if absurd is not None:
            from ....family.hints import command
            raise LayoutError(f"{arch.name} lays out no buffer: {absurd}", path=arch.file,
                              hint=f"{command('doctor', arch.file or arch.name)} lists the architecture's problems")
        self.arch, self.shape, self.side = arch, shape, side
        self.streamed = StreamedInput.of(arch)

    def config(self, side: str) -> OutputConfiguration:
        """The index arithmetic of one side (vector width from the .arch)."""
        param = "c_vector" if side == "input" else "k_vector"
        vector = self.arch.get(param)
        if vector is None or vector <= 0:
            raise LayoutError(f"the architecture sets no {param}, so an IP {side} has no layout", path=self.arch.file,
                              expected=f"{param} > 0", found=vector)
        cfg = OutputConfiguration.from_layout(self.shape, vector)
        cfg.source = f"{self.arch.name}: {side} padded to {'CVEC' if side == 'input' else 'KVEC'} {vector}"
        return cfg

    def what(self, side: str) -> str:
        cfg = self.config(side)
        n, c, d, h, w = self.shape
        return (f"FPGA AI Suite IP {side} {n}×{c}×{d}×{h}×{w} (N, C, D, H, W) from {self.arch.name}, channels padded "
                f"to {'CVEC' if side == 'input' else 'KVEC'} {cfg.vector_width}: {cfg.ip_size:,} FP16 elements")

    def ip_view(self, buf: Any, side: str = "output") -> NDArray[np.float16]:
        """Zero-copy view of an IP buffer as (N, G, D, H, W, V): group G of V lanes."""
        return self.config(side).ip_view(buf)

    def view_array(self, buf: Any, *, dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """The logical tensor of an IP buffer (a copy: a gather drops the padding lanes), or a
        zero-copy view of a streamed input (lightweight layout transform)."""
        side = self.side or "output"
        s = self.streamed
        if s is not None and side == "input":
            return s.view(buf, self.shape), s.what(self.shape)
        if s is not None and self.side is None:
            size, out_bytes = len(memoryview(buf).cast("B")), self.config("output").ip_size * 2
            if size != out_bytes and s.fits(size, self.shape):
                return s.view(buf, self.shape), (f"{s.what(self.shape)}; no --side: read as the streamed input, as "
                                                 f"its {size:,} bytes are the input's size, not the output's "
                                                 f"{out_bytes:,}")
        return self.config(side).to_logical(buf), self.what(side)

    def pack_bytes(self, logical: ArrayLike, *, quantize: bool = False) -> tuple[bytes, str]:
        """The IP buffer (FP16, padding zero) of a logical (N, C, D, H, W) or (N, C, H, W) array."""
        side = self.side or "input"
        arr = np.asarray(logical)
        n, c, d, h, w = self.shape
        if arr.shape == (n, c, h, w) and d == 1:
            arr = arr.reshape(self.shape)
        if self.streamed is not None and side == "input":
            return self.streamed.pack(arr, self.shape), self.streamed.what(self.shape)
        return bytes(self.config(side).to_ip(arr)), self.what(side)

    def memory_map(self) -> Any:
        from .drawing import intel_map, streamed_map
        side = self.side or "output"
        if self.streamed is not None and side == "input":
            return streamed_map(self.streamed, self.shape)
        m = intel_map(self.config(side))
        axis = m.axis_x.replace("KVEC", "CVEC") if side == "input" else m.axis_x
        return dataclasses.replace(m, title=self.what(side), axis_x=axis)


def make(args: argparse.Namespace, sources: list[str]) -> ArchLayout:
    """The .arch layout `--intel-dla` asks for: the .arch SOURCE or --arch, and --shape (a compile
    folder's reports, when one is given, win: buffer_layout.make never calls this then)."""
    arch_path = sources[0] if sources else getattr(args, "arch", None)
    shape = getattr(args, "shape", None)
    if not arch_path or not shape:
        raise BinparseError("--intel-dla without a compile folder needs --arch X.arch (or an .arch SOURCE) and "
                            "--shape N,C,H,W")
    return ArchLayout(ArchFile(arch_path), parse_shape(shape), getattr(args, "side", None))


__all__ = ["ArchLayout", "SIDES", "make", "parse_shape"]
