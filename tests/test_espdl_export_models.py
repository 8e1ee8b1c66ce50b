"""ESP-DL models exported as the chip computes them, checked against their own test values.

Real files of ../shared/real/espdl (blocked 2-D MatMul weights, EDL1 N, H, W, C test-app models,
Espressif's S3 mobilenet_v2 with its .json record, an encrypted model) and the models esp-ppq 1.3.12
made on this machine (fixtures/espdl/espppq: tools/espppq_models.py, with their test values and
.json records) against the export: exact element counts, the rounding chosen and its evidence.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")

import binparse  # noqa: E402
from binparse.cli import main  # noqa: E402
from binparse.core.errors import BinparseError, LayoutError  # noqa: E402
from binparse.formats.espdl import onnx as eo  # noqa: E402
from binparse.formats.espdl.model.weights import WeightLayout  # noqa: E402
from binparse.formats.espdl.onnx.verify import check_model  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
REAL = ROOT / ".." / "shared" / "real" / "espdl"
PPQ = ROOT / "fixtures" / "espdl" / "espppq"
needs_real = pytest.mark.skipif(not REAL.is_dir(), reason="../shared/real not present")
PPQ_MODELS = sorted(PPQ.rglob("*.espdl"))

NOT_REPRODUCED: set[str] = set()  # every model esp-ppq made reproduces its test values


def _ppq_id(p: Path) -> str:
    return f"{p.parent.name}/{p.stem}"


# -- esp-ppq's own models: every op and target -------------------------------------------------

@pytest.mark.parametrize("path", PPQ_MODELS, ids=_ppq_id)
def test_espppq_models_reproduce_their_test_values(path: Path) -> None:
    m = binparse.open(path).models[0]
    result = check_model(m)
    count = sum(o.count for o in result.outputs)
    within = sum(o.within for o in result.outputs)
    assert count > 0
    if path.stem in NOT_REPRODUCED:
        assert result.status == "problem" and within < count
        return
    assert result.status == "ok", [(o.name, o.within, o.count) for o in result.outputs]
    assert all(o.share >= 0.99 for o in result.outputs)


def test_espppq_fixtures_cover_every_op_and_target() -> None:
    """Every op of the export (but esp-dl's boolean, logic and rarely exported ones) appears in a model
    esp-ppq made, for esp32p4, esp32s3 and c, at 8 and 16 bits."""
    assert (PPQ / "MANIFEST.txt").read_text().startswith("esp-ppq 1.3.12\n")
    ops: dict[str, set[str]] = {}
    for p in PPQ_MODELS:
        for n in binparse.open(p).models[0].graph.nodes:
            ops.setdefault(n.op_type, set()).add(f"{p.parent.name}/{p.stem.rsplit('_', 1)[1]}")
    assert {"esp32p4/s8", "esp32p4/s16", "esp32s3/s8", "esp32s3/s16", "c/s8", "c/s16"} <= ops["Conv"]
    wanted = {"Pad", "Gather", "ReduceMax", "ReduceSum", "Max", "Min", "Exp", "Abs", "Neg", "Elu", "DepthToSpace",
              "LayerNormalization", "LSTM", "GRU", "DequantizeLinear", "Log", "Sqrt", "Softmax", "LogSoftmax",
              "MatMul", "Gemm", "PRelu", "Clip", "LpNormalization", "Erf", "QuantizeLinear"}
    assert wanted <= set(ops), wanted - set(ops)
    assert set(ops) <= set(eo.OPS)


def _ppq(target: str, name: str) -> Path:
    return PPQ / target / f"{name}.espdl"


def test_int16_clip_is_computed_on_integers_not_with_the_8_bit_table() -> None:
    """esp-dl `dl_module_clip.hpp` builds its LUT module only for QUANT_TYPE_SYMM_8BIT."""
    for name, table in (("clip_s8", True), ("clip_s16", False)):
        path = _ppq("esp32p4", name)
        proto = eo.export(path)
        assert any(n.op_type == "Gather" for n in proto.graph.node) is table, name
        out = check_model(binparse.open(path).models[0]).outputs[0]
        assert out.exact == out.count == 100, name


def test_grouped_conv_weights_read_in_esp_ppqs_group_layout() -> None:
    """group 4, 2 channels a group: dims [3, 3, 8, 2] (esp-ppq's group > 1 branch), logical (8, 3, 3, 2)."""
    for name, layout in (("conv_grouped_s8", "(N/16)HWC16_UNALIGNED"), ("conv_grouped_s16", "(N/8)HWC8")):
        m = binparse.open(_ppq("esp32p4", name)).models[0]
        t = m.tensor(m.graph.nodes[0].inputs[1])
        assert (t.layout.name, t.layout.dims, t.layout.grouped, t.layout.depthwise) == (layout, (3, 3, 8, 2), True,
                                                                                          False)
        assert t.to_logical().shape == (8, 3, 3, 2)
        out = check_model(m).outputs[0]
        assert (out.count, out.exact) == (288, 288)
    m = binparse.open(_ppq("esp32p4", "conv_grouped_s16")).models[0]
    t = m.tensor(m.graph.nodes[0].inputs[1])
    v = t.blocked_view()  # (N//8, 8, H, W, C/g) over the file's bytes
    assert v.shape == (1, 8, 3, 3, 2) and np.shares_memory(v, t.stored())
    assert np.array_equal(v.reshape(8, 3, 3, 2), t.to_logical())


def test_a_grouped_conv_of_one_aligned_block_is_no_problem(tmp_path: Path) -> None:
    """Issue 47: nn.Conv2d(8, 16, 3, groups=4) for esp32s3 and esp32p4 (dims [3, 3, 16, 2]: its 16 output
    channels blocked, 2 input channels a group) is (N/16)HWC16 / (N/8)HWC8 as named; the doctor checked
    the group's 2 channels against the block (a problem, esp-dl reading no such rule) and now the 16 it is
    blocked along; the export reproduces its 768 test output elements exactly."""
    for target in ("esp32p4", "esp32s3"):
        folder = tmp_path / target
        folder.mkdir()
        for bits, layout in (("s8", "(N/16)HWC16"), ("s16", "(N/8)HWC8")):
            src = _ppq(target, f"conv_grouped_n16_{bits}")
            (folder / src.name).write_bytes(src.read_bytes())
            m = binparse.open(src).models[0]
            t = m.tensor(m.graph.nodes[0].inputs[1])
            assert (t.layout.name, t.layout.dims, t.layout.grouped, t.layout.blocked_channels) == (
                layout, (3, 3, 16, 2), True, 16)
            out = check_model(m).outputs[0]
            assert (out.count, out.exact) == (768, 768)
        doc = _doctor_json(folder)
        assert doc["status"] == "ok" and [f for f in doc["findings"] if f["level"] != "ok"] == [], doc["findings"]


def _doctor_json(folder: Path) -> dict:  # type: ignore[type-arg]
    import contextlib
    import io
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        main(["doctor", str(folder), "--json"])
    return json.loads(buf.getvalue())  # type: ignore[no-any-return]


def test_constant_matmul_and_gemm_heads_of_two_and_three_outputs() -> None:
    """A 2-D constant MatMul weight [24, 40] in (N/16)HWC16_UNALIGNED and Gemm heads N = 2, 3 (16-lane
    unaligned on S3/P4) reproduce every element exactly."""
    for target in ("esp32p4", "esp32s3"):
        m = binparse.open(_ppq(target, "matmul_const_s8")).models[0]
        t = m.tensor(next(n for n in m.graph.nodes if n.op_type == "MatMul").inputs[1])
        assert (t.layout.dims, t.layout.matrix, t.to_logical().shape) == ((24, 40), True, (40, 24))
        for name, count in (("matmul_const_s8", 200), ("gemm_n2_s8", 2), ("gemm_n3_s8", 3), ("gemm_n3_s16", 3)):
            out = check_model(binparse.open(_ppq(target, name)).models[0]).outputs
            assert [(o.count, o.exact) for o in out] == [(count, count)], (target, name)


def test_float_outputs_are_compared_with_a_float_tolerance() -> None:
    """Log after esp-ppq's DequantizeLinear is an FP32 output: its step is 1e-3 of its largest value,
    not 1.0."""
    m = binparse.open(_ppq("esp32p4", "log_s8")).models[0]
    assert [n.op_type for n in m.graph.nodes][-2:] == ["DequantizeLinear", "Log"]
    assert m.graph.outputs[0].dtype == "float32"
    (out,) = check_model(m).outputs
    want = np.abs(m.tensor(m.graph.outputs[0].name).dequantize()).max()
    assert out.step == pytest.approx(1e-3 * want) and out.step < 0.01
    assert out.max_diff <= out.step and out.within == out.count == 100


# -- rounding chosen from evidence -------------------------------------------------------------

@needs_real
def test_s3_mobilenet_v2_is_exported_half_up_from_its_test_values() -> None:
    result = eo.check(REAL / "s3-mobilenet-v2-record/mobilenet_v2.espdl")
    (m,) = result.models
    assert m.choice is not None and m.choice.rounding == "half-up"
    assert m.choice.evidence == "test values: half-up 1,000/1,000 within one step (1,000 exact), half-even 499 (198 exact)"
    assert m.choice.source == "test values"
    assert [(o.count, o.within, o.exact) for o in m.outputs] == [(1000, 1000, 1000)]
    assert result.exit_code == 0
    fixed = eo.check(REAL / "s3-mobilenet-v2-record/mobilenet_v2.espdl", rounding="half-even")
    assert [(o.within, o.exact) for o in fixed.models[0].outputs] == [(499, 198)] and fixed.exit_code == 1


@needs_real
def test_rounding_from_the_json_record_when_there_are_no_test_values() -> None:
    proto = eo.export(REAL / "model-properties-info/pruned_keep14_v2.espdl")
    props = {p.key: p.value for p in proto.metadata_props}
    assert props["binparse.rounding"] == "half-even"
    assert props["binparse.rounding_evidence"] == ("no test values; the .json record's platforms ESPDL_INT8: esp-ppq "
                                                   "rounds half-even there")
    assert props["binparse.rounding_source"] == ".json record"


def test_rounding_of_espppq_s3_and_c_models_is_half_up() -> None:
    """esp-ppq 1.3.12 rounds half-up on ESPDL_S3_* and ESPDL_C_*, half-even on ESPDL_INT8 (P4): where the
    test values cannot tell (both roundings reproduce them), the .json record decides."""
    for target, rounding, platform in (("esp32s3", "half-up", "ESPDL_S3_INT8"), ("c", "half-up", "ESPDL_C_INT8"),
                                       ("esp32p4", "half-even", "ESPDL_INT8")):
        m = binparse.open(_ppq(target, "conv_relu_s8")).models[0]
        choice = check_model(m).choice
        assert choice is not None and choice.rounding == rounding, target
        assert platform in choice.evidence or choice.source == "test values"


# -- blocked 2-D weights of a real model -------------------------------------------------------

@needs_real
def test_pp_ocr_2d_matmul_weights_read_view_and_export() -> None:
    path = REAL / "blocked-2d-matmul/pp_ocr_v6_rec_s8.espdl"
    m = binparse.open(path).models[0]
    t = m.tensor("linear_0.w_0")
    assert (t.layout.name, t.layout.dims, t.layout.matrix) == ("(N/16)HWC16", (160, 80), True)
    v = t.blocked_view()
    assert v.shape == (5, 16, 160) and np.shares_memory(v, t.stored()) and not v.flags.owndata
    logical = t.to_logical()
    assert logical.shape == (80, 160) and np.array_equal(v.reshape(80, 160), logical)
    stored = t.stored().reshape(-1)
    assert logical[17, 3] == stored[1 * 160 * 16 + 3 * 16 + 1]  # channel 17: block 1, lane 1; row 3
    w = m.tensor("linear_1.w_0")
    assert (w.layout.name, w.to_logical().shape) == ("(N/16)HWC16_UNALIGNED", (6906, 80))
    assert w.to_logical()[6905, 79] == w.stored().reshape(-1)[6905 * 80 + 79]  # the unaligned rest: N, C
    proto = eo.export(path)
    onnx.checker.check_model(proto)
    s = ort.InferenceSession(proto.SerializeToString())
    y = s.run(None, {"x": np.zeros((1, 48, 320, 3), np.float32)})[0]
    assert y.shape == (1, 40, 6906)


def test_a_layout_that_does_not_fit_the_dims_names_file_and_tensor() -> None:
    with pytest.raises(LayoutError) as err:
        WeightLayout.of("(N/16)HWC16", (7,), tensor="w0", file="m.espdl")
    text = str(err.value)
    assert "m.espdl" in text and "weight 'w0'" in text and "needs 4 dims" in text


@needs_real
def test_pp_ocr_layout_error_is_gone_from_inspect_and_view(tmp_path: Path) -> None:
    path = REAL / "blocked-2d-matmul/pp_ocr_v6_rec_s8.espdl"
    out = tmp_path / "w.npy"
    assert main(["view", str(path), "--tensor", "linear_1.w_0", "--npy", str(out)]) == 0
    assert np.load(out).shape == (6906, 80)


# -- EDL1 test-app models in N, H, W, C ---------------------------------------------------------

@needs_real
@pytest.mark.parametrize("bits", ["s8", "s16"])
def test_edl1_nhwc_conv_models_run_and_reproduce(bits: str) -> None:
    path = REAL / f"edl1-conv-nhwc/conv2d_ishap_1_16_32_32_kshap_32_16_5_5_relu_{bits}.espdl"
    proto = eo.export(path)
    onnx.checker.check_model(proto, full_check=True)
    assert [d.dim_value for d in proto.graph.input[0].type.tensor_type.shape.dim] == [1, 32, 32, 16]
    (out,) = eo.check(path).models[0].outputs
    assert (out.count, out.within, out.exact) == (8192, 8192, 8192)


# -- what the check says when it cannot run ------------------------------------------------------

@needs_real
def test_encrypted_model_checked_without_key_is_told_to_pass_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(REAL / "edl1-encrypted/quantized_320_encry.espdl"), "--check"]) == 2
    err = capsys.readouterr().err
    assert "Pass --key HEX" in err and "re-export" not in err


def test_doctor_says_not_verified_when_the_onnx_check_cannot_run(tmp_path: Path) -> None:
    """A model with test values whose export cannot run: named, exit 2, never 'ok'."""
    from binparse.cli.doctor import doctor
    from binparse.formats.espdl.writers.fixtures import espdl_file
    x = np.arange(6, dtype=np.int8).reshape(1, 6)
    graph = {"name": "g", "inputs": [{"name": "x", "dims": [1, 6], "dtype": "int8", "exponents": [-4]}],
             "outputs": [{"name": "y", "dims": [1, 6], "dtype": "int8", "exponents": [-4]}],
             "nodes": [{"name": "n", "op_type": "NonMaxSuppression", "inputs": ["x"], "outputs": ["y"],
                        "attributes": {}}],
             "test_inputs": [{"name": "x", "dims": [1, 6], "dtype": "int8", "exponents": [-4], "values": x.tolist()}],
             "test_outputs": [{"name": "y", "dims": [1, 6], "dtype": "int8", "exponents": [-4],
                               "values": x.tolist()}]}
    (tmp_path / "m.espdl").write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    doc = doctor(tmp_path, argparse.Namespace())
    assert doc["status"] == "not verified" and doc["not_verified"] == ["m.espdl"]
    (line,) = [f["text"] for f in doc["findings"] if "ONNX" in f["text"]]
    assert line.startswith("not verified: m.espdl: its test values could not be checked in ONNX: the export does "
                           "not reproduce NonMaxSuppression (x1)")
    assert main(["doctor", str(tmp_path)]) == 2


def test_sweep_tool_counts_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util
    spec = importlib.util.spec_from_file_location("sweep", ROOT / "tools" / "sweep_espdl_export.py")
    assert spec is not None and spec.loader is not None
    sweep = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sweep)
    for name in ("conv_relu_s8", "gemm_n3_s8"):
        (tmp_path / f"{name}.espdl").write_bytes(_ppq("esp32s3", name).read_bytes())
    assert sweep.main([str(tmp_path), "--json", str(tmp_path / "out.json")]) == 0
    rows = json.loads((tmp_path / "out.json").read_text())
    assert [(r["file"], r["status"], r["elements"], r["exact"]) for r in rows] == [
        ("conv_relu_s8.espdl", "reproduced", 1024, 1024), ("gemm_n3_s8.espdl", "reproduced", 3, 3)]
    assert "test values: 2 models, 1,027 of 1,027 elements within one step (100.00 %)" in capsys.readouterr().out


def test_unknown_rounding_is_a_usage_error() -> None:
    with pytest.raises(BinparseError, match="unknown rounding 'down'"):
        eo.export(_ppq("esp32p4", "conv_relu_s8"), rounding="down")


# -- the P4 mnist model with int32 MaxPool pads in int64 vectors -----------------------------------

@needs_real
def test_mnist_pads_are_read_as_the_chip_reads_them(capsys: pytest.CaptureFixture[str]) -> None:
    """The MaxPool pads [0, 0, 0, 0] esp-ppq wrote as 4-byte values are sized by all their elements (their
    8-byte reading runs into the attribute's name: narrow.classify): read as meant, the export reproduces."""
    path = REAL / "int32-maxpool-pads/mnist.espdl"
    assert main(["export", str(path), "--check"]) == 0
    out = capsys.readouterr().out
    assert "model: output '23': 10/10 elements within one step (100.00 %, 10 exact)" in out


@needs_real
def test_mnist_reproduces_its_test_values_with_the_pads_the_chip_reads() -> None:
    """The chip reads MaxPool's pads as int32 [0, 0, 0, 0] (esp-dl's loader, the 16 bytes esp-ppq wrote):
    with them the export reproduces the 10 test output elements exactly."""
    m = binparse.open(REAL / "int32-maxpool-pads/mnist.espdl").models[0]
    pools = [n for n in m.graph.nodes if n.op_type == "MaxPool"]
    assert len(pools) == 2
    for n in pools:
        n.attributes["pads"] = [0, 0, 0, 0]
    result = check_model(m)
    assert [(o.count, o.within, o.exact) for o in result.outputs] == [(10, 10, 10)] and result.status == "ok"


@needs_real
def test_repaired_mnist_exports_and_reproduces(tmp_path: Path) -> None:
    out = tmp_path / "mnist.espdl"
    assert main(["repair", str(REAL / "int32-maxpool-pads/mnist.espdl"), "-o", str(out)]) == 0
    assert main(["doctor", str(tmp_path)]) == 0
    (m,) = eo.check(out).models
    assert [(o.count, o.exact) for o in m.outputs] == [(10, 10)]


def test_lstm_and_gru_are_quantized_inside_each_step() -> None:
    """esp-ppq's LSTM_quant_forward/GRU_quant_forward: products, cell and candidate at 2^-9 int16, each
    hidden state at the output's exponent; unrolled, every element of both widths and targets exact."""
    for target in ("esp32p4", "esp32s3", "c"):
        for name, counts in (("lstm_s8", [24, 8, 8]), ("lstm_s16", [24, 8, 8]), ("gru_s8", [24, 8]),
                             ("gru_s16", [24, 8])):
            m = binparse.open(_ppq(target, name)).models[0]
            out = check_model(m).outputs
            assert [(o.count, o.exact) for o in out] == [(c, c) for c in counts], (target, name)


def test_dynamic_matmul_operand_native_or_packed() -> None:
    """esp-ppq 1.3.12 marks a dynamic MatMul operand `input1_layout: native_kn` (row-major, no packing
    nodes): the export takes it as it is; every target and width reproduces exactly."""
    for target in ("esp32p4", "esp32s3", "c"):
        for bits in ("s8", "s16"):
            m = binparse.open(_ppq(target, f"matmul_dynamic_{bits}")).models[0]
            assert m.graph.nodes[0].attributes["input1_layout"] == "native_kn"
            (out,) = check_model(m).outputs
            assert (out.count, out.exact) == (100, 100), (target, bits)


@needs_real
def test_export_constants_ask_the_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The export's constants are sized by the model's dims: over the budget the export is refused, exit 2."""
    path = REAL / "s3-mobilenet-v2-record/mobilenet_v2.espdl"
    assert main(["export", str(path), "-o", str(tmp_path / "m.onnx"), "--budget", "4MiB"]) == 2
    err = capsys.readouterr().err
    # the first claim over it refuses (the weights' element order, 40 bytes an element, before their constants)
    assert "over the budget of 4,194,304 bytes (set by --budget)" in err
    assert not (tmp_path / "m.onnx").exists()


# -- EDL1 graphs: which axis holds the channels (fixtures in the shapes of esp-dl's op test models) ------

def _edl1(op: str, inputs: dict[str, np.ndarray], out: tuple[str, np.ndarray], attrs: dict[str, object],
          graph_dims: dict[str, list[int]] | None = None) -> bytes:
    from binparse.formats.espdl.writers.fixtures import espdl_file

    def t(name: str, a: np.ndarray, e: int) -> dict[str, object]:
        return {"name": name, "dims": list(a.shape), "dtype": "int8", "exponents": [e], "values": a.reshape(-1).tolist()}
    dims = graph_dims or {}
    graph = {"name": op,
             "inputs": [{"name": n, "dims": dims.get(n, list(a.shape)), "dtype": "int8", "exponents": [-4]}
                        for n, a in inputs.items()],
             "outputs": [{"name": out[0], "dims": dims.get(out[0], list(out[1].shape)), "dtype": "int8",
                          "exponents": [-4]}],
             "nodes": [{"name": f"{op}_0", "op_type": op, "inputs": list(inputs), "outputs": [out[0]],
                        "attributes": {"quant_type": "S8", **attrs}}],
             "test_inputs": [t(n, a, -4) for n, a in inputs.items()], "test_outputs": [t(*out, -4)]}
    return espdl_file({"format": "EDL1", "graph": graph})


def test_edl1_pooling_graph_in_nhwc_is_pooled_over_h_and_w() -> None:
    """esp-dl's newer EDL1 op tests: input (1, 5, 5, 51) pooled by [3, 1] to (1, 3, 5, 51): the channels are
    the axis the pool keeps, the last."""
    rng = np.random.default_rng(38)
    x = rng.integers(-128, 128, (1, 5, 5, 8))
    y = np.stack([x[:, i:i + 3].mean(axis=1) for i in range(3)], axis=1)
    data = _edl1("AveragePool", {"x": x}, ("y", np.clip(np.round(y), -128, 127).astype(np.int64)),
                 {"kernel_shape": [3, 1], "strides": [1, 1], "pads": [0, 0, 0, 0]})
    from binparse.formats.espdl.onnx.convert import layout_of
    m = binparse.open(data).models[0]
    assert layout_of(m) == "nhwc"
    (out,) = check_model(m).outputs
    assert (out.count, out.within) == (120, 120)


def test_edl1_model_without_conv_keeps_its_own_dims() -> None:
    """A Sub of (8, 2, 5) and (2, 1) (esp-dl's sub4d broadcast test): no image, nothing moved."""
    rng = np.random.default_rng(39)
    a, b = rng.integers(-60, 60, (8, 2, 5)), rng.integers(-60, 60, (2, 1))
    data = _edl1("Sub", {"a": a, "b": b}, ("y", a - b), {})
    from binparse.formats.espdl.onnx.convert import layout_of
    m = binparse.open(data).models[0]
    assert layout_of(m) == "onnx"
    (out,) = check_model(m).outputs
    assert (out.count, out.exact) == (80, 80)


def test_edl1_channels_first_graph_with_hwc_test_values() -> None:
    """esp-dl's older EDL1 op tests (Concat of (20, 20, 80) and (20, 20, 48) into a graph output
    (1, 128, 20, 20), test output (20, 20, 128)): the graph is channels first, the chip's values H, W, C."""
    rng = np.random.default_rng(40)
    a, b = rng.integers(-128, 128, (4, 4, 3)), rng.integers(-128, 128, (4, 4, 2))
    data = _edl1("Concat", {"a": a, "b": b}, ("y", np.concatenate([a, b], axis=-1)), {"axis": 1},
                 graph_dims={"y": [1, 5, 4, 4]})
    from binparse.formats.espdl.onnx.convert import layout_of
    m = binparse.open(data).models[0]
    assert layout_of(m) == "nchw"
    (out,) = check_model(m).outputs
    assert (out.count, out.exact) == (80, 80)
