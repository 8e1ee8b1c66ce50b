"""Names are data in every family's free-form lines (docs/contracts.md, "Names"): a tensor, layer,
model, subgraph, key or file name holding a newline, an ANSI escape and a bidirectional override is
printed escaped (`binparse.core.text.shown`) by `inspect`, `inspect -v`, `inspect --fields`, `traces`,
`view`, `pack` and `doctor`, never as a line of its own. Each artifact is made by the families'
fixture writers (or written as the vendor's tools write it) with such names."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from binparse.cli import main

from .conftest import FIXTURES

BAD = "\nFAKE\x1b[31m\u202e"  # a new line that would say FAKE, in red, right to left
ESC = "\\nFAKE\\x1b[31m\\u202e"  # what the output says instead


def cli(capsys: pytest.CaptureFixture[str], *args: Any) -> tuple[int, list[str]]:
    """Run the command; its output lines, checked to hold no raw control character and no line that the
    injected text begins."""
    code = main([str(a) for a in args])
    cap = capsys.readouterr()
    text = cap.out + cap.err
    assert "\x1b" not in text and "\u202e" not in text, text
    lines = text.splitlines()
    assert not [line for line in lines if line.lstrip(" ([{,;:'\"").startswith("FAKE")], text
    return code, lines


def fixture(capsys: pytest.CaptureFixture[str], spec: dict[str, Any], out: Path) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    (out / "spec.yaml").write_text(yaml.safe_dump(spec, allow_unicode=True), encoding="utf-8")
    assert main(["fixture", str(out / "spec.yaml"), "-o", str(out)]) == 0
    capsys.readouterr()
    (out / "spec.yaml").unlink()
    (out / "manifest.json").unlink()
    return out


def renamed(doc: Any, names: set[str]) -> Any:
    """A spec with every string in `names` (wherever the spec refers to it) given the hostile tail."""
    if isinstance(doc, dict):
        return {k: renamed(v, names) for k, v in doc.items()}
    if isinstance(doc, list):
        return [renamed(v, names) for v in doc]
    return doc + BAD if isinstance(doc, str) and doc in names else doc


IO = {"family": "tidl", "kind": "io", "version": "08.x", "output": "m_tidl_io_1.bin",
      "inputs": [{"name": "images" + BAD, "dtype": "uint8", "shape": [3, 8, 8], "pad": [1, 1, 1, 1, 0], "data_id": 0}],
      "outputs": [{"name": "logits" + BAD, "dtype": "int8", "shape": [1, 1, 10], "data_id": 1}]}


def test_tidl_io_inspect_view_pack_doctor(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = fixture(capsys, IO, tmp_path / "io")
    io = d / "m_tidl_io_1.bin"
    padded = (f"padded in the device buffer: input images{ESC}; view reads a buffer without the padding,\n"
              f"  `binparse draw {io} --input 'images{ESC}' --svg input_images_FAKE__31m_.svg` pictures where it lies")
    for extra in ([], ["-v"]):
        code, lines = cli(capsys, "inspect", *extra, io)
        assert code == 0 and "\n".join(lines[-2:]) == padded
        assert lines[4].startswith(f"  0  images{ESC}  uint8  1,1,1,3,8,8") and lines[7].startswith(f"  0  logits{ESC}  int8")
    code, lines = cli(capsys, "inspect", "--fields", io)
    assert code == 0 and [line.split("  ")[-1].strip() for line in lines if line.startswith("in_data_name")] == \
        [f"['images{ESC}', '' ×31]"]
    npy, buf = tmp_path / "v.npy", tmp_path / "p.bin"
    assert cli(capsys, "view", io, d / "input_0_images_FAKE_31m.buffer.bin", "--input", "0", "--npy", npy) == \
        (0, [f"{npy}: input images{ESC}, uint8, shape (1, 1, 1, 3, 8, 8)"])
    assert cli(capsys, "pack", io, npy, "--input", "0", "--out", buf) == \
        (0, [f"{buf}: TIDL input images{ESC}, uint8, 300 bytes"])
    code, lines = cli(capsys, "doctor", d)
    assert code == 0 and (f"  [note] m_tidl_io_1.bin: input 'images{ESC}' (uint8, 1x1x1x3x8x8) has padding L1 T1 R1 B1: "
                          "a dense N·C·H·W read is wrong; view reads it without the padding, `binparse draw "
                          f"{io} --input 'images{ESC}' --svg input_images_FAKE__31m_.svg` shows it") in lines


def test_tidl_combined_io_subgraph_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = yaml.safe_load((FIXTURES / "tidl" / "combined_11_02_am62a" / "spec.yaml").read_text())
    spec["nets"][0] = str(FIXTURES / "tidl" / "net_11_02_am62a" / "1102_tidl_net.bin")
    spec["io_head"]["inputs"][0]["name"] += BAD
    spec["ios"][0]["outputs"][0]["name"] += BAD
    d = fixture(capsys, spec, tmp_path / "combined")
    for extra in ([], ["-v"], ["--fields"]):
        code, lines = cli(capsys, "inspect", *extra, d / "424_tidl_io_1.bin")
        assert code == 0 and lines[-4:-1] == [
            f"TIDL combined io: 2 subgraphs (model inputs input.1{ESC}; outputs 424)",
            f"  subgraph 0: bytes 378,432..756,824 (378,392 B), TIDL 10.x-11.x, inputs input.1; outputs mid{ESC}",
            "  subgraph 1: bytes 756,824..1,135,216 (378,392 B), TIDL 10.x-11.x, inputs mid; outputs 424"]


NETLOG = ("Num of Layer Detected :   1 \n"
          "  Num|TIDL Layer Name  |Out Data Name |Group |#Ins  |#Outs |Inbuf Ids       |Outbuf Id |"
          "In NCHW          |Out NCHW             |MACS  |\n"
          "    0|TIDL_DataLayer   |in\x1b[31m\u202e     |     0|    -1|     1|  x   x   x   x |  0       |"
          "  0 0 0 0 0 0     |  1 1 1 3 8 8        |  0   |\n")
PARAM = {"task_type": "detection" + BAD, "session": {
    "session_name": "onnxrt", "target_device": "AM62A" + BAD, "artifacts_folder": "artifacts",
    "input_details": [{"name": "input.1" + BAD, "shape": [1, 3, 8, 8], "type": "tensor(float32)"}],
    "output_details": [{"name": "424", "shape": [1, 1, 8, 8], "type": "tensor(uint8)"}]}}


def test_tidl_records_printouts_and_artifacts_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / "zoo"
    (d / "artifacts" / "tempDir").mkdir(parents=True)
    (d / "param.yaml").write_text(yaml.safe_dump(PARAM, allow_unicode=True), encoding="utf-8")
    shutil.copy(FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin", d / "artifacts" / f"x{BAD}_tidl_io_1.bin")
    log = d / "artifacts" / "tempDir" / f"n{BAD}_tidl_net.bin_netLog.txt"
    log.write_text(NETLOG, encoding="utf-8")
    code, lines = cli(capsys, "inspect", d / "param.yaml")
    assert code == 0 and lines[1:] == [f"  target_device: AM62A{ESC}", "  artifacts_folder: artifacts",
                                       "  session: onnxrt", f"  task_type: detection{ESC}",
                                       f"  inputs: input.1{ESC} [1, 3, 8, 8] tensor(float32)",
                                       "  outputs: 424 [1, 1, 8, 8] tensor(uint8)"]
    code, lines = cli(capsys, "inspect", d)
    assert code == 0 and lines[:4] == [
        f"{d}: model-zoo folder, made by TIDL 08.x",
        f"  param.yaml: param.yaml record (edgeai-benchmark): target_device AM62A{ESC}",
        f"  artifacts/x{ESC}_tidl_io_1.bin: io_1.bin (TIDL 08.x): in images, im_info; "
        "out logits, seg_map, detections",
        f"  artifacts/tempDir/n{ESC}_tidl_net.bin_netLog.txt: printout"]
    code, lines = cli(capsys, "inspect", log)
    assert code == 0 and lines[0] == f"TI netLog printout of n{ESC}_tidl_net.bin: 1 rows (`binparse doctor {d}/artifacts` " \
                                     "compares it with the net)"
    assert lines[2].split()[1:3] == ["TIDL_DataLayer", "in\\x1b[31m\\u202e"]


def test_tidl_traces_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / f"run{BAD}"
    shutil.copytree(FIXTURES / "tidl" / "traces_10_01", run)
    code, lines = cli(capsys, "traces", run)
    assert code == 2 and lines[0] == (f"TIDL layer traces in {tmp_path}/run{ESC}: 8 files (current names), without a net: "
                                      "what the names say (pass --net for layers, element types, scales)")
    code, lines = cli(capsys, "traces", run, "--net", FIXTURES / "tidl" / "net_10_01_traces" / "915_tidl_net.bin")
    assert code == 0 and lines[0].startswith(f"TIDL layer traces in {tmp_path}/run{ESC}: 8 files")


def test_espdl_models_packs_and_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = yaml.safe_load((FIXTURES / "espdl" / "models" / "spec.yaml").read_text())
    files = [f for f in spec["files"] if f["output"] in ("conv_c.espdl", "pack_pdl2.espdl")]
    spec["files"] = renamed(files, {"conv_c", "x", "y", "conv0", "first", "second"})
    d = fixture(capsys, spec, tmp_path / "models")
    model = d / f"m{BAD}.espdl"
    (d / "conv_c.espdl").rename(model)
    code, lines = cli(capsys, "inspect", model)
    assert code == 0 and lines[3:9] == [
        f"  graph 'conv_c{ESC}': EDL2 generation, ir_version 7, target c (reference layouts, unblocked)",
        "  nodes: 4 (Conv x4)", "  parameters: 2,000 in 5 initializers",
        f"  inputs: x{ESC} int8 1x5x5x3", f"  outputs: y{ESC} int8 1x3x3x20", "  test values: 1 inputs, 1 outputs"]
    code, lines = cli(capsys, "inspect", "-v", model)
    assert code == 0 and lines[11].split() == ["0", "Conv", f"conv0{ESC}", f"x{ESC}", "t0", "w_conv,", "b_conv"]
    assert ["input", f"x{ESC}", "int8", "1x5x5x3", "-7"] in [line.split() for line in lines]
    code, lines = cli(capsys, "inspect", d / "pack_pdl2.espdl")  # 2: the second model is encrypted
    assert code == 2 and lines[2].startswith(f"first{ESC}: ") and lines[2].endswith(" bytes of FlatBuffer at offset 96")
    assert f"  inputs: x{ESC} int16 1x16" in lines
    assert [line for line in lines if line.startswith(f"second{ESC}: ")]
    code, lines = cli(capsys, "inspect", d)
    assert code == 2 and lines[0] == f"ESP-DL model folder {d}: 2 model files, 0 .info printouts, 0 .json quantization records"
    assert f"m{ESC}:" in lines and [line for line in lines if line.startswith(f"  m{ESC}.espdl: EDL2 model, graph 'conv_c{ESC}'")]
    assert [line for line in lines if line.startswith(f"  pack_pdl2.espdl: PDL2 pack of 2: first{ESC}: graph 'first{ESC}'")]
    npy = tmp_path / "x.npy"
    code, lines = cli(capsys, "view", model, "--tensor", f"x{BAD}", "--npy", npy)
    assert code == 0 and len(lines) == 1 and lines[0].startswith(f"{npy}: ") and f"x{ESC}" in lines[0]
    code, lines = cli(capsys, "doctor", d)
    assert lines[1].startswith(f"  m{ESC}.espdl: espdl ")


def test_intel_compile_folder_placement_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = yaml.safe_load((FIXTURES / "intel_dla" / "testnet_2025" / "spec.yaml").read_text())
    spec["graph"] += BAD  # the reports' file names: input_transform_dump_<graph>.csv
    spec["input"]["name"] = "image\x1b[31m\u202e"  # a line of the dump: no newline
    d = fixture(capsys, spec, tmp_path / "compile")
    (d / f"other{BAD}.txt").write_text("")
    placement = (FIXTURES / "intel_dla" / "placement" / "SmallNet_dla_layer_device.csv").read_text()
    (d / "SmallNet_dla_layer_device.csv").write_text(placement.replace("\nnms,", f'\n"nms{BAD}",', 1))
    code, lines = cli(capsys, "inspect", "--fields", d)
    assert code == 0 and lines[:2] == [f"FPGA AI Suite compile folder {d}", f"input_transform_dump_TestNet_0{ESC}.csv:"]
    assert lines[3].startswith("    name=image\\x1b[31m\\u202e, channels=3, ")
    assert f"other files: input_ip.buffer.bin, input_ip.expected.npy, other{ESC}.txt, output_ip.buffer.bin, " \
           "output_ip.expected.npy" in lines
    assert [line for line in lines if line.startswith(f"layer placement (SmallNet_dla_layer_device.csv): 7 layers: ")
            and f"falls back: nms{ESC} (NonMaxSuppression, CPU)" in line]
    code, lines = cli(capsys, "inspect", d / "SmallNet_dla_layer_device.csv")
    assert code == 0 and lines[0].endswith(f"falls back: nms{ESC} (NonMaxSuppression, CPU), topk (TopK, CPU)")
    assert [line for line in lines if line.startswith(f"  nms{ESC}  CPU  NonMaxSuppression  ")]
    record = json.loads((FIXTURES / "intel_dla" / "records" / "AGX5_camera.build.json").read_text())
    record["design"] += BAD
    record["clocks"][f"dla{BAD}_mhz"] = 1.0
    (d / "AGX5_camera.build.json").write_text(json.dumps(record))
    code, lines = cli(capsys, "inspect", d / "AGX5_camera.build.json")
    assert code == 0 and lines[1] == f"  design: agx5_camera_coredla{ESC}"
    assert f"  clock clocks.dla{ESC}_mhz: 1.0" in lines


def test_intel_arch_and_ip_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arch = tmp_path / f"a{BAD}.arch"
    shutil.copy(FIXTURES / "intel_dla" / "placement" / "SmallNet.arch", arch)
    for extra in ([], ["--fields"]):
        code, lines = cli(capsys, "inspect", *extra, arch)
        assert lines[0].startswith(f"FPGA AI Suite architecture a{ESC}.arch: family ")


def test_dlhdl_buffer_in_a_named_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = tmp_path / f"b{BAD}"
    d.mkdir()
    shutil.copy(FIXTURES / "dlhdl" / "conv_and_fc" / "t16_3x3x4.buffer.bin", d / "t.bin")
    npy = d / "t.npy"
    code, lines = cli(capsys, "view", "--dlhdl", "conv", "--thread-number", "16", "--shape", "3,3,4", "--dtype", "float32", d / "t.bin",
                      "--npy", npy)
    assert code == 0 and len(lines) == 1 and lines[0].startswith(f"{tmp_path}/b{ESC}/t.npy: ")
