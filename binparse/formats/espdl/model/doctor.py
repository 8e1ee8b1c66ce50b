"""`binparse doctor` check for ESP-DL files: what each model is, whether its test tensors fit the graph.

Per model: the target its weight layouts point to (the `c` reference layouts, or int8/int16 blocks
of esp32s3/esp32p4, which share them), ops and parameter count; the test inputs/outputs against
the graph's inputs/outputs (names, dims); and problems: a PDL3 digest that differs, a payload that
does not decode, a blocked layout whose channel count contradicts its name. A file that cannot be
read is one problem line; the report goes on.
"""

from __future__ import annotations

from pathlib import Path

from ....errors import BinparseError
from ....family import FileReport, Finding, register_check
from .container import EspdlFile, EspdlModel
from .graph import Graph
from .narrow import narrow_findings
from .graph import shown
from .report import once, ops_text, parameters, target_of


def _model_findings(name: str, m: EspdlModel) -> list[Finding]:
    label = f"{name}{'/' + m.name if m.name else ''}"
    if m.encrypted and m.key is None:  # said once by the doctor itself: the file's `unverified`
        return []
    if m.twin is not None:
        return [Finding("note", f"{label}: the same record as {m.twin.name!r} (checked once, there)", [name])]
    g = m.graph
    out = []
    if g.nodes:
        out.append(Finding("ok", f"{label}: {target_of(g)}; {len(g.nodes)} nodes ({ops_text(g)}), "
                                 f"{parameters(g):,} parameters", [name]))
    out.extend(narrow_findings(label, g, [name], m.file))
    unnamed = [t.name for t in g.initializers if not t.layout]
    if unnamed:
        inferred = m.inferred_layouts
        kinds = sorted(set(inferred.values()))
        out.append(Finding("note", f"{label}: {len(unnamed)} of {len(g.initializers)} initializers name no layout "
                                   "(doc_string empty or 'layout ==> ')"
                           + (f"; {len(inferred)} Conv/Gemm weights among them read as {', '.join(kinds)}, the "
                              "rule of the block width the model's named weights use (esp-ppq's blocking)"
                              if inferred else "") + f"; {len(unnamed) - len(inferred)} in their stored dims",
                           [name]))
    for t in once(g.initializers):  # a table many fields share: checked once
        lay = m.tensor(t.name).layout
        if t.layout and not lay.known:
            out.append(Finding("note", f"{label}: {shown(t.name)} has layout {t.layout!r}, which binparse does not know; "
                                       "its logical form is its stored dims", [name]))
        elif lay.block:
            k = t.dims[-2] if lay.depthwise else t.dims[-1]
            unaligned = lay.canonical.endswith("_UNALIGNED")
            if (k % lay.block != 0) != unaligned:
                out.append(Finding("problem", f"{label}: {shown(t.name)} is {t.layout} but has {k} channels "
                                              f"({'a' if k % lay.block == 0 else 'not a'} multiple of {lay.block})", [name]))
    graph_io = {"test input": {v.name: v for v in g.inputs}, "test output": {v.name: v for v in g.outputs}}
    for role, tensors in (("test input", g.test_inputs), ("test output", g.test_outputs)):
        for t in once(tensors):
            v = graph_io[role].get(t.name)
            if v is None:
                out.append(Finding("problem", f"{label}: {role} {shown(t.name)!r} is not a graph {role.split()[1]}", [name]))
            elif v.dims is not None and _hwc_of_nchw(t.dims, tuple(v.dims)):
                out.append(Finding("note", f"{label}: {role} {shown(t.name)!r} {list(t.dims)} holds the graph's "
                                           f"{list(v.dims)} in ESP-DL's H, W, C order (the graph keeps ONNX's "
                                           "N, C, H, W dims, N = 1)", [name]))
            elif v.dims is not None and tuple(v.dims) != t.dims:
                out.append(Finding("problem", f"{label}: {role} {shown(t.name)!r} has dims {list(t.dims)}, the graph "
                                              f"{list(v.dims)}", [name]))
            else:
                out.append(Finding("ok", f"{label}: {role} {shown(t.name)!r} {list(t.dims)} matches the graph", [name]))
    if not g.test_inputs and not g.test_outputs:
        out.append(Finding("note", f"{label}: no test inputs/outputs to check a port with", [name]))
    return out


def _hwc_of_nchw(hwc: tuple[int, ...], nchw: tuple[int | None, ...]) -> bool:
    """True when `hwc` is (H, W, C) of the (1, C, H, W) `nchw`."""
    return len(hwc) == 3 and len(nchw) == 4 and nchw[0] == 1 and hwc == (nchw[2], nchw[3], nchw[1])


@register_check
def check_espdl(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Each ESP-DL model: target, ops, parameters, test tensors against the graph, problems."""
    out: list[Finding] = []
    for rep in reports:
        if rep.family != "espdl" or not isinstance(rep.obj, EspdlFile):
            continue
        try:
            for p in rep.obj.problems():
                out.append(Finding("problem", f"{rep.name}: {p}", [rep.name]))
            for m in rep.obj.models:
                try:
                    out.extend(_model_findings(rep.name, m))
                except BinparseError:
                    continue  # listed by problems() above
        except BinparseError as exc:
            out.append(Finding("problem", f"{rep.name}: {exc}", [rep.name]))
    return out
