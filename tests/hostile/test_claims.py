"""Claims the core itself reads (the families' claims are in their own hostile cases): a .npy whose
header claims more elements than the file holds (`pack`), a struct fixture spec that asks for an
absurd size. Refused before anything that large is allocated: exit 2, peak RSS within bound."""

from __future__ import annotations

import re
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


FAMILY_SPECS = {
    # a family's fixture spec whose dims claim more than the budget: (spec, the pattern refused)
    "dlhdl conv 30000x30000x4": ("family: dlhdl\nconv:\n  - {name: big, thread_number: 16, shape: [30000, 30000, 4], "
                                 "dtype: float32}\n", "the pattern of a 30000×30000×4 float32 tensor (3,600,000,000 "
                                                      "elements): its element indexes needs 57,600,000,000 bytes"),
    "espdl initializer 20x30000x30000x3": (
        "family: espdl\nfiles:\n  - output: c.espdl\n    format: EDL2\n    graph:\n      name: c\n"
        "      inputs: [{name: x, dims: [1, 5, 5, 3], dtype: int8, exponents: [-7]}]\n"
        "      outputs: [{name: y, dims: [1, 3, 3, 20], dtype: int8, exponents: [-5]}]\n"
        "      nodes: [{name: c0, op_type: Conv, inputs: [x, w], outputs: [y], attributes: {group: 1, quant_type: S8}}]\n"
        "      initializers: [{name: w, dims: [30000, 30000, 3, 20], dtype: int8, layout: NHWC, exponents: [-5]}]\n",
        "the pattern of a 20×30000×30000×3 int8 tensor (54,000,000,000 elements): its element indexes needs "
        "864,000,000,000 bytes"),
}


def test_a_family_spec_whose_dims_claim_more_than_the_budget(tmp_path: Path) -> None:
    """The pattern a family's fixture fills a tensor with asks the budget first (binparse.family.fixtures.common):
    refused, exit 2, nothing written (it was a MemoryError and the bug path)."""
    for k, (text, said) in enumerate(FAMILY_SPECS.values()):
        spec = tmp_path / f"spec{k}.yaml"
        spec.write_text(text)
        out = tmp_path / f"out{k}"
        r = run_cli("fixture", spec, "-o", out, timeout=60)
        assert r.returncode == 2 and r.stderr.startswith(f"binparse: error: {said} after "), r.stderr
        assert f"over the budget of {8 * spec.stat().st_size + (256 << 20):,} bytes" in r.stderr
        assert not out.exists() or list(out.iterdir()) == []
        assert r.peak_rss <= bound(spec.stat().st_size)


def test_a_spec_value_its_field_cannot_hold(tmp_path: Path) -> None:
    """A TIDL net spec whose stride is 2^32 + 1 (a 32-bit field): the spec is named with the field,
    exit 2, nothing written (construct's FormatFieldError went through the bug path; the generated
    suite found it)."""
    text = (REPO / "fixtures" / "tidl" / "net_tidl_api_1_2" / "spec.yaml").read_text()
    assert text.count("stride_h: 1,") == 1
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("stride_h: 1,", "stride_h: 4294967297,"))
    r = run_cli("fixture", spec, "-o", tmp_path / "out", timeout=60)
    assert (r.returncode, r.stderr) == (2, f"binparse: error: {spec}, tidl_net_tda2::conv_params.stride_h: the value "
                                           "does not fit the field; expected an integer -2147483648..2147483647 (<i4), "
                                           "found 4294967297\n")
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []


def test_a_tidl_io_spec_built_with_2_to_the_32_buffers(tmp_path: Path) -> None:
    """`in_bufs: 2^32 + 1` (TIDL_MAX_ALG_IN_BUFS, which sizes the struct's arrays): each array's
    entries are asked of the budget before they are built (it took 14 GB and was killed at 274 s;
    the generated suite found it)."""
    text = (REPO / "fixtures" / "tidl" / "io_09_01_am68a" / "spec.yaml").read_text()
    assert text.count("\nin_bufs: 32\n") == 1
    spec = tmp_path / "spec.yaml"
    spec.write_text(text.replace("\nin_bufs: 32\n", "\nin_bufs: 4294967297\n"))
    r = run_cli("fixture", spec, "-o", tmp_path / "out", timeout=60)
    assert r.returncode == 2, r.stderr
    assert r.stderr.startswith("binparse: error: tidl_io_buf_desc.in_data_format: 4,294,967,297 entries built from "
                               "the spec needs 274,877,907,008 bytes after "), r.stderr
    budget = re.search(r"over the budget of ([\d,]+) bytes \(8 × ([\d,]+) bytes of input \+ 256 MiB\)", r.stderr)
    assert budget is not None, r.stderr  # the inputs: the spec and the schema it is built with
    read = int(budget[2].replace(",", ""))
    assert int(budget[1].replace(",", "")) == 8 * read + (256 << 20) and read > spec.stat().st_size
    assert not (tmp_path / "out").exists() or list((tmp_path / "out").iterdir()) == []
    assert r.peak_rss <= bound(spec.stat().st_size)
