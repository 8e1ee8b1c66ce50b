"""Memory maps of ESP-DL buffers (padded HWC, concatenated members) and blocked weights, for `binparse draw`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ....family.draw.maps import band_positions, positions, strided_lands
from ....family.draw.model import DATA, OTHER, SPATIAL, ZERO, MemoryMap


def espdl_map(t: Any) -> MemoryMap:
    """An ESP-DL padded HWC buffer: rows are padded image rows (Wp pixels × Cp channels)."""
    hp, wp, cp = t.shape_with_padding
    h, w, c = t.shape
    pt, _, pl, _ = t.padding
    cols = wp * cp

    def cells(start: int, stop: int) -> tuple[Any, Any]:
        pos = band_positions(start, stop, cols)
        y, x, ch = pos // (wp * cp), (pos // cp) % wp, pos % cp
        inbox = (y >= pt) & (y < pt + h) & (x >= pl) & (x < pl + w)
        mine = (ch >= t.channel_offset) & (ch < t.channel_offset + c)
        role = np.where(inbox & mine, DATA, np.where(inbox, OTHER, SPATIAL)).astype(np.int8)
        logical = np.where(role == DATA, ((y - pt) * w + (x - pl)) * c + (ch - t.channel_offset), -1)
        return role.reshape(-1, cols), logical.reshape(-1, cols)

    return MemoryMap(
        f"ESP-DL tensor {h}×{w}×{c} (H, W, C), padding T,B,L,R {t.padding}"
        + (f", channels {t.channel_offset}..{t.channel_offset + c - 1} of {cp}" if t.channel_stride else ""),
        grid=(hp, cols), cells=cells, logical_shape=t.shape,
        lands=strided_lands(t.shape, (wp * cp, cp, 1), (pt * wp + pl) * cp + t.channel_offset),
        row_note=f"rows are padded rows of {wp} pixels × {cp} channels",
        axis_x=f"x: pixel × channel (pixel stride {cp})", axis_y=f"y: row (row stride {wp * cp})",
        logical_grid=(h * w, c), channel_axis=2, logical_note="(H·W) pixels × C channels")


def espdl_weight_map(t: Any) -> MemoryMap:
    """An .espdl weight's raw_data: rows of `block` lanes (16 for a layout without blocks), each
    element coloured by its output channel (channel for depthwise weights); the bytes raw_data adds
    to fill its last 16-byte block are zero lanes."""
    lay, info = t.layout, t.info
    itemsize = t.np_dtype.itemsize
    cols = lay.block or max(16 // itemsize, 1)
    total = -(-max(lay.count, info.data_nbytes // itemsize) // cols) * cols
    pos = positions(total, f"ESP-DL weight '{info.name}'")
    logical = np.full(total, -1, np.int64)
    logical[lay.stored_index().reshape(-1)] = np.arange(lay.count, dtype=np.int64)
    role = np.where(pos < lay.count, DATA, ZERO).astype(np.int8)
    shape = lay.logical_shape
    k = shape[-1] if lay.depthwise else shape[0]
    inner = lay.count // max(k, 1)
    aligned = k // lay.block * lay.block if lay.block else 0
    per_block = (inner * lay.block) // cols if lay.block else 0
    seps = list(range(per_block, aligned * inner // cols + 1, per_block)) if per_block else []
    return MemoryMap(
        f"ESP-DL weight '{info.name}' ({t.np_dtype.name}): dims {list(info.dims)} as stored, layout "
        f"{info.layout or 'none'}; logical {'×'.join(map(str, shape))}",
        role=role.reshape(-1, cols), logical_shape=shape, logical_index=logical.reshape(-1, cols),
        row_note=f"rows are {cols} elements" + (f": one lane per {'channel' if lay.depthwise else 'output channel'}"
                                                 if lay.block else ""),
        axis_x=f"x: lane ({cols})" if lay.block else f"x: element ({cols} per row)",
        axis_y="y: position in the block (H, W, C)" if lay.block else "y: row",
        separators=seps, logical_grid=(k, inner) if not lay.depthwise else (inner, k),
        channel_axis=len(shape) - 1 if lay.depthwise else 0,
        logical_note="channels × (H·W) positions" if lay.depthwise else "output channels × (H·W·C)",
        separator_note=f"a block of {lay.block} channels (or the unblocked rest) starts" if lay.block else "a channel starts")
