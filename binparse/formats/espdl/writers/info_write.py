"""Write esp-ppq's `.info` printout of a fixture model (the graph description `write.py` builds from).

What esp-ppq prints, as `info.py` reads it: the graph header (inputs with exponents, initializer
declarations, one line per node, `return`), then each initializer's and test value's whole data
vector in numpy's repr (an EDL2 raw_data vector is whole 16-byte blocks: the padding is printed
too), and the tensor table of the graph's inputs and outputs.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from ..printouts.info import DTYPES
from .write import tensor_values

_NAMES = {v: k for k, v in DTYPES.items()}


def _decl(t: dict[str, Any], dims: Any = None) -> str:
    return f"%{t['name']}[{_NAMES[t.get('dtype', 'int8')]}, {'x'.join(str(int(d)) for d in (dims or t['dims']))}]"


def _exps(t: dict[str, Any], exps: Any = None) -> str:
    return "[" + ", ".join(str(int(e)) for e in (exps or t.get("exponents", [0]))) + "]"


def _attr(v: Any) -> str:
    return f"'{v}'" if isinstance(v, str) else str(v)


def _value(t: dict[str, Any], depthwise: bool, generation: str, with_doc: bool, path: str = "",
           shown: dict[str, Any] | None = None) -> list[str]:
    _, data = tensor_values(t, depthwise)
    if generation != "edl1":
        data += bytes(-len(data) % 16)
    arr = np.frombuffer(data, np.dtype(t.get("dtype", "int8")).newbyteorder("<"))
    with np.printoptions(threshold=sys.maxsize):
        text = repr(arr.astype(arr.dtype.newbyteorder("=")))
    doc = f"docString: layout ==> {t['layout']}, " if with_doc and t.get("layout") else ""
    shown = shown or {}
    dims = shown.get(f"{path}.dims") or t["dims"]
    return [f"%{t['name']}, shape: [{', '.join(str(int(d)) for d in dims)}], exponents: "
            f"{_exps(t, shown.get(f'{path}.exponents'))}, {doc}", f"value: {text}"]


def printout(graph: dict[str, Any], generation: str = "edl2", shown: dict[str, Any] | None = None) -> str:
    """The `.info` text of a fixture model's graph description. `shown`: schema path -> the values
    esp-ppq prints instead of the meant ones (it prints the model it wrote, read back with flatc's
    classes: a vector with int32 values in an int64 field shows the int64 reading)."""
    s = shown or {}
    G = "Model.graph"
    nodes = graph.get("nodes", [])
    dw = {n["inputs"][1] for n in nodes if n.get("op_type") == "Conv" and len(n.get("inputs", [])) > 1
          and int(n.get("attributes", {}).get("group", 1)) > 1}
    lines = [f"graph {graph.get('name', 'graph')} ("]
    lines += [f"  {_decl(v)}, exponents: {_exps(v, s.get(f'{G}.input[{i}].exponents'))}"
              for i, v in enumerate(graph.get("inputs", []))]
    lines += [") initializers ("] + [f"  {_decl(t, s.get(f'{G}.initializer[{i}].dims'))}"
                                     for i, t in enumerate(graph.get("initializers", []))] + [") {"]
    for k, n in enumerate(nodes):
        attrs = ", ".join(f"{a} = {_attr(list(s.get(f'{G}.node[{k}].attribute[{j}].ints') or v))}"
                          if isinstance(v, list) else f"{a} = {_attr(v)}"
                          for j, (a, v) in enumerate(sorted(n.get("attributes", {}).items())))
        lines.append(f"  {', '.join('%' + o for o in n.get('outputs', []))} = {n['op_type']}"
                     + (f"[{attrs}]" if attrs else "") + f"({', '.join('%' + i for i in n.get('inputs', []))})")
    lines += [f"  return {', '.join('%' + v['name'] for v in graph.get('outputs', []))}", "}", "", "",
              "initializers value:"]
    for i, t in enumerate(graph.get("initializers", [])):
        lines += _value(t, t["name"] in dw, generation, True, f"{G}.initializer[{i}]", s)
    lines += ["", "", "values info:"]
    lines += [f"{_decl(v)}, exponents: {_exps(v, s.get(f'{G}.{role}[{i}].exponents'))}"
              for role in ("input", "output") for i, v in enumerate(graph.get(f"{role}s", []))]
    for key, head, field in (("test_inputs", "test inputs value:", "test_inputs_value"),
                             ("test_outputs", "test outputs value:", "test_outputs_value")):
        if graph.get(key):
            lines += ["", "", head]
            for i, t in enumerate(graph[key]):
                lines += _value(t, False, generation, False, f"{G}.{field}[{i}]", s)
    return "\n".join(lines) + "\n"


__all__ = ["printout"]
