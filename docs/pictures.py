"""The pictures of README.md and docs/cli.md: `binparse draw` on the bundled fixtures, one per family.

Run `python docs/pictures.py` from the repository root to redraw them; tests/test_draw.py checks
that the committed SVGs are what these commands write today.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PICTURES: dict[str, list[str]] = {
    "tidl_seg_map.svg": ["fixtures/tidl/io_08x/900_tidl_io_1.bin", "--output", "seg_map"],
    "espdl_concat_abc_member1.svg": ["--espdl", "--shape", "2,3,3", "--padding", "1,0,0,1", "--concat", "2,3,1",
                                     "--member", "1"],
    "dlhdl_t9_3x3x4.svg": ["--dlhdl", "conv", "--thread-number", "9", "--shape", "3,3,4"],
    "intel_testnet_2025.svg": ["fixtures/intel_dla/testnet_2025", "--intel-dla"],
}


def draw_all(out_dir: Path) -> list[Path]:
    """Write every picture into out_dir with the CLI's own entry point."""
    from binparse.cli import main
    paths = []
    for name, argv in PICTURES.items():
        path = out_dir / name
        if main(["draw", *argv, "--svg", str(path)]) != 0:
            raise SystemExit(f"binparse draw failed for {name}")
        paths.append(path)
    return paths


if __name__ == "__main__":
    import os
    os.chdir(ROOT)
    draw_all(Path("docs"))
    sys.exit(0)
