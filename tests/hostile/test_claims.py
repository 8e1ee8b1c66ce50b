"""Claims the core itself reads (the families' claims are in their own hostile cases): a .npy whose
header claims more elements than the file holds (`pack`), a struct fixture spec that asks for an
absurd size. Refused before anything that large is allocated: exit 2, peak RSS within bound."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .harness import REPO, bound, run_cli

IO = REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin"


def test_pack_of_a_npy_claiming_more_than_it_holds(tmp_path: Path) -> None:
    npy = tmp_path / "huge.npy"
    with open(npy, "wb") as f:  # a header claiming 3 x 9999 x 9999 bytes (300 MB), then 192 bytes
        np.lib.format.write_array_header_1_0(f, {"descr": "|u1", "fortran_order": False, "shape": (3, 9999, 9999)})
        f.write(bytes(192))
    r = run_cli("pack", IO, npy, "--input", "images", "--out", tmp_path / "out.bin", timeout=30)
    assert r.returncode == 2 and r.stderr.startswith(f"binparse: error: {npy}: cannot read the array: ")
    assert not (tmp_path / "out.bin").exists() and r.peak_rss <= bound(npy.stat().st_size)


def test_a_struct_spec_asking_for_an_absurd_size(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("schema: tidl/tidl_io_buf_desc\nparams: {num_in_bufs: 16, num_out_bufs: 16}\n"
                    "values: {}\nsize: 1099511627776\noutput: big.bin\n")
    r = run_cli("fixture", spec, timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stderr == (f"binparse: error: {spec}, size: a size or offset a struct fixture spec may give; expected "
                        "an integer 0..268,435,456, found 1099511627776\n")
    assert not (tmp_path / "big.bin").exists() and r.peak_rss <= bound(spec.stat().st_size)
