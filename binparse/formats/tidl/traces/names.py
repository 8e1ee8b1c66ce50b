"""TIDL layer-trace file names: what the name alone says (dataId, dims, fixed or float, prefix).

TIDL (debug_level >= 3) writes one file per layer output, named by `tidl_writeTraceDataBuf`:

- current SDKs: `<prefix>%04d_%04d_%04d_%05d_%05d_%05dx%05d` = dataId, N, D1, D2, C, W, H;
- older SDKs:   `<prefix>%04d_%05d_%05d_%05dx%05d` = dataId, N, C, W, H (D1 = D2 = 1);

then `.y` (the tensor's element type) or `_float.bin` (float32). The prefix is `tidl_trace`
(TIDL-RT) or `tidl_trace_subgraph_<n>_` (OSRT); multi-core runs put `C7x_<core>_` before it.
W comes before H in the name; the data are dense (N, D1, D2, C, H, W). The current pattern is
tried first: an old-style reading of a current name would take two dims for the prefix, while a
current reading of an old name needs two more 4-digit numbers than the old name has.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from ..plugin import TRACE_NAMES

_NUM4, _NUM5 = r"(\d{4,})", r"(\d{5,})"
_END = r"(\.y|_float\.bin)$"
CURRENT = re.compile(rf"^(.*?){_NUM4}_{_NUM4}_{_NUM4}_{_NUM5}_{_NUM5}_{_NUM5}x{_NUM5}{_END}")
OLD = re.compile(rf"^(.*?){_NUM4}_{_NUM5}_{_NUM5}_{_NUM5}x{_NUM5}{_END}")
_SUBGRAPH = re.compile(r"subgraph_(\d+)_")
_CORE = re.compile(r"C7x_(\d+)_")
#: file-name patterns of traces (for a family's name signs)
NAME_PATTERNS = TRACE_NAMES


@dataclass(frozen=True)
class TraceName:
    """What a trace file's name says."""

    file: Path
    prefix: str
    data_id: int
    shape: tuple[int, int, int, int, int, int]  # (N, D1, D2, C, H, W)
    is_float: bool
    style: str  # "current" (6 dims) or "old" (N, C, W, H)

    @property
    def count(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n

    @property
    def subgraph(self) -> int | None:
        m = _SUBGRAPH.search(self.prefix)
        return int(m.group(1)) if m else None

    @property
    def core(self) -> int | None:
        m = _CORE.search(self.prefix)
        return int(m.group(1)) if m else None


def parse(path: str | os.PathLike[str]) -> TraceName | None:
    """The name's fields, or None when it is not a trace name."""
    p = Path(path)
    name = p.name
    if not (name.endswith(".y") or name.endswith("_float.bin")):
        return None
    m = CURRENT.match(name)
    if m:
        did, n, d1, d2, c, w, h = (int(v) for v in m.groups()[1:8])
        return TraceName(p, m.group(1), did, (n, d1, d2, c, h, w), m.group(9) != ".y", "current")
    m = OLD.match(name)
    if m:
        did, n, c, w, h = (int(v) for v in m.groups()[1:6])
        return TraceName(p, m.group(1), did, (n, 1, 1, c, h, w), m.group(7) != ".y", "old")
    return None


__all__ = ["CURRENT", "NAME_PATTERNS", "OLD", "TraceName", "parse"]
