"""Activations: the model's own lookup table when it carries one, else the function itself.

esp-ppq stores an int8 activation (Sigmoid, Tanh, Swish, Clip, ...) as a 256-entry table named by
the node's `lut` attribute, and an int16 one as 65536/step + 1 entries (`LUT`, with its
`original_op_type`). The chip (esp-dl `dl_base_lut.cpp`, `dl_module_lut.hpp`) reads int8 entry
q + 128 (`table[(uint8)q ^ 0x80]`), and int16 entry (q + 32768) / step rounded to the nearest
entry (half up on ESP32-S3, half to even on ESP32-P4: the rounding `Builder.round` uses). The table's
exponent is the output's. Without a table the chip computes the function in float and quantizes:
the ONNX op of that name, then `Builder.bind`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....errors import FormatError
from .builder import Builder


def _table(b: Builder, node: Any, table: str) -> None:
    src = node.inputs[0]
    info = b.info.get(src)
    dtype = str(info.dtype) if info is not None else ""
    values = b.real(table).reshape(-1)
    q = b.integers(b.value(src), src)
    if dtype == "int8" and values.size == 256:
        idx = b.op("Add", [q, b.scalar(128.0)], node.name)
    elif dtype == "int16" and values.size > 1 and 65536 % (values.size - 1) == 0:
        step = 65536 // (values.size - 1)
        idx = b.op("Add", [q, b.scalar(32768.0)], node.name)
        if step > 1:
            idx = b.round(b.op("Mul", [idx, b.scalar(1.0 / step)], node.name), node.name)
    else:
        raise FormatError(f"{node.op_type} {node.name!r}: a table of {values.size} entries for a {dtype or 'float'} "
                          "input", file=b.model.file, expected="256 entries (int8) or 65536/step + 1 (int16)",
                          found=values.size)
    idx = b.op("Cast", [idx], node.name, to=b.onnx.TensorProto.INT64)
    y = b.op("Gather", [b.const(values.astype(np.float32), table), idx], node.name)
    out_e = b.exponent(node.outputs[0])
    t_e = b.model.tensor(table).info.exponents
    b.bind(node.outputs[0], y, requantize=not t_e or out_e != int(t_e[0]))


def _function(b: Builder, node: Any) -> str:
    x = b.value(node.inputs[0])
    kind = node.op_type if node.op_type != "LUT" else str(node.attributes.get("original_op_type") or "LUT")
    if kind in ("Sigmoid", "Tanh", "HardSwish"):
        return b.op(kind, [x], node.name)
    if kind == "HardSigmoid":
        return b.op(kind, [x], node.name, **b.attrs(node, "alpha", "beta"))
    if kind == "Gelu":
        return b.op(kind, [x], node.name, **b.attrs(node, "approximate"))
    if kind == "Swish":
        return b.op("Mul", [x, b.op("Sigmoid", [x], node.name)], node.name)
    if kind == "Clip":
        bounds = [b.value(n) if n else "" for n in node.inputs[1:3]]
        return b.op("Clip", [x, *bounds], node.name)
    raise FormatError(f"{node.op_type} {node.name!r} names no lookup table the model carries "
                      f"(lut = {node.attributes.get('lut')!r}) and no function binparse computes",
                      file=b.model.file, hint="the export refuses rather than guess the table")


def activation(b: Builder, node: Any) -> None:
    lut = node.attributes.get("lut")
    if lut and lut in b.initializer_names:
        _table(b, node, str(lut))
    else:
        b.bind(node.outputs[0], _function(b, node))


__all__ = ["activation"]
