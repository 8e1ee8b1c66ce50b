"""FPGA AI Suite IP tensor layouts as arithmetic on index arrays.

IP feature tensors are NCDHW with the channels cut into vectors of V (CVEC for inputs, KVEC for
outputs), the vector lane fastest: element (n, c, d, h, w) lies at
`((((n * G + c // V) * D + d) * H + h) * W + w) * V + c % V` with `G = ceil(C / V)` groups; the
last group is zero-padded. Inputs may be folded first (stride and padding moved into channels,
Altera's `RawImage::GenerateLayoutIndexes`). Everything here computes whole index arrays with
numpy; nothing loops over elements.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core import budget
from ....core.errors import FormatError

VECTOR_WIDTHS = (2, 4, 8, 16, 32, 64, 128)  # CVEC in {4..64}, KVEC 4..128; 2 in the manual's example


def ip_offsets(n: NDArray[Any], c: NDArray[Any], d: NDArray[Any], h: NDArray[Any], w: NDArray[Any],
               dims: tuple[int, int, int, int], vector: int) -> NDArray[np.int64]:
    """IP element offsets of logical coordinates; dims = (groups G, D, H, W)."""
    g, dd, hh, ww = dims
    out: NDArray[np.int64] = ((((n.astype(np.int64) * g + c // vector) * dd + d) * hh + h) * ww + w) * vector + c % vector
    return out


GRID_BYTES = 96  # bytes a layout's element takes: its five coordinates, its IP and logical offsets (int64)


def logical_grid(shape: tuple[int, int, int, int, int]) -> tuple[NDArray[np.int64], ...]:
    """Flat (n, c, d, h, w) coordinates of every element of a logical NCDHW tensor, in C order; the
    arrays of a layout made from them (~12 int64 an element) asked of the budget first."""
    count = int(np.prod(shape, dtype=object))
    budget.ask(GRID_BYTES * count, f"the layout of a {'×'.join(map(str, shape))} tensor ({count:,} elements)")
    n, c, d, h, w = (np.asarray(x, dtype=np.int64).reshape(-1) for x in np.indices(shape, sparse=False))
    return n, c, d, h, w


def output_mapping(shape: tuple[int, int, int, int, int], kvec: int,
                   slices: list[tuple[int, int]] | None = None) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(IP offsets, logical offsets) of an output tensor of logical `shape` (N, C, D, H, W).

    `slices` are the logical channel ranges the IP writes as separate outputs (default: one);
    each is padded to a multiple of KVEC and stored after the previous one (binparse's model of
    "padding at the boundaries between IP outputs").
    """
    n_, c_, d_, h_, w_ = shape
    slices = slices or [(0, c_)]
    ips, logicals = [], []
    base = 0
    for c0, c1 in slices:
        sub = (n_, c1 - c0, d_, h_, w_)
        n, c, d, h, w = logical_grid(sub)
        groups = -(-(c1 - c0) // kvec)
        ips.append(base + ip_offsets(n, c, d, h, w, (groups, d_, h_, w_), kvec))
        logicals.append(np.ravel_multi_index((n, c + c0, d, h, w), shape).astype(np.int64))
        base += n_ * groups * kvec * d_ * h_ * w_
    return np.concatenate(ips), np.concatenate(logicals)


@dataclass(frozen=True)
class Folding:
    """Input folding of a 2-D input (the input dump's stride, padding and folded dims)."""

    stride_h: int = 1
    stride_w: int = 1
    pad_top: int = 0
    pad_left: int = 0
    pad_bottom: int = 0
    pad_right: int = 0
    out_channels: int = 0  # folded channels, padded to CVEC (0: derive)
    out_height: int = 0
    out_width: int = 0

    def ip_dims(self, c: int, h: int, w: int, cvec: int) -> tuple[int, int, int]:
        """(channels padded to CVEC, height, width) of the folded IP input: the dump's values, else
        ceil((H + top + bottom) / stride) etc. (as the 2025.1 dump shows: 224 + 3 + 2 → 115)."""
        oc = self.out_channels or -(-(c * self.stride_h * self.stride_w) // cvec) * cvec
        oh = self.out_height or -(-(h + self.pad_top + self.pad_bottom) // self.stride_h)
        ow = self.out_width or -(-(w + self.pad_left + self.pad_right) // self.stride_w)
        return oc, oh, ow


def input_mapping(shape: tuple[int, int, int, int, int], cvec: int,
                  folding: Folding | None = None) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """(logical offsets, IP offsets) of an input of logical `shape` (N, C, D, H, W), CVEC-packed,
    optionally folded: `out_d = c*sh*sw + ((h+pt) % sh)*sw + (w+pl) % sw`, `out_h = (h+pt) // sh`,
    `out_w = (w+pl) // sw` (GenerateLayoutIndexes, with the banked width equal to the out width)."""
    f = folding or Folding()
    n_, c_, d_, h_, w_ = shape
    n, c, d, h, w = logical_grid(shape)
    sh, sw = f.stride_h, f.stride_w
    oc = c * sh * sw + ((h + f.pad_top) % sh) * sw + (w + f.pad_left) % sw
    oh, ow = (h + f.pad_top) // sh, (w + f.pad_left) // sw
    out_c, out_h, out_w = f.ip_dims(c_, h_, w_, cvec)
    groups = -(-out_c // cvec)
    ip = ip_offsets(n, oc, d, oh, ow, (groups, d_, out_h, out_w), cvec)
    logical = np.arange(n.size, dtype=np.int64)
    return logical, ip


@dataclass(frozen=True)
class Roles:
    """Which IP coordinate column is the lane inside a vector and which the vector group, as the
    offsets show (the manual's example and the 2025.1 files name them the other way round)."""

    lane: str
    group: str
    vector: int
    dims: tuple[int, int, int]  # IP D, H, W

    def describe(self, names: dict[str, str]) -> str:
        return (f"'{names[self.lane]}' is the lane within a vector of {self.vector}, "
                f"'{names[self.group]}' the vector group")


def find_roles(cols: Mapping[str, NDArray[np.int64]], *, file: str | None = None,
               dims: tuple[int, int, int] | None = None, names: dict[str, str] | None = None) -> Roles:
    """Work out lane and group from the data: the assignment under which every IP offset equals
    `(((group * D + d) * H + h) * W + w) * V + lane` for one vector width V.

    When none fits, the FormatError names the first row that breaks the closest assignment.
    """
    if cols["ip_offset"].size == 0:
        raise FormatError("mapping has no rows", file=file)
    d_, h_, w_ = dims or tuple(int(cols[k].max()) + 1 for k in ("ip_d", "ip_h", "ip_w"))
    best: tuple[int, str, int, NDArray[np.int64]] | None = None
    for lane, group in (("ip_cvec", "ip_c"), ("ip_c", "ip_cvec")):
        widest = int(cols[lane].max()) + 1
        for v in sorted({widest, *[x for x in VECTOR_WIDTHS if x >= widest]}):
            off = ((((cols[group] * d_) + cols["ip_d"]) * h_ + cols["ip_h"]) * w_ + cols["ip_w"]) * v + cols[lane]
            wrong = np.flatnonzero(off != cols["ip_offset"])
            if wrong.size == 0:
                return Roles(lane, group, v, (d_, h_, w_))
            if best is None or wrong.size < best[0]:
                best = (int(wrong.size), lane, v, off)
    assert best is not None
    _, lane, v, off = best
    k = int(np.flatnonzero(off != cols["ip_offset"])[0])
    column = (names or {}).get("ip_offset", "ip_offset")
    raise FormatError("IP offset agrees with no lane/group assignment of the C and Cvec columns", file=file,
                      path=f"row {k + 2}, column '{column}'",
                      expected=f"{int(off[k])} (closest: lane in '{(names or {}).get(lane, lane)}', V = {v})",
                      found=int(cols["ip_offset"][k]))
