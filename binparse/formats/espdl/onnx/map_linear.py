"""Conv, Gemm and MatMul: the weights from their device blocking in the order ONNX wants, the bias,
the fused activation, then the chip's quantization of the output.

ESP-DL keeps a 2-D convolution's weight as dims [H, W, C, N] (logical (N, H, W, C)), a depthwise one
as [H, W, C, 1] (logical (1, H, W, C)), 1-D ones without H, a Gemm's as [1, 1, K, N]; ONNX wants
(N, C/group, H, W) and, for MatMul, (K, N). The chip accumulates q_in x q_w in int32, adds the bias
(int32 at exponent e_in + e_w), applies the activation and rounds once to the output's exponent:
computed here in float32 on the same integers, then `Builder.bind`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.errors import FormatError
from . import exact
from .builder import Builder

ACTIVATIONS = ("Linear", "Relu")


def _activation(b: Builder, node: Any, x: str) -> str:
    act = node.attributes.get("activation") or "Linear"
    if act not in ACTIVATIONS:
        raise FormatError(f"{node.op_type} {node.name!r} has the fused activation {act!r}, which the export does "
                          "not reproduce", file=b.model.file, expected=list(ACTIVATIONS), found=act)
    return b.op("Relu", [x], node.name) if act == "Relu" else x


def _logical_weight(b: Builder, name: str) -> tuple[Any, Any]:
    t = b.model.tensor(name)
    if not t.layout.rank:
        said = f"names layout {t.info.layout!r}, which binparse does not know" if t.info.layout else \
            "names no layout, and the model's other weights do not imply one"
        raise FormatError(f"weight {name!r} {said}: its element order (the target's blocking) is unknown",
                          file=b.model.file, path=t.info.path, expected="a layout of schemas/espdl/weight_layouts.yaml",
                          hint="the export refuses rather than guess an order")
    return t, t.dequantize()


def conv(b: Builder, node: Any) -> None:
    src = node.inputs[0]
    rank = b.rank(src)
    t, w = _logical_weight(b, node.inputs[1])
    spatial = w.ndim - 2
    if t.layout.depthwise:  # (1, *spatial, C) -> (C, 1, *spatial)
        w = np.moveaxis(w, -1, 0)
    else:  # (N, *spatial, C/group) -> (N, C/group, *spatial)
        w = np.moveaxis(w, -1, 1)
    a = node.attributes
    attrs: dict[str, Any] = {"kernel_shape": list(w.shape[2:]), "group": int(a.get("group") or 1)}
    for key in ("strides", "dilations", "pads"):
        if a.get(key):
            attrs[key] = [int(v) for v in a[key]]
    if a.get("auto_pad") not in (None, "", "NOTSET"):
        attrs["auto_pad"] = str(a["auto_pad"])
        attrs.pop("pads", None)
    x = b.channels_first(b.value(src), rank or spatial + 2, node.name)
    if exact.eligible(b, src, node.inputs[1], node.outputs[0]):  # the chip's integers, accumulated exactly
        q = t.to_logical() if not t.layout.is_view else t.array()
        q = np.ascontiguousarray(np.moveaxis(q, -1, 0 if t.layout.depthwise else 1))
        y = exact.conv(b, node, x, q, attrs, rank or spatial + 2)
        b.bind(node.outputs[0], b.channels_back(y, rank or spatial + 2, node.name), requantize=False)
        return
    inputs = [x, b.const(np.ascontiguousarray(w, dtype=np.float32), node.inputs[1])]
    if len(node.inputs) > 2 and node.inputs[2]:
        inputs.append(b.const(b.real(node.inputs[2]).reshape(-1), node.inputs[2]))
    y = _activation(b, node, b.op("Conv", inputs, node.name, **attrs))
    b.bind(node.outputs[0], b.channels_back(y, rank or spatial + 2, node.name))


def _matrix(b: Builder, name: str) -> str:
    """A weight initializer as the (K, N) matrix of `x @ W` (ESP-DL dims [1, 1, K, N], or the matrix
    [..., K, N] itself), or an activation."""
    if name not in b.initializer_names:
        return b.value(name)
    t = b.model.tensor(name)
    if not t.layout.rank:
        return b.value(name)
    _, w = _logical_weight(b, name)  # (N, 1, 1, K) or (..., N, K)
    m = np.swapaxes(w, -1, -2) if t.layout.matrix else w.reshape(w.shape[0], -1).T
    return b.const(np.ascontiguousarray(m, dtype=np.float32), name)


def gemm(b: Builder, node: Any) -> None:
    a = node.attributes
    if int(a.get("transA") or 0):
        raise FormatError(f"Gemm {node.name!r} has transA = 1, which ESP-DL's exports do not write", file=b.model.file,
                          expected="transA 0", found=1)
    alpha, beta = float(a.get("alpha", 1.0) or 1.0), float(a.get("beta", 1.0) or 1.0)
    if alpha == beta == 1.0 and _exact_matmul(b, node):
        return
    y = b.op("MatMul", [b.value(node.inputs[0]), _matrix(b, node.inputs[1])], node.name)
    if alpha != 1.0:
        y = b.op("Mul", [y, b.scalar(alpha)], node.name)
    if len(node.inputs) > 2 and node.inputs[2]:
        bias = b.real(node.inputs[2]).reshape(-1) * np.float32(beta)
        y = b.op("Add", [y, b.const(bias.astype(np.float32), node.inputs[2])], node.name)
    b.bind(node.outputs[0], _activation(b, node, y))


def _exact_matmul(b: Builder, node: Any) -> bool:
    """x @ W on the chip's integers (`exact.matmul`) when W is a quantized weight initializer."""
    w = node.inputs[1]
    if w not in b.initializer_names or node.inputs[0] in b.initializer_names:
        return False
    t = b.model.tensor(w)
    if not t.layout.rank or not exact.eligible(b, node.inputs[0], w, node.outputs[0]):
        return False
    q = t.to_logical() if not t.layout.is_view else t.array()
    m = np.swapaxes(q, -1, -2) if t.layout.matrix else q.reshape(q.shape[0], -1).T
    y = exact.matmul(b, node, b.value(node.inputs[0]), np.ascontiguousarray(m), int(m.shape[-1]))
    b.bind(node.outputs[0], y, requantize=False)
    return True


def _unblocked(b: Builder, name: str, base: str) -> str:
    """A MatMul's second input when it is an activation: esp-ppq inserts the Reshape/Transpose/Slice/
    Concat nodes that lay it out as the chip's MatMul reads it (`InsertPreNodeOfMatMulPattern`): the
    matrix form of a weight, [..., C, N] blocked by 16 (int8) or 8 (int16) output lanes on S3/P4, (N, C)
    on the C target (esp-dl `dl_module_matmul.hpp` takes it as its filter). Undone here by a Gather.
    Newer esp-ppq marks the layout (`input1_layout`: "packed", or "native_kn" for a row-major operand
    without those nodes); models made before the attribute are packed (esp-ppq's own comment)."""
    info = b.info.get(name)
    if b.exponent(name) is None or info is None or info.dims is None or len(info.dims) < 2 or None in info.dims:
        return b.value(name)
    from ..model.weights import WeightLayout
    from .rounding import c_target
    block = 0 if c_target(b.model) else 16 if str(info.dtype) == "int8" else 8
    dims = tuple(int(d) for d in info.dims)
    lay = WeightLayout("matmul input", "matmul input", dims, 4, block, matrix=True)
    flat = b.op("Reshape", [b.value(name), b.const(np.array([-1], dtype=np.int64), "flat")], base)
    x = b.op("Gather", [flat, b.const(lay.stored_index().reshape(-1), f"{name}/unblock")], base, axis=0)
    x = b.op("Reshape", [x, b.const(np.array(lay.logical_shape, dtype=np.int64), "shape")], base)
    perm = [*range(len(dims) - 2), len(dims) - 1, len(dims) - 2]
    return b.op("Transpose", [x], base, perm=perm)


def matmul(b: Builder, node: Any) -> None:
    if _exact_matmul(b, node):
        return
    second = node.inputs[1]
    native = node.attributes.get("input1_layout") == "native_kn"  # esp-ppq 1.3's dynamic operand, row-major
    w = _matrix(b, second) if second in b.initializer_names else b.value(second) if native else \
        _unblocked(b, second, node.name)
    y = b.op("MatMul", [_matrix(b, node.inputs[0]) if node.inputs[0] in b.initializer_names else b.value(node.inputs[0]),
                        w], node.name)
    b.bind(node.outputs[0], _activation(b, node, y))


__all__ = ["conv", "gemm", "matmul"]
