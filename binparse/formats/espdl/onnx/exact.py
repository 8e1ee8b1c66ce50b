"""Conv, Gemm and MatMul on the chip's integers, exactly: what float32 cannot hold.

The chip accumulates q_in x q_w in integers (int32 for 8 bits; 40/64 bits for 16), adds the bias
and rounds once to the output's exponent. In float32 a sum of products loses bits once it passes
2^24: an int16 5x5x16 Conv (products up to 2^30) already does. So the accumulation is done on
integers here: a Conv as ONNX's ConvInteger (uint8/int8 in, int32 out, exact), a 16-bit operand
split into its high and low bytes (q = 256 h + l; four ConvIntegers, each exact in int32), combined
in float64 (exact to 2^53); MatMul and Gemm the same way with MatMulInteger. Bias,
fused Relu, per-channel scales and the final rounding to the output's exponent are float64 too;
the result is the output's real values in float32 (exact: int8/int16 times a power of two).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from .builder import RANGES, Builder


def eligible(b: Builder, x: str, weight: str, out: str) -> bool:
    """True when input, weight and output are the chip's integers (int8/int16 with exponents)."""
    t = b.model.tensor(weight)
    return (b.exponent(x) is not None and b.exponent(out) is not None and t.info.dtype in RANGES
            and bool(t.info.exponents))


def _double(b: Builder, value: float) -> str:
    return b.const(np.array(value, dtype=np.float64), "d")


def _bytes_of(b: Builder, q: str, dtype: str, base: str) -> list[tuple[str, float, str]]:
    """An integer activation q (float32 values) as ConvInteger operands: (uint8 value, weight, zero point).
    int8: one operand, q + 128 with zero point 128. int16: the high byte h (zero point 128) and the
    low byte l in 0..255 (zero point 0), q = 256 h + l."""
    u8 = b.onnx.TensorProto.UINT8
    zp128 = b.const(np.array(128, dtype=np.uint8), "zp128")
    if dtype == "int8":
        return [(b.op("Cast", [b.op("Add", [q, b.scalar(128.0)], base)], base, to=u8), 1.0, zp128)]
    zp0 = b.const(np.array(0, dtype=np.uint8), "zp0")
    high = b.op("Floor", [b.op("Mul", [q, b.scalar(1.0 / 256)], base)], base)
    low = b.op("Sub", [q, b.op("Mul", [high, b.scalar(256.0)], base)], base)
    return [(b.op("Cast", [b.op("Add", [high, b.scalar(128.0)], base)], base, to=u8), 256.0, zp128),
            (b.op("Cast", [low], base, to=u8), 1.0, zp0)]


def _weight_bytes(w: NDArray[Any], dtype: str) -> list[tuple[NDArray[Any], float]]:
    """Integer weights as ConvInteger weights: int8 as they are; int16 as the high byte (int8) and the
    low byte (uint8), w = 256 h + l."""
    if dtype == "int8":
        return [(w.astype(np.int8), 1.0)]
    wi = w.astype(np.int64)
    high = np.floor_divide(wi, 256)
    return [(high.astype(np.int8), 256.0), ((wi - 256 * high).astype(np.uint8), 1.0)]


def _per_channel(b: Builder, values: NDArray[Any], rank: int, name: str) -> str:
    """A float64 vector over output channels (axis 1 of a channels-first result of `rank`)."""
    return b.const(values.astype(np.float64).reshape((1, values.size) + (1,) * (rank - 2)), name)


def _finish(b: Builder, node: Any, acc: str, scales: NDArray[Any], rank: int, channel_axis_last: bool) -> str:
    """acc (float64 integers) x per-channel 2^(e_in + e_w), + bias, fused Relu, rounded to the output's
    exponent in float64; float32 real values of the output (channels-first when `rank` > 2)."""
    shape = (1,) * (rank - 1) + (scales.size,) if channel_axis_last else (1, scales.size) + (1,) * (rank - 2)
    y = b.op("Mul", [acc, b.const(scales.astype(np.float64).reshape(shape), "scales")], node.name)
    if len(node.inputs) > 2 and node.inputs[2]:
        bias = b.model.tensor(node.inputs[2])
        real = bias.array().astype(np.float64).reshape(-1) * np.ldexp(1.0, np.asarray(bias.info.exponents or (0,)))
        y = b.op("Add", [y, b.const(real.reshape(shape), node.inputs[2])], node.name)
    if (node.attributes.get("activation") or "Linear") == "Relu":
        y = b.op("Relu", [y], node.name)
    out = node.outputs[0]
    e = b.exponent(out)
    assert e is not None
    lo, hi = RANGES[str(b.info[out].dtype)]
    q = b.op("Mul", [y, _double(b, 2.0 ** -e)], node.name)
    if b.rounding == "half-even":
        q = b.op("Round", [q], node.name)
    else:
        q = b.op("Floor", [b.op("Add", [q, _double(b, 0.5)], node.name)], node.name)
    q = b.op("Clip", [q, _double(b, lo), _double(b, hi)], node.name)
    y32 = b.op("Cast", [q], node.name, to=b.onnx.TensorProto.FLOAT)
    return b.op("Mul", [y32, b.scalar(2.0 ** e)], node.name)


def _weight_scales(t: Any, n: int) -> NDArray[np.float64]:
    exps = np.asarray(t.info.exponents, dtype=np.int64)
    return np.broadcast_to(np.ldexp(1.0, exps), (n,)).astype(np.float64)


def _integer_products(b: Builder, node: Any, op_type: str, q: str, w_int: NDArray[Any], **attrs: Any) -> str:
    """sum over the byte operands of ConvInteger/MatMulInteger(x part, w part) x their weights, float64."""
    src, t = node.inputs[0], b.model.tensor(node.inputs[1])
    d64 = b.onnx.TensorProto.DOUBLE
    acc = ""
    for xu, xw, zp in _bytes_of(b, q, str(b.info[src].dtype), node.name):
        for wpart, ww in _weight_bytes(w_int, t.info.dtype):
            part = b.op(op_type, [xu, b.const(wpart, node.inputs[1]), zp], node.name, **attrs)
            part = b.op("Cast", [part], node.name, to=d64)
            if xw * ww != 1.0:
                part = b.op("Mul", [part, _double(b, xw * ww)], node.name)
            acc = part if not acc else b.op("Add", [acc, part], node.name)
    return acc


def conv(b: Builder, node: Any, x: str, w_int: NDArray[Any], attrs: dict[str, Any], rank: int) -> str:
    """ConvInteger of the integers of `x` (channels first) and `w_int` (ONNX order, integers)."""
    src, t = node.inputs[0], b.model.tensor(node.inputs[1])
    acc = _integer_products(b, node, "ConvInteger", b.integers(x, src), w_int, **attrs)
    e_in = b.exponent(src)
    assert e_in is not None
    scales = _weight_scales(t, w_int.shape[0]) * 2.0 ** e_in
    return _finish(b, node, acc, scales, rank, channel_axis_last=False)


def matmul(b: Builder, node: Any, x: str, w_int: NDArray[Any], n: int) -> str:
    """MatMulInteger of the integers of `x` and `w_int` ((K, N) or (..., K, N)), bytes as for Conv: exact."""
    src, t = node.inputs[0], b.model.tensor(node.inputs[1])
    acc = _integer_products(b, node, "MatMulInteger", b.integers(x, src), w_int)
    e_in = b.exponent(src)
    assert e_in is not None
    scales = _weight_scales(t, n) * 2.0 ** e_in
    out = b.info.get(node.outputs[0])  # a 1-D input gives a 1-D output: the scales must not add an axis
    rank = len(out.dims) if out is not None and out.dims is not None else max(b.rank(src), 2)
    return _finish(b, node, acc, scales, rank, channel_axis_last=True)


__all__ = ["conv", "eligible", "matmul"]
