"""One tensor an .espdl model carries (initializer or test value) as numpy arrays.

`stored()` is a zero-copy view of the elements as the chip reads them (dims as stored; read-only
over a file or mmap). `logical_view()` is the `c` target's order as a view, where no blocking has to
be undone; `to_logical()` always copies (a gather through the layout's index for blocked weights);
`dequantize()` copies to float32, q * 2^exponent, per-channel exponents on the channel axis.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core.buffers import view
from ....core.errors import FormatError, LayoutError, Retry
from .graph import TensorInfo
from .weights import WeightLayout


@dataclass(frozen=True)
class ModelTensor:
    """A tensor of a model, over the model's payload (a file slice, or the decrypted copy)."""

    info: TensorInfo
    layout: WeightLayout
    payload: Any  # memoryview of the FlatBuffer
    file: str | None = None
    base: int = 0  # payload offset in the file, for errors
    inferred: bool = False  # the layout is not named by the file but implied by the model (infer.py)
    as_meant: tuple[str, ...] = ()  # its vectors that hold int32 values in int64 fields, read as meant (narrow.py)

    @property
    def np_dtype(self) -> np.dtype[Any]:
        if self.info.dtype.startswith("code"):
            raise FormatError(f"tensor {self.info.name!r} has a data_type binparse cannot hold in numpy",
                              file=self.file, path=self.info.path, found=self.info.dtype)
        dt: np.dtype[Any] = np.dtype(self.info.dtype).newbyteorder("<")
        return dt

    def stored(self) -> NDArray[Any]:
        """The elements as stored (dims as the file gives them), a zero-copy view of the payload."""
        dt, n = self.np_dtype, self.layout.count
        if n * dt.itemsize > self.info.data_nbytes:
            raise FormatError(f"tensor {self.info.name!r}: {self.info.data_field} holds fewer bytes than its dims need",
                              file=self.file, path=f"{self.info.path}.{self.info.data_field}",
                              offset=self.base + self.info.data_offset,
                              expected=f"{n} x {dt.itemsize} bytes for dims {list(self.info.dims)}",
                              found=f"{self.info.data_nbytes} bytes")
        return view(self.payload, dt, self.info.data_offset, self.info.dims, path=self.info.path)

    def vector(self) -> NDArray[Any]:
        """The whole data vector as the element type, a zero-copy view: `stored()` and what follows it
        in the vector (EDL2's raw_data is whole 16-byte blocks; esp-ppq's .info prints all of it)."""
        dt = self.np_dtype
        return view(self.payload, dt, self.info.data_offset, (self.info.data_nbytes // dt.itemsize,), path=self.info.path)

    def logical_view(self) -> NDArray[Any]:
        """The logical array as a view; `LayoutError` for a blocked weight (use `to_logical`)."""
        if not self.layout.is_view:
            raise LayoutError(f"{self.info.name!r} is blocked ({self.layout.name}): its logical order is not a view",
                              file=self.file, path=self.info.path, hint="use to_logical() (a copy)")
        out: NDArray[Any] = self.stored().reshape(self.layout.logical_shape)
        return out

    def blocked_view(self) -> NDArray[Any]:
        """The blocked channels in logical order by strides, no copy: (N//b, b, *inner) with element
        [k, lane, ...] = logical[k·b + lane, ...]; for a depthwise weight (*spatial, C//b, b). The
        unaligned rest (N - N//b·b channels) is not in it: `to_logical` has every channel."""
        lay = self.layout
        if not lay.block:
            raise LayoutError(f"{self.info.name!r} ({lay.name or 'no layout'}) has no blocks", file=self.file,
                              path=self.info.path, hint="use logical_view()")
        b, flat = lay.block, self.stored().reshape(-1)
        if lay.matrix:  # (..., N//b, b, C): element [..., k, lane, c] = logical[..., k·b + lane, c]
            c, n = lay.dims[-2], lay.dims[-1]
            nb = n // b
            m = flat.reshape(lay.batch, n * c)[:, :nb * b * c].reshape(*lay.dims[:-2], nb, c, b)
            return np.moveaxis(m, -1, -2)
        if lay.depthwise:
            spatial = lay.dims[:-2]
            nb = lay.dims[-2] // b
            v = flat[:nb * b * int(np.prod(spatial))].reshape(nb, *spatial, b)
            return np.moveaxis(v, 0, -2)
        inner, n = (lay.dims[:-1], lay.dims[-1]) if not lay.grouped else ((*lay.dims[:-2], lay.dims[-1]), lay.dims[-2])
        nb = n // b
        v = flat[:nb * b * int(np.prod(inner))].reshape(nb, *inner, b)
        return np.moveaxis(v, -1, 1)

    def to_logical(self) -> NDArray[Any]:
        """A copy in logical order ((N, H, W, C) for weights; dims as stored otherwise)."""
        flat = self.stored().reshape(-1)
        out: NDArray[Any] = flat.reshape(self.layout.logical_shape).copy() if self.layout.is_view \
            else flat[self.layout.stored_index()]
        return out

    def array(self, *, stored: bool = False) -> NDArray[Any]:
        """Stored view, or the logical form (a view when possible, else a copy)."""
        if stored:
            return self.stored()
        return self.logical_view() if self.layout.is_view else self.to_logical()

    def scales(self, ndim: int, *, stored: bool = False) -> NDArray[np.float32]:
        """2^exponent, shaped to broadcast on the logical (or, per tensor only, stored) array."""
        exps = np.asarray(self.info.exponents or (0,), dtype=np.int64)
        if np.any(exps < -64) or np.any(exps > 63):
            raise LayoutError("exponent out of range", file=self.file, path=self.info.path, expected="-64..63",
                              found=exps.tolist())
        s = np.ldexp(np.float32(1), exps).astype(np.float32)
        if s.size == 1:
            one: NDArray[np.float32] = s.reshape(())
            return one
        if stored:
            raise LayoutError("per-channel exponents apply to the logical form", file=self.file, path=self.info.path,
                              hint="dequantize the logical form (stored=False)",
                              retry=Retry("dequantize the logical form", drop=("--stored",)))
        axis = ndim - 1 if self.layout.depthwise else 0
        shape = [1] * ndim
        shape[axis] = s.size
        shaped: NDArray[np.float32] = s.reshape(shape)
        return shaped

    def dequantize(self, *, stored: bool = False) -> NDArray[np.float32]:
        """float32 copy: q * 2^exponent (float tensors copied unchanged)."""
        q = self.array(stored=stored)
        if q.dtype.kind == "f":
            return q.astype(np.float32)
        out: NDArray[np.float32] = q.astype(np.float32) * self.scales(q.ndim, stored=stored)
        return out

    def describe(self, *, stored: bool = False, dequantize: bool = False) -> str:
        order = f"stored ({self.layout.name or 'as stored'})" if stored else \
            ("logical (N, C) of the matrix [C, N]" if self.layout.matrix else "logical (N, H, W, C)" if self.layout.rank == 4 else "logical (N, W, C)" if self.layout.rank == 3 else "dims as stored")
        how = f", layout {self.layout.name} inferred from the model's named weights" if self.inferred else ""
        if self.as_meant:
            how += (f", {' and '.join(self.as_meant)} read as meant (int32 values in int64 vectors: not verified, "
                    "the chip reads them otherwise)")
        return f"ESP-DL {self.info.role} {self.info.name!r}, {order}{how}" + (", dequantized" if dequantize else "")


__all__ = ["ModelTensor"]
