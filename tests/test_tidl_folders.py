"""TIDL folders as TI's tools leave them (issue 39): the records follow TI's options (input_optimization),
edgeai-tidlrunner's records are named as such, the SDK is named from the strongest evidence, and nothing
passes silently (an AM57x net without its params, a param file read under an inferred rule, an empty
paramDebug, traces without their net)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from binparse.cli import main
from binparse.cli.doctor import doctor, doctor_tree, report_text
from binparse.core.errors import BinparseWarning
from binparse.formats.tidl.records.names import match
from binparse.formats.tidl.records.read import read_param_yaml

from .conftest import FIXTURES, real

MIDAS = "tidl/j7-edgeai-benchmark/midas-9.0-62a"


def _copy(dest: Path, src: Path) -> None:
    """A copy, not a link: the doctor reads no link that leaves the folder."""
    dest.write_bytes(Path(src).read_bytes())


def test_midas_with_input_optimization_has_no_problem_and_names_its_sdk() -> None:
    """TI's demo compiled with input_optimization: true: the records keep the ONNX input input.1Net_IN, the io
    and TI's netLog name the data layer TIDL_cast_in. Both files are as TI's tools wrote them."""
    param = read_param_yaml(real(f"{MIDAS}/param.yaml"))
    assert (param.writer, param.values["input_optimization"], param.values["inputs"]) == (
        "edgeai-benchmark", True, [{"name": "input.1Net_IN", "shape": [1, 3, 256, 256], "type": "tensor(uint8)"}])
    top = doctor(real(MIDAS))
    assert top["status"] == "ok" and [f["text"] for f in top["findings"]] == [
        "param.yaml: target_device AM62A (TIDL_MAX_NUM_CORES 1) fits artifacts/983_tidl_io_1.bin (09.00-09.01)",
        "param.yaml's inputs (input.1Net_IN) are artifacts/983_tidl_io_1.bin's, same shapes (input_optimization: "
        "true; input.1Net_IN is TIDL_cast_in there: TI's input optimization (tidlOnnxModelOptimize) casts the uint8 "
        "input, and TI's import folds that Cast into the data layer, named after its output)",
        "param.yaml's outputs (983) are artifacts/983_tidl_io_1.bin's, same shapes",
        "made by TIDL 9.0/9.1: artifacts/983_tidl_io_1.bin (37,272 bytes) says 9.0/9.1 (the strongest)"
        ", artifacts/983_tidl_net.bin_netLog.txt (4 dims a tensor) says 8.0-9.1"]
    arts = doctor(real(f"{MIDAS}/artifacts"))
    assert arts["status"] == "ok" and [f["level"] for f in arts["findings"]].count("problem") == 0
    texts = [f["text"] for f in arts["findings"]]
    assert ("983_tidl_io_1.bin holds the inputs (input.1Net_IN) and outputs (983) onnxrtMetaData.txt names for "
            "subgraph 0 (input.1Net_IN is TIDL_cast_in there: TI's input optimization (tidlOnnxModelOptimize) casts "
            "the uint8 input, and TI's import folds that Cast into the data layer, named after its output)") in texts
    assert ("983_tidl_io_1.bin agrees with 983_tidl_net.bin_netLog.txt: 1 input(s) and 1 output(s) found by dataId "
            "with the same N,C,H,W and name") in texts  # the netLog's data layer is TIDL_cast_in too
    assert texts[-1] == ("made by TIDL 9.0/9.1: 983_tidl_io_1.bin (37,272 bytes) says 9.0/9.1 (the strongest)"
                         ", 983_tidl_net.bin_netLog.txt (4 dims a tensor) says 8.0-9.1")


def test_a_renamed_input_without_the_optimizers_name_is_still_a_problem(tmp_path: Path) -> None:
    src = real(f"{MIDAS}/artifacts")
    for name in ("983_tidl_io_1.bin", "allowedNode.txt"):
        _copy(tmp_path / name, src / name)
    (tmp_path / "onnxrtMetaData.txt").write_text((src / "onnxrtMetaData.txt").read_text().replace(
        "inDataNames=input.1Net_IN", "inDataNames=input.1"))  # no Cast TI's optimizer puts: no reason to differ
    problems = [f["text"] for f in doctor(tmp_path)["findings"] if f["level"] == "problem"]
    assert problems == [
        "onnxrtMetaData.txt names subgraph 0's inputs ['input.1'] and outputs ['983'] (1 and 1), 983_tidl_io_1.bin "
        "holds ['TIDL_cast_in'] and ['983']: TI's import writes the record's names into the io (an input TI's input "
        "optimization casts is named after the Cast)"]


def test_the_names_ti_optimizers_and_import_give() -> None:
    """tidlOnnxModelOptimize: <x>Net_IN -> Cast -> TIDL_cast_in (NV12: Net_Y_IN / Net_UV_IN -> TIDL_cast_y_in /
    TIDL_cast_uv_in); tidl_onnx_model_optimizer: <x>_net_in -> Cast -> <x>_cast_out; TIDL's order of outputs."""
    assert match(["input.1Net_IN"], ["983"], ["TIDL_cast_in"], ["983"]).renamed[0].describe() == (
        "input.1Net_IN is TIDL_cast_in there")
    nv12 = match(["imgNet_Y_IN", "imgNet_UV_IN"], [], ["TIDL_cast_y_in", "TIDL_cast_uv_in"], [])
    assert nv12.same and [r.io for r in nv12.renamed] == ["TIDL_cast_y_in", "TIDL_cast_uv_in"]
    new = match(["images_net_in"], ["dets"], ["images_cast_out"], ["dets"])
    assert new.same and new.renamed[0].by == "tidl_onnx_model_optimizer"
    assert not match(["images_net_in"], [], ["TIDL_cast_in"], []).same  # each optimizer names its own way
    assert not match(["x"], [], ["TIDL_cast_in"], []).same
    order = match(["input"], ["labels", "dets"], ["input"], ["dets", "labels"])
    assert order.same and order.reordered and order.how() == "in TIDL's order of its data layers, not the ONNX graph's"
    assert not match(["input"], ["labels", "dets"], ["input"], ["dets"]).same


def test_outputs_in_tidls_order_are_the_records_outputs(tmp_path: Path) -> None:
    """TI's od-8220 compile (10.00): onnxrtMetaData.txt lists labels,dets (the ONNX graph's order), the io
    dets, labels (its output data layers' order)."""
    _copy(tmp_path / "subgraph_0_tidl_io_1.bin", real("tidl/j7-10.00/od-8220/subgraph_0_tidl_io_1.bin"))
    (tmp_path / "onnxrtMetaData.txt").write_text(  # as TI's import wrote it beside that io
        "numGraphNodes=271\n0:subGraphName=subgraph_0\n0:numInputs=1\n0:numOutputs=2\n0:inputIdx=0\n"
        "0:inDataNames=input\n0:outDataNames=labels,dets\n")
    doc = doctor(tmp_path)
    assert doc["status"] == "ok" and [f["text"] for f in doc["findings"] if f["level"] != "note"] == [
        "subgraph_0_tidl_io_1.bin holds the inputs (input) and outputs (labels, dets) onnxrtMetaData.txt names for "
        "subgraph 0 (in TIDL's order of its data layers, not the ONNX graph's)"]


TIDLRUNNER_PARAM = """\
common:
  _package_name: edgeai_tidlrunner.runner
  _package_short_name: tidlrunner
  pipeline_type: compile
  task_type: detection
session:
  artifacts_folder: artifacts
  input_details:
  - name: images
    shape: [1, 3, 64, 64]
    type: tensor(uint8)
  input_optimization: false
  model_path: model/det.onnx
  name: onnxrt
  output_details:
  - name: detections
    shape: [1, 200, 5]
    type: tensor(float)
  runtime_options:
    tensor_bits: 8
  session_name: onnxrt
  target_device: AM62A
  tidl_offload: true
"""


def test_edgeai_tidlrunners_record_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The keys edgeai-tidlrunner writes (its settings whole: `common:` naming its package, `session:` with
    edgeai-benchmark's keys added for compatibility), beside a 10.x io: the record says SDK 11.x."""
    (tmp_path / "artifacts").mkdir()
    _copy(tmp_path / "artifacts" / "905_tidl_io_1.bin", FIXTURES / "tidl" / "io_10_c1" / "905_tidl_io_1.bin")
    (tmp_path / "param.yaml").write_text(TIDLRUNNER_PARAM)
    doc = doctor(tmp_path)
    assert {f["file"]: f["evidence"] for f in doc["files"]}["param.yaml"] == "edgeai-tidlrunner's record of the run"
    assert doc["status"] == "ok" and [f["text"] for f in doc["findings"]][-1] == (
        "made by TIDL 11.0/11.1: artifacts/905_tidl_io_1.bin (94,616 bytes) says 10.0-11.1 (the strongest)"
        ", param.yaml (written by edgeai-tidlrunner, whose setup installs tidl_tools 11.0-11.2) says "
        "11.0-11.2")
    assert main(["inspect", str(tmp_path / "param.yaml")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "TI param.yaml record (param.yaml, written by edgeai-tidlrunner): "
        f"`binparse doctor {tmp_path}` checks it against the io and net")
    assert main(["inspect", str(tmp_path / "param.yaml"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["version"] == "edgeai-tidlrunner"


def _netlog_6d(header_from: Path, rows: list[tuple[int, str, str, int, int, list[int], int, list[int], list[int]]]) -> str:
    """A netLog in TI's 6-dim layout: the header and rules of a real 10.00 netLog, rows in its widths."""
    lines = header_from.read_text().splitlines()
    rule = lines[1]
    out = [f"Num of Layer Detected : {len(rows):3d} ", rule, lines[2], rule]
    for num, kind, name, n_in, n_out, ins, out_id, in_dims, out_dims in rows:
        bufs = "".join(f"{v:>3} " for v in [*map(str, ins), *["x"] * (8 - len(ins))])
        out.append(f"{num:5d}|{kind:<30}|{name:<50}|{0:6d}|{n_in:6d}|{n_out:6d}|{bufs}|{out_id:3d}       |"
                   + "".join(f"{v:8d} " for v in in_dims) + "|" + "".join(f"{v:8d} " for v in out_dims) + f"|{0:10d} |")
    return "\n".join([*out, rule, "Total Giga Macs : 0.0001", rule, ""])


def test_the_sdk_of_a_solved_io_is_named_from_the_record_and_the_netlog(tmp_path: Path) -> None:
    """A 9.1 AM68A compile: its io is 37,912 bytes (no size TI's tables list: solved as the 09.02 field list,
    which names no SDK), param.yaml says version 9.1.0, TI's netLog prints 6 dims. The SDK is the record's,
    the netLog's form agrees, and the solved io is verified by that netLog, not taken for SDK 09.02."""
    _copy(tmp_path / "912_tidl_io_1.bin", FIXTURES / "tidl" / "io_09_01_am68a" / "912_tidl_io_1.bin")
    z = [0] * 6
    (tmp_path / "912_tidl_net.bin_netLog.txt").write_text(_netlog_6d(
        real("tidl/j7-10.00/od-8220/tempDir/subgraph_0_tidl_net.bin_netLog.txt"), [
            (0, "TIDL_DataLayer", "images", -1, 1, [], 0, z, [1, 1, 1, 3, 16, 16]),
            (1, "TIDL_ConvolutionLayer", "feat", 1, 1, [0], 1, [1, 1, 1, 3, 16, 16], [1, 1, 1, 8, 8, 8]),
            (2, "TIDL_DetectionOutputLayer", "dets", 1, 1, [1], 118, [1, 1, 1, 8, 8, 8], [1, 1, 1, 1, 20, 5]),
            (3, "TIDL_OdOutputReformatLayer", "labels", 1, 1, [118], 119, [1, 1, 1, 1, 20, 5], [1, 1, 1, 1, 1, 20]),
            (4, "TIDL_DataLayer", "dets", 1, -1, [118], 0, [1, 1, 1, 1, 20, 5], z),
            (5, "TIDL_DataLayer", "labels", 1, -1, [119], 0, [1, 1, 1, 1, 1, 20], z)]))
    (tmp_path / "param.yaml").write_text("session:\n  artifacts_folder: .\n  target_device: AM68A\n"
                                         "  runtime_options:\n    tensor_bits: 8\nversion: 9.1.0\n")
    with pytest.warns(BinparseWarning, match="37,912 bytes is no io size"):
        doc = doctor(tmp_path)
    assert doc["status"] == "ok" and doc["not_verified"] == []
    files = {f["file"]: f for f in doc["files"]}
    assert files["912_tidl_io_1.bin"]["format_version"] == (
        "J7 io solved from its size: the 09.02 layout with IN 32, OUT 32, 1 core (unverified; a field list names no SDK)")
    assert files["912_tidl_io_1.bin"]["verified_by"] == "912_tidl_net.bin_netLog.txt (TI's printout of the same import)"
    texts = [(f["level"], f["text"]) for f in doc["findings"]]
    assert ("note", "param.yaml: target_device AM68A (TIDL_MAX_NUM_CORES 1); 912_tidl_io_1.bin was solved with 1 "
                    "core(s), an assumption its size allows, so the two are not compared") in texts
    assert texts[-1] == ("ok", "made by TIDL 9.1: param.yaml (version 9.1.0) says 9.1 (the strongest), "
                               "912_tidl_net.bin_netLog.txt (6 dims a tensor) says 9.1-11.2")
    (tmp_path / "param.yaml").write_text("session:\n  artifacts_folder: .\n  target_device: AM68A\nversion: 8.2\n")
    with pytest.warns(BinparseWarning):
        texts = [(f["level"], f["text"]) for f in doctor(tmp_path)["findings"]]
    assert texts[-1] == ("note", "its files disagree on the SDK that made this folder: param.yaml (version 8.2) says "
                                 "8.2; 912_tidl_net.bin_netLog.txt (6 dims a tensor) says 9.1-11.2; the strongest is "
                                 "param.yaml's version 8.2")


def test_an_am57x_net_without_its_params_gets_a_line(tmp_path: Path) -> None:
    src = real("tidl/am57x")
    _copy(tmp_path / "tidl_net_mnist_lenet.bin", src / "tidl_net_mnist_lenet.bin")
    doc = doctor(tmp_path)
    assert doc["status"] == "ok" and [(f["level"], f["text"]) for f in doc["findings"]] == [
        ("note", "tidl_net_mnist_lenet.bin: its parameter file is not in the folder: tidl_param_mnist_lenet.bin (TI's "
                 "naming); TIDL-API loads a network with its parameters (netBinFile, paramsBinFile), so its weights "
                 "are not checked")]
    _copy(tmp_path / "lenet.bin", src / "tidl_net_mnist_lenet.bin")  # another name: the config says which params
    (tmp_path / "tidl_net_mnist_lenet.bin").unlink()
    (tmp_path / "tidl_config_lenet.txt").write_text('netBinFile = "models/lenet.bin"\n'
                                                    'paramsBinFile = "models/lenet_params.bin"\n')
    notes = [f["text"] for f in doctor(tmp_path)["findings"] if f["level"] == "note"]
    assert notes == ["lenet.bin: its parameter file is not in the folder: lenet_params.bin (tidl_config_lenet.txt's "
                     "paramsBinFile); TIDL-API loads a network with its parameters (netBinFile, paramsBinFile), so its "
                     "weights are not checked"]


def test_a_param_file_read_under_an_inferred_rule_is_not_verified_in_headline_and_tally() -> None:
    doc = doctor(real("tidl/am57x"))
    assert doc["status"] == "not verified" and doc["not_verified"] == ["tidl_param_dense_1x1.bin"]
    assert report_text(doc).splitlines()[0].endswith(
        "NOT VERIFIED: 1 file (tidl_param_dense_1x1.bin: read only in part, with a layout no vendor file confirms, or "
        "not read); no problems in the other 14")
    assert [f["text"] for f in doc["findings"] if "holds exactly" in f["text"] and "dense" in f["text"]] == []
    tree = doctor_tree(real("tidl/am57x"))
    lines = report_text(tree).splitlines()
    said = {level: sum(line.startswith(f"  [{level}]") for line in lines) for level in ("problem", "note")}
    assert tree["tally"] == {"folders": 1, "files": 15, "problems": said["problem"], "notes": said["note"],
                             "not_verified": 1}
    assert lines[-1] == "in all ({}): 1 folder, 15 files, 0 problems, 2 notes, 1 not verified".format(real("tidl/am57x"))
    assert main(["inspect", str(real("tidl/am57x/tidl_param_dense_1x1.bin"))]) == 2


def test_an_empty_param_debug_is_a_note_not_an_ok() -> None:
    findings = doctor(real("tidl/j7-09.x/east-mobilenet"))["findings"]
    assert [(f["level"], f["text"]) for f in findings if "paramDebug" in f["text"]] == [
        ("note", "625_tidl_net.bin_paramDebug.csv lists no layer (TI's header line only): nothing in it to compare "
                 "with 625_tidl_net.bin")]


def test_traces_without_a_net_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    folder = FIXTURES / "tidl" / "traces_10_01"
    assert main(["traces", str(folder), "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["unverified"] == (
        "8 trace(s) read without their net: the names give dataIds and dims only; the layers, the element type of "
        "each .y and the scales need --net NET")
    assert main(["traces", str(folder), "--net", str(FIXTURES / "tidl" / "net_10_01_traces" / "915_tidl_net.bin"),
                 "--json"]) == 0
    assert "unverified" not in json.loads(capsys.readouterr().out)


def test_the_sweep_runner_counts_what_doctor_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tools/sweep_tidl.py over a sweep of one source (TI's midas demo as its repository holds it) and a
    MANIFEST naming the net the snapshot lacks."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("sweep_tidl", Path(__file__).parents[1] / "tools" / "sweep_tidl.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    src = real(MIDAS)
    dest = tmp_path / "TexasInstruments-Sandbox+edgeai-demo-monodepth-estimation" / "midas-9.0-62a"
    (dest / "artifacts").mkdir(parents=True)
    for p in [*src.iterdir(), *(src / "artifacts").iterdir()]:
        if p.is_file():
            _copy(dest / p.relative_to(src), p)
    (tmp_path / "MANIFEST.tsv").write_text(
        "repo\tcommit\tpath\tblob\tbytes\tstatus\n"
        "TexasInstruments-Sandbox/edgeai-demo-monodepth-estimation\tb5dd792\tmidas-9.0-62a/artifacts/983_tidl_net.bin"
        "\teab9e5a6\t-\tabsent\n")
    assert tool.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("TexasInstruments-Sandbox+edgeai-demo-monodepth-estimation: 3 folders, 7 files, 0 problems, "
                      "1 notes, 0 not verified; manifest: 1 absent")
    assert out[-1] == ("in all: 1 sources, 3 folders, 7 files, 0 problems, 1 notes, 0 not verified, 1 param.yaml with "
                       "input_optimization: true")
    assert "  input_optimization: true in midas-9.0-62a/param.yaml" in out


def test_inspect_of_a_net_without_its_own_layout_names_one_layout(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """TI's 10.01 ow-tiny net restamped 11.01: the title names no layout it may not have used, the
    UNVERIFIED line the one it did (10.01) and the one it tried first (11.02)."""
    data = bytearray(real("tidl/j7-10.01/ow-tiny/ow_tiny_net.bin").read_bytes())
    data[:4] = (0x20250821).to_bytes(4, "little")
    net = tmp_path / "ow_tiny_as_11_01_net.bin"
    net.write_bytes(data)
    assert main(["inspect", str(net)]) == 2
    title, _, unverified = capsys.readouterr().out.splitlines()[:3]
    assert title == (f"{net}: tidl.net.j7_11_01, J7 TIDL 11.01 (no header of its own: the nearest verified layout "
                     "that holds, 11.02 first, with a warning), 1,275,172 bytes")
    assert unverified.startswith("UNVERIFIED: netVersion 0x20250821 (TIDL 11.01) has no verified layout: read with "
                                 "the 10.01 layout (netVersion 0x20241120)")
    assert "Rejected before it: 11.02 layout (netVersion 0x20251208)" in unverified


def test_the_imports_calibration_files_in_tempdir_are_no_io_descriptors(tmp_path: Path) -> None:
    """TI's import writes its calibration data into tempDir/ under the io file's prefix and a second "_"
    (`*_tidl_io__stats_tool_out.bin`, `*_tidl_io__LayerPerChannelMean.bin`, in every public OSRT folder of
    the sweep): files binparse does not read, listed as such, never an io descriptor it could not read."""
    _copy(tmp_path / "900_tidl_io_1.bin", FIXTURES / "tidl/io_08x/900_tidl_io_1.bin")
    (tmp_path / "tempDir").mkdir()
    (tmp_path / "tempDir/900_tidl_io__stats_tool_out.bin").write_bytes(bytes(1000))
    (tmp_path / "tempDir/900_tidl_io__LayerPerChannelMean.bin").write_bytes(bytes(12))
    doc = doctor(tmp_path)
    assert (doc["status"], doc["not_verified"], [f["file"] for f in doc["files"]]) == ("ok", [], ["900_tidl_io_1.bin"])
    assert doc["unknown_files"] == ["tempDir/900_tidl_io__LayerPerChannelMean.bin",
                                    "tempDir/900_tidl_io__stats_tool_out.bin"]


def test_gather_lays_out_each_state_of_a_model_folder_and_lists_every_file(tmp_path: Path) -> None:
    """tools/gather_tidl.py on a git repository: the newest state of a model folder where it sits, an older
    state beside it as PATH@COMMIT, a Git LFS pointer listed (never written), a renamed *_net.bin that is not
    TIDL's left out, and a MANIFEST that sweep_tidl counts."""
    import csv
    import importlib.util
    import subprocess
    import sys
    sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
    try:
        spec = importlib.util.spec_from_file_location("gather_tidl", Path(__file__).parents[1] / "tools" / "gather_tidl.py")
        assert spec is not None and spec.loader is not None
        tool = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(tool)
    finally:
        sys.path.remove(str(Path(__file__).parents[1] / "tools"))
    work = tmp_path / "owner+demo"
    (work / "m/artifacts/tempDir").mkdir(parents=True)

    def commit(message: str) -> str:
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(work)]
        subprocess.run([*git, "add", "-A"], check=True, capture_output=True)
        subprocess.run([*git, "commit", "-q", "-m", message], check=True, capture_output=True)
        return subprocess.run([*git, "rev-parse", "HEAD"], check=True, capture_output=True, text=True).stdout.strip()

    subprocess.run(["git", "init", "-q", str(work)], check=True)
    io_08 = (FIXTURES / "tidl/io_08x/900_tidl_io_1.bin").read_bytes()
    (work / "m/artifacts/900_tidl_io_1.bin").write_bytes(io_08)
    (work / "m/artifacts/tempDir/900_tidl_io__stats_tool_out.bin").write_bytes(bytes(16))
    (work / "m/artifacts/other_net.bin").write_bytes(b"not a net")
    (work / "m/notes.txt").write_text("not TIDL's")
    first = commit("first")
    (work / "m/artifacts/900_tidl_io_1.bin").write_bytes(io_08[:-1] + b"\x01")
    (work / "m/artifacts/900_tidl_net.bin").write_text(
        "version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64 + "\nsize 19596588\n")
    head = commit("second")
    out = tmp_path / "corpus"
    assert tool.main([str(out), str(work / ".git")]) == 0
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()) == [
        "MANIFEST.tsv", "owner+demo/m/artifacts/900_tidl_io_1.bin",
        "owner+demo/m/artifacts/tempDir/900_tidl_io__stats_tool_out.bin",
        f"owner+demo/m@{first[:8]}/artifacts/900_tidl_io_1.bin",
        f"owner+demo/m@{first[:8]}/artifacts/tempDir/900_tidl_io__stats_tool_out.bin"]  # a state is laid out whole
    assert (out / f"owner+demo/m@{first[:8]}/artifacts/900_tidl_io_1.bin").read_bytes() == io_08
    with (out / "MANIFEST.tsv").open(newline="") as f:
        rows = [(r["repo"], r["commit"], r["path"], r["bytes"], r["status"], r["folder"])
                for r in csv.DictReader(f, delimiter="\t")]
    assert rows == [
        ("owner/demo", head, "m/artifacts/900_tidl_io_1.bin", "37256", "ok", "owner+demo/m/artifacts/900_tidl_io_1.bin"),
        ("owner/demo", head, "m/artifacts/900_tidl_net.bin", "19596588", "lfs-pointer",
         "owner+demo/m/artifacts/900_tidl_net.bin"),
        ("owner/demo", head, "m/artifacts/tempDir/900_tidl_io__stats_tool_out.bin", "16", "ok",
         "owner+demo/m/artifacts/tempDir/900_tidl_io__stats_tool_out.bin"),
        ("owner/demo", first, "m/artifacts/900_tidl_io_1.bin", "37256", "ok",
         f"owner+demo/m@{first[:8]}/artifacts/900_tidl_io_1.bin"),
        ("owner/demo", first, "m/artifacts/tempDir/900_tidl_io__stats_tool_out.bin", "16", "ok",
         f"owner+demo/m@{first[:8]}/artifacts/tempDir/900_tidl_io__stats_tool_out.bin")]


def test_a_param_file_that_is_a_copy_of_its_net_is_a_problem_that_says_so(tmp_path: Path) -> None:
    """TIDL-API's own tree held tidl_param_mobilenet_1_224.bin as the very bytes of tidl_net_mobilenet_1_224.bin
    (rcn-ee/tidl-api c82818f and 29dc146, 2018-11, replaced in 30f8036): the net needs 8,444,114 bytes of
    parameters, the file has 483,364. Reproduced with binparse's TIDL-API 1.2 net copied under both names."""
    net = FIXTURES / "tidl/net_tidl_api_1_2/912_tidl_net.bin"
    _copy(tmp_path / "tidl_net_x.bin", net)
    _copy(tmp_path / "tidl_param_x.bin", net)
    doc = doctor(tmp_path)
    assert doc["status"] == "problem" and doc["not_verified"] == ["tidl_param_x.bin"]
    assert [f["text"] for f in doc["findings"] if f["level"] == "problem"] == [
        "tidl_param_x.bin does not match tidl_net_x.bin: param file size does not match the network; expected 216 "
        "bytes (from the network's layers), found 483,364 bytes, the network file's own bytes (a copy of the net, "
        "not its parameters). Use the tidl_param_*.bin made together with this tidl_net_*.bin"]
