"""What every family's memory map is built from: element positions, with a bound on the size drawn.

Each family turns its layouts into a `MemoryMap` in its own `drawing` module (index arithmetic
over these positions); `binparse.draw` renders any map."""

from __future__ import annotations

from typing import Any

import numpy as np

from .. import budget
from ..errors import LayoutError


MAX_ELEMENTS = 2**25  # a map holds a few int64 arrays of the buffer's size: 32 Mi elements ≈ 1 GiB of work
MAP_BYTES = 24  # bytes a map's element takes: its role (int8), its logical index (int64), positions (int64), ...


def positions(total: int, what: str) -> np.ndarray[Any, np.dtype[np.int64]]:
    """Element positions 0..total-1 of a buffer, refusing buffers too large to map in memory."""
    return np.arange(drawable(total, what), dtype=np.int64)


def drawable(total: int, what: str) -> int:
    """`total`, the elements of a map to draw, once it is at most MAX_ELEMENTS (what a picture can show)
    and its arrays (`MAP_BYTES` an element) are asked of the budget (`binparse.budget`)."""
    if total > MAX_ELEMENTS:
        raise LayoutError(f"{what} is too large to draw", expected=f"at most {MAX_ELEMENTS:,} elements",
                          found=f"{total:,}", hint="draw a smaller shape with the same padding and blocking: "
                          "the picture repeats per channel / block")
    budget.ask(MAP_BYTES * max(total, 0), f"the memory map of {what} ({total:,} elements)")
    return total
