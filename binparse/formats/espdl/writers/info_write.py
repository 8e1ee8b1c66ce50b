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


def _decl(t: dict[str, Any]) -> str:
    return f"%{t['name']}[{_NAMES[t.get('dtype', 'int8')]}, {'x'.join(str(int(d)) for d in t['dims'])}]"


def _exps(t: dict[str, Any]) -> str:
    return "[" + ", ".join(str(int(e)) for e in t.get("exponents", [0])) + "]"


def _attr(v: Any) -> str:
    return f"'{v}'" if isinstance(v, str) else str(v)


def _value(t: dict[str, Any], depthwise: bool, generation: str, with_doc: bool) -> list[str]:
    _, data = tensor_values(t, depthwise)
    if generation != "edl1":
        data += bytes(-len(data) % 16)
    arr = np.frombuffer(data, np.dtype(t.get("dtype", "int8")).newbyteorder("<"))
    with np.printoptions(threshold=sys.maxsize):
        text = repr(arr.astype(arr.dtype.newbyteorder("=")))
    doc = f"docString: layout ==> {t['layout']}, " if with_doc and t.get("layout") else ""
    return [f"%{t['name']}, shape: [{', '.join(str(int(d)) for d in t['dims'])}], exponents: {_exps(t)}, {doc}",
            f"value: {text}"]


def printout(graph: dict[str, Any], generation: str = "edl2") -> str:
    """The `.info` text of a fixture model's graph description."""
    nodes = graph.get("nodes", [])
    dw = {n["inputs"][1] for n in nodes if n.get("op_type") == "Conv" and len(n.get("inputs", [])) > 1
          and int(n.get("attributes", {}).get("group", 1)) > 1}
    lines = [f"graph {graph.get('name', 'graph')} ("]
    lines += [f"  {_decl(v)}, exponents: {_exps(v)}" for v in graph.get("inputs", [])]
    lines += [") initializers ("] + [f"  {_decl(t)}" for t in graph.get("initializers", [])] + [") {"]
    for n in nodes:
        attrs = ", ".join(f"{k} = {_attr(v)}" for k, v in sorted(n.get("attributes", {}).items()))
        lines.append(f"  {', '.join('%' + o for o in n.get('outputs', []))} = {n['op_type']}"
                     + (f"[{attrs}]" if attrs else "") + f"({', '.join('%' + i for i in n.get('inputs', []))})")
    lines += [f"  return {', '.join('%' + v['name'] for v in graph.get('outputs', []))}", "}", "", "",
              "initializers value:"]
    for t in graph.get("initializers", []):
        lines += _value(t, t["name"] in dw, generation, True)
    lines += ["", "", "values info:"]
    lines += [f"{_decl(v)}, exponents: {_exps(v)}" for v in [*graph.get("inputs", []), *graph.get("outputs", [])]]
    for key, head in (("test_inputs", "test inputs value:"), ("test_outputs", "test outputs value:")):
        if graph.get(key):
            lines += ["", "", head]
            for t in graph[key]:
                lines += _value(t, False, generation, False)
    return "\n".join(lines) + "\n"


__all__ = ["printout"]
