"""Element-wise arithmetic, reductions and esp-ppq's requantization: computed on the real values the
chip holds, then quantized to the output's exponent (`Builder.bind`).

The chip computes these on integers (an Add aligns both inputs to one exponent, a Mul multiplies
q_a x q_b) and rounds once to the output's exponent: the same integers and the same single rounding
as the float32 form here, as long as the exact result fits float32's 24-bit mantissa.
RequantizeLinear and QuantizeLinear (esp-ppq's own nodes, esp-dl `dl_base_requantize_linear.cpp`)
move a tensor to another exponent (and between int8 and int16): a bind to the output's exponent.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .builder import Builder


def binary(b: Builder, node: Any) -> None:
    y = b.op(node.op_type, [b.value(node.inputs[0]), b.value(node.inputs[1])], node.name)
    b.bind(node.outputs[0], y)


def slope(b: Builder, node: Any) -> str:
    """PRelu's slope, shaped to broadcast on the channel axis (last in N, H, W, C graphs)."""
    x = node.inputs[0]
    values: Any = b.real(node.inputs[1])
    if values.ndim >= 2:  # already in the dims ONNX broadcasts (a graph esp-ppq left N, C, H, W: [C, 1, 1])
        return b.const(values, node.inputs[1])
    values = values.reshape(-1)
    rank = b.rank(x)
    if values.size > 1 and b.layout != "nhwc" and rank > 2:  # channels on axis 1
        values = values.reshape((values.size,) + (1,) * (rank - 2))
    return b.const(values, node.inputs[1])


def prelu(b: Builder, node: Any) -> None:
    b.bind(node.outputs[0], b.op("PRelu", [b.value(node.inputs[0]), slope(b, node)], node.name))


_UNARY_ATTRS = {"LeakyRelu": ("alpha",), "Softmax": ("axis",)}


def unary(b: Builder, node: Any) -> None:
    y = b.op(node.op_type, [b.value(node.inputs[0])], node.name,
             **b.attrs(node, *_UNARY_ATTRS.get(node.op_type, ())))
    b.bind(node.outputs[0], y)


def requantize(b: Builder, node: Any) -> None:
    b.bind(node.outputs[0], b.value(node.inputs[0]))


__all__ = ["binary", "prelu", "requantize", "slope", "unary"]
