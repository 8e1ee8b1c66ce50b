"""TIDL io tensors as `BufferLayout`s: what `view`, `pack` and `draw SOURCE --output/--input NAME` do."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.errors import BinparseError
from ....family.hints import command
from ..drawing import tidl_map
from ..tensors import Tensor


PACK_ALLOWANCE = 128 << 20  # with 4 x the inputs: half the resource contract (8 x input + 256 MiB), the rest
#                             left to the array, its quantized copy and the interpreter


class TensorLayout:
    """One input or output of an io descriptor, in the padded buffer TIDL-RT reads or writes."""

    def __init__(self, tensor: Tensor, descriptor_bytes: int = 0) -> None:
        self.tensor = tensor
        self.descriptor_bytes = descriptor_bytes  # the io file's size: part of the input a pack may scale with

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        t = self.tensor
        return (t.dequantize(buffer) if dequantize else t.view(buffer)), f"{t.direction} {t.name or t.index}"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        """The padded device buffer of `logical`; its shape and the descriptor's claimed buffer size are
        checked before anything is allocated (a corrupt pitch must not cost gigabytes)."""
        t = self.tensor
        arr = np.asarray(logical)
        k = len(t.shape) - arr.ndim
        if k < 0 or arr.shape != tuple(t.shape[k:]) or any(n != 1 for n in t.shape[:k]):
            raise BinparseError("the array does not have the tensor's logical shape", file=t.file, path=t.path,
                                expected=tuple(t.shape), found=arr.shape,
                                hint="leading axes of length 1 may be left out; "
                                     + (f"{command('inspect', t.file)} lists the shapes" if t.file else
                                        "inspect lists the shapes"))
        need = t.layout_desc.nbytes
        limit = 4 * (arr.nbytes + self.descriptor_bytes) + PACK_ALLOWANCE
        if need > limit:
            raise BinparseError("the descriptor claims a device buffer far larger than its tensor", file=t.file,
                                path=t.path, expected=f"at most {limit:,} bytes for {arr.nbytes:,} bytes of data",
                                found=f"{need:,} bytes (channel pitch {t.channel_pitch:,}, {t.pad.channel} padding channels)",
                                hint="the io descriptor's pitches or pads are corrupt; nothing was allocated")
        buf = t.new_buffer()
        t.pack(t.quantize(arr) if quantize else arr, buf)
        return buf, f"TIDL {t.direction} {t.name or t.index}, {t.dtype}, {len(buf)} bytes"  # type: ignore[return-value]

    def memory_map(self) -> Any:
        return tidl_map(self.tensor)


def io_layout(io: Any, options: Any) -> TensorLayout:
    """The tensor `--input NAME|INDEX` or `--output NAME|INDEX` names in an io descriptor."""
    name_in, name_out = getattr(options, "input_name", None), getattr(options, "name", None)
    name = name_in if name_in is not None else name_out
    if name is None:
        raise BinparseError("name the tensor of this io descriptor with --output NAME|INDEX or --input NAME|INDEX",
                            file=io._file)
    tensor = io.tensor(int(name) if name.isdigit() else name, "input" if name_in is not None else "output")
    return TensorLayout(tensor, int(io._mv.nbytes))


__all__ = ["TensorLayout", "io_layout"]
