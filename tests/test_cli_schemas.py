"""`binparse schemas`: every family's kinds of file, folder and buffer, with their versions, how each is
recognised and their formats; `--json` the same for scripts (issue 39)."""

from __future__ import annotations

import json

import pytest

from binparse.cli import main
from binparse.family.plugins import families
from binparse.family.registry import registered

FAMILIES = ["Espressif ESP-DL", "Intel/Altera FPGA AI Suite", "MATLAB Deep Learning HDL", "TI TIDL"]


def _json(capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["schemas", "--json"]) == 0
    doc: dict = json.loads(capsys.readouterr().out)
    return doc


def test_schemas_lists_the_four_families_with_their_kinds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas"]) == 0
    text = capsys.readouterr().out
    heads = [line for line in text.splitlines() if line and not line.startswith(" ")]
    assert heads == ["Espressif ESP-DL (espdl): 6 kinds of file, folder or buffer, 5 formats with a schema",
                     "Intel/Altera FPGA AI Suite (intel_dla): 11 kinds of file, folder or buffer",
                     "MATLAB Deep Learning HDL (dlhdl): 2 kinds of file, folder or buffer",
                     "TI TIDL (tidl): 11 kinds of file, folder or buffer, 23 formats with a schema"]
    lines = text.splitlines()
    arch = lines.index("  arch: architecture description (.arch): KVEC, CVEC, precision, interfaces, limits")
    assert lines[arch + 1:arch + 3] == ["    versions: 2023.x to 2025.x", "    recognised by: a text file named *.arch"]
    conv = lines.index("  conv buffer: the conv module's activations in external memory: blocks of N lanes by "
                       "ConvThreadNumber, C of them used")
    assert lines[conv + 2] == ("    recognised by: no format of its own: read with --dlhdl conv and its "
                               "--thread-number, --shape, --dtype")
    record = lines.index("  quantization_record: esp-ppq's .json quantization record (per-op bit widths, policies, "
                         "scales)")
    assert lines[record + 2] == "    recognised by: a text file, by its first bytes"
    rows = {line.split()[0]: line.split("  ") for line in lines if line.startswith("    tidl.io.")}
    assert [c.strip() for c in rows["tidl.io.j7_08"] if c.strip()] == [
        "tidl.io.j7_08", "J7 TIDL 08.x (08_00 … 08_06)", "37,256 bytes", "tidl/tidl_io_buf_desc"]
    assert "    espdl.pdl3  ESP-DL v3 PDL3  magic PDL3     espdl/espdl_container" in lines


def test_schemas_json_holds_every_registered_format_once_under_a_declared_kind(
        capsys: pytest.CaptureFixture[str]) -> None:
    doc = _json(capsys)
    assert [f["title"] for f in doc["families"]] == FAMILIES
    listed = [(fam["family"], k["kind"], f["format"]) for fam in doc["families"] for k in fam["kinds"]
              for f in k["formats"]]
    assert sorted(x[2] for x in listed) == sorted(f.name for f in registered())
    assert {(f.family, f.kind, f.name) for f in registered()} == set(listed)
    io = next(f for fam in doc["families"] for k in fam["kinds"] for f in k["formats"] if f["format"] == "tidl.io.tda2")
    assert io == {"format": "tidl.io.tda2", "version": "TDA2 TIDL 01.xx (16/16)", "identified_by": "1,160 bytes",
                  "size": 1160, "magic": None, "schema": "tidl/tidl_io_buf_desc_tda2"}
    edl2 = next(f for fam in doc["families"] for k in fam["kinds"] for f in k["formats"] if f["format"] == "espdl.edl2")
    assert edl2["magic"] == b"EDL2".hex() and edl2["size"] is None


def test_every_kind_a_family_reads_is_declared_and_said_in_full(capsys: pytest.CaptureFixture[str]) -> None:
    """Each built-in family declares every kind its formats and signs name, with what it is, its versions
    and how it is recognised (a kind named only by a sign or format would be listed bare)."""
    for fam in families():
        if fam.name not in ("tidl", "espdl", "intel_dla", "dlhdl"):
            continue  # a plug-in installed by another test may declare none
        declared = {k.kind for k in fam.kinds}
        assert {s.kind for s in fam.signs} <= declared, fam.name
        assert {f.kind for f in registered() if f.family == fam.name} <= declared, fam.name
    for fam in _json(capsys)["families"]:
        for k in fam["kinds"]:
            if fam["family"] in ("tidl", "espdl", "intel_dla", "dlhdl"):
                assert k["what"] and k["versions"] and k["recognised_by"], (fam["family"], k["kind"])
