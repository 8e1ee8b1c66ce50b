"""esp-ppq's `.info` printout in every form its printer writes (`printable_graph` of esp_ppq/parser/espdl/
helper.py), read in linear time; an unreadable printout named "not verified" by inspect and doctor alike;
a storage wider than a recorded bit width (esp-ppq's normal encoding) never a problem."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.formats.espdl.printouts.info import InfoPrintout

from .conftest import real

HOUSE = "espdl/edl1-house-price"
S3 = "espdl/s3-mobilenet-v2-record"


def texts(doc: dict[str, object], level: str) -> list[str]:
    return [f["text"] for f in doc["findings"] if f["level"] == level]  # type: ignore[attr-defined, index]


def copy(folder: str, tmp_path: Path) -> Path:
    out = tmp_path / Path(folder).name
    shutil.copytree(real(folder), out)
    for p in [out, *out.iterdir()]:
        p.chmod(0o755 if p.is_dir() else 0o644)
    return out


def test_an_unnamed_value_line_is_read() -> None:
    """A user's yolo printout has `%[FLOAT], exponents: [0]` in its tensor table (a value with no name and
    a type without shape: `printable_value_info`); built here from house_price.info's shape."""
    text = real(f"{HOUSE}/house_price.info").read_text()
    head, sep, tail = text.partition("values info:\n")
    p = InfoPrintout.read((head + sep + "%[FLOAT], exponents: [0]\n%untyped\n%no_type[]\n" + tail).encode())
    values = p.tensors("value")
    assert [(t.name, t.dtype, t.dims, t.exponents) for t in values[:3]] == [
        ("", "float32", None, (0,)), ("untyped", None, None, None), ("no_type", None, None, None)]
    assert len(values) == 3 + len(InfoPrintout.read(real(f"{HOUSE}/house_price.info")).tensors("value"))


GRAPH_WITHOUT_INITIALIZERS = """graph main_graph (
  %onnx::Add_0[INT8, 2x5], exponents: [-7]
  %onnx::Add_1[INT8, 1], exponents: [-7]
) {
  %2 = Add[quant_type = 'S8'](%onnx::Add_0, %onnx::Add_1)
  return %2
}


initializers value:



values info:
%2[INT8, 2x5], exponents: [-7]
%onnx::Add_0[INT8, 2x5], exponents: [-7]
%onnx::Add_1[INT8, 1], exponents: [-7]


test inputs value:
%onnx::Add_0, shape: [2, 5], exponents: [-7], 
value: array([39, 54, 76, 69, 56, 52, 42, 90, 28, 27], dtype=int8)
%onnx::Add_1, shape: [1], exponents: [-7], 
value: array([6], dtype=int8)


test outputs value:
%2, shape: [2, 5], exponents: [-7], 
value: array([45, 60, 82, 75, 62, 58, 48, 96, 34, 33], dtype=int8)"""


def test_every_header_form_of_the_printer() -> None:
    """`) {` right after the inputs (a graph with no initializer: esp-dl's ops_test add4d printouts, whose shape
    this is), `graph NAME {` (no inputs), a node without outputs or attributes, `return` alone, values inline."""
    p = InfoPrintout.read(GRAPH_WITHOUT_INITIALIZERS.encode())
    assert (p.graph, [t.name for t in p.inputs], p.declared, len(p.nodes), p.returns) == (
        "main_graph", ["onnx::Add_0", "onnx::Add_1"], {}, 1, ("2",))
    assert p.nodes[0].attribute_values() == {"quant_type": "S8"}
    (t,) = p.tensors("test_output")
    assert (t.dims, t.exponents, t.dtype, t.values.tolist()) == ((2, 5), (-7,), "int8",
                                                                 [45, 60, 82, 75, 62, 58, 48, 96, 34, 33])
    empty = InfoPrintout.read(b"model properties:\nmetadata_props:\n\n\ngraph g {\n  Print(%x)\n  return\n}\n")
    assert (empty.graph, empty.inputs, empty.returns) == ("g", [], ())
    assert [(n.op_type, n.inputs, n.outputs) for n in empty.nodes] == [("Print", ("x",), ())]
    inline = InfoPrintout.read(b"graph g (\n  %x[FLOAT, 1x3]\n) initializers (\n  %c[FLOAT, 3]\n) {\n"
                               b"  %y = Add(%x, %c)\n  return %y\n}\n\n\ninitializers value:\n"
                               b"%c, shape: [3], exponents: [0], value: [0.5, 1.25, -2.0]\n")
    (c,) = inline.tensors("initializer")
    assert (c.dims, c.dtype, c.values.tolist(), c.digits) == ((3,), "float32", [0.5, 1.25, -2.0], 2)
    # a bool output (esp-dl's ops_test equal4d printouts): numpy prints True and False
    text = GRAPH_WITHOUT_INITIALIZERS.replace("%2[INT8, 2x5]", "%2[BOOL, 2x5]").replace(
        "value: array([45, 60, 82, 75, 62, 58, 48, 96, 34, 33], dtype=int8)",
        "value: array([ True, False, False,  True, False,\n       False, False, False, False,  True])")
    (b,) = InfoPrintout.read(text.encode()).tensors("test_output")
    assert (b.dtype, b.values.tolist()) == ("bool", [1, 0, 0, 1, 0, 0, 0, 0, 0, 1])


def test_printout_lines_are_read_in_linear_time() -> None:
    """A declaration, a node and a value entry of 2 million characters each: read by find/slice, not by a
    regular expression that backtracks (a line of n characters costs time in proportion to n)."""
    long = "x[" * 1_000_000
    text = (f"graph g (\n  %{long}[INT8, 1], exponents: [0]\n) {{\n  %{long} = Add(%a, %b)\n  return %y\n}}\n\n\n"
            f"test inputs value:\n%{long}, shape: [1], exponents: [0], \nvalue: array([1], dtype=int8)\n")
    start = time.perf_counter()
    p = InfoPrintout.read(text.encode())
    assert time.perf_counter() - start < 5
    assert p.inputs[0].name == long and p.nodes[0].outputs == (long,) and p.tensors("test_input")[0].name == long


def test_an_unreadable_printout_is_not_verified_in_doctor_and_inspect_alike(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = copy(HOUSE, tmp_path)
    info = folder / "house_price.info"
    lines = info.read_text().splitlines()
    info.write_text("\n".join(lines[:lines.index("}")]) + "\n")  # cut before the end of the graph body
    assert main(["inspect", str(info)]) == 2
    err = capsys.readouterr().err
    assert "the graph body does not end in '}'" in err
    doc = doctor(folder)
    assert doc["status"] == "not verified" and doc["not_verified"] == ["house_price.info"]
    assert texts(doc, "problem") == []
    assert [t for t in texts(doc, "note") if "house_price.info" in t] == [
        f"not verified: house_price.info looks like an espdl info_printout (esp-ppq printout header 'graph NAME (') "
        f"but could not be read: line {len(lines[:lines.index('}')]) + 1}: the graph body does not end in '}}'; "
        "expected '}', found (end of file). Not an esp-ppq .info printout, or one cut short"]
    assert main(["doctor", str(folder)]) == 2


def test_an_info_file_of_another_tool_is_no_printout(tmp_path: Path) -> None:
    """esp-dl's own tree has `esp-idf.info` files (the ESP-IDF version its libraries were built with): a file
    named .info whose first line is not esp-ppq's is another tool's, never an unreadable printout."""
    (tmp_path / "esp-idf.info").write_text("ESP-IDF v5.4.3-1245-gbdc4dc5e9e\nbdc4dc5e9e01fbd35b4e68478ecf3d83c6c94ef8\n")
    shutil.copy(real("espdl/gemm-16x16-relu/c.espdl"), tmp_path / "c.espdl")
    doc = doctor(tmp_path)
    assert doc["unknown_files"] == ["esp-idf.info"] and doc["status"] == "ok" and doc["not_verified"] == []


def test_a_wider_storage_than_the_recorded_width_is_how_esp_ppq_writes(tmp_path: Path) -> None:
    """Espressif's S3 mobilenet_v2: 53 biases of ESPDL_S3_INT8 Convs quantized to 20 bits and stored in int32
    (esp-ppq's PPQLinearQuant_toInt): agreement, never a problem. A value outside the recorded range, or a
    storage narrower than the width, contradicts the record: a problem naming the rule."""
    doc = doctor(real(S3))
    assert texts(doc, "problem") == []
    assert ("mobilenet_v2.json agrees with mobilenet_v2.espdl: 177 power-of-2 scales are the model's exponents, 106 "
            "quantized parameters are stored as esp-ppq stores them (53 of 20-bit values in int32: esp-ppq's storage "
            "for those widths)") in texts(doc, "ok")
    bias = binparse.open(real(f"{S3}/mobilenet_v2.espdl")).tensor("onnx::Conv_469")
    record = json.loads(real(f"{S3}/mobilenet_v2.json").read_text())
    conf = record["configs"]["/features/features.0/features.0.0/Conv"]["onnx::Conv_469"]
    assert (bias.info.dtype, conf["bit_width"], conf["quant_min"], conf["quant_max"]) == ("int32", 20, -524288, 524287)
    assert -524288 <= int(bias.stored().min()) and int(bias.stored().max()) <= 524287
    folder = copy(S3, tmp_path)
    conf["quant_max"] = int(bias.stored().max()) - 1  # the record now says the largest value cannot be
    (folder / "mobilenet_v2.json").write_text(json.dumps(record))
    k = int(np.argmax(bias.vector()))
    assert texts(doctor(folder), "problem") == [
        f"mobilenet_v2.json and mobilenet_v2.espdl differ: onnx::Conv_469 (20-bit, PASSIVE, op "
        f"/features/features.0/features.0.0/Conv): 1 of {bias.vector().size} stored values lie outside its recorded "
        f"range [-524288, {conf['quant_max']}], first at element {k}: {conf['quant_max'] + 1} (esp-ppq clamps a "
        "quantized parameter into [quant_min, quant_max] and stores it in at least its bit width: "
        "PPQLinearQuant_toInt)"]


def test_fp32_variables_are_outside_the_quantization_rules(tmp_path: Path) -> None:
    """A variable esp-ppq keeps in float (state FP32, e.g. the int64 shape constant before a Reshape) has no
    exponent of its own in the model, whatever scale a dominating config gives it in the record."""
    folder = copy("espdl/model-properties-info", tmp_path)
    record = json.loads((folder / "pruned_keep14_v2.json").read_text())
    op, var = next((op, name) for op, vs in record["configs"].items() for name, c in vs.items()
                   if c["state"] == "FP32")
    record["configs"][op][var]["dominator"] = record["configs"][op][next(iter(record["configs"][op]))]["hash"]
    (folder / "pruned_keep14_v2.json").write_text(json.dumps(record))
    doc = doctor(folder)
    assert texts(doc, "problem") == []
    assert any("2 variables not quantized (FP32 or not exported): outside these rules" in t for t in texts(doc, "ok"))


def test_the_sweep_tool_counts_every_real_folder(tmp_path: Path) -> None:
    """tools/sweep_espdl.py (the evidence gathered on public repositories) run on ../shared/real/espdl, in this
    process: every model, printout and record has a line; the one proven problem is the P4 mnist's int32
    values in int64 vectors; doctor and inspect agree on every file's exit code class."""
    import importlib.util
    from .conftest import REPO
    spec = importlib.util.spec_from_file_location("sweep_espdl", REPO / "tools" / "sweep_espdl.py")
    assert spec is not None and spec.loader is not None
    sweep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sweep)
    corpus = real("espdl")
    results = [sweep.one(f, None) for f in sweep.folders(corpus)]
    rep = sweep.summarize(corpus, results, 0)
    assert rep["folders"] == 12 and rep["files"] == {".espdl": 16, ".info": 3, ".json": 2}
    assert rep["files_without_a_line"] == 0 and rep["unreadable_disagreeing"] == 0 and rep["other_files"] == 0
    assert [(Path(f).name, p[:40]) for f, p in rep["problems"]] == [
        ("int32-maxpool-pads", "mnist.espdl: 56 int64 vectors hold int32")]
    assert rep["doctor_exit_codes"] == {"0": 10, "1": 1, "2": 1}  # edl1-encrypted (no key given): not verified
