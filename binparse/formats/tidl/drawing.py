"""The memory map of a TIDL tensor's padded buffer, for `binparse draw`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...family.draw.maps import band_positions, strided_lands
from ...family.draw.model import CHANNEL, DATA, SPATIAL, UNUSED, MemoryMap, Starts
from ...core.errors import LayoutError


def tidl_map(t: Any) -> MemoryMap:
    """A TIDL tensor's padded buffer: rows are lines (line pitch elements)."""
    lay = t.layout_desc
    # a channel plane holds its data lines; its bottom padding is what the channel pitch leaves (TI's own files
    # give fewer bottom pad lines than padB says: fastdepth's output, padB 34, channel pitch 57,920 = 258.6 lines)
    if t.line_pitch <= 0 or t.channel_pitch < (t.pad.top + t.shape[4]) * t.line_pitch - t.pad.right:
        raise LayoutError("pitches cannot hold the tensor, nothing to draw", file=t.file, path=t.path,
                          expected="line pitch > 0 and channel pitch >= (padT + H) · line pitch - padR (a channel's "
                                   "data lines)",
                          found=f"line pitch {t.line_pitch}, channel pitch {t.channel_pitch}")
    lp = t.line_pitch
    total = -(-max(lay.size, -(-lay.nbytes // t.dtype.itemsize)) // lp) * lp
    n, d1, d2, c_, h_, w_ = t.shape

    def cells(start: int, stop: int) -> tuple[Any, Any]:
        """Rows [start, stop) (lines), by index arithmetic on their element positions."""
        pos = band_positions(start, stop, lp)
        r = pos % max(t.dim2_pitch, 1)
        ch = r // t.channel_pitch
        inplane = r % t.channel_pitch
        row, col = inplane // lp, inplane % lp
        is_data = ((ch < c_) & (row >= t.pad.top) & (row < t.pad.top + h_) & (col >= t.pad.left)
                   & (col < t.pad.left + w_))
        role = np.where(ch >= c_, CHANNEL, np.where(is_data, DATA, SPATIAL)).astype(np.int8)
        role[pos >= n * t.batch_pitch] = UNUSED
        blk = pos // max(t.dim2_pitch, 1)  # (n, d1, d2) block
        d2i, rest = blk % d2, blk // d2
        d1i, ni = rest % d1, rest // d1
        logical = np.where(role == DATA, ((((ni * d1 + d1i) * d2 + d2i) * c_ + ch) * h_ + (row - t.pad.top)) * w_
                           + (col - t.pad.left), -1)
        return role.reshape(-1, lp), logical.reshape(-1, lp)

    return MemoryMap(
        f"TIDL {t.direction} '{t.name}' ({t.dtype.name}): {'×'.join(map(str, t.shape))} (N, DIM1, DIM2, C, H, W)",
        grid=(total // lp, lp), cells=cells, lands=strided_lands(lay.shape, lay.strides, lay.offset),
        logical_shape=t.shape,
        row_note=f"rows are lines of line pitch {lp} = padL {t.pad.left} + W {w_} + padR {t.pad.right}",
        axis_x=f"x: element in line (line pitch {lp})",
        axis_y=f"y: line (channel pitch {t.channel_pitch} elements, padT {t.pad.top}, padB {t.pad.bottom}, "
               f"padCh {t.pad.channel})",
        separators=Starts(t.channel_pitch, total, lp),
        logical_grid=(n * d1 * d2 * c_ * h_, w_), channel_axis=3, logical_note="(N·DIM1·DIM2·C·H) rows × W columns")
