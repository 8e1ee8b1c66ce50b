"""dlhdl conv-module buffer → logical (X, Y, Z): binparse against numpy's own transpose-copy.

    python bench/bench_dlhdl.py

A 224 x 224 x 64 int8 activation in the conv-module format for the default ConvThreadNumber 16
(C = N = 4: 16 blocks of 224 x 224 x 4). numpy's floor is the transpose-copy of the same bytes
viewed as (blocks, Y, X, N) into (X, Y, blocks, N).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from binparse.formats.dlhdl import ConvLayout  # noqa: E402
from timing import CPU, Target, report  # noqa: E402


def main() -> None:
    for threads in (16, 9):
        lay = ConvLayout(threads, (224, 224, 64), "int8")
        a = np.random.default_rng(0).integers(-128, 128, lay.shape).astype(np.int8)
        buf = bytes(lay.pack(a))
        b, n = lay.blocks, lay.n
        assert np.array_equal(lay.to_logical(buf), a)
        print(f"ConvThreadNumber {threads} (C = {lay.c}, N = {n}): {len(buf):,} bytes")
        report([("numpy: frombuffer.reshape.transpose.copy", lambda: np.ascontiguousarray(
                    np.frombuffer(buf, np.int8).reshape(b, 224, 224, n).transpose(2, 1, 0, 3))),
                ("binparse: ConvLayout.to_logical", lambda: lay.to_logical(buf))],
               base="binparse: ConvLayout.to_logical", floor="numpy: frombuffer.reshape.transpose.copy",
               title=f"dlhdl conv to_logical, thread number {threads}", clock=CPU,
               targets=(Target("binparse: ConvLayout.to_logical", "numpy: frombuffer.reshape.transpose.copy", 3.0),))


if __name__ == "__main__":
    main()
