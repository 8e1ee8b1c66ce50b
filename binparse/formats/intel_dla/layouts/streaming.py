"""`StreamedInput`: the raw buffer a host streams into an IP with the lightweight layout transform.

FPGA AI Suite Handbook (863373, "Transforming Input Data Layout", "How the Lightweight Layout
Transform Works", "Enabling the Lightweight Layout Transform"): the streamed input tensor is HWC,
channels fastest, each element of the transform's `input_type` (F16, U8, U16); the IP pads each
pixel's `channels` to CVEC and converts the elements to FP16 on chip, so the host's buffer holds
no padding. `input_bus_width` carries whole pixels (a multiple of the pixel's width): a stream is
whole bus words, so a buffer may end with up to one word's worth of zero pixels past the tensor.

Evidence: the LeNet build `../shared/real/intel_dla/lenet-agx5-streaming` (channels 1, F16, a
128-bit bus) streams `data/array_hwc_fp16_0.bin`, 1,568 bytes = 28 × 28 × 1 FP16, little-endian
as numpy writes it on the x86 host (`convert_bmp_2_bin_fp16.py`): read so, it is the 28×28 digit.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ....core.errors import LayoutError
from ..arch.file import ArchFile

DTYPES: dict[str, np.dtype[Any]] = {"F16": np.dtype("<f2"), "U8": np.dtype("u1"), "U16": np.dtype("<u2")}
PARAMS = "lightweight_layout_transform_params"


class StreamedInput:
    """The streamed input of an .arch whose lightweight layout transform is enabled."""

    def __init__(self, arch: ArchFile, why: str = "enable_lightweight_layout_transform") -> None:
        self.arch, self.why = arch, why
        self.input_type = arch.get(f"{PARAMS}.input_type") or "F16"  # the Handbook's default
        self.channels: int = arch.get(f"{PARAMS}.channels") or 3  # the Handbook's default
        self.bus_width: int = arch.get(f"{PARAMS}.input_bus_width") or 48  # the Handbook's default
        self.dtype = DTYPES[self.input_type]
        self.pixel_bits = self.channels * self.dtype.itemsize * 8
        if self.bus_width % self.pixel_bits:
            raise LayoutError(f"the lightweight transform's input_bus_width carries whole pixels (FPGA AI Suite "
                              f"Handbook 863373): {self.bus_width} bits is not a multiple of {self.channels} × "
                              f"{self.input_type}", path=arch.file, expected=f"a multiple of {self.pixel_bits}",
                              found=self.bus_width)
        self.pixels_per_word = self.bus_width // self.pixel_bits

    @staticmethod
    def of(arch: ArchFile) -> StreamedInput | None:
        """The streamed input when the .arch enables the lightweight layout transform, else None.

        Users' built .arch files also set only `lightweight_layout_transform_params` with a streamed
        input and no full transform (agilex_3_ai_benchmarks' resnet8_agx3_logits.arch): input
        streaming needs a layout transform (IP Reference Manual 768974, input_stream_interface), and
        the lightweight one is the only one such a file configures, so it is taken as enabled, and
        `what()` says so."""
        flag = arch.get("enable_lightweight_layout_transform")
        if flag:
            return StreamedInput(arch)
        if flag is None and arch.message.HasField(PARAMS) and arch.get("input_stream_interface.enable") \
                and not arch.get("enable_layout_transform"):
            return StreamedInput(arch, f"{PARAMS} with a streamed input and no full transform")
        return None

    def _check_shape(self, shape: tuple[int, int, int, int, int]) -> None:
        if shape[1] != self.channels:
            raise LayoutError(f"{self.arch.name}'s lightweight layout transform streams {self.channels} channel(s) a "
                              "pixel", path=self.arch.file, expected=f"--shape with C = {self.channels}",
                              found=f"C = {shape[1]}")

    def nbytes(self, shape: tuple[int, int, int, int, int]) -> int:
        n, c, d, h, w = shape
        return int(n * c * d * h * w * self.dtype.itemsize)

    def word_bytes(self) -> int:
        return self.bus_width // 8

    def fits(self, size: int, shape: tuple[int, int, int, int, int]) -> bool:
        """A buffer of `size` bytes is this tensor streamed: exactly, or up to one bus word past it."""
        need = self.nbytes(shape)
        return need <= size < need + max(self.word_bytes(), 1) and (size == need or size % self.word_bytes() == 0)

    def what(self, shape: tuple[int, int, int, int, int]) -> str:
        n, c, d, h, w = shape
        return (f"FPGA AI Suite streamed input {n}×{c}×{d}×{h}×{w} (N, C, D, H, W) from {self.arch.name}: raw HWC "
                f"{self.input_type}, {self.channels} channel(s) a pixel, {self.pixels_per_word} pixel(s) a "
                f"{self.bus_width}-bit bus word (lightweight layout transform, by {self.why}: the IP pads to CVEC "
                f"{self.arch.c_vector} and converts to FP16 on chip): {self.nbytes(shape):,} bytes")

    def view(self, buf: Any, shape: tuple[int, int, int, int, int]) -> NDArray[Any]:
        """Zero-copy (N, C, D, H, W) view of a streamed buffer (HWC order underneath)."""
        self._check_shape(shape)
        data = np.frombuffer(buf, dtype=np.uint8)
        if not self.fits(data.size, shape):
            raise LayoutError("the buffer is not this streamed input", path=self.arch.file,
                              expected=f"{self.nbytes(shape):,} bytes ({self.what(shape)})",
                              found=f"{data.size:,} bytes")
        n, c, d, h, w = shape
        out: NDArray[Any] = data[:self.nbytes(shape)].view(self.dtype).reshape(n, d, h, w, c)
        ncdhw: NDArray[Any] = out.transpose(0, 4, 1, 2, 3)
        return ncdhw

    def pack(self, logical: ArrayLike, shape: tuple[int, int, int, int, int]) -> bytes:
        """The streamed bytes (HWC, input_type) of a logical (N, C, D, H, W) array."""
        self._check_shape(shape)
        arr = np.asarray(logical)
        if arr.shape != shape:
            raise LayoutError("the array is not the --shape given", expected=str(shape), found=str(arr.shape))
        if self.dtype.kind == "u" and arr.dtype.kind == "f":
            if not np.all(np.isfinite(arr)) or arr.min(initial=0) < 0 or arr.max(initial=0) > np.iinfo(self.dtype).max:
                raise LayoutError(f"the values do not fit the streamed {self.input_type}",
                                  expected=f"0 .. {np.iinfo(self.dtype).max}")
        return bytes(np.ascontiguousarray(arr.transpose(0, 2, 3, 4, 1), dtype=self.dtype).tobytes())


__all__ = ["DTYPES", "StreamedInput"]
