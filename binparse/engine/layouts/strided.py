"""A logical tensor inside a flat device buffer, described by strides: view, pack, allocate.

`StridedLayout` holds numbers only (dtype, logical shape, element strides, element offset, the
buffer size the device expects); every operation is a numpy view built by `binparse.core.buffers.view`
(bounds-checked, zero-copy, read-only for read-only buffers). Copies happen only in `to_logical`
and in what `pack` writes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core import budget
from ...core.buffers import BufferLike, byte_view, reach, view
from ...core.errors import LayoutError, Retry


MAX_BUFFER = 1 << 32


@dataclass(frozen=True)
class StridedLayout:
    """`shape` logical elements of `dtype` at element `offset`, element `strides` apart.

    `size` is the number of elements a buffer for this tensor holds (padding included).
    """

    dtype: np.dtype[Any]
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    offset: int
    size: int
    name: str = ""

    @property
    def byte_strides(self) -> tuple[int, ...]:
        return tuple(s * self.dtype.itemsize for s in self.strides)

    @property
    def nbytes(self) -> int:
        """Bytes of a buffer that holds the tensor: `size` elements, or more if the view reaches further."""
        _, hi = reach(self.offset * self.dtype.itemsize, self.shape, self.byte_strides, self.dtype.itemsize)
        return max(self.size * self.dtype.itemsize, hi)

    def view(self, buf: BufferLike, *, file: str | None = None) -> NDArray[Any]:
        """The logical tensor as a view of `buf` (no copy; LayoutError if it does not fit)."""
        return view(buf, self.dtype, self.offset * self.dtype.itemsize, self.shape, self.byte_strides,
                    file=file, path=self.name)

    def to_logical(self, buf: BufferLike, *, file: str | None = None) -> NDArray[Any]:
        """A contiguous copy of the logical tensor."""
        return np.ascontiguousarray(self.view(buf, file=file))

    def new_buffer(self) -> bytearray:
        """A zero-filled buffer of `nbytes` (LayoutError past 4 GiB: no device tensor is that big,
        a corrupt descriptor is)."""
        if self.nbytes > MAX_BUFFER:
            raise LayoutError("tensor descriptor asks for an implausibly large buffer", path=self.name,
                              expected=f"at most {MAX_BUFFER:,} bytes", found=f"{self.nbytes:,} bytes",
                              hint="the descriptor (dims, pads, pitches) is probably corrupt")
        budget.ask(self.nbytes, f"the device buffer of {self.name} ({self.nbytes:,} bytes)", path=self.name)
        return bytearray(self.nbytes)

    def pack(self, array: ArrayLike, into: BufferLike | None = None) -> BufferLike:
        """Write a logical array into a device buffer, zeroing every padding byte first.

        `array` has the logical shape (leading axes of length 1 may be left out) and values that
        fit the dtype. `into` must be writable; by default a new buffer is made. Returns the buffer.
        """
        target: BufferLike = self.new_buffer() if into is None else into
        mv = byte_view(target)
        if mv.readonly:
            raise LayoutError("buffer is read-only", path=self.name, expected="a writable buffer (bytearray, numpy array)",
                              found=type(target).__name__)
        arr = np.asarray(array)
        k = len(self.shape) - arr.ndim
        if k < 0 or arr.shape != self.shape[k:] or any(n != 1 for n in self.shape[:k]):
            raise LayoutError("array does not have the tensor's logical shape", path=self.name,
                              expected=self.shape, found=arr.shape)
        self._check_values(arr)
        dst = self.view(mv)  # checks the bounds before anything is written
        np.frombuffer(mv, np.uint8, count=min(self.nbytes, mv.nbytes))[...] = 0
        dst[...] = arr.reshape(self.shape)
        return target

    def _check_values(self, arr: NDArray[Any]) -> None:
        if self.dtype.kind in "iu":
            if arr.dtype.kind == "f":
                raise LayoutError("float values for an integer tensor", path=self.name,
                                  expected=str(self.dtype), found=str(arr.dtype),
                                  hint="quantize them first (tensor.quantize) or pass integers",
                                  retry=Retry("give integers, or quantise the floats with the family's rule", add=("--quantize",)))
            if arr.dtype.kind in "iub" and arr.size:
                info = np.iinfo(self.dtype)
                lo, hi = int(arr.min()), int(arr.max())
                if lo < info.min or hi > info.max:
                    raise LayoutError("values outside the element type's range", path=self.name,
                                      expected=f"{info.min}..{info.max} ({self.dtype})", found=f"{lo}..{hi}")
