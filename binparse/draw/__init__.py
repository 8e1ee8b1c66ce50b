"""`binparse draw`: SVG pictures of device buffers, the way the vendors' manuals draw them.

A layout becomes a `MemoryMap` (each family's `drawing` module: role, channel and logical index of every element, by
index arithmetic), which `render` turns into an SVG with a memory panel, a logical panel and a
legend.
"""

from .maps import MAX_ELEMENTS, drawable, positions
from .model import MemoryMap
from .render import render

__all__ = ["MAX_ELEMENTS", "MemoryMap", "drawable", "positions", "render"]
