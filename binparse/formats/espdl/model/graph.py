"""The graph of one .espdl model: nodes, initializers, inputs/outputs, test tensors, from its FlatBuffer
(read with the payload schema of its container generation: `SCHEMAS`, by magic `GENERATION`).

Read with the generic reader (`flatbuf`) and the table description schemas/espdl/espdl_model.yaml;
tensors keep where their data lies in the payload, so `tensor.py` can give zero-copy views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ....accessors.espdl.espdl_model import SCHEMA
from ....errors import FormatError
from .flatbuf import FlatBuffer, Schema, Table
from .weights import DTYPES, layout_name

MODEL_SCHEMA = Schema(SCHEMA, "edl2")
# the payload schema of each container generation (schemas/espdl/espdl_model.yaml `generations`)
SCHEMAS = {name: Schema(SCHEMA, name) for name in SCHEMA["generations"]}
GENERATION = {magic: name for name, g in SCHEMA["generations"].items() for magic in g["magics"]}
ROOT_CHECKS = "the root offset, the root table's vtable, Model.graph and the Graph table's vtable"


class NotAModel(FormatError):
    """The payload's FlatBuffer root is not an espdl.fbs Model (what an undecrypted or wrongly
    decrypted payload gives): raised before any deeper field is read."""
# vectors a Tensor may keep its elements in, in the order esp-dl's loader looks (get_tensor_raw_data)
_DATA_FIELDS = ("raw_data", "float_data", "int32_data", "int64_data", "double_data", "uint64_data")
_VECTOR_DTYPES = {"float_data": "float32", "int32_data": "int32", "int64_data": "int64", "double_data": "float64",
                  "uint64_data": "uint64"}


@dataclass(frozen=True)
class TensorInfo:
    """A tensor the model carries (initializer or test value): what it is and where its data lies."""

    name: str
    dims: tuple[int, ...]
    dtype: str  # numpy name, or "code N" for a data_type binparse has no numpy type for
    exponents: tuple[int, ...]
    layout: str | None
    role: str  # initializer, test_input, test_output
    data_offset: int  # of the elements, in the payload
    data_nbytes: int  # bytes the data vector holds (raw_data: whole 16-byte blocks)
    data_field: str  # raw_data, float_data, ...
    path: str  # schema path, e.g. Model.graph.initializer[3]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "dims": list(self.dims), "dtype": self.dtype, "exponents": list(self.exponents),
                "layout": self.layout}


@dataclass(frozen=True)
class ValueInfo:
    """A graph input or output: name, dims (None where symbolic), dtype and exponents."""

    name: str
    dims: tuple[int | None, ...] | None
    dtype: str | None
    exponents: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "dims": None if self.dims is None else list(self.dims),
                "exponents": list(self.exponents)}


@dataclass(frozen=True)
class Node:
    """An operator: name, op_type, input and output tensor names, attributes (name -> value)."""

    name: str
    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "op_type": self.op_type, "inputs": list(self.inputs), "outputs": list(self.outputs)}


def _attribute(a: Table) -> Any:
    """An Attribute's value by its attr_type (AttributeType of espdl.fbs)."""
    kind = int(a.get("attr_type", 0))
    if kind == 1:
        f = a.get("f")
        return None if f is None else float(f[0])
    if kind == 2:
        i = a.get("i")
        return None if i is None else int(i[0])
    if kind == 3:
        s = a.get("s")
        return bytes(s or ()).decode("utf-8", "replace")
    if kind == 6:
        return [float(x) for x in a.get("floats", ())]
    if kind == 7:
        return [int(x) for x in a.get("ints", ())]
    if kind == 8:
        return list(a.get("strings", []))
    return None  # tensors, graphs, types: not needed to describe a model


def _dtype(code: int) -> str:
    return DTYPES.get(code, f"code {code}")


def _tensor(t: Table, role: str) -> TensorInfo:
    dtype = _dtype(int(t.get("data_type", 0)))
    offset, nbytes, source = 0, 0, ""
    for name in _DATA_FIELDS:
        start, count, size = t.span(name)
        if t.has(name):
            offset, nbytes, source = start, count * size, name
            if name in _VECTOR_DTYPES:
                dtype = _VECTOR_DTYPES[name] if dtype.startswith("code") else dtype
            break
    return TensorInfo(t.get("name", ""), tuple(int(d) for d in t.get("dims", ())), dtype,
                      tuple(int(e) for e in t.get("exponents", ())), layout_name(t.get("doc_string")), role,
                      offset, nbytes, source, t.path)


def _value_info(v: Table) -> ValueInfo:
    dims: tuple[int | None, ...] | None = None
    dtype = None
    tinfo = v.get("value_info_type")
    tt = tinfo.get("value") if tinfo is not None else None
    if tt is not None and tt.type == "TensorTypeAndShape":
        dtype = _dtype(int(tt.get("elem_type", 0)))
        shape = tt.get("shape")
        if shape is not None:
            out: list[int | None] = []
            for d in shape.get("dim", []):
                val = d.get("value")
                out.append(int(val.get("dim_value", 0)) if val is not None and int(val.get("dim_type", 1)) != 2 else None)
            dims = tuple(out)
    return ValueInfo(v.get("name", ""), dims, dtype, tuple(int(e) for e in v.get("exponents", ())))


@dataclass
class Graph:
    """What a model holds, decoded once (nothing but names and numbers: tensor data stays in place)."""

    name: str
    ir_version: int
    nodes: list[Node]
    initializers: list[TensorInfo]
    inputs: list[ValueInfo]
    outputs: list[ValueInfo]
    test_inputs: list[TensorInfo]
    test_outputs: list[TensorInfo]
    value_info: list[ValueInfo] = field(default_factory=list)  # the intermediate tensors' dims and exponents

    @classmethod
    def read(cls, payload: Any, *, file: str | None = None, base: int = 0, generation: str = "edl2") -> Graph:
        """Decode the graph of a model payload (espdl.fbs root Model) with the payload schema of its
        container generation ("edl1": EDL1/PDL1, "edl2": EDL2/PDL2/PDL3). `NotAModel` when the root
        checks fail, `FormatError` for a field deeper in that points outside the payload."""
        if len(payload) < 8:
            raise NotAModel("the FlatBuffer root is not a Model (the payload is too small)", file=file, path="Model",
                            offset=base, expected="at least 8 bytes", found=f"{len(payload)} bytes",
                            hint=f"checked {ROOT_CHECKS}")
        try:
            model = FlatBuffer(payload, SCHEMAS[generation], file=file, base=base).root()
            g = model.get("graph")
        except FormatError as exc:
            raise NotAModel(f"the FlatBuffer root is not a Model ({exc.message})", file=file, path=exc.path,
                            offset=exc.offset, expected=exc.expected, found=exc.found,
                            hint=f"checked {ROOT_CHECKS}") from None
        if g is None:
            raise NotAModel("the FlatBuffer root is not a Model: it has no graph", file=file, path="Model.graph",
                            offset=base, hint=f"checked {ROOT_CHECKS}")
        nodes = [Node(n.get("name", ""), n.get("op_type", ""), tuple(n.get("input", [])), tuple(n.get("output", [])),
                      {a.get("name", ""): _attribute(a) for a in n.get("attribute", [])}) for n in g.get("node", [])]
        return cls(g.get("name", ""), int(model.get("ir_version", 0)), nodes,
                   [_tensor(t, "initializer") for t in g.get("initializer", [])],
                   [_value_info(v) for v in g.get("input", [])], [_value_info(v) for v in g.get("output", [])],
                   [_tensor(t, "test_input") for t in g.get("test_inputs_value", [])],
                   [_tensor(t, "test_output") for t in g.get("test_outputs_value", [])],
                   [_value_info(v) for v in g.get("value_info", [])])

    @property
    def tensors(self) -> list[TensorInfo]:
        return [*self.initializers, *self.test_inputs, *self.test_outputs]

    def depthwise(self, name: str) -> bool:
        """True when `name` is the weight of a Conv whose group equals its channels (group > 1)."""
        for n in self.nodes:
            if n.op_type == "Conv" and len(n.inputs) > 1 and n.inputs[1] == name:
                return int(n.attributes.get("group") or 1) > 1
        return False

    def to_json(self) -> dict[str, Any]:
        return {"nodes": [n.to_json() for n in self.nodes],
                "initializers": [t.to_json() for t in self.initializers],
                "inputs": [v.to_json() for v in self.inputs], "outputs": [v.to_json() for v in self.outputs],
                "test_inputs": [t.to_json() for t in self.test_inputs],
                "test_outputs": [t.to_json() for t in self.test_outputs]}


__all__ = ["GENERATION", "Graph", "NotAModel", "Node", "SCHEMAS", "TensorInfo", "ValueInfo"]
