"""ESP-DL weight layouts (schemas/espdl/weight_layouts.yaml) as index arithmetic.

`WeightLayout.of(text, dims, depthwise)` reads a layout name; `logical_shape` is the `c` target's
order ((N, H, W, C) or (N, W, C); (1, H, W, C) for a depthwise weight); `stored_index()` gives, for
each logical element, its element offset in the stored data, so `stored[index]` is the logical
array and `out[index] = logical` packs one. Unblocked layouts need no index: their logical form is a
reshape of the stored one (`is_view`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

import numpy as np
from numpy.typing import NDArray

from ....accessors.espdl.weight_layouts import SCHEMA
from .... import budget
from ....errors import LayoutError

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

    @classmethod
    def of(cls, name: str | None, dims: tuple[int, ...], depthwise: bool = False) -> WeightLayout:
        canon = ALIASES.get(name or "", name or "")
        spec = LAYOUTS.get(canon)
        if spec is None:  # unknown or absent: read as stored (row-major dims), said so by `known`
            return cls(name or "", "", dims, 0, 0, depthwise)
        rank, block = int(spec["rank"]), int(spec["block"])  # type: ignore[call-overload]
        if rank and len(dims) != rank:
            raise LayoutError(f"layout {name} needs {rank} dims", expected=f"{rank} dims", found=list(dims))
        return cls(name or "", canon, dims, rank, block, depthwise)

    @property
    def known(self) -> bool:
        return bool(self.canonical)

    @property
    def count(self) -> int:
        return int(prod(self.dims))

    @property
    def logical_shape(self) -> tuple[int, ...]:
        """(N, H, W, C) for dims [H, W, C, N]; (N, W, C) for [W, C, N]; dims as stored otherwise."""
        if self.rank:
            return (self.dims[-1], *self.dims[:-1])
        return self.dims

    @property
    def is_view(self) -> bool:
        """True when the logical form is a reshape of the stored elements (no blocking to undo)."""
        if not self.block:
            return True
        k, inner = (self.dims[-2], prod(self.dims[:-2])) if self.depthwise else (self.dims[-1], prod(self.dims[:-1]))
        return k < self.block or inner == 1

    def stored_index(self) -> NDArray[np.int64]:
        """Element offset in the stored data of each logical element (an array of logical shape)."""
        shape = self.logical_shape
        # the index arrays (k, e, blocked, tail, index: int64) of as many elements as the dims claim
        budget.ask(40 * self.count, f"the element order of a {self.count:,}-element tensor (layout "
                                    f"{self.name or 'none'})")
        if not self.block:
            return np.arange(self.count, dtype=np.int64).reshape(shape)
        b = self.block
        if self.depthwise:  # blocked along channels C, inner = the spatial positions
            if self.dims[-1] != 1:
                raise LayoutError(f"a depthwise weight in {self.name} has dims [..., C, 1]", found=list(self.dims))
            k_count, inner = self.dims[-2], int(prod(self.dims[:-2]))
        else:  # blocked along output channels N, inner = H*W*C
            k_count, inner = self.dims[-1], int(prod(self.dims[:-1]))
        aligned = k_count // b * b
        k = np.arange(k_count, dtype=np.int64)[:, None]
        e = np.arange(inner, dtype=np.int64)[None, :]
        blocked = (k // b) * inner * b + e * b + k % b
        rest = k_count - aligned
        tail = aligned * inner + (e * rest + (k - aligned) if self.depthwise else (k - aligned) * inner + e)
        index = np.where(k < aligned, blocked, tail)  # (K, inner)
        if self.depthwise:  # logical (1, *spatial, C): channels fastest
            return np.ascontiguousarray(index.T).reshape(shape)
        return index.reshape(shape)


__all__ = ["DTYPES", "LAYOUTS", "PREFIX", "WeightLayout", "layout_name"]
