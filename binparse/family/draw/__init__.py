"""`binparse draw`: SVG pictures of device buffers, the way the vendors' manuals draw them.

A layout becomes a `MemoryMap` (each family's `drawing` module: role, channel and logical index of every element, by
index arithmetic), which `render` turns into an SVG with a memory panel, a logical panel and a
legend.
"""

from .maps import band_positions, drawable, positions
from .model import MemoryMap, Starts
from .render import render

__all__ = ["MemoryMap", "Starts", "band_positions", "drawable", "positions", "render"]
