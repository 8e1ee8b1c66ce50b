"""ESP-DL models exported to ONNX and run in onnxruntime (binparse/formats/espdl/onnx).

Real models reproduce the test outputs esp-ppq stored beside their test inputs; for every supported
op a one-op fixture model (written by binparse's .espdl writer) carries test outputs computed here
in numpy, independently of the exporter, and the export reproduces them exactly.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")

import binparse  # noqa: E402
from binparse.cli import main  # noqa: E402
from binparse.core.errors import BinparseError  # noqa: E402
from binparse.formats.espdl import onnx as eo  # noqa: E402
from binparse.formats.espdl.writers.fixtures import espdl_file  # noqa: E402

REAL = Path(__file__).resolve().parents[1] / ".." / "shared" / "real" / "espdl"
needs_real = pytest.mark.skipif(not REAL.is_dir(), reason="../shared/real not present")

# (file, model, output, elements): every element of every test output reproduced exactly (half to even)
REAL_OUTPUTS = [
    ("edl1-house-price/house_price.espdl", "", "15", 1),
    ("gemm-16x16-relu/c.espdl", "", "4", 16),
    ("gemm-16x16-relu/esp32s3.espdl", "", "4", 16),
    ("gemm-16x16-relu/esp32p4.espdl", "", "4", 16),
    ("info-td3/act_net_QuaidSIM-v4_TD3_+225.827_750000.espdl", "", "action", 8),
    ("tutorial-model/esp32s3.espdl", "", "11", 1),
    ("tutorial-model/esp32p4.espdl", "", "11", 1),
    ("pdl1-face-detect/human_face_detect.espdl", "msr01.espdl", "score0", 468),
    ("pdl1-face-detect/human_face_detect.espdl", "msr01.espdl", "box0", 1872),
    ("pdl1-face-detect/human_face_detect.espdl", "msr01.espdl", "landmark0", 4680),
    ("pdl1-face-detect/human_face_detect.espdl", "msr01.espdl", "score1", 126),
    ("pdl1-face-detect/human_face_detect.espdl", "msr01.espdl", "box1", 504),
    ("pdl1-face-detect/human_face_detect.espdl", "msr01.espdl", "landmark1", 1260),
    ("pdl1-face-detect/human_face_detect.espdl", "mnp01.espdl", "score", 2),
    ("pdl1-face-detect/human_face_detect.espdl", "mnp01.espdl", "box", 4),
    ("pdl1-face-detect/human_face_detect.espdl", "mnp01.espdl", "landmark", 10),
]


@needs_real
@pytest.mark.parametrize("path,model,output,count", REAL_OUTPUTS)
def test_real_models_reproduce_their_test_outputs(path: str, model: str, output: str, count: int) -> None:
    result = eo.check(REAL / path, model=model or None)
    (m,) = result.models
    got = {o.name: o for o in m.outputs}[output]
    assert (got.count, got.within, got.exact, got.max_diff) == (count, count, count, 0.0)
    assert result.status == "ok" and result.exit_code == 0


@needs_real
def test_half_up_misses_the_pdl1_test_values_esp_ppq_rounded_half_to_even() -> None:
    m = eo.check(REAL / "pdl1-face-detect/human_face_detect.espdl", model="msr01.espdl", rounding="half-up").models[0]
    box0 = {o.name: o for o in m.outputs}["box0"]
    assert (box0.within, box0.exact, box0.count) == (642, 252, 1872)
    assert m.status == "problem"


@needs_real
def test_export_is_valid_onnx_with_the_stored_dims() -> None:
    proto = eo.export(REAL / "pdl1-face-detect/human_face_detect.espdl", model="msr01.espdl")
    onnx.checker.check_model(proto, full_check=True)
    dims = {v.name: [d.dim_value for d in v.type.tensor_type.shape.dim] for v in (*proto.graph.input, *proto.graph.output)}
    assert dims["input"] == [120, 160, 3] and dims["score0"] == [13, 18, 2] and dims["landmark1"] == [7, 9, 20]
    edl2 = eo.export(REAL / "face-detect-msr/esp32s3.espdl")
    onnx.checker.check_model(edl2, full_check=True)
    assert [d.dim_value for d in edl2.graph.input[0].type.tensor_type.shape.dim] == [1, 120, 160, 3]


@needs_real
def test_edl1_and_edl2_builds_of_one_model_compute_alike() -> None:
    """face-detect-msr (EDL2, N, H, W, C graph) and the PDL1 pack's msr01 (EDL1, N, C, H, W graph) hold
    byte-identical weights; run on msr01's test input, outputs that share exponents agree."""
    from binparse.formats.espdl.onnx.verify import run
    pack = binparse.open(REAL / "pdl1-face-detect/human_face_detect.espdl")
    x = pack.tensor("msr01.espdl/input").dequantize()
    a = run(eo.export(pack, model="msr01.espdl"), {"input": x})
    b = run(eo.export(REAL / "face-detect-msr/esp32s3.espdl"), {"input": x[None]})
    assert np.array_equal(a["score0"], b["score0"][0])


@needs_real
def test_all_outputs_exposes_every_tensor_in_the_chips_layout() -> None:
    from binparse.formats.espdl.onnx.verify import run
    pack = binparse.open(REAL / "pdl1-face-detect/human_face_detect.espdl")
    proto = eo.export(pack, model="mnp01.espdl", all_outputs=True)
    m = pack.model_named("mnp01.espdl")
    assert len(proto.graph.output) == len({o for n in m.graph.nodes for o in n.outputs})
    out = run(proto, {"input": pack.tensor("mnp01.espdl/input").dequantize()})
    assert out["32"].shape == (23, 23, 32)  # graph dims (1, 32, 23, 23): held as H, W, C
    assert np.array_equal(out["box"], pack.tensor("mnp01.espdl/box").dequantize())


@needs_real
def test_encrypted_model_needs_its_key_and_unnamed_layouts_are_refused() -> None:
    path = REAL / "edl1-encrypted/quantized_320_encry.espdl"
    with pytest.raises(BinparseError, match="encrypted .*--key HEX"):
        eo.export(path)
    with pytest.raises(BinparseError, match="weight '796' names no layout"):
        eo.export(path, key="8a7fc961e4e6ff0ad26436952875ae4a")


@needs_real
def test_cli_export_and_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.onnx"
    assert main(["export", str(REAL / "info-td3/act_net_QuaidSIM-v4_TD3_+225.827_750000.espdl"), "-o", str(out),
                 "--check"]) == 0
    text = capsys.readouterr().out
    assert "output 'action': 8/8 elements within one step (100.00 %, 8 exact), largest difference 0" in text
    proto = onnx.load(str(out))
    assert [n for n in proto.graph.node if n.op_type == "Gather"]  # the Tanh table applied as a table
    assert main(["export", str(REAL / "face-detect-msr/esp32s3.espdl"), "--check"]) == 2  # no test values
    assert main(["export", str(REAL / "pdl1-face-detect/human_face_detect.espdl"), "-o", str(out)]) == 3
    assert capsys.readouterr().err.endswith(f"Name one, e.g. the first: `binparse export {REAL}/pdl1-face-detect/"
                                            f"human_face_detect.espdl -o {out} --model msr01.espdl`\n")
    assert main(["export", str(REAL / "tutorial-model/esp32p4.espdl"), "--check", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["kind"], doc["status"], doc["models"][0]["outputs"][0]["exact"]) == ("export_check", "ok", 1)
    tidl = REAL.parent / "tidl" / "j7-08.2" / "deeplabv3-ade20k" / "201_tidl_io_1.bin"
    assert main(["export", str(tidl), "-o", str(tmp_path / "x.onnx")]) == 3
    assert "binparse does not export this kind of artifact" in capsys.readouterr().err
    assert not (tmp_path / "x.onnx").exists()


# ---- one-op fixtures: test outputs computed here in numpy

RNG = np.random.default_rng(30)
E_IN = -4


def q(x: Any, e: int, lo: int = -128, hi: int = 127) -> Any:
    """numpy's quantization: half to even (np.round), saturated; the integers."""
    return np.clip(np.round(np.asarray(x, dtype=np.float64) / 2.0 ** e), lo, hi).astype(np.int64)


def tensor(name: str, arr: Any, e: int | None, dtype: str = "int8", **kw: Any) -> dict[str, Any]:
    a = np.asarray(arr)
    t = {"name": name, "dims": list(a.shape) or [1], "dtype": dtype, "values": a.reshape(-1).tolist(), **kw}
    if e is not None:
        t["exponents"] = [e]
    return t


def model(op: str, x: Any, y_q: dict[str, tuple[Any, int]], *, inits: list[dict[str, Any]] = (),  # type: ignore[assignment]
          attrs: dict[str, Any] | None = None, extra_inputs: tuple[str, ...] = (), dtype: str = "int8",
          e_in: int = E_IN) -> bytes:
    outs = list(y_q)
    graph = {"name": op, "inputs": [{"name": "x", "dims": list(x.shape), "dtype": dtype, "exponents": [e_in]}],
             "outputs": [{"name": n, "dims": list(np.shape(v)), "dtype": dtype, "exponents": [e]}
                         for n, (v, e) in y_q.items()],
             "nodes": [{"name": f"{op}_0", "op_type": op, "inputs": ["x", *extra_inputs], "outputs": outs,
                        "attributes": {"quant_type": "S8", **(attrs or {})}}],
             "initializers": list(inits), "test_inputs": [tensor("x", x, e_in, dtype)],
             "test_outputs": [tensor(n, v, e, dtype) for n, (v, e) in y_q.items()]}
    return espdl_file({"format": "EDL2", "graph": graph})


X = RNG.integers(-128, 128, (1, 4, 6, 3))
XR = X * 2.0 ** E_IN
C = RNG.integers(-128, 128, (1, 1, 1, 3))
CR = C * 2.0 ** -5


def _conv_case(depthwise: bool) -> tuple[bytes, str]:
    from numpy.lib.stride_tricks import sliding_window_view
    n = 3 if depthwise else 20
    w = RNG.integers(-128, 128, (1, 3, 3, 3) if depthwise else (n, 3, 3, 3))  # logical (N, H, W, C)
    bias = RNG.integers(-2000, 2000, n)
    win = sliding_window_view(np.pad(XR, ((0, 0), (1, 1), (1, 1), (0, 0))), (3, 3), axis=(1, 2))  # n,h,w,c,i,j
    wr = w * 2.0 ** -6
    acc = np.einsum("nhwcij,ijc->nhwc", win, wr[0]) if depthwise else np.einsum("nhwcij,oijc->nhwo", win, wr)
    y = np.maximum(acc + bias * 2.0 ** (E_IN - 6), 0)
    dims = [3, 3, 3, 1] if depthwise else [3, 3, 3, n]
    lay = "(N/16)HWC16_UNALIGNED"
    inits = [{"name": "w", "dims": dims, "dtype": "int8", "layout": lay, "exponents": [-6],
              "values": w.reshape(-1).tolist()}, tensor("b", bias, E_IN - 6, "int32", layout="UNK")]
    attrs = {"group": 3 if depthwise else 1, "kernel_shape": [3, 3], "pads": [1, 1, 1, 1], "strides": [1, 1],
             "dilations": [1, 1], "activation": "Relu"}
    return model("Conv", X, {"y": (q(y, -3), -3)}, inits=inits, attrs=attrs, extra_inputs=("w", "b")), "Conv"


def _gemm_case() -> tuple[bytes, str]:
    x = RNG.integers(-128, 128, (1, 8))
    w = RNG.integers(-128, 128, (20, 1, 1, 8))
    bias = RNG.integers(-3000, 3000, 20)
    y = np.maximum(x * 2.0 ** E_IN @ (w.reshape(20, 8).T * 2.0 ** -7) + bias * 2.0 ** (E_IN - 7), 0)
    inits = [{"name": "w", "dims": [1, 1, 8, 20], "dtype": "int8", "layout": "(N/16)HWC16_UNALIGNED", "exponents": [-7],
              "values": w.reshape(-1).tolist()}, tensor("b", bias, E_IN - 7, "int32", layout="UNK")]
    return model("Gemm", x, {"y": (q(y, -2), -2)}, inits=inits, attrs={"activation": "Relu", "transB": 0},
                 extra_inputs=("w", "b")), "Gemm"


def _lut_case() -> tuple[bytes, str]:
    table = q(1 / (1 + np.exp(-(np.arange(256) - 128) * 2.0 ** E_IN)), -7)
    y = table[X + 128]
    return model("Sigmoid", X, {"y": (y, -7)}, inits=[tensor("Sigmoid_lut_0", table, -7)],
                 attrs={"lut": "Sigmoid_lut_0"}), "Sigmoid"


def _spread(x: Any, s: int, p: int) -> Any:
    """stride - 1 zeros between the elements of H and W, p zeros after (numpy, by assignment)."""
    n, h, w, c = x.shape
    out = np.zeros((n, h + (s - 1) * (h - 1) + p, w + (s - 1) * (w - 1) + p, c), x.dtype)
    out[:, : (h - 1) * s + 1 : s, : (w - 1) * s + 1 : s, :] = x
    return out


def _lut16_case() -> tuple[bytes, str]:
    """An int16 Swish table of 65536/32 + 1 entries: entry round((q + 32768) / 32), half to even."""
    x = RNG.integers(-32768, 32768, (1, 4, 6, 3))
    grid = (np.arange(2049) * 32 - 32768) * 2.0 ** -10
    table = q(grid / (1 + np.exp(-grid)), -9, -32768, 32767)
    y = table[np.round((x + 32768) / 32).astype(np.int64)]
    return model("LUT", x, {"y": (y, -9)}, inits=[tensor("LUT_lut_0", table, -9, "int16")], dtype="int16", e_in=-10,
                 attrs={"lut": "LUT_lut_0", "int16_lut_step": 32, "original_op_type": "Swish"}), "LUT"


def _more_cases() -> list[tuple[bytes, str]]:
    c = [tensor("c", C, -5)]
    nz = np.where(C == 0, 1, C)
    hs = np.clip(XR / 6 + 0.5, 0, 1)
    gelu = 0.5 * XR * (1 + np.tanh(np.sqrt(2 / np.pi) * (XR + 0.044715 * XR ** 3)))
    w = RNG.integers(-128, 128, (3, 5))
    i64 = lambda name, v: tensor(name, np.array(v), None, "int64")  # noqa: E731
    return [
        (model("Div", X, {"y": (q(XR / (nz * 2.0 ** -5), -3), -3)}, inits=[tensor("c", nz, -5)], extra_inputs=("c",)),
         "Div"),
        (model("LeakyRelu", X, {"y": (q(np.where(XR < 0, 0.25 * XR, XR), -5), -5)}, attrs={"alpha": 0.25}),
         "LeakyRelu"),
        (model("Sqrt", np.abs(X), {"y": (q(np.sqrt(np.abs(XR)), -5), -5)}), "Sqrt"),
        (model("HardSigmoid", X, {"y": (q(np.clip(XR / 6 + 0.5, 0, 1), -7), -7)},
               attrs={"alpha": 1 / 6, "beta": 0.5}), "HardSigmoid"),
        (model("HardSwish", X, {"y": (q(XR * hs, -4), -4)}), "HardSwish"),
        (model("Gelu", X, {"y": (q(gelu, -4), -4)}, attrs={"approximate": "tanh"}), "Gelu"),
        (model("Clip", X, {"y": (q(np.clip(XR, -1.0, 2.0), E_IN), E_IN)},
               inits=[tensor("lo", np.array([-16]), E_IN), tensor("hi", np.array([32]), E_IN)],
               extra_inputs=("lo", "hi")), "Clip"),
        (model("QuantizeLinear", X, {"y": (q(XR, -1), -1)},
               inits=[tensor("s", np.array([0.5], np.float32), None, "float32"), tensor("z", np.array([0]), None)],
               extra_inputs=("s", "z")), "QuantizeLinear"),
        (model("MatMul", X, {"y": (q(XR @ (w * 2.0 ** -6), -2), -2)}, inits=[tensor("w", w, -6)],
               extra_inputs=("w",)), "MatMul"),
        (model("Squeeze", X, {"y": (X[0], E_IN)}, inits=[i64("ax", [0])], extra_inputs=("ax",)), "Squeeze"),
        (model("Unsqueeze", X, {"y": (X[None], E_IN)}, inits=[i64("ax", [0])], extra_inputs=("ax",)), "Unsqueeze"),
        (model("Slice", X, {"y": (X[:, 1:3, ::2], E_IN)}, inits=[i64("st", [1, 0]), i64("en", [3, 6]), i64("ax", [1, 2]),
                                                               i64("sp", [1, 2])],
               extra_inputs=("st", "en", "ax", "sp")), "Slice"),
        _lut16_case(),
        (model("StreamingCache", X[:, :, 0, :], {"y": (np.concatenate([np.zeros((1, 2, 3), np.int64), X[:, :, 0, :]], 1),
                                                        E_IN)}, attrs={"window_size": 3, "frame_axis": 1}),
         "StreamingCache"),
    ]


def _cases() -> list[tuple[bytes, str]]:
    c = [tensor("c", C, -5)]
    xp = XR.reshape(1, 2, 2, 3, 2, 3)
    pooled = xp.reshape(1, 2, 2, 3, 2, 3).transpose(0, 1, 3, 2, 4, 5)  # (1, 2, 3, 2, 2, 3): windows of 2x2
    out = [
        (model("Add", X, {"y": (q(XR + CR, -3), -3)}, inits=c, extra_inputs=("c",)), "Add"),
        (model("Sub", X, {"y": (q(XR - CR, -3), -3)}, inits=c, extra_inputs=("c",)), "Sub"),
        (model("Mul", X, {"y": (q(XR * CR, -6), -6)}, inits=c, extra_inputs=("c",)), "Mul"),
        (model("Relu", X, {"y": (q(np.maximum(XR, 0), E_IN), E_IN)}), "Relu"),
        (model("PRelu", X, {"y": (q(np.where(XR < 0, XR * CR, XR), -6), -6)}, inits=c, extra_inputs=("c",)), "PRelu"),
        (model("Tanh", X, {"y": (q(np.tanh(XR), -7), -7)}), "Tanh"),
        (model("Swish", X, {"y": (q(XR / (1 + np.exp(-XR)), -4), -4)}), "Swish"),
        (model("Softmax", X, {"y": (q(np.exp(XR) / np.exp(XR).sum(-1, keepdims=True), -7), -7)},
               attrs={"axis": -1}), "Softmax"),
        (model("RequantizeLinear", X, {"y": (q(XR, -2), -2)}), "RequantizeLinear"),
        (model("Transpose", X, {"y": (X.transpose(0, 3, 1, 2), E_IN)}, attrs={"perm": [0, -1, 1, 2]}), "Transpose"),
        (model("Flatten", X, {"y": (X.reshape(1, -1), E_IN)}, attrs={"axis": 1}), "Flatten"),
        (model("Reshape", X, {"y": (X.reshape(1, 24, 3), E_IN)}, inits=[tensor("s", np.array([1, 24, 3]), None, "int64")],
               extra_inputs=("s",)), "Reshape"),
        (model("Concat", X, {"y": (np.concatenate([q(XR, -3), q(np.broadcast_to(CR, XR.shape), -3)], 3), -3)},
               inits=[tensor("c4", np.broadcast_to(C, X.shape), -5)], attrs={"axis": 3}, extra_inputs=("c4",)), "Concat"),
        (model("Split", X, {"y0": (X[..., :1], E_IN), "y1": (X[..., 1:], E_IN)},
               inits=[tensor("sp", np.array([1, 2]), None, "int64")], attrs={"axis": 3}, extra_inputs=("sp",)), "Split"),
        (model("MaxPool", X, {"y": (X.reshape(1, 2, 2, 3, 2, 3).max((2, 4)), E_IN)},
               attrs={"kernel_shape": [2, 2], "strides": [2, 2], "pads": [0, 0, 0, 0]}), "MaxPool"),
        (model("AveragePool", X, {"y": (q(pooled.mean((3, 4)), -5), -5)},
               attrs={"kernel_shape": [2, 2], "strides": [2, 2], "pads": [0, 0, 0, 0]}), "AveragePool"),
        (model("GlobalAveragePool", X, {"y": (q(XR.mean((1, 2), keepdims=True), -6), -6)}), "GlobalAveragePool"),
        (model("ReduceMean", X, {"y": (q(XR.mean((1, 2), keepdims=True), -6), -6)},
               inits=[tensor("ax", np.array([1, 2]), None, "int64")], attrs={"keepdims": 1}, extra_inputs=("ax",)),
         "ReduceMean"),
        (model("Resize", X, {"y": (X.repeat(2, 1).repeat(2, 2), E_IN)},
               inits=[tensor("sc", np.array([1.0, 1.0, 2.0, 2.0], np.float32), None, "float32")],
               attrs={"mode": "nearest", "coordinate_transformation_mode": "asymmetric", "nearest_mode": "floor"},
               extra_inputs=("", "sc")), "Resize"),
        (model("InsertZeros", X, {"y": (_spread(X, 2, 1), E_IN)}, attrs={"stride": [2, 2], "output_padding": [1, 1]}),
         "InsertZeros"),
        *_more_cases(),
        _conv_case(False), _conv_case(True), _gemm_case(), _lut_case(),
    ]
    return out


CASES = _cases()


@pytest.mark.parametrize("data,op", CASES, ids=[op + ("_dw" if i == len(CASES) - 3 else "") for i, (_, op) in
                                                 enumerate(CASES)])
def test_each_op_reproduces_numpys_outputs(data: bytes, op: str) -> None:
    f = binparse.open(data)
    proto = eo.export(f)
    onnx.checker.check_model(proto, full_check=True)
    result = eo.check(f)
    outs = result.models[0].outputs
    assert outs and all(o.exact == o.count for o in outs), result.report()
    assert result.exit_code == 0


# ops esp-dl's module list has that neither a numpy-computed case here nor a model esp-ppq made
# (fixtures/espdl/espppq) exercises: computed by the ONNX op of the same name (map_float.same/moved)
UNTESTED = {"And", "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "Mod", "Not", "Or", "Xor",
            "ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceProd", "ReduceSumSquare",
            "ReverseSequence", "ScatterND", "Identity", "RMSNormalization", "SpaceToDepth"}


def test_every_supported_op_has_a_fixture() -> None:
    ppq = Path(__file__).resolve().parents[1] / "fixtures" / "espdl" / "espppq"
    made = {n.op_type for p in ppq.rglob("*.espdl") for n in binparse.open(p).models[0].graph.nodes}
    assert set(eo.OPS) - UNTESTED == {op for _, op in CASES} | made


def test_unsupported_op_is_refused_by_name() -> None:
    data = model("NonMaxSuppression", X, {"y": (X, E_IN)})
    with pytest.raises(BinparseError) as err:
        eo.export(binparse.open(data))
    text = str(err.value)
    assert "does not reproduce NonMaxSuppression (x1)" in text and "Conv, Div, Flatten, Gather" not in text
    assert "ops the export supports: Abs, Add, And, AveragePool, Clip, Concat, Conv" in text


def test_missing_extra_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # `import onnxruntime` then raises ImportError
    from binparse.formats.espdl.onnx.deps import available, need
    with pytest.raises(BinparseError, match=r"(?is)needs the Python package 'onnxruntime'.*pip install 'binparse\[onnx\]'"):
        need("onnxruntime", purpose="running an ONNX export")
    assert available() is False


def test_key_through_options() -> None:
    f = binparse.open(CASES[0][0])
    assert eo.check(f).models[0].outputs[0].count == 72
    ns = SimpleNamespace(model=None, all_outputs=False, rounding=None)
    data, what = f.export_model(ns)
    assert what.startswith("ONNX opset 21") and onnx.load_from_string(data).graph.output[0].name == "y"


@needs_real
def test_compare_finds_the_first_layer_where_dumps_part(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Dumps as the chip writes them (int8 q per tensor, named by tensor): the model's stored test output
    for `action`, and the third Gemm's output with one element moved by 3 steps (exponent -1)."""
    from binparse.formats.espdl.onnx.layers import name_key
    from binparse.formats.espdl.onnx.verify import run
    path = REAL / "info-td3/act_net_QuaidSIM-v4_TD3_+225.827_750000.espdl"
    m = binparse.open(path).models[0]
    gemm = "/td3_actor_net/td3_actor_net.4/Gemm_output_0"
    pc = run(eo.export(path, all_outputs=True), {"observations": m.tensor("observations").dequantize()})
    q4 = np.round(pc[gemm] / 2.0 ** -1).astype(np.int8)
    q4[0, 3] += 3
    np.save(tmp_path / f"{name_key(gemm)}.npy", q4)
    np.save(tmp_path / "action.npy", m.tensor("action").array())
    assert main(["compare", str(path), str(tmp_path)]) == 1  # the runs diverge
    out = capsys.readouterr().out
    assert "2 dumped tensors" in out
    assert "Gemm               /td3_actor_net/td3_actor_net.4/Gemm_output_0 SNR   21.7 dB   87.50 % within one step  " \
           "largest difference 1.5" in out
    assert "Tanh               action                                   SNR    inf dB  100.00 % within one step" in out
    assert out.rstrip().endswith(f"first divergence: Gemm '{gemm}'")


@needs_real
def test_doctor_runs_the_export_on_the_test_values() -> None:
    from binparse.cli.doctor import doctor
    doc = doctor(REAL / "pdl1-face-detect")
    assert doc["status"] == "ok"
    assert ("human_face_detect.espdl/msr01.espdl: its ONNX export (binparse export) run on its test inputs gives 8,910 "
            "of 8,910 test output elements within one quantization step (8,910 exact; lowest share 100.00 % in "
            "'score0'; rounding half-even)") in [f["text"] for f in doc["findings"] if f["level"] == "ok"]


def test_export_writes_only_a_new_plain_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "m.espdl"
    model.write_bytes(CASES[0][0])
    before = model.read_bytes()
    target = tmp_path / "target.txt"
    target.write_text("keep")
    (tmp_path / "link.onnx").symlink_to(target)
    assert main(["export", str(model), "-o", str(model)]) == 3
    assert "is an input of this command: binparse never writes over what it reads" in capsys.readouterr().err
    assert main(["export", str(model), "-o", str(tmp_path / "link.onnx")]) == 3
    assert "is a symbolic link" in capsys.readouterr().err
    import os
    os.mkfifo(tmp_path / "fifo.onnx")  # a non-regular file (never /dev/null: a broken check would replace it)
    assert main(["export", str(model), "-o", str(tmp_path / "fifo.onnx")]) == 3
    assert "is a FIFO" in capsys.readouterr().err
    assert model.read_bytes() == before and target.read_text() == "keep" and (tmp_path / "link.onnx").is_symlink()
    assert (tmp_path / "fifo.onnx").is_fifo()


def test_test_values_in_other_dims_set_the_exports_dims() -> None:
    """A graph input (1, 4, 6, 3) whose test values are stored as (24, 3): the export takes and gives (24, 3)."""
    y = q(np.maximum(XR, 0), E_IN)
    graph = {"name": "g", "inputs": [{"name": "x", "dims": [1, 4, 6, 3], "dtype": "int8", "exponents": [E_IN]}],
             "outputs": [{"name": "y", "dims": [1, 4, 6, 3], "dtype": "int8", "exponents": [E_IN]}],
             "nodes": [{"name": "r", "op_type": "Relu", "inputs": ["x"], "outputs": ["y"],
                        "attributes": {"quant_type": "S8"}}],
             "test_inputs": [tensor("x", X.reshape(24, 3), E_IN)], "test_outputs": [tensor("y", y.reshape(24, 3), E_IN)]}
    f = binparse.open(espdl_file({"format": "EDL2", "graph": graph}))
    proto = eo.export(f)
    assert [[d.dim_value for d in v.type.tensor_type.shape.dim] for v in (*proto.graph.input, *proto.graph.output)] \
        == [[24, 3], [24, 3]]
    out = eo.check(f).models[0].outputs[0]
    assert (out.count, out.exact) == (72, 72)


ZOO = os.environ.get("BINPARSE_ESPDL_ZOO", "")  # a folder of more .espdl files, e.g. every one of esp-dl's repository


def test_streaming_cache_state_is_an_input_and_an_output() -> None:
    """Two calls: the second sees the last two frames of the first (fed back from NAME:cache_next)."""
    from binparse.formats.espdl.onnx.verify import first_call_state, run
    data = next(d for d, op in CASES if op == "StreamingCache")
    proto = eo.export(binparse.open(data))
    assert [i.name for i in proto.graph.input] == ["x", "y:cache"]
    assert [o.name for o in proto.graph.output] == ["y", "y:cache_next"]
    x1, x2 = XR[:, :, 0, :], XR[:, :, 1, :]
    first = run(proto, {"x": x1.astype(np.float32), **first_call_state(proto)})
    second = run(proto, {"x": x2.astype(np.float32), "y:cache": first["y:cache_next"]})
    assert np.array_equal(second["y"], np.concatenate([x1[:, -2:], x2], 1))


@pytest.mark.skipif(not ZOO or not Path(ZOO).is_dir(), reason="BINPARSE_ESPDL_ZOO names no folder")
def test_zoo_streaming_models_match_their_non_streaming_twins() -> None:
    """esp-dl's own streaming test (examples/tutorial/how_to_deploy_streaming_model): the streaming model
    run 3 frames at a time over the non-streaming model's test input ends with its test output."""
    from binparse.formats.espdl.onnx.verify import first_call_state, run
    pairs = [(p, p.with_name(p.name.removesuffix("streaming_model.espdl") + "model.espdl"))
             for p in Path(ZOO).rglob("*streaming_model.espdl")]
    assert pairs
    for streaming, full in pairs:
        f, s = binparse.open(full), binparse.open(streaming)
        proto = eo.export(s)
        (name,) = [t.name for t in f.models[0].graph.test_inputs]
        x = f.tensor(name).dequantize()
        chunk = proto.graph.input[0].type.tensor_type.shape.dim[1].dim_value
        state = first_call_state(proto)
        for k in range(x.shape[1] // chunk):
            out = run(proto, {name: x[:, k * chunk:(k + 1) * chunk], **state})
            state = {n.removesuffix("_next"): v for n, v in out.items() if n.endswith(":cache_next")}
        (want,) = f.models[0].graph.test_outputs
        assert np.array_equal(out[want.name], f.tensor(want.name).dequantize()), streaming


@pytest.mark.skipif(not ZOO or not Path(ZOO).is_dir(), reason="BINPARSE_ESPDL_ZOO names no folder")
def test_zoo_models_reproduce_or_are_refused_by_name() -> None:
    """Every model of the folder with test values reproduces them exactly; every other exports and passes
    onnx.checker, or is refused with a BinparseError (an op or a layout named)."""
    for path in sorted(Path(ZOO).rglob("*.espdl")):
        f = binparse.open(path)
        for m in f.models:
            try:
                proto = eo.export(f, model=m.name or None)
            except BinparseError:
                continue
            onnx.checker.check_model(proto, full_check=True)
            if m.graph.test_outputs:
                outs = eo.check(f, model=m.name or None).models[0].outputs
                assert all(o.exact == o.count for o in outs), path
