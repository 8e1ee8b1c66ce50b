"""The memory map: a device buffer as a grid of elements in address order, each with a role.

Rows have the layout's natural length (a padded line, a row of blocked lanes, a vector of the
IP); every element has a role (data, spatial padding, channel padding, zero lane /
vector padding, another tensor's channels) and, for data, its channel and flat logical index.

A small map is given whole (`role`, `logical_index`); a map of any size is given as its `grid`
and a function that makes the roles and logical indices of a band of rows (`cells`), so that the
renderer reads it band by band and never holds more than a band of a large buffer.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

DATA, SPATIAL, CHANNEL, ZERO, OTHER, UNUSED = 1, 2, 3, 4, 5, 0
ROLE_NAMES = {DATA: "data", SPATIAL: "spatial padding", CHANNEL: "channel padding",
              ZERO: "zero lanes / vector padding", OTHER: "other tensor", UNUSED: "unused"}
ROLE_CLASS = {DATA: "data", SPATIAL: "spatial-pad", CHANNEL: "channel-pad", ZERO: "zero-lane", OTHER: "other",
              UNUSED: "unused"}
ROLE_COLOR = {SPATIAL: "#f4b183", CHANNEL: "#c9c9c9", ZERO: "#9dc3e6", OTHER: "#e2d3f0", UNUSED: "#ffffff"}
CHANNEL_COLORS = ["#2e7d32", "#66bb6a", "#1565c0", "#42a5f5", "#ad1457", "#ec407a", "#ef6c00", "#ffa726"]

#: (roles, logical indices) of the rows [start, stop) of a map, each (stop - start, cols)
Cells = Callable[[int, int], tuple[NDArray[np.int8], NDArray[np.int64]]]
#: the memory element offset of each flat logical index given (the layout's own arithmetic)
Lands = Callable[[NDArray[np.int64]], NDArray[np.int64]]


class Starts(Sequence[int]):
    """The rows where each `step`-element segment of a `total`-element buffer of `cols`-element rows
    starts (the first excepted): k·step // cols for k = 1, 2, … — a map's separators, however many,
    without a list of them."""

    def __init__(self, step: int, total: int, cols: int) -> None:
        self.step, self.total, self.cols = max(int(step), 1), int(total), max(int(cols), 1)

    def __len__(self) -> int:
        return max(-(-self.total // self.step) - 1, 0)

    def __getitem__(self, k):  # type: ignore[no-untyped-def]
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        return (k + 1) * self.step // self.cols


@dataclass
class MemoryMap:
    """A buffer as rows × cols elements: the role of each and, for data, its flat logical index.

    Channels (the colours) follow from the logical index and `channel_axis` of `logical_shape`.
    Given whole (`role` and `logical_index`, both rows × cols) or band by band (`grid` and `cells`).
    """

    title: str
    role: NDArray[np.int8] | None = None  # (rows, cols), for a map given whole
    logical_shape: tuple[int, ...] = ()
    logical_index: NDArray[np.int64] | None = None  # (rows, cols) flat logical index of data, -1 elsewhere
    row_note: str = ""  # what a row is ("one line of 67 elements")
    axis_x: str = ""
    axis_y: str = ""
    separators: Sequence[int] = field(default_factory=list)  # rows where a channel / block / slice starts, ascending
    logical_grid: tuple[int, int] = (0, 0)  # rows, cols of the logical panel
    channel_axis: int = 0  # the axis of logical_shape that is the channel
    logical_note: str = "rows × columns"
    separator_note: str = "a channel starts"
    grid: tuple[int, int] = (0, 0)  # rows, cols of a map given band by band
    cells: Cells | None = None  # the band maker of such a map
    lands: Lands | None = None  # where logical elements land, when the layout says it (else the map is searched)

    def __post_init__(self) -> None:
        if self.cells is None:
            if self.role is None or self.logical_index is None:
                raise ValueError("a memory map is given whole (role, logical_index) or band by band (grid, cells)")
            self.grid = (int(self.role.shape[0]), int(self.role.shape[1]))

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, cols) of the map."""
        return self.grid

    def band(self, start: int, stop: int) -> tuple[NDArray[np.int8], NDArray[np.int64]]:
        """The roles and logical indices of rows [start, stop)."""
        if self.cells is not None:
            return self.cells(start, stop)
        assert self.role is not None and self.logical_index is not None
        return self.role[start:stop], self.logical_index[start:stop]

    def separators_inside(self, rows: int, most: int | None = None) -> tuple[list[int], int]:
        """(the first `most` (all: None) separators strictly inside rows 0..rows, how many there are)."""
        seps = self.separators
        lo, hi = bisect.bisect_right(seps, 0), bisect.bisect_left(seps, rows)
        n = max(hi - lo, 0)
        take = n if most is None else min(n, most)
        return [int(seps[lo + k]) for k in range(take)], n

    def channel_of(self, index: NDArray[np.int64]) -> NDArray[np.int64]:
        """The channel of each flat logical index (-1 stays -1)."""
        stride = math.prod(self.logical_shape[self.channel_axis + 1:])
        return np.where(index >= 0, (index // stride) % self.logical_shape[self.channel_axis], -1)
