"""`binparse doctor`: right versions and no false alarms on every real folder; mismatches said
in plain words; exit codes 0 / 1 / 3."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from binparse.cli import main
from binparse.cli.doctor import doctor

from .conftest import FIXTURES, REAL, real


def folders() -> list[Path]:
    if not REAL.is_dir():
        return []
    # every folder of real files (README.md aside): nets, io files, models, printouts, .arch files, headers
    return sorted({p.parent for p in REAL.rglob("*") if p.is_file() and p.name != "README.md"})


IO_VERSIONS = {"j7-08.2": "J7 TIDL 08.x (08_00 … 08_06)", "j7-09.x": "J7 TIDL 09.00–09.01",
               "j7-10.00": "J7 TIDL 10.00-11.01, 1 core", "fastdepth": "J7 TIDL 09.00–09.01",
               "midas-9.0-62a": "J7 TIDL 09.00–09.01"}
NET_VERSIONS = {"j7-08.2": "J7 TIDL 8.2", "j7-09.x": "J7 TIDL 9.0/9.1 (", "j7-10.01": "J7 TIDL 10.01 ("}


# folders of raw device buffers only: nothing in them says what they are (the .arch beside them does,
# with `view --intel-dla --arch`), so doctor checks nothing there, and says so
RAW_BUFFERS = {"intel_dla/lenet-agx5-streaming/data"}


# new real files in ../shared/real that their issues make pass (the case's id: the issue)
PENDING: dict[str, int] = {}
# files read under a rule no vendor file confirms, or read as meant where the chip reads otherwise (int32
# values in int64 vectors): "not verified", named in the headline (exit code 2)
NOT_VERIFIED = {"edl1-encrypted": ["quantized_320_encry.espdl"], "am57x": ["tidl_param_dense_1x1.bin"],
                "int32-maxpool-pads": ["mnist.espdl"]}

# real folders whose verdict is a proven problem, by name: the P4 mnist's int32 values in int64 vectors
# (esp-ppq's defect: the chip reads them as espdl.fbs declares; `binparse repair` fixes it)
PROVEN = {"espdl/int32-maxpool-pads": ["mnist.espdl: 56 int64 vectors hold int32 values"]}


def pending(folder: Path) -> object:
    issue = PENDING.get(folder.relative_to(REAL).as_posix())
    if issue is None:
        return folder
    return pytest.param(folder, marks=pytest.mark.xfail(strict=True, reason=f"new real files of issue {issue}"))


@pytest.mark.parametrize("folder", [pending(f) for f in folders()], ids=lambda p: p.name)
def test_real_folders_have_no_problems(folder: Path) -> None:
    doc = doctor(folder)
    if folder.relative_to(REAL).as_posix() in RAW_BUFFERS:
        assert doc["status"] == "nothing checked" and doc["findings"] == []
        return
    # an encrypted model read without its key is "not verified" (exit code 2), never "ok"
    proven = PROVEN.get(folder.relative_to(REAL).as_posix(), [])
    assert doc["not_verified"] == NOT_VERIFIED.get(folder.name, [])
    assert doc["status"] == ("problem" if proven else "not verified" if doc["not_verified"] else "ok"), doc["findings"]
    problems = [f["text"] for f in doc["findings"] if f["level"] == "problem"]
    assert len(problems) == len(proven) and all(p.startswith(w) for p, w in zip(problems, proven))
    files = {f["file"]: f for f in doc["files"]}
    assert not [name for name, f in files.items() if f.get("error")]  # every artifact was read
    for name, f in files.items():
        if name.endswith("_tidl_io_1.bin"):
            assert f["format_version"] == IO_VERSIONS[folder.parent.name]
        if name.endswith("_net.bin") and folder.parent.name in NET_VERSIONS:
            assert f["format_version"].startswith(NET_VERSIONS[folder.parent.name])
        if name.startswith("tidl_net_"):
            assert f["format_version"] == "AM57x TIDL-API 1.3"


def test_real_findings() -> None:
    doc = doctor(real("tidl/j7-08.2/deeplabv3-ade20k"))
    texts = [f["text"] for f in doc["findings"]]
    assert texts == [
        "201_tidl_io_1.bin and 201_tidl_net.bin agree: TIDL 08.x / 8.2, 1 input(s) and 1 output(s) match the net's "
        "data layers by dataId and dims",  # ArgMax's padding channel follows the data: no note
        "201_tidl_net.bin_netLog.txt agrees with 201_tidl_net.bin: 82 layers, their types, buffer ids and Out NCHW",
        "201_tidl_net.bin_netLog.txt lists 9 layer(s) at another position than 201_tidl_net.bin (layers 64-72); "
        "they are compared by the buffer each writes",
        "201_tidl_net.bin.layer_info.txt agrees with 201_tidl_net.bin: 82 layers and their out dataIds",
        "201_tidl_net.bin.layer_info.txt and 201_tidl_net.bin_netLog.txt agree: 82 layers, dataIds and names",
        "201_tidl_net.bin.layer_info.txt lists 9 layer(s) at another position than 201_tidl_net.bin_netLog.txt "
        "(layers 64-72); they are compared by the buffer each writes",
        "201_tidl_io_1.bin agrees with 201_tidl_net.bin_netLog.txt: 1 input(s) and 1 output(s) found by dataId "
        "with the same N,C,H,W and name",
        # which SDK: the netVersion (what the firmware checks) first, then the io size, the benchmark's record of
        # the run (param.yaml's runtime_options.version) and the netLog's form
        "made by TIDL 8.2: 201_tidl_net.bin (netVersion 0x20211201) says 8.2 (the strongest), "
        "201_tidl_io_1.bin (37,256 bytes) says 8.0-8.6, param.yaml (version 8.2) says 8.2, "
        "201_tidl_net.bin_netLog.txt (4 dims a tensor) says 8.0-9.1"]
    assert {f["file"]: f["kind"] for f in doc["files"]}["201_tidl_net.bin_netLog.txt"] == "netLog printout"
    ssd = doctor(real("tidl/j7-08.2/ssdlite-mobdet"))  # C = 1 with padding channels after: a dense read works
    assert [f["text"] for f in ssd["findings"]] == [
        "made by TIDL 8.2: 321_tidl_io_1.bin (37,256 bytes) says 8.0-8.6 (the strongest), "
        "param.yaml (version 8.2) says 8.2"]
    io = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
    padded = doctor(io)
    notes = [f["text"] for f in padded["findings"]]
    assert notes == [
        "900_tidl_io_1.bin: input 'images' (uint8, 1x1x1x3x224x224) has padding L1 T1 R1 B1: a dense N·C·H·W read "
        f"is wrong; view reads it without the padding, `binparse draw {io} --input images --svg input_images.svg` "
        "shows it",
        "900_tidl_io_1.bin: output 'seg_map' (uint8, 1x1x1x21x64x64) has padding L1 T1 R2 B1, 1 padding channel(s): "
        f"a dense N·C·H·W read is wrong; view reads it without the padding, `binparse draw {io} --output seg_map "
        "--svg output_seg_map.svg` shows it"]
    am = doctor(real("tidl/am57x"))
    assert {f["file"]: f["kind"] for f in am["files"]}["tidl_param_mnist_lenet.bin"] == "param.bin"
    assert am["unknown_files"] == []
    assert {f["file"]: (f["kind"], f["version"]) for f in am["files"]}["tidl_config_j11_prelu.txt"] == (
        "config.txt", "AM57x TIDL-API")
    assert [f["text"] for f in am["findings"] if "holds exactly" in f["text"]] == [
        f"tidl_param_{n}.bin holds exactly the parameters tidl_net_{n}.bin describes"
        for n in ("imagenet_jacintonet11v2", "imagenet_jacintonet11v2_prelu", "jdetNet_ssd", "mnist_lenet")]


def test_mixed_versions_are_said_in_plain_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(FIXTURES / "tidl" / "io_09_02_c1" / "902_tidl_io_1.bin", tmp_path / "model_tidl_io_1.bin")
    shutil.copy(FIXTURES / "tidl" / "net_08_06" / "910_tidl_net.bin", tmp_path / "model_tidl_net.bin")
    (tmp_path / "notes.txt").write_text("x")
    assert main(["doctor", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert ("[problem] model_tidl_io_1.bin is a TIDL 09.02 io descriptor but model_tidl_net.bin is a TIDL 08.06 "
            "network (netVersion 0x20230208): they come from different SDK versions, and a runtime will reject "
            "one of them") in out
    assert "other files (not artifacts binparse knows): notes.txt" in out
    assert main(["doctor", "--json", str(tmp_path)]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "problem" and doc["unknown_files"] == ["notes.txt"]


def test_matching_pair_and_bad_dims(tmp_path: Path) -> None:
    from binparse.family.fixtures import generate
    spec = tmp_path / "spec.yaml"
    spec.write_text("""
family: tidl
kind: io
version: "08.x"
output: m_tidl_io_1.bin
inputs: [{name: x, dtype: uint8, shape: [3, 8, 8], data_id: 0}]
outputs: [{name: y, dtype: int8, shape: [4, 8, 9], data_id: 1}]
""")
    generate(spec, tmp_path)
    shutil.copy(FIXTURES / "tidl" / "net_08_06" / "910_tidl_net.bin", tmp_path / "m_tidl_net.bin")
    doc = doctor(tmp_path)
    problems = [f["text"] for f in doc["findings"] if f["level"] == "problem"]
    assert problems == ["output 'y': io says N,C,H,W (1, 4, 8, 9), the net's layer 1 writes (1, 4, 8, 8)"]


def test_unreadable_path() -> None:
    assert main(["doctor", "/nonexistent/folder"]) == 3
