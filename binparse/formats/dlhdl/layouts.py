"""MATLAB Deep Learning HDL Toolbox external memory formats (seed 003), as layout descriptors.

Conv module: with `C = sqrt(ConvThreadNumber)` channels computed at once and `N = 2^nextpow2(C)`
values sent per beat, the buffer holds blocks of `N·X·Y` values: N values along z, then along x,
then along y; block b carries channels `b·C … b·C + C − 1` in its first C lanes and zeros in the
other `N − C` (only when C is not a power of two) and after the last channel. So the buffer is a
`(blocks, Y, X, N)` array with `blocks = ceil(Z / C)`, and its size is `X·Y·ceil(Z/C)·N`. Arrays
on the Python side are (X, Y, Z): element [x, y, z] is MATLAB's (x+1, y+1, z+1).
FC module: a plain vector of the output feature size (multi-frame: a multiple of it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core.buffers import BufferLike, byte_view, view
from ...core.errors import LayoutError

THREAD_NUMBERS = (4, 9, 16, 25, 36, 49, 64)
DTYPES: dict[str, np.dtype[Any]] = {"float32": np.dtype("<f4"), "int8": np.dtype("i1")}


@dataclass(frozen=True)
class ConvLayout:
    """The conv-module format of an (X, Y, Z) activation for a ConvThreadNumber."""

    thread_number: int
    shape: tuple[int, int, int]  # X, Y, Z
    dtype: str = "float32"

    def __post_init__(self) -> None:
        root = math.isqrt(self.thread_number) if self.thread_number > 0 else 0
        if root * root != self.thread_number or self.thread_number not in THREAD_NUMBERS:
            raise LayoutError("ConvThreadNumber must be a square the processor supports",
                              expected=list(THREAD_NUMBERS), found=self.thread_number)
        if len(self.shape) != 3 or min(self.shape) < 1:
            raise LayoutError("shape must be X, Y, Z >= 1", found=self.shape)
        if self.dtype not in DTYPES:
            raise LayoutError("dlhdl data are float32 (single) or int8", expected=list(DTYPES), found=self.dtype)

    @property
    def c(self) -> int:
        """Thread Number C = sqrt(ConvThreadNumber)."""
        return math.isqrt(self.thread_number)

    @property
    def n(self) -> int:
        """Parallel Data Transfer Number N = 2^nextpow2(C)."""
        return 1 << (self.c - 1).bit_length()

    @property
    def blocks(self) -> int:
        return -(-self.shape[2] // self.c)

    @property
    def size(self) -> int:
        """Values in the buffer: X·Y·ceil(Z/C)·N."""
        x, y, _ = self.shape
        return x * y * self.blocks * self.n

    @property
    def padded_shape(self) -> tuple[int, int, int]:
        """(X, Y, ceil(Z/C)·N): what getExpectedPaddedInputData returns."""
        return self.shape[0], self.shape[1], self.blocks * self.n

    def buffer_view(self, buffer: BufferLike) -> NDArray[Any]:
        """Zero-copy (blocks, Y, X, N) view of the buffer."""
        x, y, _ = self.shape
        return view(buffer, DTYPES[self.dtype], 0, (self.blocks, y, x, self.n), path="dlhdl conv buffer")

    def channels_view(self, buffer: BufferLike) -> NDArray[Any]:
        """Zero-copy (blocks, Y, X, C) view: only the lanes that carry channels."""
        return self.buffer_view(buffer)[..., : self.c]

    def to_logical(self, buffer: BufferLike) -> NDArray[Any]:
        """The (X, Y, Z) array (a copy): MATLAB's getUnpaddedOutputData."""
        v = self.channels_view(buffer)  # (B, Y, X, C)
        x, y, z = self.shape
        full = np.empty((x, y, self.blocks, self.c), v.dtype)
        full[...] = v.transpose(2, 1, 0, 3)  # one strided copy
        out: NDArray[Any] = full.reshape(x, y, self.blocks * self.c)
        return out if z == out.shape[2] else np.ascontiguousarray(out[:, :, :z])

    unpack = to_logical

    def pack(self, array: ArrayLike, into: BufferLike | None = None) -> BufferLike:
        """Write an (X, Y, Z) array into the conv-module format (MATLAB's
        getExpectedPaddedInputData, flattened); every padding value zero."""
        arr = np.asarray(array)
        if arr.shape != self.shape:
            raise LayoutError("array does not have the layout's shape", expected=self.shape, found=arr.shape)
        target: BufferLike = bytearray(self.size * DTYPES[self.dtype].itemsize) if into is None else into
        if byte_view(target).readonly:
            raise LayoutError("buffer is read-only", expected="a writable buffer", found=type(target).__name__)
        v = self.buffer_view(target)
        v[...] = 0
        x, y, z = self.shape
        padded = np.zeros((x, y, self.blocks * self.c), DTYPES[self.dtype])
        padded[:, :, :z] = arr
        v[..., : self.c] = padded.reshape(x, y, self.blocks, self.c).transpose(2, 1, 0, 3)
        return target

    def padded(self, array: ArrayLike) -> NDArray[Any]:
        """(X, Y, ceil(Z/C)·N) with the zero planes inserted (getExpectedPaddedInputData's array)."""
        v = self.buffer_view(self.pack(array))
        out: NDArray[Any] = v.transpose(2, 1, 0, 3).reshape(self.padded_shape).copy()
        return out


@dataclass(frozen=True)
class FcLayout:
    """FC-module output: a plain vector of the output feature size, a multiple of it for frames."""

    size: int
    dtype: str = "float32"

    def view(self, buffer: BufferLike) -> NDArray[Any]:
        """Zero-copy (frames, size) view."""
        if self.size < 1:
            raise LayoutError("FC output size must be >= 1", found=self.size)
        dt = DTYPES[self.dtype]
        n = byte_view(buffer).nbytes // dt.itemsize
        if n == 0 or n % self.size:
            raise LayoutError("buffer is not a whole number of FC outputs", expected=f"a multiple of {self.size} values",
                              found=f"{n} values")
        return view(buffer, dt, 0, (n // self.size, self.size), path="dlhdl fc buffer")


__all__ = ["ConvLayout", "FcLayout", "THREAD_NUMBERS"]
