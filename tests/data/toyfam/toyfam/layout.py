"""The `--toy` buffer layout: a strided view (no copy), packing, and a memory map to draw."""

from __future__ import annotations

from typing import Any

import numpy as np

from binparse.core.buffers import byte_view
from binparse.family.draw import MemoryMap, positions
from binparse.family.draw.model import DATA, ZERO
from binparse.family.options import ints


class ToyLayout:
    def __init__(self, rows: int, cols: int, pitch: int) -> None:
        self.rows, self.cols, self.pitch = rows, cols, pitch

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        full = np.frombuffer(byte_view(buffer), "<i2", count=self.rows * self.pitch).reshape(self.rows, self.pitch)
        data = full[:, : self.cols]
        return (data / 4 if dequantize else data), f"toy buffer ({self.rows}, {self.cols})"

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        out = np.zeros((self.rows, self.pitch), "<i2")
        out[:, : self.cols] = np.rint(np.asarray(logical) * 4) if quantize else logical
        return out.tobytes(), f"toy buffer, {out.nbytes} bytes"

    def memory_map(self) -> MemoryMap:
        pos = positions(self.rows * self.pitch, "the toy buffer")
        row, col = pos // self.pitch, pos % self.pitch
        data = col < self.cols
        return MemoryMap(f"toy buffer {self.rows}x{self.cols}, pitch {self.pitch}",
                         role=np.where(data, DATA, ZERO).astype(np.int8).reshape(self.rows, self.pitch),
                         logical_shape=(self.rows, self.cols),
                         logical_index=np.where(data, row * self.cols + col, -1).reshape(self.rows, self.pitch),
                         logical_grid=(self.rows, self.cols), channel_axis=0)


def make(options: Any, sources: list[str]) -> ToyLayout:
    rows, cols = ints(options.shape, 2, "--shape ROWS,COLS")
    return ToyLayout(rows, cols, options.toy_pitch or cols)
