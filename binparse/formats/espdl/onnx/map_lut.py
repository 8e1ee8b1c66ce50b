"""Activations: the model's own lookup table when it carries one, else the function itself.

esp-ppq stores an int8 activation (Sigmoid, Tanh, Swish, Clip, ...) as a 256-entry table named by
the node's `lut` attribute (esp-dl uses it only when the op runs at 8 bits: `table_applies`), and an int16 one as 65536/step + 1 entries (`LUT`, with its
`original_op_type`). The chip (esp-dl `dl_base_lut.cpp`, `dl_module_lut.hpp`) reads int8 entry
q + 128 (`table[(uint8)q ^ 0x80]`), and int16 entry (q + 32768) / step rounded to the nearest
entry (half up on ESP32-S3, half to even on ESP32-P4: the rounding `Builder.round` uses). The table's
exponent is the output's. Without a table the chip computes the function in float and quantizes:
the ONNX op of that name, then `Builder.bind`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.errors import FormatError
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


_ATTRS = {"HardSigmoid": ("alpha", "beta"), "Gelu": ("approximate",), "LeakyRelu": ("alpha",), "Elu": ("alpha",)}
_SAME = ("Sigmoid", "Tanh", "Relu", "Exp", "Log", "Sqrt", "HardSigmoid", "Gelu", "LeakyRelu", "Elu", "Softplus",
         "Erf")


def _function(b: Builder, node: Any) -> str:
    x = b.value(node.inputs[0])
    kind = node.op_type if node.op_type != "LUT" else str(node.attributes.get("original_op_type") or "LUT")
    if kind in _SAME:
        return b.op(kind, [x], node.name, **b.attrs(node, *_ATTRS.get(kind, ())))
    if kind == "HardSwish":  # esp-dl `dl_module_hard_swish.hpp`: max(0, min(1, 0.166667 x + 0.5)) x
        gate = b.op("HardSigmoid", [x], node.name, alpha=0.166667, beta=0.5)
        return b.op("Mul", [x, gate], node.name)
    if kind == "Swish":
        return b.op("Mul", [x, b.op("Sigmoid", [x], node.name)], node.name)
    if kind == "PRelu":
        from .map_math import slope
        return b.op("PRelu", [x, slope(b, node)], node.name)
    if kind == "Clip":
        return _clip(b, node, x)
    raise FormatError(f"{node.op_type} {node.name!r} names no lookup table the model carries "
                      f"(lut = {node.attributes.get('lut')!r}) and no function binparse computes",
                      file=b.model.file, hint="the export refuses rather than guess the table")


def _clip(b: Builder, node: Any, x: str) -> str:
    """esp-dl `dl_module_clip.hpp`: the input's integers clipped to min and max taken as integers of the
    input's type (`min->get_element<T>(0)`), i.e. at the input's exponent, then rescaled."""
    src = node.inputs[0]
    e = b.exponent(src)
    bounds = []
    for name in node.inputs[1:3]:
        if not name:
            bounds.append("")
        elif e is not None and name in b.initializer_names and b.model.tensor(name).info.dtype in ("int8", "int16"):
            q = float(b.model.tensor(name).array().reshape(-1)[0])
            bounds.append(b.scalar(q * 2.0 ** e))
        else:
            bounds.append(b.value(name))
    return b.op("Clip", [x, *bounds], node.name)


def table_applies(b: Builder, node: Any) -> bool:
    """esp-dl uses a model's table for LUT and Gelu always, for the other activations only at 8 bits
    (their `deserialize`: `quant_type == QUANT_TYPE_SYMM_8BIT` and `get_operation_lut`)."""
    lut = node.attributes.get("lut")
    if not lut or lut not in b.initializer_names:
        return False
    if node.op_type in ("LUT", "Gelu"):
        return True
    info = b.info.get(node.outputs[0]) or b.info.get(node.inputs[0])
    return info is not None and str(info.dtype) == "int8"


def activation(b: Builder, node: Any) -> None:
    if table_applies(b, node):
        _table(b, node, str(node.attributes["lut"]))
    else:
        b.bind(node.outputs[0], _function(b, node))


__all__ = ["activation"]
