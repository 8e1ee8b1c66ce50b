"""The text `binparse inspect` prints for an .espdl model (like TI's netLog: one row per node)."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Any

from ....render import columns
from .graph import Graph, TensorInfo


def table_text(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    return "\n".join(columns(head, rows))


def _dims(d: tuple[int | None, ...] | None) -> str:
    return "?" if d is None else "x".join("?" if v is None else str(v) for v in d) or "scalar"


def _exp(t: TensorInfo) -> str:
    e = t.exponents
    if not e:
        return "-"
    return str(e[0]) if len(e) == 1 else f"{min(e)}..{max(e)} ({len(e)})"


def model_report(g: Graph) -> str:
    """Nodes with op type and tensors, weights with shape, layout and exponent, then totals."""
    inits = {t.name for t in g.initializers}
    rows = [(str(k), n.op_type, n.name, ", ".join(i for i in n.inputs if i not in inits) or "-",
             ", ".join(n.outputs) or "-", ", ".join(i for i in n.inputs if i in inits) or "-")
            for k, n in enumerate(g.nodes)]
    out = [f"graph {g.name!r}: {len(g.nodes)} nodes, ir_version {g.ir_version}",
           table_text(("#", "op type", "name", "inputs", "outputs", "weights"), rows)]
    wrows = [(t.name, t.dtype, _dims(t.dims), t.layout or "-", _exp(t)) for t in g.initializers]
    out += [f"initializers: {len(g.initializers)}", table_text(("name", "dtype", "dims", "layout", "exponent"), wrows)]
    io = [("input", v.name, v.dtype or "?", _dims(v.dims), ",".join(map(str, v.exponents)) or "-") for v in g.inputs]
    io += [("output", v.name, v.dtype or "?", _dims(v.dims), ",".join(map(str, v.exponents)) or "-") for v in g.outputs]
    io += [(t.role.replace("_", " "), t.name, t.dtype, _dims(t.dims), _exp(t)) for t in g.test_inputs + g.test_outputs]
    out += ["inputs, outputs and test values:", table_text(("role", "name", "dtype", "dims", "exponent"), io)]
    params = sum(prod(t.dims) for t in g.initializers)
    ops: dict[str, int] = {}
    for n in g.nodes:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    out.append(f"totals: {params:,} parameters in {len(g.initializers)} initializers; ops "
               + ", ".join(f"{k} x{v}" for k, v in sorted(ops.items())))
    return "\n".join(out)
