"""Write .espdl model payloads from a graph description (fixtures), with weights in any layout.

    graph:
      name: g
      inputs: [{name: x, dims: [1, 4, 4, 3], dtype: int8, exponents: [-7]}]
      outputs: [{name: y, dims: [1, 4, 4, 20], dtype: int8, exponents: [-5]}]
      nodes: [{name: conv0, op_type: Conv, inputs: [x, w, b], outputs: [y], attributes: {group: 1, quant_type: S8}}]
      initializers:
        - {name: w, dims: [3, 3, 3, 20], dtype: int8, layout: "(N/16)HWC16_UNALIGNED", exponents: [-5]}
        - {name: v, dims: [1, 1, 20, 16], dtype: int8, layout: "(N/16)HWC16", layout_doc: "", exponents: [-5]}
        - {name: b, dims: [20], dtype: int32, layout: UNK, exponents: [-12]}
      test_inputs: [{name: x, dims: [1, 4, 4, 3], dtype: int8, exponents: [-7]}]

Each tensor's logical values are the fixture pattern (or `values:`); weights are packed into their
layout's stored order with the same index the reader uses to unpack them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core.errors import FormatError
from .flatbuild import build
from ..model.graph import SCHEMAS
from ..model.weights import DTYPES, PREFIX, WeightLayout

_CODES = {v: k for k, v in DTYPES.items()}


def _code(dtype: str) -> int:
    if dtype not in _CODES:
        raise FormatError("unknown ESP-DL dtype", expected=sorted(_CODES), found=dtype)
    return _CODES[dtype]


def _ints(values: Any, narrow: bool) -> Any:
    """An int64 vector's values: a list, or an int32 numpy array when the fixture imitates esp-ppq's
    defect (`int32_vectors`): the builder then writes 4-byte elements into the 8-byte field."""
    vals = [int(v) for v in values]
    return np.asarray(vals, np.int32) if narrow else vals


def _attribute(name: str, v: Any, narrow: frozenset[str] = frozenset()) -> dict[str, Any]:
    if isinstance(v, bool) or isinstance(v, int):
        return {"name": name, "attr_type": 2, "i": (int(v),)}
    if isinstance(v, float):
        return {"name": name, "attr_type": 1, "f": (v,)}
    if isinstance(v, str):
        return {"name": name, "attr_type": 3, "s": v.encode()}
    if isinstance(v, list) and all(isinstance(x, int) for x in v):
        return {"name": name, "attr_type": 7, "ints": _ints(v, "ints" in narrow)}
    if isinstance(v, list):
        return {"name": name, "attr_type": 6, "floats": [float(x) for x in v]}
    raise FormatError(f"attribute {name!r}: give an int, float, string or list", found=v)


def _value_info(v: dict[str, Any], narrow: frozenset[str] = frozenset()) -> dict[str, Any]:
    dims = [{"value": {"dim_type": 1, "dim_value": int(d)}} for d in v["dims"]]
    shape = {"elem_type": _code(v.get("dtype", "int8")), "shape": {"dim": dims}}
    return {"name": v["name"], "value_info_type": {"value": ("TensorTypeAndShape", shape)},
            "exponents": _ints(v.get("exponents", [0]), "value_exponents" in narrow)}


def tensor_values(t: dict[str, Any], depthwise: bool) -> tuple[NDArray[Any], bytes]:
    """(logical values, stored bytes) of a tensor description."""
    from ....family.fixtures.common import pattern
    dims = tuple(int(d) for d in t["dims"])
    lay = WeightLayout.of(t.get("layout"), dims, depthwise, tensor=str(t.get("name", "")) or None)
    dt = np.dtype(t.get("dtype", "int8")).newbyteorder("<")
    logical = np.asarray(t["values"], dt).reshape(lay.logical_shape) if "values" in t else pattern(lay.logical_shape, dt)
    stored = np.empty(lay.count, dt)
    stored[lay.stored_index().reshape(-1)] = logical.reshape(-1)
    return logical, stored.tobytes()


def _tensor(t: dict[str, Any], depthwise: bool, with_layout: bool,
            narrow: frozenset[str] = frozenset()) -> tuple[dict[str, Any], NDArray[Any]]:
    logical, data = tensor_values(t, depthwise)
    doc: dict[str, Any] = {"name": t["name"], "dims": _ints(t["dims"], "dims" in narrow),
                           "data_type": _code(t.get("dtype", "int8")), "raw_data": data,
                           "exponents": _ints(t.get("exponents", [0]), "exponents" in narrow)}
    if with_layout and t.get("layout"):  # `layout_doc`: what the doc_string names, if not the layout (older esp-ppq: "")
        doc["doc_string"] = PREFIX + str(t.get("layout_doc", t["layout"]))
    return doc, logical


def model_payload(graph: dict[str, Any], generation: str = "edl2") -> tuple[bytes, dict[str, NDArray[Any]]]:
    """The FlatBuffer of a model and each tensor's logical values (by role/name), with the payload
    schema of a container generation ("edl1": raw_data a byte vector; "edl2": 16-byte blocks).

    `int32_vectors` (a list of dims, exponents, value_exponents, ints) imitates esp-ppq's defect: those
    int64 vectors get int32 elements, as its builder writes an int32 numpy array (`narrow.py`)."""
    nodes = graph.get("nodes", [])
    narrow = frozenset(graph.get("int32_vectors", ()))
    dw = {n["inputs"][1] for n in nodes if n.get("op_type") == "Conv" and len(n.get("inputs", [])) > 1
          and int(n.get("attributes", {}).get("group", 1)) > 1}
    expected: dict[str, NDArray[Any]] = {}
    tables: dict[str, list[dict[str, Any]]] = {}
    for key, role in (("initializers", "initializer"), ("test_inputs", "test_input"), ("test_outputs", "test_output")):
        tables[key] = []
        for t in graph.get(key, []):
            doc, logical = _tensor(t, role == "initializer" and t["name"] in dw, role == "initializer", narrow)
            tables[key].append(doc)
            expected[f"{role}/{t['name']}"] = logical
    tables_of: dict[int, dict[str, Any]] = {}  # a node given twice (a YAML alias) stays one table

    def node(n: dict[str, Any]) -> dict[str, Any]:
        if id(n) not in tables_of:
            tables_of[id(n)] = {"name": n["name"], "op_type": n["op_type"], "input": list(n.get("inputs", [])),
                                "output": list(n.get("outputs", [])),
                                "attribute": [_attribute(k, v, narrow) for k, v in sorted(n.get("attributes", {}).items())]}
        return tables_of[id(n)]
    g = {"name": graph.get("name", "graph"), "node": [node(n) for n in nodes],
         "initializer": tables["initializers"], "input": [_value_info(v, narrow) for v in graph.get("inputs", [])],
         "output": [_value_info(v, narrow) for v in graph.get("outputs", [])],
         "test_inputs_value": tables["test_inputs"], "test_outputs_value": tables["test_outputs"]}
    return build(SCHEMAS[generation], {"ir_version": int(graph.get("ir_version", 7)), "graph": g}), expected


__all__ = ["model_payload", "tensor_values"]
