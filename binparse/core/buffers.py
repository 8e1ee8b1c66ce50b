"""Zero-copy core: numpy views over a caller's bytes, after a bounds check.

Every view binparse hands out is made here. `byte_view` turns any buffer (`bytes`, `bytearray`,
`memoryview`, `mmap.mmap`, C-contiguous `np.ndarray`) into a flat byte `memoryview` without
copying; `view` builds an `np.ndarray` of a dtype, shape and strides over it once it has checked
that every byte the view can reach lies inside the buffer.

A view shares memory with its source: writing into a `bytearray` source shows through the view
and the other way round. A read-only source (`bytes`, an mmap opened for reading) gives a
read-only view, so binparse cannot change an input file by accident. The safe way to keep data
beyond the life of the buffer is an explicit copy (`arr.copy()`, or binparse methods named
`to_*`/`copy`).
"""

from __future__ import annotations

import mmap
from collections.abc import Sequence
from typing import Any, Union

import numpy as np
from numpy.typing import DTypeLike, NDArray

from .errors import LayoutError

BufferLike = Union[bytes, bytearray, memoryview, mmap.mmap, NDArray[Any]]


def byte_view(buf: BufferLike, *, file: str | None = None) -> memoryview:
    """A flat, 1-byte-per-item `memoryview` of `buf`; never copies.

    Raises `LayoutError` for a non-contiguous array (whose bytes are not one block).
    """
    if type(buf) is bytes or type(buf) is bytearray:  # always flat bytes: the common case, quickly
        return memoryview(buf)
    if isinstance(buf, np.ndarray):
        if not buf.flags.c_contiguous:
            raise LayoutError(
                "buffer is not C-contiguous, so no view of its bytes exists",
                file=file, expected="a C-contiguous array", found=f"strides {buf.strides}",
                hint="pass np.ascontiguousarray(buf) (that makes a copy)")
        buf = buf.reshape(-1).view(np.uint8)
    try:
        mv = memoryview(buf)  # type: ignore[arg-type]  # numpy arrays and mmaps are buffers
    except TypeError as exc:
        raise LayoutError("object does not expose a buffer", file=file,
                          expected="bytes, bytearray, memoryview, mmap or numpy array",
                          found=type(buf).__name__) from exc
    if not mv.c_contiguous:  # a slice with a step, a column of an array: its bytes are not one block
        raise LayoutError("memoryview is not C-contiguous, so no view of its bytes exists", file=file,
                          expected="a contiguous buffer", found=f"strides {mv.strides}",
                          hint="pass bytes(buf) or np.ascontiguousarray(buf) (that makes a copy)")
    if mv.ndim != 1 or mv.itemsize != 1 or mv.format not in ("B", "b", "c"):
        mv = mv.cast("B")
    elif mv.format != "B":
        mv = mv.cast("B")
    return mv


def c_strides(shape: Sequence[int], itemsize: int) -> tuple[int, ...]:
    """Row-major strides in bytes for `shape`."""
    strides = []
    step = itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(int(n), 1)
    return tuple(reversed(strides))


def reach(offset: int, shape: Sequence[int], strides: Sequence[int], itemsize: int) -> tuple[int, int]:
    """Lowest and one-past-highest byte a strided view can touch ((offset, offset) if empty)."""
    if any(int(n) == 0 for n in shape):
        return offset, offset
    lo = hi = offset
    for n, s in zip(shape, strides):
        span = (int(n) - 1) * int(s)
        if span < 0:
            lo += span
        else:
            hi += span
    return lo, hi + itemsize


def view(
    buf: BufferLike | memoryview,
    dtype: DTypeLike,
    offset: int = 0,
    shape: Sequence[int] = (),
    strides: Sequence[int] | None = None,
    *,
    file: str | None = None,
    path: str | None = None,
) -> NDArray[Any]:
    """A numpy view of `dtype` elements at byte `offset` with `shape` and byte `strides`.

    Checks first that every reachable byte lies inside `buf` (`LayoutError` otherwise, naming the
    bytes needed and the bytes there). The view shares memory with `buf` and is read-only when
    `buf` is. `strides=None` means row-major.
    """
    mv = buf if isinstance(buf, memoryview) and buf.format == "B" and buf.ndim == 1 else byte_view(buf, file=file)
    dt = np.dtype(dtype)
    shape = tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise LayoutError("negative dimension", file=file, path=path, offset=offset,
                          expected="dimensions >= 0", found=shape)
    strides = c_strides(shape, dt.itemsize) if strides is None else tuple(int(s) for s in strides)
    if len(strides) != len(shape):
        raise LayoutError("strides and shape differ in length", file=file, path=path,
                          expected=len(shape), found=len(strides))
    size = mv.nbytes
    lo, hi = reach(int(offset), shape, strides, dt.itemsize)
    if lo < 0 or hi > size or offset < 0 or offset > size:
        raise LayoutError(
            "view reaches outside the buffer", file=file, path=path, offset=int(offset),
            expected=f"a buffer of at least {hi:,} bytes (the view spans bytes {lo:,}..{hi:,})",
            found=f"{size:,} bytes",
            hint="pass the whole device buffer from its first byte, or check the shape, pitches and padding")
    base = 0 if hi == lo else int(offset)  # an empty view still needs an in-range base offset
    out: NDArray[Any] = np.ndarray(shape, dt, buffer=mv, offset=base, strides=strides)
    return out
