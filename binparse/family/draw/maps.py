"""What every family's memory map is built from: element positions, within the command's budget.

Each family turns its layouts into a `MemoryMap` in its own `drawing` module (index arithmetic
over these positions); `binparse.family.draw` renders any map. A map of a large buffer is given band by
band (`MemoryMap(grid=..., cells=...)`, its positions from `band_positions`), so that no array of
the buffer's size is ever made; a map given whole asks the budget for its arrays first
(`positions`, `drawable`)."""

from __future__ import annotations

from typing import Any

import numpy as np

WHOLE_BYTES_PER_ELEMENT = 32  # a map given whole: positions, roles, logical indices and their temporaries


def positions(total: int, what: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Element positions 0..total-1 of a buffer whose map is made whole (the budget asked first)."""
    return np.arange(drawable(total, what), dtype=np.int64)


def drawable(total: int, what: str) -> int:
    """`total`, once the command's budget has granted a whole map of that many elements (`BudgetError` if not)."""
    from ...core.budget import ask
    ask(max(int(total), 0) * WHOLE_BYTES_PER_ELEMENT, f"the memory map of {what} ({int(total):,} elements)")
    return total


def strided_lands(shape: tuple[int, ...], strides: tuple[int, ...], offset: int) -> Any:
    """`MemoryMap.lands` of a strided layout: the memory element offset of flat logical indices
    (element `offset` + the index's coordinates times the element `strides`)."""
    def lands(flat: np.ndarray[Any, np.dtype[np.int64]]) -> np.ndarray[Any, np.dtype[np.int64]]:
        coords = np.unravel_index(np.asarray(flat, np.int64), shape)
        return int(offset) + sum((c.astype(np.int64) * int(s) for c, s in zip(coords, strides)),
                                 np.zeros(len(flat), np.int64))
    return lands


def band_positions(start_row: int, stop_row: int, cols: int) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Element positions of rows [start_row, stop_row) of a map of `cols`-element rows (one band)."""
    return np.arange(start_row * cols, stop_row * cols, dtype=np.int64)
