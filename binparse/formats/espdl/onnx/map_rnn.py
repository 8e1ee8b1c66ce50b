"""LSTM and GRU as the chip computes them: the sequence unrolled, step by step.

esp-ppq's quantized LSTM and GRU (`esp_ppq/executor/op/torch/espdl.py`, `LSTM_quant_forward`,
`GRU_quant_forward`; the values its test outputs come from) quantize inside every step: the input
and recurrent products x W^T and h R^T, an LSTM's cell state and a GRU's candidate input to int16 at
exponent -9 (`LSTM_QUANT_EXPONENT`, `GRU_QUANT_EXPONENT`: esp-dl's gate exponent), and each new
hidden state to the output's exponent, in the model's rounding. ONNX's LSTM/GRU keep float32 inside,
so the steps are written out (the sequence length is static: the input's dims). Gate orders are
ONNX's (LSTM i, o, f, c; GRU z, r, h), a GRU with linear_before_reset as torch exports it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.errors import FormatError
from .builder import Builder

GATE_EXPONENT, GATE_DTYPE = -9, "int16"


def _fq(b: Builder, x: str, base: str) -> str:
    return b.quantize(x, GATE_EXPONENT, GATE_DTYPE, base)


def _weights(b: Builder, node: Any, gates: int, seq: int, batch: int) -> tuple[Any, Any, Any, int, int]:
    """(W, R, B as real float32 arrays by direction, hidden size, directions); the unrolled steps (their
    nodes and the tensors onnxruntime makes for them, sized by the file's dims) asked of the budget."""
    from ....core.budget import ask
    w, r = b.real(node.inputs[1]), b.real(node.inputs[2])
    hidden = int(node.attributes.get("hidden_size") or r.shape[-1])
    dirs = 2 if node.attributes.get("direction") == "bidirectional" else 1
    ask(seq * dirs * (64 * 4 * batch * gates * hidden + 64 * 512), f"{node.op_type} {node.name!r} unrolled over "
        f"{seq} steps", file=b.model.file)
    w = w.reshape(dirs, gates * hidden, -1)
    r = r.reshape(dirs, gates * hidden, hidden)
    bias = b.real(node.inputs[3]).reshape(dirs, 2 * gates * hidden) if len(node.inputs) > 3 and node.inputs[3] \
        else np.zeros((dirs, 2 * gates * hidden), np.float32)
    return w, r, bias, hidden, dirs


def _state(b: Builder, node: Any, index: int, dirs: int, batch: int, hidden: int) -> str:
    if len(node.inputs) > index and node.inputs[index]:
        return b.value(node.inputs[index])
    return b.const(np.zeros((dirs, batch, hidden), np.float32), f"{node.name}/zeros")


def _steps(b: Builder, node: Any) -> tuple[str, int, int]:
    """The input as [seq, batch, input] and its seq and batch sizes (static dims)."""
    info = b.info.get(node.inputs[0])
    dims = list(info.dims) if info is not None and info.dims is not None else []
    if len(dims) != 3 or None in dims:
        raise FormatError(f"{node.op_type} {node.name!r}: its input's dims are not 3 known numbers",
                          file=b.model.file, expected="[seq, batch, input]", found=dims)
    x = b.value(node.inputs[0])
    if int(node.attributes.get("layout") or 0) == 1:  # batch first
        x = b.op("Transpose", [x], node.name, perm=[1, 0, 2])
        dims = [dims[1], dims[0], dims[2]]
    return x, int(dims[0]), int(dims[1])


def _direction(b: Builder, node: Any, w: Any, r: Any, d: int, seq: int) -> tuple[str, str, list[int]]:
    """(W^T, R^T of direction d as constants, the time steps in the order it reads them)."""
    wt = b.const(np.ascontiguousarray(w[d].T), node.inputs[1])
    rt = b.const(np.ascontiguousarray(r[d].T), node.inputs[2])
    backward = d == 1 or node.attributes.get("direction") == "reverse"
    return wt, rt, list(range(seq - 1, -1, -1) if backward else range(seq))


def _products(b: Builder, node: Any, x_t: str, h: str, wt: str, rt: str, gates: int) -> tuple[list[str], list[str]]:
    """x_t W^T and h R^T, each quantized to the gate exponent, split by gate."""
    xw = b.op_n("Split", [_fq(b, b.op("MatMul", [x_t, wt], node.name), node.name)], node.name, gates, axis=1,
                num_outputs=gates)
    hr = b.op_n("Split", [_fq(b, b.op("MatMul", [h, rt], node.name), node.name)], node.name, gates, axis=1,
                num_outputs=gates)
    return xw, hr


def _at(b: Builder, x: str, i: int, base: str) -> str:
    return b.op("Gather", [x, b.const(np.array(i, dtype=np.int64), "step")], base, axis=0)


def _bind_outputs(b: Builder, node: Any, outs: list[list[str]], last: list[list[str]]) -> None:
    """Y [seq, dirs, batch, hidden] and the last states [dirs, batch, hidden]."""
    names = list(node.outputs) + [""] * 3
    if names[0]:
        per_dir = [b.op("Concat", [b.op("Unsqueeze", [h, b.const(np.array([0, 1], dtype=np.int64), "axes01")],
                                        node.name) for h in seq], node.name, axis=0) for seq in outs]
        b.bind(names[0], b.op("Concat", per_dir, node.name, axis=1) if len(per_dir) > 1 else per_dir[0])
    for k, states in enumerate(last):
        if names[k + 1]:
            parts = [b.op("Unsqueeze", [s, b.const(np.array([0], dtype=np.int64), "axis0")], node.name) for s in states]
            b.bind(names[k + 1], b.op("Concat", parts, node.name, axis=0) if len(parts) > 1 else parts[0])


def _float(b: Builder, node: Any) -> bool:
    """A float (FP32) LSTM/GRU: ONNX's own op on the real values."""
    if b.exponent(node.outputs[0]) is not None:
        return False
    from .map_float import same
    same(b, node)
    return True


def _held(b: Builder, node: Any, h: str) -> str:
    """A new hidden state as the chip holds it: quantized to the output Y's exponent and type."""
    e = b.exponent(node.outputs[0])
    assert e is not None
    return b.quantize(h, e, str(b.info[node.outputs[0]].dtype), node.name)


def lstm(b: Builder, node: Any) -> None:
    if _float(b, node):
        return
    x, seq, batch = _steps(b, node)
    w, r, bias, hidden, dirs = _weights(b, node, 4, seq, batch)
    h0, c0 = _state(b, node, 5, dirs, batch, hidden), _state(b, node, 6, dirs, batch, hidden)
    outs, last_h, last_c = [], [], []
    for d in range(dirs):
        wt, rt, order = _direction(b, node, w, r, d, seq)
        gate_bias = [b.const(bias[d, k * hidden:(k + 1) * hidden] + bias[d, (4 + k) * hidden:(5 + k) * hidden],
                             f"{node.name}/bias") for k in range(4)]  # i, o, f, c: Wb + Rb
        h, c = _at(b, h0, d, node.name), _at(b, c0, d, node.name)
        seq_out = []
        for t in order:
            xw, hr = _products(b, node, _at(b, x, t, node.name), h, wt, rt, 4)
            pre = [b.op("Add", [b.op("Add", [xw[k], gate_bias[k]], node.name), hr[k]], node.name) for k in range(4)]
            i, o, f = (b.op("Sigmoid", [pre[k]], node.name) for k in range(3))
            g = b.op("Tanh", [pre[3]], node.name)
            c = _fq(b, b.op("Add", [b.op("Mul", [f, c], node.name), b.op("Mul", [i, g], node.name)], node.name),
                    node.name)
            h = b.op("Mul", [o, b.op("Tanh", [c], node.name)], node.name)
            h = _held(b, node, h)
            seq_out.append(h)
        outs.append(seq_out[::-1] if order[0] != 0 else seq_out)
        last_h.append(h)
        last_c.append(c)
    _bind_outputs(b, node, outs, [last_h, last_c])


def gru(b: Builder, node: Any) -> None:
    if _float(b, node):
        return
    x, seq, batch = _steps(b, node)
    w, r, bias, hidden, dirs = _weights(b, node, 3, seq, batch)
    h0 = _state(b, node, 5, dirs, batch, hidden)
    one = b.scalar(1.0)
    outs, last_h = [], []
    for d in range(dirs):
        wt, rt, order = _direction(b, node, w, r, d, seq)
        bd = bias[d]
        zb = b.const(bd[:hidden] + bd[3 * hidden:4 * hidden], f"{node.name}/bias")
        rb = b.const(bd[hidden:2 * hidden] + bd[4 * hidden:5 * hidden], f"{node.name}/bias")
        wbh, rbh = b.const(bd[2 * hidden:3 * hidden], f"{node.name}/bias"), b.const(bd[5 * hidden:], f"{node.name}/bias")
        h = _at(b, h0, d, node.name)
        seq_out = []
        for t in order:
            xw, hr = _products(b, node, _at(b, x, t, node.name), h, wt, rt, 3)
            z = b.op("Sigmoid", [b.op("Add", [b.op("Add", [xw[0], hr[0]], node.name), zb], node.name)], node.name)
            rg = b.op("Sigmoid", [b.op("Add", [b.op("Add", [xw[1], hr[1]], node.name), rb], node.name)], node.name)
            reset = b.op("Mul", [rg, b.op("Add", [hr[2], rbh], node.name)], node.name)
            cand = b.op("Tanh", [_fq(b, b.op("Add", [b.op("Add", [xw[2], wbh], node.name), reset], node.name),
                                     node.name)], node.name)
            h = b.op("Add", [b.op("Mul", [b.op("Sub", [one, z], node.name), cand], node.name),
                             b.op("Mul", [z, h], node.name)], node.name)
            h = _held(b, node, h)
            seq_out.append(h)
        outs.append(seq_out[::-1] if order[0] != 0 else seq_out)
        last_h.append(h)
    _bind_outputs(b, node, outs, [last_h])


__all__ = ["gru", "lstm"]
