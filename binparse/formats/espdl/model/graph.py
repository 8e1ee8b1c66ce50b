"""The graph of one .espdl model: nodes, initializers, inputs/outputs, test tensors, from its FlatBuffer
(read with the payload schema of its container generation: `SCHEMAS`, by magic `GENERATION`).

Read with the generic reader (`flatbuf`) and the table description schemas/espdl/espdl_model.yaml;
tensors keep where their data lies in the payload, so `tensor.py` can give zero-copy views.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
import struct
from math import prod
from typing import Any

from ....core import budget
from ....engine.accessors.espdl.espdl_model import SCHEMA
from ....core.errors import FormatError
from ....core.text import shown as text_shown
from .flatbuf import FlatBuffer, Schema, Table
from .narrow import RANGES, Narrow, check, classify, evident
from .weights import DTYPES, layout_name

MODEL_SCHEMA = Schema(SCHEMA, "edl2")
# the payload schema of each container generation (schemas/espdl/espdl_model.yaml `generations`)
SCHEMAS = {name: Schema(SCHEMA, name) for name in SCHEMA["generations"]}
GENERATION = {magic: name for name, g in SCHEMA["generations"].items() for magic in g["magics"]}
ROOT_CHECKS = "the root offset, the root table's vtable, Model.graph and the Graph table's vtable"


SHOWN = 256  # characters of a name shown in reports and JSON (the whole name stays in the objects)


def shown(name: str) -> str:
    """A name as reports show it: names longer than any real one (a hostile file may point thousands
    of fields at one long string) cut, with their length, so no report grows with the sharing."""
    return name if len(name) <= SHOWN else f"{name[:SHOWN]}... ({len(name):,} characters)"


def escaped(name: str) -> str:
    """A name as a text report prints it: cut (`shown`), its control characters, line breaks and
    bidirectional overrides escaped (`binparse.core.text.shown`). JSON keeps the name itself (`shown`)."""
    return text_shown(shown(name))


def shared_json(items: list[Any]) -> list[Any]:
    """Each item's JSON, or `{"same_as": k}` for an item that is the same table as item k (decoded once)."""
    first: dict[int, int] = {}
    out = []
    for k, it in enumerate(items):
        j = first.setdefault(id(it), k)
        out.append({"same_as": j} if j != k else it.to_json())
    return out


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
        return {"name": shown(self.name), "dims": list(self.dims), "dtype": self.dtype,
                "exponents": list(self.exponents), "layout": self.layout}


@dataclass(frozen=True)
class ValueInfo:
    """A graph input or output: name, dims (None where symbolic), dtype and exponents."""

    name: str
    dims: tuple[int | None, ...] | None
    dtype: str | None
    exponents: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {"name": shown(self.name), "dims": None if self.dims is None else list(self.dims),
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
        return {"name": shown(self.name), "op_type": shown(self.op_type), "inputs": [shown(i) for i in self.inputs],
                "outputs": [shown(o) for o in self.outputs]}


REFERENCE_BYTES = 512  # bytes asked per decoded reference: real models take 360-560 (tracemalloc of Graph.read)
MAX_DIMS = 32  # numpy's limit on an array's dimensions (ESP-DL tensors have at most 4 or 5)
MAX_ELEMENTS = 1 << 40  # the product of a tensor's non-zero dims (beyond, numpy cannot even make an empty view)


class _Decoder:
    """Decodes the tables of one payload: each table once however many fields point at it (memo by
    position), int64 vectors read as meant (`narrow.classify`: the defects go to `narrow`)."""

    def __init__(self, fb: FlatBuffer) -> None:
        self.fb = fb
        self.narrow: list[Narrow] = []

    def ints(self, t: Table, name: str, kind: str) -> tuple[int, ...]:
        head = t.head(name)
        if head is None:
            return ()
        at, start, count = head
        path = f"{t.path}.{name}"
        # the next object of the same table after the vector: 8-byte elements that would run into it
        # cannot be what the writer meant (`narrow.classify`)
        limit = min((o for o in t.objects() if o >= start), default=self.fb.n)
        got = classify(self.fb.buf, self.fb.n, at, start, count, kind, path, self.narrow, limit)
        if got is None:  # neither reading plausible: the schema's reading, refused for dims (an absurd shape)
            if start + 8 * count > self.fb.n:
                raise self.fb.fail("vector runs past the payload", path, start - 4,
                                   f"{count} x 8 bytes inside {self.fb.n - start}", f"{count * 8} bytes")
            lo, hi = RANGES[kind]
            bad = struct.unpack_from(f"<{count}q", self.fb.buf, start)
            if kind != "dims":
                return tuple(bad)
            raise self.fb.fail(f"{kind} out of range", path, start, f"values in {lo}..{hi}",
                               [v for v in bad if not lo <= v <= hi][:4])
        return got

    def memo(self, kind: str, t: Table, make: Any) -> Any:
        key = (kind, t.pos)
        got = self.fb.memo.get(key)
        if got is None:
            got = self.fb.memo[key] = make(t)
        return got

    def attribute(self, a: Table) -> Any:
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
            return list(self.ints(a, "ints", "ints"))
        if kind == 8:
            return list(a.get("strings", []))
        return None  # tensors, graphs, types: not needed to describe a model

    def node(self, n: Table) -> Node:
        return Node(n.get("name", ""), n.get("op_type", ""), tuple(n.get("input", [])), tuple(n.get("output", [])),
                    {a.get("name", ""): self.memo("attribute", a, self.attribute) for a in n.get("attribute", [])})

    def tensor(self, t: Table, role: str) -> TensorInfo:
        dtype = _dtype(int(t.get("data_type", 0)))
        offset, nbytes, source = 0, 0, ""
        for name in _DATA_FIELDS:
            start, count, size = t.span(name)
            if t.has(name):
                offset, nbytes, source = start, count * size, name
                if name in _VECTOR_DTYPES:
                    dtype = _VECTOR_DTYPES[name] if dtype.startswith("code") else dtype
                break
        dims = self.ints(t, "dims", "dims")
        if len(dims) > MAX_DIMS:
            raise self.fb.fail("too many dims", f"{t.path}.dims", t.pos, f"at most {MAX_DIMS}", len(dims))
        if prod(d for d in dims if d) > MAX_ELEMENTS:
            raise self.fb.fail("dims describe more elements than any model holds", f"{t.path}.dims", t.pos,
                               f"at most {MAX_ELEMENTS:,} elements", list(dims))
        return TensorInfo(t.get("name", ""), dims, dtype, self.ints(t, "exponents", "exponents"),
                          layout_name(t.get("doc_string")), role, offset, nbytes, source, t.path)

    def value_info(self, v: Table) -> ValueInfo:
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
        return ValueInfo(v.get("name", ""), dims, dtype, self.ints(v, "exponents", "exponents"))

    def tensors(self, g: Table, name: str, role: str) -> list[TensorInfo]:
        return [self.memo(role, t, lambda t: self.tensor(t, role)) for t in g.get(name, [])]

    def values(self, g: Table, name: str) -> list[ValueInfo]:
        return [self.memo("value_info", v, self.value_info) for v in g.get(name, [])]


def _dtype(code: int) -> str:
    return DTYPES.get(code, f"code {code}")


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
    narrow: list[Narrow] = field(default_factory=list)  # int64 vectors that hold int32 values, read as meant
    references: int = 0  # vector elements decoded, a shared vector counted at each use (`budget.ask`ed)

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
        d = _Decoder(model.fb)
        nodes = [d.memo("node", n, d.node) for n in g.get("node", [])]
        graph = cls(g.get("name", ""), int(model.get("ir_version", 0)), nodes, d.tensors(g, "initializer", "initializer"),
                    d.values(g, "input"), d.values(g, "output"), d.tensors(g, "test_inputs_value", "test_input"),
                    d.tensors(g, "test_outputs_value", "test_output"), d.values(g, "value_info"))
        graph.narrow = d.narrow
        graph.references = model.fb.decoded
        # what every command then walks (reports, JSON, doctor, export) meets each shared name and vector at
        # each of its uses: asked of the budget before any of it is walked
        budget.ask(REFERENCE_BYTES * graph.references, f"the model's graph ({graph.references:,} names, tables and "
                   "values, a shared one counted at each use)", file=file, offset=base)
        check(graph, generation)
        for n in graph.narrow:  # neither reading fits: not the defect, a damaged vector
            if n.inconsistent:
                raise FormatError(f"{n.kind} fit neither as int64 ({n.read_text()}: out of range) nor as int32 "
                                  f"({n.meant_text()}: {n.inconsistent[0]})", file=file, path=n.path,
                                  offset=base + n.start, expected="int64 values, or int32 values that fit the model",
                                  found=n.read_text(), hint="the vector is damaged: re-export the model")
        if graph.narrow and not evident(graph.narrow):
            n = graph.narrow[0]
            raise FormatError(f"{n.kind} out of range", file=file, path=n.path, offset=base + n.start,
                              expected=f"values in {RANGES[n.kind][0]}..{RANGES[n.kind][1]}", found=n.read_text(),
                              hint=f"read as int32 it would be {n.meant_text()}, but no other vector of the model "
                                   "holds int32 values (esp-ppq's defect): the vector is damaged; re-export the model")
        return graph

    @property
    def tensors(self) -> list[TensorInfo]:
        return [*self.initializers, *self.test_inputs, *self.test_outputs]

    def depthwise(self, name: str) -> bool:
        """True when `name` is the weight of a Conv whose group equals its channels (group > 1)."""
        return name in self._depthwise

    def matmul_weight(self, name: str) -> bool:
        """True when `name` is the second input of a MatMul: esp-ppq lays it out as a matrix [..., C, N]
        whatever its rank (`ResetParamLayoutPattern`, MatMul)."""
        return name in self._matmul_weights

    @cached_property
    def _matmul_weights(self) -> set[str]:
        return {n.inputs[1] for n in self.nodes if n.op_type == "MatMul" and len(n.inputs) > 1}

    @cached_property
    def _depthwise(self) -> set[str]:
        """The weights whose first Conv has group > 1 (one pass over the nodes, not one per weight)."""
        seen: set[str] = set()
        out: set[str] = set()
        for n in self.nodes:
            if n.op_type == "Conv" and len(n.inputs) > 1 and n.inputs[1] not in seen:
                seen.add(n.inputs[1])
                if isinstance(g := n.attributes.get("group"), int) and g > 1:
                    out.add(n.inputs[1])
        return out

    @cached_property
    def narrow_by_table(self) -> dict[str, tuple[str, ...]]:
        """Table path -> the kinds of its vectors read as meant (`narrow`), e.g. ("dims", "exponents")."""
        out: dict[str, tuple[str, ...]] = {}
        for n in self.narrow:
            table = n.path.rpartition(".")[0]
            out[table] = (*out.get(table, ()), n.kind)
        return out

    @cached_property
    def by_name(self) -> dict[str, TensorInfo]:
        """The first tensor (initializer, then test values) of each name."""
        out: dict[str, TensorInfo] = {}
        for t in self.tensors:
            out.setdefault(t.name, t)
        return out

    def to_json(self) -> dict[str, Any]:
        return {"nodes": shared_json(self.nodes), "initializers": shared_json(self.initializers),
                "inputs": shared_json(self.inputs), "outputs": shared_json(self.outputs),
                "test_inputs": shared_json(self.test_inputs), "test_outputs": shared_json(self.test_outputs)}


__all__ = ["GENERATION", "Graph", "NotAModel", "Node", "SCHEMAS", "TensorInfo", "ValueInfo", "escaped", "shared_json", "shown"]
