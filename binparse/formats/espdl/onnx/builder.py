"""The ONNX graph being built from one ESP-DL model: names, constants, and the chip's quantization.

Every value is float32 real values (`q x 2^exponent`) in the ONNX graph. After each op, `bind`
quantizes the result to the exponent and integer type the model gives that tensor, in the chip's
rounding, and saturates it: what the chip holds is what the export holds.

Rounding (esp-dl `dl/tool/include/dl_tool.hpp`, `dl_define_private.hpp`): `dl::tool::round` and the
SIMD kernels round half to even on the ESP32-P4 (`CONFIG_ROUND_HALF_EVEN_ENABLED` for ESP32-P4 and
ESP32-S31) and half up on the other chips (ESP32-S3 and the plain-C targets). Written as
round(x / 2^e) (ONNX Round is half to even; half up is floor(x / 2^e + 1/2)), clipped to the type's
range, times 2^e: a QuantizeLinear/DequantizeLinear pair with a power-of-two scale, spelled out so
that both roundings have one form (onnxruntime's transpose optimizer also mistyped int8 zero points
it moved). esp-ppq computes the test values it stores beside a model with half to even, whatever the
target: the PDL1 face detector's 8,926 test output elements (msr01 8,910, mnp01 16) are all reproduced
with half to even, 5,024 of msr01's with half up; esp-dl's ESP32-P4 streaming test model's 16 likewise (11 with half
up). Half to even is the default; `--rounding half-up` computes what an ESP32-S3 itself computes.

Layouts: EDL2 models hold activations as N, H, W, C and the graph's axes say so (a Concat on axis 3);
EDL1 models keep ONNX's N, C, H, W in the graph while the chip holds H, W, C. Ops whose ONNX form
needs channels first (Conv, pooling, Resize) are wrapped in transposes in an N, H, W, C graph.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core import budget
from ....core.errors import FormatError

RANGES = {"int8": (-128, 127), "int16": (-32768, 32767)}
NODE_BYTES = 4096  # what an ONNX node takes made, shape-inferred and written (measured: 3.7 KB, 12,005 to 48,005 nodes)
ROUNDINGS = ("half-even", "half-up")
TO_FIRST = {4: [0, 3, 1, 2], 3: [0, 2, 1]}  # channels last -> channels first
TO_LAST = {4: [0, 2, 3, 1], 3: [0, 2, 1]}


class Builder:
    """Nodes and initializers of the export, and what each ESP-DL tensor is called in it."""

    def __init__(self, model: Any, rounding: str, layout: str, shared: dict[Any, Any] | None = None) -> None:
        from .deps import need
        self.onnx = need("onnx", purpose="exporting an ESP-DL model to ONNX", file=model.file)
        self.model, self.graph = model, model.graph
        self.rounding, self.layout = rounding, layout  # "nhwc" (EDL2), "nchw" (EDL1), "onnx" (EDL1 without Conv)
        self.nodes: list[Any] = []
        self.initializers: list[Any] = []
        self.names: dict[str, str] = {}  # ESP-DL tensor -> ONNX value holding it
        self.rename: dict[str, str] = {}  # ESP-DL tensor -> the ONNX name bind gives it (set by export)
        self.ranks: dict[str, int] = {}  # ranks inside the graph where they differ from the file's dims
        self.state_inputs: list[Any] = []  # ValueInfoProtos of state the caller carries (StreamingCache)
        self.state_outputs: list[Any] = []
        self._taken: set[str] = set()
        self._next: dict[str, int] = {}  # base -> the suffix `fresh` tries next (linear in the names made)
        self._consts: dict[tuple[str, bytes, tuple[int, ...]], str] = {}
        self.shared: dict[Any, Any] = {} if shared is None else shared  # key -> TensorProto, across exports
        g = self.graph
        self.info = {v.name: v for v in (*g.value_info, *g.inputs, *g.outputs)}
        self.initializer_names = {t.name for t in g.initializers}

    # ---- names and constants
    def fresh(self, base: str) -> str:
        """A name not yet used: `base`, else `base#2`, `base#3`, ... from where the last call for `base`
        stopped (a graph whose entries share one node table asks for the same base thousands of times:
        linear, not quadratic, in the names made)."""
        name, i = base, self._next.get(base, 1)
        if i > 1:
            name = f"{base}#{i}"
        while name in self._taken or name in self.info or name in self.initializer_names:
            i += 1
            name = f"{base}#{i}"
        self._next[base] = i + 1
        self._taken.add(name)
        return name

    def const(self, arr: Any, base: str = "const") -> str:
        """An initializer of `arr` (one per distinct value). Its TensorProto is made once per model and
        kept in `shared` (the exports of one model with either rounding hold the same constants); a
        new one asks the command's budget first (`budget.ask`: its bytes come from the file's dims)."""
        a = np.asarray(arr)
        a = a if a.flags.c_contiguous else a.copy()  # (np.ascontiguousarray would make a scalar 1-D)
        key = (a.dtype.str, a.tobytes(), a.shape)
        got = self._consts.get(key)
        if got is None:
            got = self._consts[key] = self.fresh(base)
            proto = self.shared.get(key)
            if proto is None:
                from ....core.budget import ask
                ask(2 * a.nbytes, f"the ONNX constant {got!r} of {list(a.shape)} {a.dtype}", file=self.model.file)
                proto = self.shared[key] = self.onnx.numpy_helper.from_array(a, got)
            if proto.name != got:
                copy = type(proto)()
                copy.CopyFrom(proto)
                copy.name = got
                proto = copy
            self.initializers.append(proto)
        return got

    def scalar(self, value: float | int, dtype: Any = np.float32) -> str:
        return self.const(np.array(value, dtype=dtype), "c")

    def op(self, op_type: str, inputs: list[str], base: str, **attrs: Any) -> str:
        """One ONNX node of one output; that output's name."""
        return self.op_n(op_type, inputs, base, 1, **attrs)[0]

    def op_n(self, op_type: str, inputs: list[str], base: str, n_out: int, **attrs: Any) -> list[str]:
        """One ONNX node of `n_out` outputs; their names. Every 1,024 nodes, the graph made so far is asked
        of the budget (a node table thousands of entries share makes thousands of ONNX nodes: refused in
        bound and in time, not after a minute)."""
        if len(self.nodes) % 1024 == 1023:
            budget.ask(NODE_BYTES * (len(self.nodes) + 1), f"the ONNX graph of the export ({len(self.nodes) + 1:,} "
                                                           "ONNX nodes made so far)", file=self.model.file, transient=True)
        outs = [self.fresh(f"{base}:{op_type}" if n_out == 1 else f"{base}:{op_type}:{i}") for i in range(n_out)]
        self.nodes.append(self.onnx.helper.make_node(op_type, inputs, outs, name=self.fresh(f"{base}/{op_type}"),
                                                     **attrs))
        return outs

    # ---- ESP-DL tensors
    def exponent(self, name: str) -> int | None:
        v = self.info.get(name)
        if v is None or not v.exponents or (v.dtype or "") not in RANGES:
            return None
        if len(v.exponents) != 1:
            raise FormatError(f"activation {name!r} has {len(v.exponents)} exponents; ESP-DL gives activations one",
                              file=self.model.file, path=f"value_info[{name}]", found=list(v.exponents))
        return int(v.exponents[0])

    def rank(self, name: str) -> int:
        if name in self.ranks:
            return self.ranks[name]
        v = self.info.get(name)
        return len(v.dims) if v is not None and v.dims is not None else 0

    def value(self, name: str) -> str:
        """The ONNX value of an ESP-DL tensor: an activation already bound, or an initializer as float32
        real values (integer shape/index tensors as int64)."""
        got = self.names.get(name)
        if got is not None:
            return got
        if name in self.initializer_names:
            t = self.model.tensor(name)
            arr = t.array()
            if arr.dtype == np.int64 or (arr.dtype.kind in "iu" and not t.info.exponents):  # shapes, axes, starts
                got = self.const(arr.astype(np.int64), name)
            else:
                got = self.const(self.real(name), name)
            self.names[name] = got
            return got
        raise FormatError(f"tensor {name!r} is used before any node makes it", file=self.model.file,
                          hint="the graph's nodes are not in an order that computes their inputs first")

    def real(self, name: str) -> NDArray[np.float32]:
        """An initializer's real values (q x 2^exponent), float32, logical order (weights (N, H, W, C))."""
        t = self.model.tensor(name)
        out: NDArray[np.float32] = t.dequantize()
        return out

    # ---- the chip's quantization
    def quantize(self, x: str, exponent: int, dtype: str, base: str) -> str:
        """x / 2^e rounded in the chip's rounding, saturated to the type's range, times 2^e."""
        lo, hi = RANGES[dtype]
        q = self.round(self.op("Mul", [x, self.scalar(2.0 ** -exponent)], base), base)
        q = self.op("Clip", [q, self.scalar(lo), self.scalar(hi)], base)
        return self.op("Mul", [q, self.scalar(2.0 ** exponent)], base)

    def integers(self, x: str, name: str) -> str:
        """The integer q (as float32) of an already quantized value `x` of tensor `name`."""
        e = self.exponent(name)
        return x if e is None else self.op("Mul", [x, self.scalar(2.0 ** -e)], name)

    def round(self, x: str, base: str) -> str:
        """x rounded to an integer in the chip's rounding (no saturation)."""
        if self.rounding == "half-even":
            return self.op("Round", [x], base)
        return self.op("Floor", [self.op("Add", [x, self.scalar(0.5)], base)], base)

    def bind(self, name: str, x: str, *, requantize: bool = True) -> None:
        """`x` is the float result of the op that makes ESP-DL tensor `name`: quantized to its exponent
        and type (unless `requantize` is False: a data move whose input already has that exponent)."""
        e = self.exponent(name)
        v = self.info.get(name)
        if e is not None and v is not None and requantize:
            x = self.quantize(x, e, str(v.dtype), name)
        target = self.rename.get(name, name)
        self.nodes.append(self.onnx.helper.make_node("Identity", [x], [target], name=self.fresh(f"{name}/bind")))
        self._taken.add(target)
        self.names[name] = target

    def attrs(self, node: Any, *keys: str) -> dict[str, Any]:
        """The node's attributes among `keys` that it has, as ONNX attribute values."""
        out: dict[str, Any] = {}
        for key in keys:
            v = node.attributes.get(key)
            if v is None or v == "" or v == []:
                continue
            out[key] = [int(x) for x in v] if isinstance(v, list) else v
        return out

    # ---- layouts
    def channels_first(self, x: str, rank: int, base: str) -> str:
        return x if self.layout != "nhwc" or rank not in TO_FIRST else self.op("Transpose", [x], base,
                                                                                 perm=TO_FIRST[rank])

    def channels_back(self, x: str, rank: int, base: str) -> str:
        return x if self.layout != "nhwc" or rank not in TO_LAST else self.op("Transpose", [x], base,
                                                                               perm=TO_LAST[rank])


__all__ = ["Builder", "RANGES", "ROUNDINGS"]
