"""The ops esp-dl computes in float on the real values of its inputs, then quantizes: the ONNX op of the
same name on the real values the chip holds, then the output's quantization (`Builder.bind`).

esp-dl's modules of these ops (`dl_module_exp.hpp`, `_log`, `_elu`, `_neg`, `_reduce_*`, `_pow`,
`_layer_normalization`, ...) read q x 2^e_in as float, compute the function in float32 and round the
result to the output's exponent (`tool::round`, the chip's rounding); a float (FP32) output is left
as it is. Only the attributes the ONNX op defines are kept (esp-ppq adds its own, such as
`quant_type`). Comparisons and logic give booleans, carried as 0.0/1.0 like every other value.
`DequantizeLinear` (esp-ppq puts it before a float tail op) gives the real values themselves.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np

from .builder import Builder
from .convert import OPSET

BOOLEAN_OUT = {"Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "And", "Or", "Xor", "Not"}
BOOLEAN_IN = {"And", "Or", "Xor", "Not"}


@lru_cache(maxsize=None)
def onnx_attributes(op_type: str) -> frozenset[str]:
    """The attributes ONNX's `op_type` defines at the export's opset."""
    import onnx
    return frozenset(onnx.defs.get_schema(op_type, OPSET).attributes)


def _inputs(b: Builder, node: Any) -> list[str]:
    return [b.value(i) if i else "" for i in node.inputs]


def same(b: Builder, node: Any) -> None:
    """The ONNX op of the node's name, on the real values, then each output quantized."""
    inputs = _inputs(b, node)
    attrs = b.attrs(node, *onnx_attributes(node.op_type))
    if node.op_type == "Mod":  # ONNX's Mod of floats needs fmod = 1 (C's fmod, esp-dl's `dl_module_mod.hpp`)
        attrs["fmod"] = 1
    if node.op_type in BOOLEAN_IN:
        inputs = [b.op("Cast", [x], node.name, to=b.onnx.TensorProto.BOOL) for x in inputs]
    outs = b.op_n(node.op_type, inputs, node.name, len(node.outputs), **attrs)
    for name, y in zip(node.outputs, outs):
        if not name:
            continue
        if node.op_type in BOOLEAN_OUT:
            y = b.op("Cast", [y], node.name, to=b.onnx.TensorProto.FLOAT)
        b.bind(name, y)


def dequantize(b: Builder, node: Any) -> None:
    """esp-ppq's DequantizeLinear (esp-dl runs it as RequantizeLinear to a float tensor): the real values."""
    b.bind(node.outputs[0], b.value(node.inputs[0]))


def reduce(b: Builder, node: Any) -> None:
    """Reduce*: axes as an input (ONNX 18+) whether the model gives them as one or as an attribute."""
    inputs = [b.value(node.inputs[0])]
    if len(node.inputs) > 1 and node.inputs[1]:
        inputs.append(b.value(node.inputs[1]))
    elif node.attributes.get("axes"):
        inputs.append(b.const(np.array(node.attributes["axes"], dtype=np.int64), f"{node.name}/axes"))
    y = b.op(node.op_type, inputs, node.name, **b.attrs(node, "keepdims", "noop_with_empty_axes"))
    b.bind(node.outputs[0], y)


def rms_norm(b: Builder, node: Any) -> None:
    """RMSNormalization (ONNX 23, not in the export's opset): x / sqrt(mean(x^2 over axis..) + epsilon)
    x scale, in float32 as esp-dl's `dl_module_rms_normalization.hpp` computes it."""
    x = b.value(node.inputs[0])
    rank = b.rank(node.inputs[0]) or 1
    axis = int(node.attributes.get("axis", -1) or 0)
    axis = axis + rank if axis < 0 else axis
    eps = float(node.attributes.get("epsilon", 1e-5) or 1e-5)
    axes = b.const(np.arange(axis, rank, dtype=np.int64), f"{node.name}/axes")
    ms = b.op("ReduceMean", [b.op("Mul", [x, x], node.name), axes], node.name, keepdims=1)
    y = b.op("Div", [x, b.op("Sqrt", [b.op("Add", [ms, b.scalar(eps)], node.name)], node.name)], node.name)
    if len(node.inputs) > 1 and node.inputs[1]:
        y = b.op("Mul", [y, b.value(node.inputs[1])], node.name)
    b.bind(node.outputs[0], y)


def channels_first(b: Builder, node: Any) -> None:
    """DepthToSpace, SpaceToDepth: ONNX runs them channels first; the graph's N, H, W, C wraps them."""
    src = node.inputs[0]
    rank = b.rank(src) or 4
    x = b.channels_first(b.value(src), rank, node.name)
    y = b.op(node.op_type, [x], node.name, **b.attrs(node, *onnx_attributes(node.op_type)))
    y = b.channels_back(y, rank, node.name)
    b.bind(node.outputs[0], y, requantize=b.exponent(src) != b.exponent(node.outputs[0]))


def gather(b: Builder, node: Any) -> None:
    """Gather: an index esp-ppq stored with dims (1,) where ONNX had a scalar (the output's rank says
    which: rank(data) - 1 + rank(indices)) is given back its rank."""
    data, index = node.inputs[0], node.inputs[1]
    inputs = _inputs(b, node)
    out = b.info.get(node.outputs[0])
    rank = b.rank(data)
    if out is not None and out.dims is not None and index in b.initializer_names and rank:
        want = len(out.dims) - rank + 1
        values = b.model.tensor(index).array()
        if 0 <= want != values.ndim and (want > 0 or values.size == 1):
            shape = (values.size,) + (1,) * (want - 1) if want else ()
            inputs[1] = b.const(values.astype(np.int64).reshape(shape), index)
    y = b.op("Gather", inputs, node.name, **b.attrs(node, "axis"))
    b.bind(node.outputs[0], y, requantize=b.exponent(data) != b.exponent(node.outputs[0]))


def moved(b: Builder, node: Any) -> None:
    """Pad, Gather, Identity, ReverseSequence, ScatterND: values moved, requantized only when the output's
    exponent differs from the data input's."""
    inputs = _inputs(b, node)
    y = b.op(node.op_type, inputs, node.name, **b.attrs(node, *onnx_attributes(node.op_type)))
    b.bind(node.outputs[0], y, requantize=b.exponent(node.inputs[0]) != b.exponent(node.outputs[0]))


__all__ = ["BOOLEAN_OUT", "channels_first", "dequantize", "moved", "gather", "onnx_attributes", "reduce", "rms_norm", "same"]
