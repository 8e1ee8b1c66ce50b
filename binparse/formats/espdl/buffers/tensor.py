"""ESP-DL tensors as layout descriptors: views into padded HWC buffers, (de)quantisation, packing.

`DlTensor` is the old `dl::Tensor<T>` (seed 002): [height, width, channel] order, spatial padding
[top, bottom, left, right], value = q * 2^exponent. Several tensors concatenated along channels
share one buffer (`concat`): each member then has "front and back" padding made of its
neighbours' channels, so its pixels are `channel_stride` elements apart and it starts
`channel_offset` elements into each pixel. `TensorBase` is the new ESP-DL tensor: row-major,
16-byte aligned start and 16-byte multiple size, dtype codes of `dtype_t`.
Numbers come from schemas/espdl/tensor.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ....engine.accessors.espdl.tensor import SCHEMA
from ....core.buffers import BufferLike, byte_view, view
from ....core.errors import LayoutError
from ....engine.layouts import StridedLayout

QUANT_RANGES: dict[str, tuple[int, int]] = {k: (int(v[0]), int(v[1])) for k, v in SCHEMA["dl_tensor"]["quantized"].items()}
DL_DTYPES = tuple(SCHEMA["dl_tensor"]["dtypes"])
BASE_DTYPES: dict[int, str] = {int(k): str(v) for k, v in SCHEMA["tensor_base"]["dtypes"].items()}
ALIGN = int(SCHEMA["tensor_base"]["alignment"])


def _scale(exponent: int) -> float:
    if not -64 <= exponent <= 63:
        raise LayoutError("exponent out of range", expected="-64..63", found=exponent)
    return float(2.0 ** exponent)


@dataclass(frozen=True)
class DlTensor:
    """An HWC tensor with spatial padding, possibly one member of a channel concat."""

    shape: tuple[int, int, int]  # H, W, C
    padding: tuple[int, int, int, int] = (0, 0, 0, 0)  # top, bottom, left, right
    dtype: str = "int8"
    exponent: int = 0
    channel_offset: int = 0  # concat members: first channel of this tensor in each pixel
    channel_stride: int = 0  # concat members: channels per pixel of the shared buffer (0: C)

    def __post_init__(self) -> None:
        if self.dtype not in DL_DTYPES:
            raise LayoutError("unknown ESP-DL tensor dtype", expected=list(DL_DTYPES), found=self.dtype)
        if len(self.shape) != 3 or min(self.shape) < 0:
            raise LayoutError("shape must be [height, width, channel] >= 0", found=self.shape)
        if len(self.padding) != 4 or min(self.padding) < 0:
            raise LayoutError("padding must be [top, bottom, left, right] >= 0", found=self.padding)
        if self.channel_offset < 0 or (self.channel_stride and self.channel_offset + self.shape[2] > self.channel_stride):
            raise LayoutError("channels outside the shared buffer", expected=f"offset + C <= {self.channel_stride}",
                              found=(self.channel_offset, self.shape[2]))
        if self.dtype in QUANT_RANGES:
            _scale(self.exponent)

    @property
    def np_dtype(self) -> np.dtype[Any]:
        return np.dtype({"int8": "i1", "int16": "<i2", "uint8": "u1", "float32": "<f4"}[self.dtype])

    @property
    def shape_with_padding(self) -> tuple[int, int, int]:
        h, w, c = self.shape
        t, b, l, r = self.padding
        return h + t + b, w + l + r, self.channel_stride or c

    def layout(self, pad: tuple[int, int, int, int] | None = None) -> StridedLayout:
        """The strided layout of the tensor, or of the padded region a layer with `pad` sees."""
        h, w, c = self.shape
        t, b, l, r = self.padding
        pt, pb, pl, pr = pad or (0, 0, 0, 0)
        if pad is not None and (len(pad) != 4 or any(p < 0 or p > q for p, q in zip(pad, self.padding))):
            raise LayoutError("layer padding larger than the tensor's padding", expected=f"<= {self.padding}",
                              found=pad, hint="Layer.padding must be <= Tensor.padding in each axis")
        hp, wp, cp = self.shape_with_padding
        offset = ((t - pt) * wp + (l - pl)) * cp + self.channel_offset  # get_element_ptr(pad)
        return StridedLayout(self.np_dtype, (h + pt + pb, w + pl + pr, c), (wp * cp, cp, 1), offset,
                             hp * wp * cp, name="espdl tensor")

    def view(self, buffer: BufferLike, pad: tuple[int, int, int, int] | None = None) -> NDArray[Any]:
        """The HWC tensor (or the region a layer with padding `pad` reads) as a zero-copy view."""
        return self.layout(pad).view(buffer)

    def new_buffer(self) -> bytearray:
        return self.layout().new_buffer()

    def dequantize(self, buffer: BufferLike, pad: tuple[int, int, int, int] | None = None) -> NDArray[np.float32]:
        """float32 copy: q * 2^exponent (float tensors are copied unchanged)."""
        q = self.view(buffer, pad)
        out: NDArray[np.float32] = q.astype(np.float32) * np.float32(_scale(self.exponent)) \
            if self.dtype in QUANT_RANGES else q.astype(np.float32)
        return out

    def quantize(self, values: ArrayLike) -> NDArray[Any]:
        """A copy of real values as q = clip(round(x / 2^exponent)) in the tensor's dtype."""
        x = np.asarray(values, dtype=np.float64)
        if self.dtype not in QUANT_RANGES:
            out: NDArray[Any] = x.astype(self.np_dtype)
            return out
        lo, hi = QUANT_RANGES[self.dtype]
        q: NDArray[Any] = np.clip(np.rint(x / _scale(self.exponent)), lo, hi).astype(self.np_dtype)
        return q

    def pack(self, array: ArrayLike, into: BufferLike | None = None) -> BufferLike:
        """Write an (H, W, C) array into the padded buffer; this tensor's padding is zeroed (for a
        concat member: its own channels of the padded box, not the neighbours')."""
        target: BufferLike = self.new_buffer() if into is None else into
        mv = byte_view(target)
        if mv.readonly:
            raise LayoutError("buffer is read-only", expected="a writable buffer", found=type(target).__name__)
        full = self.layout(self.padding)
        box = full.view(mv)  # bounds-checked before any write
        arr = np.asarray(array)
        if arr.shape != self.shape:
            raise LayoutError("array does not have the tensor's shape", expected=self.shape, found=arr.shape)
        full._check_values(arr)
        box[...] = 0
        t, _, l, _ = self.padding
        h, w, _ = self.shape
        box[t:t + h, l:l + w] = arr
        return target


def concat(shape_hw: tuple[int, int], channels: list[int], padding: tuple[int, int, int, int] = (0, 0, 0, 0),
           dtype: str = "int8", exponents: list[int] | None = None) -> list[DlTensor]:
    """The members of a channel concat that share one padded buffer (seed 002: A, B, C)."""
    total = sum(channels)
    out, start = [], 0
    for k, c in enumerate(channels):
        out.append(DlTensor((shape_hw[0], shape_hw[1], c), padding, dtype, (exponents or [0] * len(channels))[k],
                            channel_offset=start, channel_stride=total))
        start += c
    return out


@dataclass(frozen=True)
class TensorBase:
    """A new-ESP-DL tensor: row-major data of a `dtype_t`, 16-byte aligned, size rounded to 16 bytes.

    `exponents` holds one exponent (per tensor) or one per channel (the last axis, weights).
    """

    shape: tuple[int, ...]
    dtype: int
    exponents: tuple[int, ...] = (0,)

    def __post_init__(self) -> None:
        if self.dtype not in BASE_DTYPES or BASE_DTYPES[self.dtype] in ("undefined", "string"):
            raise LayoutError("dtype has no numeric storage", expected={k: v for k, v in BASE_DTYPES.items() if k not in (0, 8)},
                              found=self.dtype)
        if len(self.exponents) not in (1, self.shape[-1] if self.shape else 1):
            raise LayoutError("one exponent per tensor or per channel", expected=f"1 or {self.shape[-1]}",
                              found=len(self.exponents))
        for e in self.exponents:
            _scale(e)

    @property
    def np_dtype(self) -> np.dtype[Any]:
        dt: np.dtype[Any] = np.dtype(BASE_DTYPES[self.dtype]).newbyteorder("<")
        return dt

    @property
    def aligned_nbytes(self) -> int:
        """Bytes the buffer takes: the data rounded up to a multiple of 16 (get_aligned_size)."""
        n = int(np.prod(self.shape)) * self.np_dtype.itemsize
        return -(-n // ALIGN) * ALIGN

    def view(self, buffer: BufferLike, offset: int = 0) -> NDArray[Any]:
        """Zero-copy view at byte `offset`, which must be 16-byte aligned."""
        if offset % ALIGN:
            raise LayoutError("TensorBase data must start on a 16-byte boundary", expected="offset % 16 == 0",
                              found=offset)
        mv = byte_view(buffer)
        if mv.nbytes - offset < self.aligned_nbytes:
            raise LayoutError("buffer too small for the aligned tensor", offset=offset,
                              expected=f"{self.aligned_nbytes} bytes", found=f"{mv.nbytes - offset} bytes")
        return view(mv, self.np_dtype, offset, self.shape, path="TensorBase")

    def dequantize(self, buffer: BufferLike, offset: int = 0) -> NDArray[np.float32]:
        q = self.view(buffer, offset).astype(np.float32)
        if self.np_dtype.kind == "f":
            return q
        scales = np.array([_scale(e) for e in self.exponents], dtype=np.float32)
        out: NDArray[np.float32] = q * (scales if scales.size > 1 else scales[0])
        return out


__all__ = ["DlTensor", "TensorBase", "concat", "replace"]
