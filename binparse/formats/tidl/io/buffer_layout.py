"""TIDL io tensors as `BufferLayout`s: what `view`, `pack` and `draw SOURCE --output/--input NAME` do."""

from __future__ import annotations

from typing import Any

from ....errors import BinparseError
from ..drawing import tidl_map
from ..tensors import Tensor


class TensorLayout:
    """One input or output of an io descriptor, in the padded buffer TIDL-RT reads or writes."""

    def __init__(self, tensor: Tensor) -> None:
        self.tensor = tensor

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        t = self.tensor
        return (t.dequantize(buffer) if dequantize else t.view(buffer)), f"{t.direction} {t.name or t.index}"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        t = self.tensor
        data = bytes(t.pack(t.quantize(logical) if quantize else logical))
        return data, f"TIDL {t.direction} {t.name or t.index}, {t.dtype}, {len(data)} bytes"

    def memory_map(self) -> Any:
        return tidl_map(self.tensor)


def io_layout(io: Any, options: Any) -> TensorLayout:
    """The tensor `--input NAME|INDEX` or `--output NAME|INDEX` names in an io descriptor."""
    name_in, name_out = getattr(options, "input_name", None), getattr(options, "name", None)
    name = name_in if name_in is not None else name_out
    if name is None:
        raise BinparseError("name the tensor of this io descriptor with --output NAME|INDEX or --input NAME|INDEX",
                            file=io._file)
    return TensorLayout(io.tensor(int(name) if name.isdigit() else name, "input" if name_in is not None else "output"))


__all__ = ["TensorLayout", "io_layout"]
