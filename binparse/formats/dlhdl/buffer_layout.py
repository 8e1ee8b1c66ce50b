"""MATLAB DL HDL buffers as `BufferLayout`s: `view/pack/draw --dlhdl conv|fc`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...core.errors import BinparseError
from ...family.options import ints
from .layouts import ConvLayout, FcLayout
from .drawing import dlhdl_map


class ConvBuffer:
    """The conv-module format of an (X, Y, Z) activation."""

    def __init__(self, layout: ConvLayout) -> None:
        self.layout = layout

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        return self.layout.to_logical(buffer), "dlhdl conv (X, Y, Z)"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        data = bytes(self.layout.pack(logical))
        return data, f"dlhdl buffer, {len(data)} bytes"

    def memory_map(self) -> Any:
        return dlhdl_map(self.layout)


class FcBuffer:
    """The FC-module output: a plain vector of SIZE values per frame."""

    def __init__(self, layout: FcLayout) -> None:
        self.layout = layout

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        return self.layout.view(buffer), "dlhdl FC output (frames, size)"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        lay = self.layout
        data = np.ascontiguousarray(logical, dtype=lay.view(bytes(4 * lay.size)).dtype).tobytes()
        lay.view(data)  # checks it is a whole number of outputs
        return data, f"dlhdl buffer, {len(data)} bytes"

    def memory_map(self) -> Any:
        raise BinparseError("an FC output is a plain vector of SIZE values; draw a conv layout (--dlhdl conv)")


def make(options: Any, sources: list[str]) -> ConvBuffer | FcBuffer:
    """`--dlhdl conv --thread-number T --shape X,Y,Z [--dtype]` or `--dlhdl fc --size K [--dtype]`."""
    dtype = options.dtype or "float32"
    if options.dlhdl == "fc":
        if options.size is None:
            raise BinparseError("--dlhdl fc needs --size K")
        return FcBuffer(FcLayout(options.size, dtype))
    if options.thread_number is None:
        raise BinparseError("--dlhdl conv needs --thread-number T")
    return ConvBuffer(ConvLayout(options.thread_number, ints(options.shape, 3, "--shape X,Y,Z"), dtype))  # type: ignore[arg-type]


__all__ = ["ConvBuffer", "FcBuffer", "make"]
