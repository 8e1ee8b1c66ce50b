"""The memory map of an FPGA AI Suite IP output buffer, for `binparse draw`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....family.draw.maps import drawable
from ....family.draw.model import DATA, ZERO, MemoryMap
from ....core.errors import LayoutError


def intel_map(cfg: Any) -> MemoryMap:
    """An FPGA AI Suite IP output buffer: rows are vectors of KVEC lanes."""
    v = cfg.vector_width
    size = drawable(cfg.ip_size, "the FPGA AI Suite output")
    if v <= 0 or size % v:
        raise LayoutError("the IP buffer is not a whole number of vectors", expected=f"a multiple of KVEC {v}",
                          found=size)
    role = np.full(size, ZERO, np.int8)
    role[cfg.ip_offsets] = DATA
    logical = np.full(size, -1, np.int64)
    logical[cfg.ip_offsets] = cfg.logical_offsets
    n, c, d, h, w = cfg.logical_shape
    starts = np.cumsum([s.size for s in cfg.slices[:-1]], dtype=np.int64) // v
    return MemoryMap(
        f"FPGA AI Suite IP output: logical {'×'.join(map(str, cfg.logical_shape))} (N, C, D, H, W), "
        f"KVEC {v}, {len(cfg.slices)} slice(s)",
        role=role.reshape(-1, v), logical_shape=cfg.logical_shape, logical_index=logical.reshape(-1, v),
        row_note=f"rows are vectors of {v} FP16 lanes", axis_x=f"x: lane (KVEC {v})",
        axis_y="y: vector (lines: slice boundaries)", separators=starts.tolist(),
        logical_grid=(n * c, d * h * w), channel_axis=1, logical_note="(N·C) channels × (D·H·W) positions",
        separator_note="a slice starts")


def streamed_map(s: Any, shape: tuple[int, int, int, int, int]) -> MemoryMap:
    """A streamed input (lightweight layout transform): rows are bus words of whole HWC pixels."""
    n, c, d, h, w = shape
    size = drawable(n * c * d * h * w, "the FPGA AI Suite streamed input")
    per_row = s.pixels_per_word * c
    rows = -(-size // per_row)
    drawable(rows * per_row, "the FPGA AI Suite streamed input's bus words")  # a bus word wider than the tensor
    role = np.full(rows * per_row, ZERO, np.int8)
    role[:size] = DATA
    logical = np.full(rows * per_row, -1, np.int64)
    e = np.arange(size, dtype=np.int64)  # stream element e: pixel e // c, channel e % c
    pixel, ch, spatial = e // c, e % c, d * h * w
    logical[:size] = (pixel // spatial) * c * spatial + ch * spatial + pixel % spatial
    return MemoryMap(
        f"FPGA AI Suite streamed input: logical {'×'.join(map(str, shape))} (N, C, D, H, W), raw HWC {s.input_type}, "
        f"{s.pixels_per_word} pixel(s) a {s.bus_width}-bit word (lightweight layout transform)",
        role=role.reshape(rows, per_row), logical_shape=shape, logical_index=logical.reshape(rows, per_row),
        row_note=f"rows are {s.bus_width}-bit bus words", axis_x=f"x: element ({s.pixels_per_word} pixel(s) × {c})",
        axis_y="y: bus word", logical_grid=(n * c, d * h * w), channel_axis=1,
        logical_note="(N·C) channels × (D·H·W) positions")
