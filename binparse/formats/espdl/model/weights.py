"""ESP-DL weight layouts (schemas/espdl/weight_layouts.yaml) as index arithmetic.

`WeightLayout.of(text, dims, depthwise)` reads a layout name; `logical_shape` is the `c` target's
order ((N, H, W, C) or (N, W, C); (1, H, W, C) for a depthwise weight; (N, C) for a MatMul/Gemm
matrix stored with its ONNX dims [C, N], (B, N, C) for a batch of them); `stored_index()` gives, for
each logical element, its element offset in the stored data, so `stored[index]` is the logical
array and `out[index] = logical` packs one. Unblocked layouts need no index: their logical form is a
reshape of the stored one (`is_view`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from numpy.typing import NDArray

from ....engine.accessors.espdl.weight_layouts import SCHEMA
from ....core import budget
from ....core.errors import LayoutError

LAYOUTS: dict[str, dict[str, object]] = SCHEMA["layouts"]
ALIASES: dict[str, str] = SCHEMA["aliases"]
DTYPES: dict[int, str] = {int(k): str(v) for k, v in SCHEMA["dtypes"].items()}
PREFIX = "layout ==> "


def layout_name(doc: str | None) -> str | None:
    """The text after "layout ==> " in a tensor's doc_string, or None."""
    if doc and doc.startswith(PREFIX):
        return doc[len(PREFIX):].strip()
    return None


@dataclass(frozen=True)
class WeightLayout:
    """How one weight's elements are ordered in its raw_data."""

    name: str  # as the file spells it
    canonical: str  # the name in weight_layouts.yaml (aliases resolved), or "" when unknown
    dims: tuple[int, ...]
    rank: int  # 4 (2-D weights), 3 (1-D), 0 (dims as stored)
    block: int  # lanes per block, 0 when not blocked
    depthwise: bool = False
    matrix: bool = False  # dims [..., C, N] of a MatMul/Gemm weight: the layout's spatial dims are 1
    grouped: bool = False  # a Conv of 1 < group < channels: dims [*spatial, N, C/group] (see `of`)

    @classmethod
    def of(cls, name: str | None, dims: tuple[int, ...], depthwise: bool = False, *, tensor: str | None = None,
           file: str | None = None, matmul: bool = False) -> WeightLayout:
        """The layout `name` of a weight of `dims`. A layout of rank r given fewer dims (at least 2, not
        depthwise) is a MatMul/Gemm matrix [..., C, N]: esp-ppq (`ResetParamLayoutPattern`, MatMul and
        Gemm) lays each [C, N] out as the conv filter [1, 1, C, N] and keeps the ONNX dims; a MatMul's
        weight (`matmul`) is such a matrix whatever its rank ([1, 5, C, N]: 5 matrices).

        A weight of a Conv with group > 1 whose last dim is not 1 is a grouped (not depthwise) Conv:
        esp-ppq (`reset_conv_filter_layout`, its group > 1 branch) writes it as a depthwise one: the
        output channels N blocked as for a Conv, the unaligned rest as (C/g, *spatial, rest), the `c`
        target's bytes (*spatial, C/g, N), and dims [*spatial, N, C/g]."""
        canon = ALIASES.get(name or "", name or "")
        spec = LAYOUTS.get(canon)
        if spec is None:  # unknown or absent: read as stored (row-major dims), said so by `known`
            return cls(name or "", "", dims, 0, 0, depthwise)
        rank, block = int(spec["rank"]), int(spec["block"])  # type: ignore[call-overload]
        matrix = bool(rank) and 2 <= len(dims) and (len(dims) < rank or matmul) and not depthwise
        if rank and len(dims) != rank and not matrix:
            what = f"weight {tensor!r}" if tensor else "a weight"
            raise LayoutError(f"{what}: layout {name} needs {rank} dims (or 2 or {rank - 1} for a MatMul/Gemm "
                              f"matrix [..., C, N]), the tensor has {len(dims)}", file=file,
                              path=f"initializer {tensor}" if tensor else None,
                              expected=f"{rank} dims ([H, W, C, N] or [W, C, N]), or [..., C, N] not depthwise",
                              found=list(dims), hint="the layout name and the dims of this weight disagree: "
                              "the file is damaged or written by an esp-ppq binparse does not know")
        grouped = depthwise and bool(rank) and len(dims) == rank and dims[-1] != 1
        return cls(name or "", canon, dims, rank, block, depthwise and not grouped, matrix, grouped)

    @property
    def known(self) -> bool:
        return bool(self.canonical)

    @property
    def count(self) -> int:
        return int(prod(self.dims))

    @property
    def batch(self) -> int:
        """How many [C, N] matrices a MatMul weight of dims [B, C, N] holds one after the other (1 otherwise)."""
        return int(prod(self.dims[:-2])) if self.matrix else 1

    @property
    def logical_shape(self) -> tuple[int, ...]:
        """(N, H, W, C) for dims [H, W, C, N]; (N, W, C) for [W, C, N]; (..., N, C) for a matrix
        [..., C, N]; dims as stored otherwise."""
        if self.matrix:
            return (*self.dims[:-2], self.dims[-1], self.dims[-2])
        if self.grouped:
            return (self.dims[-2], *self.dims[:-2], self.dims[-1])
        if self.rank:
            return (self.dims[-1], *self.dims[:-1])
        return self.dims

    @property
    def is_view(self) -> bool:
        """True when the logical form is a reshape of the stored elements (no blocking to undo)."""
        if self.grouped:
            return False
        if not self.block:
            return True
        k, inner = self._blocked_axes()
        return k < self.block or inner == 1

    @property
    def blocked_channels(self) -> int:
        """How many channels the layout's blocks run along: N of a Conv (a grouped Conv's too: dims
        [*spatial, N, C/g]), C of a depthwise one, N of a matrix."""
        return self._blocked_axes()[0]

    def _blocked_axes(self) -> tuple[int, int]:
        """(channels blocked, elements per channel) of one weight (one matrix of a batch)."""
        if self.depthwise:
            return self.dims[-2], int(prod(self.dims[:-2]))
        if self.matrix:
            return self.dims[-1], self.dims[-2]
        if self.grouped:
            return self.dims[-2], int(prod(self.dims[:-2])) * self.dims[-1]
        return self.dims[-1], int(prod(self.dims[:-1]))

    def stored_index(self) -> NDArray[np.int64]:
        """Element offset in the stored data of each logical element (an array of logical shape)."""
        shape = self.logical_shape
        # the index arrays (k, e, blocked, tail, index: int64) of as many elements as the dims claim
        budget.ask(40 * self.count, f"the element order of a {self.count:,}-element tensor (layout "
                                    f"{self.name or 'none'})", transient=True)
        if self.grouped:
            return self._grouped_index()
        if not self.block:
            return np.arange(self.count, dtype=np.int64).reshape(shape)
        b = self.block
        if self.depthwise and self.dims[-1] != 1:
            raise LayoutError(f"a depthwise weight in {self.name} has dims [..., C, 1]", found=list(self.dims))
        # blocked along output channels N (channels C for depthwise), inner = H*W*C (the spatial positions)
        k_count, inner = self._blocked_axes()
        aligned = k_count // b * b
        k = np.arange(k_count, dtype=np.int64)[:, None]
        e = np.arange(inner, dtype=np.int64)[None, :]
        blocked = (k // b) * inner * b + e * b + k % b
        rest = k_count - aligned
        tail = aligned * inner + (e * rest + (k - aligned) if self.depthwise else (k - aligned) * inner + e)
        index = np.where(k < aligned, blocked, tail)  # (K, inner)
        if self.depthwise:  # logical (1, *spatial, C): channels fastest
            return np.ascontiguousarray(index.T).reshape(shape)
        if self.matrix:  # each matrix of a batch after the one before
            one = k_count * inner
            return (np.arange(self.batch, dtype=np.int64)[:, None, None] * one + index[None]).reshape(shape)
        return index.reshape(shape)


    def _grouped_index(self) -> NDArray[np.int64]:
        """A grouped Conv's weight, logical (N, *spatial, C/g): blocks of `block` output channels with
        (*spatial, C/g, lane) inside, then the rest as (C/g, *spatial, rest); unblocked (`c`):
        (*spatial, C/g, N)."""
        n, cg = self.dims[-2], self.dims[-1]
        spatial = int(prod(self.dims[:-2]))
        k = np.arange(n, dtype=np.int64)[:, None, None]
        hw = np.arange(spatial, dtype=np.int64)[None, :, None]
        c = np.arange(cg, dtype=np.int64)[None, None, :]
        if not self.block:
            index = (hw * cg + c) * n + k
        else:
            b = self.block
            aligned, inner = n // b * b, spatial * cg
            rest = n - aligned
            blocked = (k // b) * inner * b + (hw * cg + c) * b + k % b
            tail = aligned * inner + (c * spatial + hw) * rest + (k - aligned)
            index = np.where(k < aligned, blocked, tail)
        return index.reshape(self.logical_shape)


__all__ = ["DTYPES", "LAYOUTS", "PREFIX", "WeightLayout", "layout_name"]
