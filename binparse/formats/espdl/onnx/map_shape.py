"""Data movement (Concat, Split, Reshape, Transpose, Slice, ...), Resize and pooling.

They move values without arithmetic: the output is requantized only where its exponent differs
from the input's (a Concat of inputs at other exponents). Shape, axis and index tensors are int64
initializers. Axes and perms are the model's own (N, H, W, C in EDL2); pooling and Resize, which
ONNX runs channels first, are wrapped in transposes there (`Builder.channels_first`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.errors import FormatError
from ..model.suggest import doctor_said
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


def insert_zeros(b: Builder, node: Any) -> None:
    """esp-ppq's InsertZeros (esp-dl `dl_module_insert_zeros.hpp`, before the Conv of a transposed
    convolution): along each spatial axis of N, *spatial, C, stride - 1 zeros between elements and
    output_padding zeros at the end: d -> d + (s - 1)(d - 1) + p. Written as a reshape that gives
    each element s - 1 zero neighbours (Pad), then a Slice to the new length."""
    src = node.inputs[0]
    info = b.info.get(src)
    dims = list(info.dims) if info is not None and info.dims is not None else []
    if len(dims) < 3 or any(d is None for d in dims):
        raise FormatError(f"InsertZeros {node.name!r}: its input's dims are not known", file=b.model.file,
                          expected="static dims N, *spatial, C", found=dims)
    spatial = dims[1:-1]
    strides = [int(v) for v in node.attributes.get("stride") or [1]]
    extra = [int(v) for v in node.attributes.get("output_padding") or [0]]
    strides = strides * len(spatial) if len(strides) == 1 else strides
    extra = extra * len(spatial) if len(extra) == 1 else extra
    spread = [dims[0], *(v for d in spatial for v in (d, 1)), dims[-1]]
    x = b.op("Reshape", [b.value(src), b.const(np.array(spread, dtype=np.int64), "shape")], node.name)
    pads = [0] * len(spread) + [0, *(v for s in strides for v in (0, s - 1)), 0]
    x = b.op("Pad", [x, b.const(np.array(pads, dtype=np.int64), "pads")], node.name)
    wide = [dims[0], *(d * s for d, s in zip(spatial, strides)), dims[-1]]
    x = b.op("Reshape", [x, b.const(np.array(wide, dtype=np.int64), "shape")], node.name)
    ends = [d + (s - 1) * (d - 1) + p for d, s, p in zip(spatial, strides, extra)]
    if any(e > w for e, w in zip(ends, wide[1:-1])):
        raise FormatError(f"InsertZeros {node.name!r}: output_padding {extra} not below stride {strides}",
                          file=b.model.file, expected="output_padding < stride", found=extra)
    axes = list(range(1, len(dims) - 1))
    x = b.op("Slice", [x, b.const(np.zeros(len(axes), dtype=np.int64), "starts"),
                       b.const(np.array(ends, dtype=np.int64), "ends"), b.const(np.array(axes, dtype=np.int64), "axes")],
             node.name)
    _bind_moved(b, node, [x])


def streaming_cache(b: Builder, node: Any) -> None:
    """esp-ppq's StreamingCache (esp-dl `dl_module_streaming_cache.hpp`): the output is the last
    window_size - 1 frames the node saw (zeros at first) followed by the input along frame_axis,
    and those frames are kept for the next call. ONNX has no state: the kept frames are a graph
    input `NAME:cache` (zeros for a first call) and a graph output `NAME:cache_next` to feed back."""
    src, out = node.inputs[0], node.outputs[0]
    window = int(node.attributes.get("window_size") or 1)
    rank = b.rank(src)
    axis = int(node.attributes.get("frame_axis", 1) or 0)
    axis = axis + rank if axis < 0 else axis
    x = b.value(src)
    if window <= 1:
        _bind_moved(b, node, [x])
        return
    info = b.info.get(src)
    dims = list(info.dims) if info is not None and info.dims is not None else []
    if len(dims) != rank or not 0 < axis < rank or any(d != 1 for d in dims[:axis]) or None in dims:
        raise FormatError(f"StreamingCache {node.name!r}: frames on axis {axis} of dims {dims}", file=b.model.file,
                          expected="static dims, every axis before frame_axis of size 1 (the chip copies bytes)",
                          found=dims)
    dims[axis] = window - 1
    helper, tp = b.onnx.helper, b.onnx.TensorProto
    state, state_next = f"{out}:cache", f"{out}:cache_next"
    b.state_inputs.append(helper.make_tensor_value_info(state, tp.FLOAT, dims))
    b.state_outputs.append(helper.make_tensor_value_info(state_next, tp.FLOAT, dims))
    y = b.op("Concat", [state, x], node.name, axis=axis)
    kept = b.op("Slice", [y, b.const(np.array([1 - window], dtype=np.int64), "starts"),
                          b.const(np.array([np.iinfo(np.int64).max], dtype=np.int64), "ends"),
                          b.const(np.array([axis], dtype=np.int64), "axes")], node.name)
    b.nodes.append(helper.make_node("Identity", [kept], [state_next], name=b.fresh(f"{out}/cache_next")))
    _bind_moved(b, node, [y])


def _check_pads(b: Builder, node: Any) -> None:
    """Pads a pooling node could have: 0 <= pad < 2^31. esp-ppq's int32-in-int64 defect gives others
    ([0, 0, 8314877945697009668, ...] where the first int32 values are zeros)."""
    pads = node.attributes.get("pads") or []
    if any(not isinstance(p, int) or not 0 <= p < 2 ** 31 for p in pads):
        raise FormatError(f"{node.op_type} {node.name!r}: pads {list(pads)} are not pads of a pooling window",
                          file=b.model.file, path=f"node {node.name}.pads", expected="0 <= pad < 2^31", found=list(pads),
                          hint=f"{doctor_said(b.model.file)} says whether the model holds int32 values in int64 "
                               "vectors (esp-ppq's defect, which repair fixes)")


def pool(b: Builder, node: Any) -> None:
    _check_pads(b, node)
    src = node.inputs[0]
    rank = b.rank(src) or 4
    x = b.channels_first(b.value(src), rank, node.name)
    y = b.op(node.op_type, [x], node.name, **b.attrs(node, *_POOL[node.op_type]))
    y = b.channels_back(y, rank, node.name)
    if node.op_type == "MaxPool":
        _bind_moved(b, node, [y])
    else:
        b.bind(node.outputs[0], y)


__all__ = ["concat", "insert_zeros", "plain", "streaming_cache", "pool", "resize", "split", "with_shape"]
