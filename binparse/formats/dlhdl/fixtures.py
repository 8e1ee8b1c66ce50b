"""MATLAB DL HDL fixtures: conv-module buffers (pattern + 0xA5 padding lanes) and FC outputs.

    family: dlhdl
    conv: [{name: t9, thread_number: 9, shape: [3, 3, 4], dtype: float32}]
    fc: [{name: fc10, size: 10, frames: 3}]
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...family.fixtures.common import SENTINEL, Output, pattern
from .layouts import DTYPES, ConvLayout, FcLayout


def write_dlhdl(spec: dict[str, Any], out: Output) -> None:
    for c in spec.get("conv", []):
        lay = ConvLayout(int(c["thread_number"]), tuple(c["shape"]), c.get("dtype", "float32"))
        expected = pattern(lay.shape, DTYPES[lay.dtype])
        buf = bytearray(lay.pack(expected))
        v = lay.buffer_view(buf)
        pad = np.ones(v.shape, bool)
        pad[..., : lay.c] = False
        z_tail = lay.blocks * lay.c - lay.shape[2]  # channels past Z in the last block are padding too
        if z_tail:
            pad[-1, ..., lay.c - z_tail: lay.c] = True
        v.view(np.uint8).reshape(*v.shape, -1)[pad] = SENTINEL
        out.tensor(c["name"], bytes(buf), expected, thread_number=lay.thread_number, c=lay.c, n=lay.n)
    for f in spec.get("fc", []):
        fc = FcLayout(int(f["size"]), f.get("dtype", "float32"))
        expected = pattern((int(f.get("frames", 1)), fc.size), DTYPES[fc.dtype])
        out.tensor(f["name"], expected.tobytes(), expected, size=fc.size)


def write(spec: dict[str, Any], spec_path: Path, out_dir: Path) -> list[Path]:
    out = Output(out_dir, spec_path, spec["family"])
    write_dlhdl(spec, out)
    return out.write()
