"""FPGA AI Suite ROMs: read a 65,536 × 128-bit Quartus MIF (1.8 MB of text, HEX).

    python bench/bench_intel_mif.py

binparse's `MifFile` (every word's digits turned into bytes at once in numpy) against the `mif`
package on PyPI (0.7, `mif.loads(text, packed=True)`: a Python call per word), when it is
installed (`pip install mif`), and Python's `int(v, 16)` per word as the floor a hand-written
reader would start from. The ROM is generated here: word i = i × 0x9e3779b97f4a7c15 mod 2^128.

Target (docs/intel-ip.md, "Why not the mif package"): binparse at least 3x faster than `mif`.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from binparse.formats.intel_dla.arch.mif import MifFile  # noqa: E402
from timing import Target, report  # noqa: E402

DEPTH, WIDTH = 65536, 128
BINPARSE = "binparse: MifFile(text)"
MIF = "mif 0.7: mif.loads(text, packed=True)"
FLOOR = "Python: int(v, 16) per word"


def rom_text() -> str:
    lines = [f"DEPTH = {DEPTH};", f"WIDTH = {WIDTH};", "ADDRESS_RADIX = HEX;", "DATA_RADIX = HEX;", "CONTENT", "BEGIN"]
    lines += [f"{i:x}: {(i * 0x9E3779B97F4A7C15) % (1 << WIDTH):x};" for i in range(DEPTH)]
    return "\n".join(lines + ["END;"]) + "\n"


def main() -> None:
    text = rom_text()
    raw = text.encode()
    entry = re.compile(r"([0-9a-f]+): ([0-9a-f]+);")
    cases = [(BINPARSE, lambda: MifFile(raw)),
             (FLOOR, lambda: [int(v, 16) for _, v in entry.findall(text)])]
    targets: tuple[Target, ...] = ()
    if importlib.util.find_spec("mif") is not None:
        import mif
        cases.insert(1, (MIF, lambda: mif.loads(text, packed=True)))
        targets = (Target(BINPARSE, MIF, 3.0, faster=True),)
    else:
        print("(the mif package is not installed: pip install mif to time it too)")
    report(cases, BINPARSE, FLOOR, targets=targets,
           title=f"Quartus MIF, {DEPTH:,} words of {WIDTH} bits ({len(raw) / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
