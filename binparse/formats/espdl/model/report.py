"""The text `binparse inspect` prints for an .espdl model: a short summary (`model_summary`: what
made it, nodes by op, parameters, inputs and outputs), then with `-v` one row per node, initializer
and test value (`model_report`, like TI's netLog)."""

from __future__ import annotations

from collections.abc import Sequence
from math import prod
from typing import Any

from ....core.render import columns
from ....core.text import shown as text_shown
from .graph import Graph, TensorInfo, ValueInfo, escaped, shown
from .weights import ALIASES, LAYOUTS


def table_text(head: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    return "\n".join(columns(head, rows))


def _dims(d: tuple[int | None, ...] | None) -> str:
    return "?" if d is None else "x".join("?" if v is None else str(v) for v in d) or "scalar"


def _exp(t: TensorInfo) -> str:
    e = t.exponents
    if not e:
        return "-"
    return str(e[0]) if len(e) == 1 else f"{min(e)}..{max(e)} ({len(e)})"


def target_of(g: Graph) -> str:
    """What the weight layouts say about the target the model was built for."""
    names = {ALIASES.get(t.layout or "", t.layout or "") for t in g.initializers} - {"UNK", ""}
    blocks = sorted({int(LAYOUTS[n]["block"]) for n in names if n in LAYOUTS and LAYOUTS[n]["block"]})  # type: ignore[call-overload]
    if blocks:
        return "esp32s3 / esp32p4 (blocked weights: " + ", ".join(f"{b} lanes" for b in blocks) + ")"
    if names & {"NHWC", "HWCN", "NWC", "WCN"}:
        return "c (reference layouts, unblocked)"
    return "unknown (no weight layout names)"


def ops_text(g: Graph) -> str:
    """'Conv x2, Gemm x1' (nodes by op type)."""
    ops: dict[str, int] = {}
    for n in g.nodes:
        ops[n.op_type] = ops.get(n.op_type, 0) + 1
    return ", ".join(f"{k} x{v}" for k, v in sorted(ops.items()))


def parameters(g: Graph) -> int:
    return sum(prod(t.dims) for t in g.initializers)


def _ports(vs: list[ValueInfo]) -> str:
    text = "; ".join(f"{escaped(v.name)} {v.dtype or '?'} {_dims(v.dims)}" for v in vs[:8])
    return (text + (f"; ... ({len(vs)} in all)" if len(vs) > 8 else "")) or "-"


def model_summary(g: Graph, generation: str) -> str:
    """A few lines: the graph, what made it, nodes by op, parameters, inputs and outputs."""
    return "\n".join([
        f"graph {shown(g.name)!r}: {generation.upper()} generation, ir_version {g.ir_version}, target {target_of(g)}",
        f"nodes: {len(g.nodes)}" + (f" ({text_shown(ops_text(g))})" if g.nodes else " (an empty graph: nothing to run)"),
        f"parameters: {parameters(g):,} in {len(g.initializers)} initializers",
        f"inputs: {_ports(g.inputs)}",
        f"outputs: {_ports(g.outputs)}",
        f"test values: {len(g.test_inputs)} inputs, {len(g.test_outputs)} outputs"])


def once(items: list[Any]) -> list[Any]:
    """Each table once (a table many fields point at is one object: `graph._Decoder.memo`)."""
    return list({id(x): x for x in items}.values())


def model_report(g: Graph) -> str:
    """Nodes with op type and tensors, weights with shape, layout and exponent, then totals."""
    inits = {t.name for t in g.initializers}
    first: dict[int, int] = {}
    rows = [(str(k), shown(n.op_type), shown(n.name), ", ".join(shown(i) for i in n.inputs if i not in inits) or "-",
             ", ".join(map(shown, n.outputs)) or "-", ", ".join(shown(i) for i in n.inputs if i in inits) or "-")
            if first.setdefault(id(n), k) == k else (str(k), "", f"(the node table of #{first[id(n)]})", "", "", "")
            for k, n in enumerate(g.nodes)]
    out = [f"graph {shown(g.name)!r}: {len(g.nodes)} nodes, ir_version {g.ir_version}",
           table_text(("#", "op type", "name", "inputs", "outputs", "weights"), rows)]
    wrows = [(shown(t.name), t.dtype, _dims(t.dims), t.layout or "-", _exp(t)) for t in once(g.initializers)]
    out += [f"initializers: {len(g.initializers)}", table_text(("name", "dtype", "dims", "layout", "exponent"), wrows)]
    io = [("input", shown(v.name), v.dtype or "?", _dims(v.dims), ",".join(map(str, v.exponents)) or "-")
          for v in once(g.inputs)]
    io += [("output", shown(v.name), v.dtype or "?", _dims(v.dims), ",".join(map(str, v.exponents)) or "-")
           for v in once(g.outputs)]
    io += [(t.role.replace("_", " "), shown(t.name), t.dtype, _dims(t.dims), _exp(t))
           for t in once(g.test_inputs + g.test_outputs)]
    out += ["inputs, outputs and test values:", table_text(("role", "name", "dtype", "dims", "exponent"), io)]
    out.append(f"totals: {parameters(g):,} parameters in {len(g.initializers)} initializers; ops {text_shown(ops_text(g))}")
    return "\n".join(out)
