"""`binparse draw`: SVG pictures of device buffers, the way the vendors' manuals draw them.

A layout becomes a `MemoryMap` (`maps`: role, channel and logical index of every element, by
index arithmetic), which `render` turns into an SVG with a memory panel, a logical panel and a
legend.
"""

from .maps import dlhdl_map, espdl_map, espdl_weight_map, intel_map, tidl_map
from .model import MemoryMap
from .render import render

__all__ = ["MemoryMap", "dlhdl_map", "espdl_map", "espdl_weight_map", "intel_map", "render", "tidl_map"]
