"""Every printout and record esp-ppq writes beside a model: the newer `.info` form (`model properties:`),
the `.json` quantization record cross-checked with the model's exponents, printed floats compared at
the precision printed, an empty graph as a problem, `view X.info --tensor` in the model's logical form."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.formats.espdl.printouts.info import InfoPrintout
from binparse.formats.espdl.printouts.precision import printed_precision, same_at_precision
from binparse.formats.espdl.printouts.record import QuantRecord

from .conftest import FIXTURES, real

MPI = "espdl/model-properties-info"
TD3 = "act_net_QuaidSIM-v4_TD3_+225.827_750000"


def copy(folder: str, tmp_path: Path) -> Path:
    out = tmp_path / Path(folder).name
    shutil.copytree(real(folder), out)
    out.chmod(0o755)
    for p in out.iterdir():
        p.chmod(0o644)
    return out


def texts(doc: dict[str, object], level: str) -> list[str]:
    return [f["text"] for f in doc["findings"] if f["level"] == level]  # type: ignore[attr-defined, index]


def test_the_newer_info_form_is_read_and_agrees() -> None:
    p = InfoPrintout.read(real(f"{MPI}/pruned_keep14_v2.info"))
    assert p.metadata == {} and p.graph == "main_graph" and len(p.nodes) == 79
    assert len(p.tensors("initializer")) == 164 and [t.name for t in p.inputs] == ["input"]
    assert (p.inputs[0].dims, p.inputs[0].exponents) == ((1, 128, 100, 1), (-1,))
    scalar = next(t for t in p.tensors("initializer") if t.name == "PPQ_Variable_0")
    assert scalar.dims == ()  # printed `[INT8, scalar]`
    doc = doctor(real(MPI))
    assert doc["status"] == "ok" and texts(doc, "problem") == []
    assert "pruned_keep14_v2.info agrees with pruned_keep14_v2.espdl: graph 'main_graph', 79 nodes (ops, tensors, " \
           "attributes), 164 initializers (dtype, dims, exponents, layout, values), 80 tensor exponents, 0 test " \
           "values" in texts(doc, "ok")


def test_metadata_lines_of_the_newer_form(tmp_path: Path) -> None:
    older = real("espdl/edl1-house-price/house_price.info").read_text()
    text = "model properties:\nmetadata_props:\nauthor: someone\nversion: 1.2: beta\n\n\n" + older
    p = InfoPrintout.read(text.encode())
    assert p.metadata == {"author": "someone", "version": "1.2: beta"} and p.graph == "main_graph"
    assert len(p.nodes) == 4
    with pytest.raises(binparse.FormatError, match="not a metadata line"):
        InfoPrintout.read(b"model properties:\nmetadata_props:\nno colon here\ngraph g (\n")


def test_the_json_record_is_read_and_cross_checked(tmp_path: Path) -> None:
    r = QuantRecord.read(real(f"{MPI}/pruned_keep14_v2.json"))
    assert r.summary() == {"family": "espdl", "kind": "quantization_record", "ops": 77, "variables": 214,
                           "bit_widths": {"8": 174, "32": 40}, "platforms": {"ESPDL_INT8": 77}, "power_of_2": 212}
    inp = r.variables["input"]
    assert (inp.bit_width, inp.state, inp.scale, inp.exponents()) == (8, "ACTIVATED", (0.5,), (-1,))
    w = r.variables["features.0.0.weight"]
    assert w.exponents() is not None and w.exponents()[:3] == (-17, -12, -12)  # 7.62939453125e-06 = 2^-17
    model = binparse.open(real(f"{MPI}/pruned_keep14_v2.espdl")).tensor("features.0.0.weight")
    assert model.info.exponents[:3] == (-17, -12, -12)
    assert "pruned_keep14_v2.json agrees with pruned_keep14_v2.espdl: 212 power-of-2 scales are the model's " \
           "exponents, 132 quantized parameters are stored as esp-ppq stores them; 2 variables not quantized (FP32 " \
           "or not exported): outside these rules" in texts(doctor(real(MPI)), "ok")
    folder = copy(MPI, tmp_path)
    doc = json.loads((folder / "pruned_keep14_v2.json").read_text())
    doc["values"]["3573900136"]["scale"] = 0.25  # the input's scale: 2^-2 where the model says -1
    (folder / "pruned_keep14_v2.json").write_text(json.dumps(doc))
    assert texts(doctor(folder), "problem") == [
        "pruned_keep14_v2.json and pruned_keep14_v2.espdl differ: input: esp-ppq quantized it with the scale 2^e, "
        "e = [-2] (ACTIVATED, op node_Conv_609), the model's exponents are [-1]: the chip scales it by another "
        "power of two (esp-ppq writes log2 of the scale it quantized with: "
        "QuantVariableToIntPattern.calculate_exponent)"]


def test_printed_floats_are_compared_at_the_precision_printed(tmp_path: Path) -> None:
    model = np.float32(9.854154449263851e-34)
    assert float(model) == 9.854154449263851e-34
    assert printed_precision("[9.85415445e-34, 1.00000000e+00]") == (8, True)
    assert same_at_precision(np.array([9.85415445e-34]), np.array([model]), 8, True).tolist() == [True]
    other = np.nextafter(model, np.float32(1), dtype=np.float32)
    assert same_at_precision(np.array([9.85415445e-34]), np.array([other]), 8, True).tolist() == [False]
    assert same_at_precision(np.array([0.12345679]), np.array([np.float32(0.123456789)]), 8, False).tolist() == [True]
    # end to end: a float32 initializer printed by numpy's repr, as esp-ppq prints it
    from binparse.formats.espdl.writers.fixtures import espdl_file
    from binparse.formats.espdl.writers.info_write import printout
    graph = {"name": "g", "inputs": [{"name": "x", "dims": [1, 3], "dtype": "float32", "exponents": [0]}],
             "outputs": [{"name": "y", "dims": [1, 3], "dtype": "float32", "exponents": [0]}],
             "nodes": [{"name": "add", "op_type": "Add", "inputs": ["x", "c"], "outputs": ["y"]}],
             "initializers": [{"name": "c", "dims": [3], "dtype": "float32", "layout": "UNK",
                               "values": [9.854154449263851e-34, 0.1, -2.5]}]}
    (tmp_path / "m.espdl").write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    text = printout(graph)
    assert "9.854154e-34" in text  # numpy's shortest float32 repr, not the float64 digits
    (tmp_path / "m.info").write_text(text)
    doc = doctor(tmp_path)
    assert texts(doc, "problem") == [] and any(t.startswith("m.info agrees with m.espdl") for t in texts(doc, "ok"))
    (tmp_path / "m.info").write_text(text.replace("9.854154e-34", "9.854155e-34"))
    assert texts(doctor(tmp_path), "problem") == [
        "m.info and m.espdl differ: initializer 'c' values: 1 of 4 values differ, first at element 0: printed "
        "9.854155e-34, the model 9.854154449263851e-34 (line 12)"]


def test_an_empty_graph_is_named_not_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What esp-ppq leaves of an export that stopped before the graph (a 184-byte EDL2 of an empty graph,
    its `.info` in the `graph NAME {` form, an empty `.json`): read whole, nothing in it to verify or to
    prove wrong: "not verified" in inspect and doctor alike (exit 2), never "problem" nor "[ok] 0 nodes"."""
    from binparse.formats.espdl.writers.fixtures import espdl_file
    data = espdl_file({"format": "EDL2", "graph": {"name": "coco_pose_yolo11n_pose_224_p4"}})
    (tmp_path / "empty.espdl").write_bytes(data)
    (tmp_path / "empty.info").write_text("model properties:\nmetadata_props:\n\n\ngraph coco_pose_yolo11n_pose_224_p4 {"
                                         "\n  return\n}\n\n\ninitializers value:\n\n\n\nvalues info:\n\n\n\n"
                                         "test inputs value:\n\n\n\ntest outputs value:\n")
    (tmp_path / "empty.json").write_text('{\n    "configs": {},\n    "dispatchings": {},\n    "values": {}\n}')
    doc = doctor(tmp_path)
    assert doc["status"] == "not verified" and doc["not_verified"] == ["empty.espdl"] and texts(doc, "problem") == []
    assert texts(doc, "note") == [
        "not verified: empty.espdl is an empty graph 'coco_pose_yolo11n_pose_224_p4': no nodes, 0 inputs, 0 outputs "
        "(nothing for esp-dl to run), nothing to verify",
        "empty.json: records no quantized variable (its configs are empty, as esp-ppq writes them when no op was "
        "quantized): nothing to compare"]
    assert texts(doc, "ok") == ["empty.info agrees with empty.espdl: graph 'coco_pose_yolo11n_pose_224_p4', 0 nodes "
                                "(ops, tensors, attributes), 0 initializers (dtype, dims, exponents, layout, values), "
                                "0 tensor exponents, 0 test values"]
    assert main(["doctor", str(tmp_path)]) == 2
    capsys.readouterr()
    assert main(["inspect", str(tmp_path / "empty.espdl")]) == 2
    out = capsys.readouterr().out.splitlines()
    assert "  nodes: 0 (an empty graph: nothing to run)" in out and not [x for x in out if "problem" in x]
    assert out[-2] == ("not verified: the model is an empty graph 'coco_pose_yolo11n_pose_224_p4': no nodes, 0 inputs, "
                       "0 outputs (nothing for esp-dl to run: its Model reports \"There's no input in model.\"), nothing "
                       "to verify")
    assert main(["inspect", str(tmp_path / "empty.info")]) == 0 and main(["inspect", str(tmp_path / "empty.json")]) == 0


def test_view_of_an_info_tensor_is_the_models_logical_array(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    folder = real("espdl/info-td3")
    for src in (f"{TD3}.info", f"{TD3}.espdl"):
        assert main(["view", str(folder / src), "--tensor", "observations", "--npy", str(tmp_path / f"{src}.npy")]) == 0
    a, b = np.load(tmp_path / f"{TD3}.info.npy"), np.load(tmp_path / f"{TD3}.espdl.npy")
    assert a.shape == b.shape == (1, 17) and np.array_equal(a, b)
    assert main(["view", str(folder / f"{TD3}.info"), "--tensor", "observations", "--stored",
                 "--npy", str(tmp_path / "s.npy")]) == 0
    assert np.load(tmp_path / "s.npy").shape == (32,)  # the whole raw_data vector: two 16-byte blocks
    models = FIXTURES / "espdl" / "models"
    info = InfoPrintout.read(models / "conv_s8_blocks.info")
    arr, what = info.tensor_array("w_conv32")
    want = binparse.open(models / "conv_s8_blocks.espdl").tensor("w_conv32").to_logical()
    assert arr.shape == want.shape == (32, 1, 2, 3) and np.array_equal(arr, want)
    assert what == "esp-ppq .info initializer 'w_conv32', logical ((N/16)HWC16 unblocked), dims [32, 1, 2, 3]"


def test_inspect_of_a_model_folder_says_what_is_there_and_what_made_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(real(MPI))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("model-properties-info: 1 model files, 1 .info printouts, 1 .json quantization records")
    assert lines[1:5] == [
        "pruned_keep14_v2:",
        "  pruned_keep14_v2.espdl: EDL2 model, graph 'main_graph', 79 nodes (Add x8, Clip x26, Conv x39, Gemm x1, "
        "ReduceMean x1, RequantizeLinear x2, Reshape x1, Transpose x1), 540,992 parameters, target esp32s3 / esp32p4 "
        "(blocked weights: 16 lanes); made by esp-ppq (EDL2: esp-dl v3 generation)",
        "  pruned_keep14_v2.info: printout of graph 'main_graph', 79 nodes; made by esp-ppq (newer printout form)",
        "  pruned_keep14_v2.json: quantization record, 77 ops, 214 variables, 212 power-of-2 scales; made by esp-ppq "
        "(quantization settings)"]
    assert main(["inspect", str(FIXTURES / "espdl" / "int32_defect"), "--json"]) == 2  # read as meant: unverified
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "model_folder" and [m["name"] for m in doc["models"]] == [
        "narrow_all", "narrow_dims", "narrow_edl1", "narrow_exponents", "narrow_ints", "narrow_pack"]
    pack = doc["models"][-1]["model"]
    assert (pack["format"], [(m["name"], m["int32_in_int64"]) for m in pack["models"]]) == \
        ("PDL2", [("narrow", 16), ("sound", 0)])
    assert doc["models"][0]["printout"]["made_by"] == "esp-ppq (older printout form)"
    assert "spec.yaml" in doc["other_files"] and "manifest.json" in doc["other_files"]


def test_inspect_of_a_model_opens_with_a_summary_and_shows_the_rest_with_v(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(real("espdl/gemm-16x16-relu/esp32s3.espdl"))
    assert main(["inspect", path]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "ESP-DL EDL2 model", "model: 1,792 bytes of FlatBuffer at offset 16",
        "  graph 'main_graph': EDL2 generation, ir_version 7, target esp32s3 / esp32p4 (blocked weights: 16 lanes)",
        "  nodes: 1 (Gemm x1)", "  parameters: 272 in 2 initializers", "  inputs: onnx::Gemm_0 int8 1x16",
        "  outputs: 4 int8 1x16", "  test values: 1 inputs, 1 outputs",
        f"(`binparse inspect -v {path}` shows every node, initializer, input, output and test value)"]
    assert main(["inspect", path, "-v"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 23 and "  initializers: 2" in out and out[-1].startswith("  totals: 272 parameters")


def test_a_record_of_another_graph_proves_nothing_against_the_model(tmp_path: Path) -> None:
    """Issue 47's sweep: Espressif's yolo26 PIE example (esp-dl 400dba59) holds a record whose ops the
    model fused into others (TiledConvBlock, HardSiluPie8: 49 of 284 ops no node of the model), with 30
    exponents that differ. A record that configures ops the model does not have describes another graph:
    its differences are a note (with every one in `details`), not a problem; the same record of the very
    graph is a problem (the two files contradict each other)."""
    src = FIXTURES / "espdl" / "espppq" / "esp32p4"
    doc = json.loads((src / "conv_relu_s8.json").read_text())
    doc["values"]["3260878933"]["scale"] = 0.0625  # input.1: 2^-4 recorded, the model's exponent is -5
    for graph, ops in (("same", doc["configs"]), ("fused", {"/0/Conv/Relu_Fused": doc["configs"]["/0/Conv"]})):
        folder = tmp_path / graph
        folder.mkdir()
        shutil.copy(src / "conv_relu_s8.espdl", folder / "m.espdl")
        (folder / "m.json").write_text(json.dumps({**doc, "configs": ops}))
        found = [(f["level"], f["text"], f.get("details")) for f in doctor(folder)["findings"]
                 if f["files"] == ["m.json", "m.espdl"]]
        diff = ("input.1: esp-ppq quantized it with the scale 2^e, e = [-4] (ACTIVATED, op "
                f"{'/0/Conv' if graph == 'same' else '/0/Conv/Relu_Fused'}), the model's exponents are [-5]: the chip "
                "scales it by another power of two (esp-ppq writes log2 of the scale it quantized with: "
                "QuantVariableToIntPattern.calculate_exponent)")
        if graph == "same":
            assert found == [("problem", f"m.json and m.espdl differ: {diff}", None)], found
        else:
            assert found == [("note", "m.json configures 1 ops m.espdl does not have (e.g. '/0/Conv/Relu_Fused'): it "
                                      "describes another graph than the model's, so its 1 differences from the model's "
                                      f"exponents prove nothing against it; first: {diff}", [diff])], found
