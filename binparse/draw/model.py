"""The memory map: a device buffer as a grid of elements in address order, each with a role.

Rows have the layout's natural length (a padded line, a row of blocked lanes, a vector of the
IP); every element has a role (data, spatial padding, channel padding, zero lane /
vector padding, another tensor's channels) and, for data, its channel and flat logical index.
"""

from __future__ import annotations

import math
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


@dataclass
class MemoryMap:
    """A buffer as rows × cols elements: the role of each and, for data, its flat logical index.

    Channels (the colours) follow from the logical index and `channel_axis` of `logical_shape`.
    """

    title: str
    role: NDArray[np.int8]  # (rows, cols)
    logical_shape: tuple[int, ...]
    logical_index: NDArray[np.int64]  # (rows, cols) flat logical index of data, -1 elsewhere
    row_note: str = ""  # what a row is ("one line of 67 elements")
    axis_x: str = ""
    axis_y: str = ""
    separators: list[int] = field(default_factory=list)  # rows where a channel / block / slice starts
    logical_grid: tuple[int, int] = (0, 0)  # rows, cols of the logical panel
    channel_axis: int = 0  # the axis of logical_shape that is the channel
    logical_note: str = "rows × columns"
    separator_note: str = "a channel starts"

    def channel_of(self, index: NDArray[np.int64]) -> NDArray[np.int64]:
        """The channel of each flat logical index (-1 stays -1)."""
        stride = math.prod(self.logical_shape[self.channel_axis + 1:])
        return np.where(index >= 0, (index // stride) % self.logical_shape[self.channel_axis], -1)
