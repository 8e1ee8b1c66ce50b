"""ESP-DL buffers as `BufferLayout`s: `view/pack/draw --espdl` (padded HWC) and `draw MODEL --tensor NAME`."""

from __future__ import annotations

from typing import Any

from ....core.errors import BinparseError
from ....family.options import ints
from .drawing import espdl_map, espdl_weight_map
from .tensor import DlTensor, concat


class HwcLayout:
    """An (old dl::Tensor) padded HWC buffer: one tensor, or one member of concatenated tensors."""

    def __init__(self, tensor: DlTensor) -> None:
        self.tensor = tensor

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        t = self.tensor
        return (t.dequantize(buffer) if dequantize else t.view(buffer)), "ESP-DL tensor (H, W, C)"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        t = self.tensor
        data = bytes(t.pack(t.quantize(logical) if quantize else logical))
        return data, f"ESP-DL buffer, {len(data)} bytes"

    def memory_map(self) -> Any:
        return espdl_map(self.tensor)


class WeightLayout:
    """A weight (or test tensor) of an .espdl model in its stored blocking: drawn, not viewed from a buffer."""

    def __init__(self, tensor: Any) -> None:
        self.tensor = tensor

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        raise BinparseError("a model's tensors are read from the model: `view MODEL.espdl --tensor NAME`")

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        raise BinparseError("a model's weights are written by esp-ppq, not packed into a device buffer")

    def memory_map(self) -> Any:
        return espdl_weight_map(self.tensor)


def make(options: Any, sources: list[str]) -> HwcLayout:
    """`--espdl --shape H,W,C [--padding T,B,L,R] [--dtype] [--exponent] [--concat C0,C1,... --member K]`."""
    shape = ints(options.shape, 3, "--shape H,W,C")
    padding = ints(options.padding or "0,0,0,0", 4, "--padding T,B,L,R")
    dtype = options.dtype or "int8"
    if options.concat is None:
        return HwcLayout(DlTensor(shape, padding, dtype, options.exponent or 0))  # type: ignore[arg-type]
    channels = list(ints(options.concat, None, "--concat C0,C1,..."))
    k = options.member or 0
    if not 0 <= k < len(channels):
        raise BinparseError("--member K names one of the --concat tensors", expected=f"0..{len(channels) - 1}", found=k)
    if channels[k] != shape[2]:
        raise BinparseError("--shape's C is the channel count of the --member tensor", expected=channels[k],
                            found=shape[2])
    return HwcLayout(concat(shape[:2], channels, padding, dtype)[k])  # type: ignore[arg-type]


__all__ = ["HwcLayout", "WeightLayout", "make"]
