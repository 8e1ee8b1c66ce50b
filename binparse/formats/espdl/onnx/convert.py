"""An ESP-DL model as an ONNX model that onnxruntime runs and that computes what the chip computes.

Inputs and outputs are float32 real values (q x 2^exponent) in the dims the model stores its test
values in (EDL2: the graph's own, e.g. 1x120x160x3; EDL1: the chip's H, W, C where the graph says
1, C, H, W). Inside, every tensor the chip holds as int8/int16 is quantized to its exponent in the
chip's rounding (`builder.py`); each op is mapped by the function `ops.OPS` names. An op not in
`OPS` is refused by name with the supported list.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

from ....core import budget
from ....core.errors import BinparseError, FormatError, Retry, UsageError
from .builder import NODE_BYTES, ROUNDINGS, Builder
from .ops import OPS
from .rounding import AUTO, Choice, requested, without_tests

OPSET = 21  # QuantizeLinear/DequantizeLinear of int16, Gelu, ReduceMean with axes as an input
IR_VERSION = 10
DEFAULT_ROUNDING = "auto"  # chosen per model from evidence (rounding.py)
NAME_BYTES = 256  # bytes asked per node, input, output and attribute of the ONNX graph (a NodeProto's strings)


def layout_of(model: Any) -> str:
    """"nchw" for EDL1 models (ONNX's dims in the graph), "nhwc" for EDL2 (esp-ppq's N, H, W, C graph);
    "onnx" for an EDL1 model without a Conv (esp-dl's test-app models of Sub, MatMul, pooling...): its
    dims are ONNX's and its test values are stored in them, nothing is moved at its edges.
    An EDL1 model whose graph is N, H, W, C (esp-dl's test-app models: input 1x32x32x16 into a Conv of 16
    input channels) says so by its Conv inputs: their channels are last, not second (`_conv_votes`)."""
    if getattr(model, "generation", "edl2") != "edl1":
        return "nhwc"
    last, second = _conv_votes(model.graph)
    more_last, more_second = _spatial_votes(model.graph)
    last, second = last + more_last, second + more_second
    if last != second:
        return "nhwc" if last > second else "nchw"
    g = model.graph
    dims = {v.name: v.dims for v in (*g.inputs, *g.outputs)}
    chip_hwc = any(_hwc(dims.get(t.name)) and tuple(t.dims) != tuple(dims[t.name] or ())
                   for t in (*g.test_inputs, *g.test_outputs))  # graph 1, C, H, W; test values H, W, C
    if not chip_hwc and not any(n.op_type == "Conv" for n in g.nodes):
        return "onnx"  # no image model: the graph's dims are ONNX's own, the test values' too (no transposes)
    return "nchw"


SPATIAL = ("MaxPool", "AveragePool", "GlobalAveragePool", "Resize")


def _spatial_votes(g: Any) -> tuple[int, int]:
    """(pooling/Resize nodes whose 4-D input and output keep the last axis and change axis 1, that keep
    axis 1 and change the last): channels are the axis such an op never changes."""
    info = {v.name: v for v in (*g.value_info, *g.inputs, *g.outputs)}
    last = second = 0
    for n in g.nodes:
        if n.op_type not in SPATIAL or not n.inputs or not n.outputs:
            continue
        a, b = info.get(n.inputs[0]), info.get(n.outputs[0])
        if a is None or b is None or a.dims is None or b.dims is None or len(a.dims) != 4 or len(b.dims) != 4:
            continue
        if a.dims[3] == b.dims[3] and a.dims[1] != b.dims[1]:
            last += 1
        elif a.dims[1] == b.dims[1] and a.dims[3] != b.dims[3]:
            second += 1
    return last, second


def _conv_votes(g: Any) -> tuple[int, int]:
    """(Conv inputs whose channels are on the last axis only, on axis 1 only): the channels a Conv reads
    are its weight's C (dims [H, W, C, N]) times its group, or a depthwise weight's C."""
    info = {v.name: v for v in (*g.value_info, *g.inputs, *g.outputs)}
    weights = {t.name: t for t in g.initializers}
    last = second = 0
    for n in g.nodes:
        if n.op_type != "Conv" or len(n.inputs) < 2 or n.inputs[1] not in weights:
            continue
        v, w = info.get(n.inputs[0]), weights[n.inputs[1]]
        if v is None or v.dims is None or len(v.dims) != 4 or len(w.dims) != 4:
            continue
        depthwise = g.depthwise(w.name)
        channels = int(w.dims[2]) * (1 if depthwise else int(n.attributes.get("group") or 1))
        if v.dims[3] == channels and v.dims[1] != channels:
            last += 1
        elif v.dims[1] == channels and v.dims[3] != channels:
            second += 1
    return last, second


def unsupported(graph: Any) -> list[str]:
    """The op types of `graph` the export does not reproduce, sorted."""
    return sorted({n.op_type for n in graph.nodes} - OPS.keys())


def refuse_unsupported(model: Any) -> None:
    missing = unsupported(model.graph)
    if missing:
        counts = {op: sum(n.op_type == op for n in model.graph.nodes) for op in missing}
        raise FormatError("the export does not reproduce " + ", ".join(f"{op} (x{c})" for op, c in counts.items()),
                          file=model.file, path=f"model {model.name or '(model)'}",
                          expected="ops the export supports: " + ", ".join(sorted(OPS)),
                          found=", ".join(missing), hint="no ONNX file was written (never an approximate one)")


def _mapper(op_type: str) -> Any:
    module, func = OPS[op_type].split(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), func)


def _hwc(dims: tuple[Any, ...] | None) -> bool:
    """True for the (1, C, H, W) dims EDL1 graphs give a tensor the chip holds as (H, W, C)."""
    return dims is not None and len(dims) == 4 and dims[0] == 1


def _reshaped(outer: tuple[Any, ...] | None, inner: tuple[Any, ...] | None) -> bool:
    """True when `outer` and `inner` are other dims of one element count (all known)."""
    if outer is None or inner is None or tuple(outer) == tuple(inner) or None in outer or None in inner:
        return False
    return bool(np.prod(outer, dtype=np.int64) == np.prod(inner, dtype=np.int64))


def interface_dims(model: Any, name: str, dims: tuple[Any, ...] | None) -> tuple[Any, ...] | None:
    """The dims a graph input/output (or, with --all-outputs, any tensor) has in the export."""
    stored = {t.name: t.dims for t in (*model.graph.test_inputs, *model.graph.test_outputs)}
    if name in stored:
        return tuple(stored[name])
    if layout_of(model) == "nchw" and _hwc(dims):
        assert dims is not None
        return (dims[2], dims[3], dims[1])
    return dims


def _inputs(b: Builder, model: Any) -> list[Any]:
    helper, tp = b.onnx.helper, b.onnx.TensorProto
    out = []
    for v in model.graph.inputs:
        dims = interface_dims(model, v.name, v.dims)
        out.append(helper.make_tensor_value_info(v.name, tp.FLOAT, None if dims is None else
                                                 [d if d is not None else "N" for d in dims]))
        x = v.name
        if layout_of(model) == "nchw" and dims is not None and len(dims) == 3:  # chip H, W, C -> graph 1, C, H, W
            x = b.op("Unsqueeze", [b.op("Transpose", [x], v.name, perm=[2, 0, 1]),
                                   b.const(np.array([0], dtype=np.int64), "axis0")], v.name)
            b.ranks[v.name] = 4
        elif _reshaped(dims, v.dims):  # test values stored in other dims of the same count
            assert v.dims is not None
            x = b.op("Reshape", [x, b.const(np.array(v.dims, dtype=np.int64), "shape")], v.name)
        b.names[v.name] = x
        b.rename[v.name] = f"{v.name}#q"
        b.bind(v.name, x)  # the chip holds the input quantized: a real value off its grid is rounded
    return out


def _exposed(b: Builder, model: Any, names: list[str]) -> list[Any]:
    helper, tp = b.onnx.helper, b.onnx.TensorProto
    out = []
    for name in names:
        v = b.info.get(name)
        dims = v.dims if v is not None else None
        iface = interface_dims(model, name, dims)
        x = b.names[name]
        if name in b.rename:
            assert iface is not None
            if layout_of(model) == "nchw" and _hwc(dims) and len(iface) == 3:
                x = b.op("Squeeze", [b.op("Transpose", [x], name, perm=[0, 2, 3, 1]),
                                     b.const(np.array([0], dtype=np.int64), "axis0")], name)
            else:
                x = b.op("Reshape", [x, b.const(np.array(iface, dtype=np.int64), "shape")], name)
            b.nodes.append(helper.make_node("Identity", [x], [name], name=b.fresh(f"{name}/output")))
        out.append(helper.make_tensor_value_info(name, tp.FLOAT, None if iface is None else
                                                 [d if d is not None else "N" for d in iface]))
    return out


def need_key(model: Any) -> None:
    """An encrypted model without its key: the error says to pass it (as `inspect` does)."""
    if getattr(model, "encrypted", False) and getattr(model, "key", None) is None:
        raise BinparseError("the model is encrypted (AES-128-CTR): its graph cannot be read without its key",
                            file=model.file, path=f"model {model.name or '(model)'}",
                            hint="pass --key HEX (32 hex digits; Python: key=...)")


def to_onnx(model: Any, *, all_outputs: bool = False, rounding: str = DEFAULT_ROUNDING,
            shared: dict[Any, Any] | None = None, choice: Choice | None = None) -> Any:
    """The ONNX ModelProto of one ESP-DL model (`EspdlModel`: `EspdlFile.models[i]`).

    `all_outputs`: every tensor a node makes is also a graph output (to compare with the chip's
    dumps layer by layer). `rounding`: the chip's, "half-up" (ESP32-S3) or "half-even" (ESP32-P4), or
    "auto": from its `.json` record or its layouts (`rounding.without_tests`); `export()` and
    `check()` (api.py) also run the model's test values (`verify.decide`) and pass their `choice`.
    `shared`: constants made by an earlier export of the same model (made, and budgeted, once).
    """
    if rounding not in (*ROUNDINGS, AUTO):
        raise UsageError(f"unknown rounding {rounding!r}", expected=[*ROUNDINGS, AUTO], found=rounding)
    need_key(model)
    refuse_unsupported(model)
    shared = {} if shared is None else shared
    choice = choice or requested(rounding) or without_tests(model)
    rounding = choice.rounding
    g = model.graph
    # a node table many entries share is decoded once but exported at each use: its names asked first
    # (every node at least one ONNX node: NODE_BYTES each, what the builder asks again as it makes them)
    names = sum(1 + len(n.inputs) + len(n.outputs) + len(n.attributes) for n in g.nodes)
    budget.ask(NAME_BYTES * names + NODE_BYTES * len(g.nodes), f"the ONNX graph of the export ({len(g.nodes):,} "
                                                               f"nodes, {names:,} names and attributes)", file=model.file)
    b = Builder(model, rounding, layout_of(model), shared)
    outputs = [v.name for v in g.outputs]
    if all_outputs:
        outputs += [o for n in g.nodes for o in n.outputs if o and o not in outputs]
    for name in outputs:  # exposed in other dims than the graph's: made under another name, then moved
        v = b.info.get(name)
        if v is None:
            continue
        iface = interface_dims(model, name, v.dims)
        if layout_of(model) == "nchw" and _hwc(v.dims) and len(iface or ()) == 3:
            b.rename[name] = f"{name}#nchw"
        elif _reshaped(iface, v.dims):
            b.rename[name] = f"{name}#graph"
    inputs = _inputs(b, model)
    for node in g.nodes:
        _mapper(node.op_type)(b, node)
    missing = [o for o in outputs if o not in b.names]
    if missing:
        raise FormatError("no node makes the graph outputs " + ", ".join(map(repr, missing)), file=model.file)
    outs = _exposed(b, model, outputs)
    helper = b.onnx.helper
    graph = helper.make_graph(b.nodes, g.name or "espdl", inputs + b.state_inputs, outs + b.state_outputs,
                              initializer=b.initializers)
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="binparse",
                              doc_string=f"ESP-DL model {model.name or ''} of {model.file or 'a buffer'}, exported "
                                         f"by binparse; the chip's quantization explicit, rounding {rounding}")
    proto.ir_version = IR_VERSION
    try:  # every edge's dims in the file (Netron shows them); an export onnx cannot infer stays without
        proto = b.onnx.shape_inference.infer_shapes(proto)
    except Exception:  # noqa: BLE001  (onnx's InferenceError and others: the run says what is wrong)
        pass
    exps = {name: b.exponent(name) for name in outputs}
    helper.set_model_props(proto, {"binparse.rounding": rounding, "binparse.rounding_evidence": choice.evidence,
                                   "binparse.rounding_source": choice.source,
                                   "binparse.source": str(model.file or ""),
                                   "binparse.exponents": ",".join(f"{k}={v}" for k, v in exps.items() if v is not None)})
    return proto


def pick_model(obj: Any, name: str | None = None) -> Any:
    """The model of an `EspdlFile` to export: the one of a single-model file, or `name` of a pack."""
    models = getattr(obj, "models", None)
    if models is None:  # already a model
        return obj
    if name:
        return obj.model_named(name)
    if len(models) != 1:
        names = [m.name for m in models]
        raise UsageError(f"this pack holds {len(models)} models: name one", file=getattr(obj, "_file", None),
                         expected=names, hint="pass model=NAME",
                         retry=Retry("name one, e.g. the first", add=("--model", names[0])) if names and names[0] else None)
    return models[0]


__all__ = ["DEFAULT_ROUNDING", "OPSET", "interface_dims", "layout_of", "need_key", "pick_model", "refuse_unsupported",
           "to_onnx", "unsupported"]
