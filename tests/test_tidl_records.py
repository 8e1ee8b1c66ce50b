"""TI's records of a compile (param.yaml, onnxrtMetaData.txt, allowedNode.txt): read, inspected, and
cross-checked by doctor with the io; a solved io verified or refuted by TI's netLog beside it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import binparse
from binparse.engine.backends import construct_backend
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.core.errors import BinparseWarning, FormatError
from binparse.family.fixtures import defaults
from binparse.formats.tidl.fixtures import io_values
from binparse.formats.tidl.records.read import read_allowed, read_metadata, read_param_yaml
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import FIXTURES, real

FASTDEPTH = "tidl/j7-edgeai-benchmark/fastdepth"


def _copy(dest: Path, src: Path) -> None:
    """A copy, not a link: the doctor reads no link that leaves the folder."""
    dest.write_bytes(Path(src).read_bytes())


def test_the_records_read_as_ti_wrote_them() -> None:
    meta = read_metadata(real(f"{FASTDEPTH}/artifacts/onnxrtMetaData.txt"))
    assert meta.values == {"numGraphNodes": 84}
    s = meta.subgraphs[0]
    assert (s.index, s.name, s.num_inputs, s.num_outputs, s.inputs, s.outputs) == (0, "424", 1, 1, ["input.1"], ["424"])
    allowed = read_allowed(real(f"{FASTDEPTH}/artifacts/allowedNode.txt"))
    assert len(allowed.subgraphs) == 1 and allowed.subgraphs[0].nodes == list(range(84))
    param = read_param_yaml(real(f"{FASTDEPTH}/param.yaml"))
    assert param.values == {
        "target_device": "AM62A", "model_path": "fastdepth-shape.onnx", "artifacts_folder": "artifacts",
        "session": "onnxrt", "task_type": "segmentation", "input_optimization": False,
        "inputs": [{"name": "input.1", "shape": [1, 3, 224, 224], "type": "tensor(float32)"}],
        "outputs": [{"name": "424", "shape": [1, 1, 224, 224], "type": "tensor(float32)"}]}


def test_inspect_shows_a_record_and_an_artifacts_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(real(f"{FASTDEPTH}/artifacts/onnxrtMetaData.txt"))]) == 0
    assert capsys.readouterr().out == (
        f"TI onnxrtMetaData record (onnxrtMetaData.txt): `binparse doctor {real(FASTDEPTH)}/artifacts` checks it "
        "against the io and net\n"
        "  numGraphNodes: 84\n  subgraph 0 '424': inputs input.1; outputs 424\n")
    folder = real(FASTDEPTH)
    assert main(["inspect", str(folder)]) == 0
    assert capsys.readouterr().out == (
        f"{folder}: model-zoo folder, made by TIDL 09.00-09.01\n"
        "  param.yaml: param.yaml record (edgeai-benchmark): target_device AM62A\n"
        "  artifacts/424_tidl_io_1.bin: io_1.bin (TIDL 09.00-09.01): in input.1; out 424\n"
        "  artifacts/allowedNode.txt: allowedNode record (TI's OSRT import): 1 subgraph(s)\n"
        "  artifacts/onnxrtMetaData.txt: onnxrtMetaData record (TI's OSRT import): 1 subgraph(s)\n"
        "  artifacts/tempDir/424_tidl_net.bin.layer_info.txt: printout\n"
        "  artifacts/tempDir/424_tidl_net.bin_netLog.txt: printout\n"
        "  artifacts/tempDir/424_tidl_net.bin_paramDebug.csv: printout\n"
        f"`binparse doctor {folder}` checks them against each other; `binparse inspect {folder}/param.yaml` shows one\n")
    assert main(["inspect", str(folder), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "model-zoo folder" and doc["files"][1] == {
        "file": "artifacts/424_tidl_io_1.bin", "what": "io_1.bin", "format": "tidl.io.j7_09_00",
        "made by": "TIDL 09.00-09.01", "inputs": ["input.1"], "outputs": ["424"]}


def test_doctor_checks_the_records_with_the_io() -> None:
    doc = doctor(real(f"{FASTDEPTH}/artifacts"))
    assert doc["status"] == "ok"
    oks = [f["text"] for f in doc["findings"] if f["level"] == "ok"]
    assert "424_tidl_io_1.bin holds the inputs (input.1) and outputs (424) onnxrtMetaData.txt names for subgraph 0" in oks
    assert ("allowedNode.txt and onnxrtMetaData.txt agree: 1 subgraph(s), 84 ONNX node(s) of the model's 84 "
            "offloaded to TIDL") in oks
    top = doctor(real(FASTDEPTH))
    assert [f["text"] for f in top["findings"]] == [
        "param.yaml: target_device AM62A (TIDL_MAX_NUM_CORES 1) fits artifacts/424_tidl_io_1.bin (09.00-09.01)",
        "param.yaml's inputs (input.1) are artifacts/424_tidl_io_1.bin's, same shapes",
        "param.yaml's outputs (424) are artifacts/424_tidl_io_1.bin's, same shapes",
        "made by TIDL 9.0/9.1: artifacts/424_tidl_io_1.bin (37,272 bytes) says 9.0/9.1 (the strongest)"
        ", artifacts/tempDir/424_tidl_net.bin_netLog.txt (4 dims a tensor) says 8.0-9.1"]


def test_records_that_contradict_the_io_are_problems(tmp_path: Path) -> None:
    src = real(f"{FASTDEPTH}/artifacts")
    for name in ("424_tidl_io_1.bin", "allowedNode.txt"):
        _copy(tmp_path / name, src / name)
    (tmp_path / "onnxrtMetaData.txt").write_text((src / "onnxrtMetaData.txt").read_text().replace(
        "0:outDataNames=424", "0:outDataNames=depth"))
    doc = doctor(tmp_path)
    assert doc["status"] == "problem" and [f["text"] for f in doc["findings"] if f["level"] == "problem"] == [
        "onnxrtMetaData.txt names subgraph 0's inputs ['input.1'] and outputs ['depth'] (1 and 1), "
        "424_tidl_io_1.bin holds ['input.1'] and ['424']: TI's import writes the record's names into the io (an "
        "input TI's input optimization casts is named after the Cast)"]


def test_a_target_device_that_cannot_load_the_io_is_a_problem(tmp_path: Path) -> None:
    _copy(tmp_path / "907_tidl_io_1.bin", FIXTURES / "tidl" / "io_10_c2" / "906_tidl_io_1.bin")
    (tmp_path / "param.yaml").write_text("session:\n  target_device: AM62A\n  artifacts_folder: .\n")
    problems = [f["text"] for f in doctor(tmp_path)["findings"] if f["level"] == "problem"]
    assert problems == ["param.yaml says target_device AM62A (TIDL_MAX_NUM_CORES 1), but 907_tidl_io_1.bin is laid "
                        "out for 2 cores: that SoC's runtime refuses its size"]
    _copy(tmp_path / "907_tidl_io_1.bin", FIXTURES / "tidl" / "io_11_02_am62a" / "1102_tidl_io_1.bin")
    notes = [f["text"] for f in doctor(tmp_path)["findings"] if f["level"] == "note"]
    assert ("907_tidl_io_1.bin is laid out for 4 cores on AM62A (TIDL_MAX_NUM_CORES 1): TIDL 11.02 tools write every "
            "io so (itidl_io.h), earlier ones only for J784S4") in notes


def _solved_io(out_shape: list[int]) -> bytes:
    spec = {"version": "09.02", "cores": 1, "in_bufs": 32, "out_bufs": 32,
            "inputs": [{"name": "input", "dtype": "float32", "shape": [1, 32, 100], "data_id": 0}],
            "outputs": [{"name": "/cnn/cnn.5/relu/Relu_output_0", "dtype": "float32", "shape": out_shape,
                         "pad": [0, 0, 0, 0, 774], "data_id": 8}]}
    schema, params, values, _, _ = io_values(spec)
    s = load_schema(SCHEMAS_DIR / f"{schema}.ksy")
    data = bytes(construct_backend.build(s, defaults(s.root, params, values), **params))
    assert len(data) == 37912  # no io size TI's tools are known to write: solved, not verified by itself
    return data


@pytest.mark.parametrize("shape, verified", [([256, 8, 25], True), ([256, 8, 24], False)])
def test_a_solved_io_is_verified_or_refuted_by_the_netlog_in_tempdir(tmp_path: Path, shape: list[int],
                                                                     verified: bool) -> None:
    log = real("tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin_netLog.txt")
    (tmp_path / "tempDir").mkdir()
    _copy(tmp_path / "tempDir" / log.name, log)
    io_name = "_cnn_cnn.5_relu_Relu_output_0_tidl_io_1.bin"
    (tmp_path / io_name).write_bytes(_solved_io(shape))
    with pytest.warns(BinparseWarning, match="37,912 bytes is no io size"):
        doc = doctor(tmp_path)
    texts = {f["level"]: [] for f in doc["findings"]}
    for f in doc["findings"]:
        texts[f["level"]].append(f["text"])
    if verified:
        assert doc["status"] == "ok" and doc["not_verified"] == []
        assert (f"{io_name} agrees with tempDir/{log.name}: 1 input(s) and 1 output(s) found by dataId with the same "
                "N,C,H,W and name; its solved layout (09.02) is verified by TI's printout") in texts["ok"]
        assert doc["files"][0]["verified_by"] == f"tempDir/{log.name} (TI's printout of the same import)"
        assert not any(t.startswith("not verified") for t in texts["note"])
    else:
        assert doc["status"] == "problem" and doc["not_verified"] == [io_name]
        assert texts["problem"] == [
            f"{io_name} (solved as 09.02: refuted by TI's printout): output '/cnn/cnn.5/relu/Relu_output_0': io says "
            "N,C,H,W 1x256x8x24, the netLog's layer 8 (TIDL_DataConvertLayer) writes 1x256x8x25"]


def test_hostile_records_are_refused_before_they_are_read(tmp_path: Path) -> None:
    big = tmp_path / "onnxrtMetaData.txt"
    with big.open("wb") as f:
        f.truncate(5 << 20)
    with pytest.raises(FormatError, match="too large for a TIDL record"):
        read_metadata(big)
    claim = tmp_path / "allowedNode.txt"
    claim.write_text("1000000000\n3\n0\n1\n2\n")
    with pytest.raises(FormatError, match="subgraph count does not fit the file"):
        read_allowed(claim)
    claim.write_text("1\n99999\n0\n")
    with pytest.raises(FormatError, match="subgraph 0's node count does not fit the file"):
        read_allowed(claim)


def test_a_nearest_layout_net_is_verified_by_the_netlog_beside_it(tmp_path: Path) -> None:
    """fcnn-cnn5 (a real 9.0/9.1 net) stamped 10.00: no layout of its own, read with the nearest that holds,
    and TI's netLog of the same import agrees with every layer: verified by that printout."""
    src = real("tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin")
    for suffix in ("_netLog.txt", ".layer_info.txt"):
        _copy(tmp_path / (src.name + suffix), src.with_name(src.name + suffix))
    data = bytearray(src.read_bytes())
    data[:4] = (0x20240719).to_bytes(4, "little")
    (tmp_path / src.name).write_bytes(data)
    with pytest.warns(BinparseWarning, match="0x20240719 .TIDL 10.00. has no verified layout"):
        doc = doctor(tmp_path)
    assert doc["status"] == "ok" and doc["not_verified"] == []
    assert doc["files"][0]["verified_by"] == f"{src.name}_netLog.txt (TI's printout of the same import)"
    assert (f"{src.name}_netLog.txt agrees with {src.name}: 10 layers, their types, buffer ids and Out NCHW; its "
            "nearest layout (9.0/9.1) is verified by TI's printout") in [f["text"] for f in doc["findings"]]


def test_the_tools_version_in_param_yaml_against_the_net_and_io(tmp_path: Path) -> None:
    folder = real("tidl/j7-08.2/deeplabv3-ade20k")
    oks = [f["text"] for f in doctor(folder)["findings"] if f["level"] == "ok"]
    assert oks[-1] == ("made by TIDL 8.2: 201_tidl_net.bin (netVersion 0x20211201) says 8.2 (the strongest)"
                       ", 201_tidl_io_1.bin (37,256 bytes) says 8.0-8.6, param.yaml (version 8.2) says 8.2, "
                       "201_tidl_net.bin_netLog.txt (4 dims a tensor) says 8.0-9.1")
    _copy(tmp_path / "201_tidl_io_1.bin", folder / "201_tidl_io_1.bin")
    (tmp_path / "param.yaml").write_text("session:\n  target_device: pc\n  runtime_options:\n    version: '9.1'\n")
    doc = doctor(tmp_path)  # a record is no runtime: its version against the io's size is a note with both sides
    assert doc["status"] == "ok" and [(f["level"], f["text"]) for f in doc["findings"]] == [
        ("note", "its files disagree on the SDK that made this folder: 201_tidl_io_1.bin (37,256 bytes) says "
                 "8.0-8.6; param.yaml (version 9.1) says 9.1; the strongest is 201_tidl_io_1.bin's 37,256 bytes")]
