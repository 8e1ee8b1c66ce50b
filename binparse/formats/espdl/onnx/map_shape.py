"""Data movement (Concat, Split, Reshape, Transpose, Slice, ...), Resize and pooling.

They move values without arithmetic: the output is requantized only where its exponent differs
from the input's (a Concat of inputs at other exponents). Shape, axis and index tensors are int64
initializers. Axes and perms are the model's own (N, H, W, C in EDL2); pooling and Resize, which
ONNX runs channels first, are wrapped in transposes there (`Builder.channels_first`).
"""

from __future__ import annotations

from typing import Any

from .builder import Builder

_PLAIN = {"Flatten": ("axis",), "Transpose": ("perm",)}
_SHAPED = {"Reshape": ("allowzero",), "Squeeze": ("axes",), "Unsqueeze": ("axes",), "Slice": ()}
_POOL = {"MaxPool": ("kernel_shape", "strides", "pads", "dilations", "ceil_mode", "auto_pad"),
         "AveragePool": ("kernel_shape", "strides", "pads", "ceil_mode", "count_include_pad", "auto_pad"),
         "GlobalAveragePool": ()}


def _bind_moved(b: Builder, node: Any, outs: list[str]) -> None:
    exps = {b.exponent(i) for i in node.inputs[:1] if i}
    if node.op_type == "Concat":
        exps = {b.exponent(i) for i in node.inputs if i}
    for name, y in zip(node.outputs, outs):
        b.bind(name, y, requantize=exps != {b.exponent(name)})


def concat(b: Builder, node: Any) -> None:
    y = b.op("Concat", [b.value(i) for i in node.inputs], node.name, **b.attrs(node, "axis"))
    _bind_moved(b, node, [y])


def split(b: Builder, node: Any) -> None:
    inputs = [b.value(node.inputs[0])]
    attrs = b.attrs(node, "axis")
    if len(node.inputs) > 1 and node.inputs[1]:
        inputs.append(b.value(node.inputs[1]))
    else:
        attrs["num_outputs"] = len(node.outputs)
    _bind_moved(b, node, b.op_n("Split", inputs, node.name, len(node.outputs), **attrs))


def plain(b: Builder, node: Any) -> None:
    attrs = b.attrs(node, *_PLAIN[node.op_type])
    rank = b.rank(node.inputs[0])
    if "perm" in attrs and rank:  # esp-ppq writes negative axes (-1 the last), which ONNX's Transpose refuses
        attrs["perm"] = [p % rank for p in attrs["perm"]]
    y = b.op(node.op_type, [b.value(node.inputs[0])], node.name, **attrs)
    _bind_moved(b, node, [y])


def with_shape(b: Builder, node: Any) -> None:
    """Reshape, Squeeze, Unsqueeze, Slice: the data and int64 shape/axes/index inputs."""
    inputs = [b.value(i) if i else "" for i in node.inputs]
    attrs = b.attrs(node, *_SHAPED[node.op_type])
    if node.op_type in ("Squeeze", "Unsqueeze") and "axes" in attrs:  # an input since opset 13
        import numpy as np
        inputs.append(b.const(np.array(attrs.pop("axes"), dtype=np.int64), f"{node.name}/axes"))
    y = b.op(node.op_type, inputs, node.name, **attrs)
    _bind_moved(b, node, [y])


def resize(b: Builder, node: Any) -> None:
    """Resize: its scales (or sizes) are in ONNX's N, C, H, W order in EDL2 graphs too (a 7x7 map
    scaled by [1, 1, 2, 2] becomes the 14x14 the next Concat expects): run channels first."""
    src = node.inputs[0]
    rank = b.rank(src) or 4
    inputs = [b.channels_first(b.value(src), rank, node.name), *(b.value(i) if i else "" for i in node.inputs[1:])]
    y = b.op("Resize", inputs, node.name, **b.attrs(node, "mode", "coordinate_transformation_mode", "nearest_mode",
                                                     "cubic_coeff_a"))
    _bind_moved(b, node, [b.channels_back(y, rank, node.name)])


def pool(b: Builder, node: Any) -> None:
    src = node.inputs[0]
    rank = b.rank(src) or 4
    x = b.channels_first(b.value(src), rank, node.name)
    y = b.op(node.op_type, [x], node.name, **b.attrs(node, *_POOL[node.op_type]))
    y = b.channels_back(y, rank, node.name)
    if node.op_type == "MaxPool":
        _bind_moved(b, node, [y])
    else:
        b.bind(node.outputs[0], y)


__all__ = ["concat", "plain", "pool", "resize", "split", "with_shape"]
