"""Hostile FPGA AI Suite inputs (issue 27), each run in a capped subprocess: peak RSS within
bound(input size), the exit code of the contract, and the error named.

- a 301-byte input dump claiming 3×4000×4000 (it took 3.8 GB: index arrays over the claimed grid);
- an .arch with k_vector/c_vector 10^8 (a problem for inspect, yet `pack --arch` wrote gigabytes);
- a 10 MB .arch list (~50× its size in memory): refused by its size before it is read;
- a MIF whose DEPTH claims 16 GB of words, and one whose range line fills 4e9 addresses.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..conftest import real
from .harness import bound, run_cli, within

DUMP = "intel_dla/2025.1-resnet50-tf/input_transform_dump_TensorFlow_Frontend_IR_0.csv"


def test_input_dump_claiming_a_huge_grid(tmp_path: Path) -> None:
    text = real(DUMP).read_text().replace(";3;224;224;1;2;2;1;3;3;0;2;2;0;32;115;115;1;",
                                          ";3;4000;4000;1;2;2;1;3;3;0;2;2;0;32;2003;2003;1;")
    (tmp_path / "input_transform_dump_X_0.csv").write_text(text)
    size = len(text.encode())
    assert size == 305
    r = run_cli("doctor", tmp_path)
    assert within(r, size), (r.peak_rss, bound(size))
    assert r.returncode == 0
    assert "[ok] FPGA AI Suite input: logical [1, 3, 1, 4000, 4000] → 128,384,288 FP16 IP elements" in r.stdout
    r = run_cli("inspect", tmp_path)
    assert within(r, size) and r.returncode == 0
    assert "  input: 1×3×1×4000×4000 (N, C, D, H, W) → 128,384,288 FP16 IP elements (CVEC 32, folded and padded from 48,000,000)" in r.stdout
    (tmp_path / "ip.bin").write_bytes(bytes(64))  # a buffer far shorter than the claim: named, not read past
    r = run_cli("view", "--intel-dla", tmp_path, tmp_path / "ip.bin", "--side", "input", "--npy", tmp_path / "x.npy")
    assert within(r, size) and r.returncode != 0 and "Traceback" not in r.stderr


def test_absurd_vectors_are_refused_where_used(tmp_path: Path) -> None:
    arch = tmp_path / "big.arch"
    arch.write_text("family: 'AGX7'\nk_vector: 100000000\nc_vector: 100000000\narch_precision: FP16\n")
    r = run_cli("inspect", arch)  # inspect shows (0, or 2 under the CLI's exit-code contract); doctor proves
    assert within(r, arch.stat().st_size) and r.returncode in (0, 2)
    assert "[problem] k_vector 100000000 is impossible" in r.stdout
    r = run_cli("doctor", tmp_path)
    assert within(r, arch.stat().st_size) and r.returncode == 1
    assert "[problem] big.arch: k_vector 100000000 is impossible" in r.stdout
    np.save(tmp_path / "x.npy", np.ones((1, 3, 8, 8), np.float32))
    for side in ("input", "output"):
        out = tmp_path / f"{side}.bin"
        r = run_cli("pack", "--intel-dla", "--arch", arch, "--shape", "1,3,8,8", "--side", side, tmp_path / "x.npy",
                    "--out", out)
        assert within(r, arch.stat().st_size) and r.returncode == 3, r.stderr
        assert "big.arch lays out no buffer: k_vector 100000000 is impossible" in r.stderr
        assert not out.exists()
    r = run_cli("draw", "--intel-dla", "--arch", arch, "--shape", "1,3,8,8", "--svg", tmp_path / "x.svg")
    assert r.returncode == 3 and "lays out no buffer" in r.stderr and not (tmp_path / "x.svg").exists()


def test_ten_megabyte_arch_list_is_refused_by_its_size(tmp_path: Path) -> None:
    arch = tmp_path / "list.arch"
    body = "module { name: 'filter_reader' cross_clock: 1 }\n" * (10_000_000 // 48)
    arch.write_text("family: 'AGX7'\nk_vector: 32\nc_vector: 16\nconfig_network { modules {\n" + body + "} }\n")
    size = arch.stat().st_size
    r = run_cli("inspect", arch)
    assert within(r, size) and r.peak_rss < 128 << 20 and r.returncode == 2  # its content is not read: exit 2
    assert f"an .arch file of {size:,} bytes: architecture descriptions are a few KB" in r.stderr
    r = run_cli("doctor", tmp_path)
    assert within(r, size) and r.returncode in (1, 2) and "could not be read" in r.stdout  # 2: unread, by the contract


def test_arch_list_under_the_cap_stays_in_bounds(tmp_path: Path) -> None:
    arch = tmp_path / "list.arch"
    body = "future_thing { a: 1 b: 'x' }\n" * (1_000_000 // 29)  # undeclared fields: the costliest to keep
    arch.write_text("family: 'AGX7'\nk_vector: 32\nc_vector: 16\n" + body)
    r = run_cli("inspect", arch, timeout=120)
    assert within(r, arch.stat().st_size) and r.returncode == 0


def test_mif_claims_are_checked_before_allocating(tmp_path: Path) -> None:
    rom = tmp_path / "ddrfree_filter_hw_0.mif"
    rom.write_text("WIDTH=32;\nDEPTH=4000000000;\nADDRESS_RADIX=HEX;\nDATA_RADIX=HEX;\nCONTENT BEGIN\n"
                   "[0..EE6B27FF] : 1;\nEND;\n")
    for args in (("inspect", rom), ("doctor", tmp_path)):
        r = run_cli(*args, timeout=30)
        assert within(r, os.path.getsize(rom)) and not r.killed
        assert "DEPTH 4,000,000,000 × WIDTH 32: the MIF's words needs 16,000,000,000 bytes, over the budget of " \
               in r.stdout + r.stderr
        assert r.returncode == 2  # refused by the budget: not read, nothing proven


def test_large_mif_and_svh_stay_in_bounds(tmp_path: Path) -> None:
    lines = ["DEPTH = 1000000;", "WIDTH = 32;", "ADDRESS_RADIX = HEX;", "DATA_RADIX = HEX;", "CONTENT", "BEGIN"]
    rom = tmp_path / "ddrfree_filter_hw_0.mif"
    rom.write_text("\n".join(lines + [f"{i:x}: {i:x};" for i in range(700_000)] + ["END;"]))
    svh = tmp_path / "dla_dma_param.svh"
    svh.write_text("".join(f"  localparam int P{i} = {i};\n" for i in range(350_000)))
    for path, said in ((rom, "1,000,000 words of 32 bits"), (svh, "350000 parameters")):
        r = run_cli("inspect", path)
        assert within(r, path.stat().st_size) and r.returncode == 0 and said in r.stdout
    r = run_cli("doctor", tmp_path)
    assert within(r, rom.stat().st_size + svh.stat().st_size) and r.returncode in (0, 2)
