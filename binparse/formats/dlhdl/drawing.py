"""The memory map of a MATLAB DL HDL conv-module buffer, for `binparse draw`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...family.draw.maps import band_positions
from ...family.draw.model import DATA, ZERO, MemoryMap, Starts


def dlhdl_map(lay: Any) -> MemoryMap:
    """A dlhdl conv-module buffer: rows are one y of one block (X values of N lanes)."""
    x_, y_, z_ = lay.shape
    b, n, c = lay.blocks, lay.n, lay.c
    cols = x_ * n

    def cells(start: int, stop: int) -> tuple[Any, Any]:
        pos = band_positions(start, stop, cols)
        lane, xi, yi, bi = pos % n, (pos // n) % x_, (pos // (n * x_)) % y_, pos // (n * x_ * y_)
        z = bi * c + lane
        is_data = (lane < c) & (z < z_)
        logical = np.where(is_data, (xi * y_ + yi) * z_ + z, -1)
        return np.where(is_data, DATA, ZERO).astype(np.int8).reshape(-1, cols), logical.reshape(-1, cols)

    def lands(flat: Any) -> Any:  # logical (x, y, z) → block z // C, lane z % C
        xi, yi, z = np.unravel_index(np.asarray(flat, np.int64), lay.shape)
        return (((z // c) * y_ + yi) * x_ + xi) * n + z % c

    return MemoryMap(
        f"MATLAB DL HDL conv buffer: {x_}×{y_}×{z_} (x, y, z), ConvThreadNumber {lay.thread_number}: "
        f"C = {c}, N = {n}, {b} block(s)",
        grid=(b * y_, cols), cells=cells, lands=lands, logical_shape=lay.shape,
        row_note=f"rows are one y of one block: {x_} x values × {n} lanes",
        axis_x=f"x: x value × lane (N = {n}; lanes ≥ C = {c} are zero)",
        axis_y="y: y within block, blocks of N·X·Y values", separators=Starts(y_ * cols, b * y_ * cols, cols),
        logical_grid=(x_ * y_, z_), channel_axis=2, logical_note="(X·Y) positions × Z channels",
        separator_note="a block of N channels starts")
