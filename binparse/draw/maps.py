"""Memory maps of each family's layouts, computed with index arithmetic over element positions."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import LayoutError
from .model import CHANNEL, DATA, OTHER, SPATIAL, UNUSED, ZERO, MemoryMap

MAX_ELEMENTS = 2**25  # a map holds a few int64 arrays of the buffer's size: 32 Mi elements ≈ 1 GiB of work


def _positions(total: int, what: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Element positions 0..total-1 of a buffer, refusing buffers too large to map in memory."""
    return np.arange(_drawable(total, what), dtype=np.int64)


def _drawable(total: int, what: str) -> int:
    if total > MAX_ELEMENTS:
        raise LayoutError(f"{what} is too large to draw", expected=f"at most {MAX_ELEMENTS:,} elements",
                          found=f"{total:,}", hint="draw a smaller shape with the same padding and blocking: "
                          "the picture repeats per channel / block")
    return total


def tidl_map(t: Any) -> MemoryMap:
    """A TIDL tensor's padded buffer: rows are lines (line pitch elements)."""
    lay = t.layout_desc
    if t.line_pitch <= 0 or t.channel_pitch < (t.pad.top + t.shape[4] + t.pad.bottom) * t.line_pitch:
        raise LayoutError("pitches cannot hold the tensor, nothing to draw", file=t.file, path=t.path,
                          expected="line pitch > 0 and channel pitch >= (padT + H + padB) · line pitch",
                          found=f"line pitch {t.line_pitch}, channel pitch {t.channel_pitch}")
    lp = t.line_pitch
    total = -(-max(lay.size, -(-lay.nbytes // t.dtype.itemsize)) // lp) * lp
    pos = _positions(total, f"TIDL {t.direction} '{t.name}'")
    r = pos % max(t.dim2_pitch, 1)
    ch = r // t.channel_pitch
    inplane = r % t.channel_pitch
    row, col = inplane // lp, inplane % lp
    n, d1, d2, c_, h_, w_ = t.shape
    is_data = (ch < c_) & (row >= t.pad.top) & (row < t.pad.top + h_) & (col >= t.pad.left) & (col < t.pad.left + w_)
    role = np.where(ch >= c_, CHANNEL, np.where(is_data, DATA, SPATIAL)).astype(np.int8)
    role[pos >= n * t.batch_pitch] = UNUSED
    blk = pos // max(t.dim2_pitch, 1)  # (n, d1, d2) block
    d2i, rest = blk % d2, blk // d2
    d1i, ni = rest % d1, rest // d1
    logical = np.where(role == DATA,
                       ((((ni * d1 + d1i) * d2 + d2i) * c_ + ch) * h_ + (row - t.pad.top)) * w_ + (col - t.pad.left), -1)
    return MemoryMap(
        f"TIDL {t.direction} '{t.name}' ({t.dtype.name}): {'×'.join(map(str, t.shape))} (N, DIM1, DIM2, C, H, W)",
        role=role.reshape(-1, lp), logical_shape=t.shape, logical_index=logical.reshape(-1, lp),
        row_note=f"rows are lines of line pitch {lp} = padL {t.pad.left} + W {w_} + padR {t.pad.right}",
        axis_x=f"x: element in line (line pitch {lp})",
        axis_y=f"y: line (channel pitch {t.channel_pitch} elements, padT {t.pad.top}, padB {t.pad.bottom}, "
               f"padCh {t.pad.channel})",
        separators=(np.arange(t.channel_pitch, total, t.channel_pitch) // lp).tolist(),
        logical_grid=(n * d1 * d2 * c_ * h_, w_), channel_axis=3, logical_note="(N·DIM1·DIM2·C·H) rows × W columns")


def espdl_map(t: Any) -> MemoryMap:
    """An ESP-DL padded HWC buffer: rows are padded image rows (Wp pixels × Cp channels)."""
    hp, wp, cp = t.shape_with_padding
    h, w, c = t.shape
    pt, _, pl, _ = t.padding
    pos = _positions(hp * wp * cp, "the ESP-DL tensor")
    y, x, ch = pos // (wp * cp), (pos // cp) % wp, pos % cp
    inbox = (y >= pt) & (y < pt + h) & (x >= pl) & (x < pl + w)
    mine = (ch >= t.channel_offset) & (ch < t.channel_offset + c)
    role = np.where(inbox & mine, DATA, np.where(inbox, OTHER, SPATIAL)).astype(np.int8)
    logical = np.where(role == DATA, ((y - pt) * w + (x - pl)) * c + (ch - t.channel_offset), -1)
    return MemoryMap(
        f"ESP-DL tensor {h}×{w}×{c} (H, W, C), padding T,B,L,R {t.padding}"
        + (f", channels {t.channel_offset}..{t.channel_offset + c - 1} of {cp}" if t.channel_stride else ""),
        role=role.reshape(hp, wp * cp), logical_shape=t.shape, logical_index=logical.reshape(hp, wp * cp),
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
    pos = _positions(total, f"ESP-DL weight '{info.name}'")
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


def dlhdl_map(lay: Any) -> MemoryMap:
    """A dlhdl conv-module buffer: rows are one y of one block (X values of N lanes)."""
    x_, y_, z_ = lay.shape
    b, n, c = lay.blocks, lay.n, lay.c
    pos = _positions(lay.size, "the dlhdl buffer")
    lane, xi, yi, bi = pos % n, (pos // n) % x_, (pos // (n * x_)) % y_, pos // (n * x_ * y_)
    z = bi * c + lane
    is_data = (lane < c) & (z < z_)
    logical = np.where(is_data, (xi * y_ + yi) * z_ + z, -1)
    return MemoryMap(
        f"MATLAB DL HDL conv buffer: {x_}×{y_}×{z_} (x, y, z), ConvThreadNumber {lay.thread_number}: "
        f"C = {c}, N = {n}, {b} block(s)",
        role=np.where(is_data, DATA, ZERO).astype(np.int8).reshape(b * y_, x_ * n), logical_shape=lay.shape,
        logical_index=logical.reshape(b * y_, x_ * n), row_note=f"rows are one y of one block: {x_} x values × {n} lanes",
        axis_x=f"x: x value × lane (N = {n}; lanes ≥ C = {c} are zero)",
        axis_y="y: y within block, blocks of N·X·Y values", separators=list(range(y_, b * y_, y_)),
        logical_grid=(x_ * y_, z_), channel_axis=2, logical_note="(X·Y) positions × Z channels",
        separator_note="a block of N channels starts")


def intel_map(cfg: Any) -> MemoryMap:
    """An FPGA AI Suite IP output buffer: rows are vectors of KVEC lanes."""
    v = cfg.vector_width
    size = _drawable(cfg.ip_size, "the FPGA AI Suite output")
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
