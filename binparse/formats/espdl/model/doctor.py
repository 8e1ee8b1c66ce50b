"""`binparse doctor` check for ESP-DL files: what each model is, whether its test tensors fit the graph.

Per model: the target its weight layouts point to (the `c` reference layouts, or int8/int16 blocks
of esp32s3/esp32p4, which share them), ops and parameter count; the test inputs/outputs against
the graph's inputs/outputs (names, dims); and problems only where esp-dl's own code refuses the model
(Model::test: a test value whose element count or name it cannot use, a graph input without a test
input) or the file contradicts itself (a PDL3 digest that differs: FbsLoader::verify_package_sha256; int32
values in int64 vectors: narrow.py). A blocked layout whose name says aligned where the channels are not
(or the reverse) is a note: esp-dl never reads the name. What could not be read (a payload that does not
decode, a weight in a layout binparse cannot apply) and an empty graph are "not verified" lines
naming the model and why (exit code 2, as `inspect` says of them): no model is passed over.
"""

from __future__ import annotations

from math import prod
from pathlib import Path
from typing import Any

from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check
from .container import EspdlFile, EspdlModel
from .graph import shown
from .narrow import narrow_findings
from .report import once, ops_text, parameters, target_of


def _model_findings(name: str, m: EspdlModel) -> list[Finding]:
    label = f"{name}{'/' + m.name if m.name else ''}"
    if m.encrypted and m.key is None:  # said once by the doctor itself: the file's `unverified`
        return []
    if m.twin is not None:
        return [Finding("note", f"{label}: the same record as {m.twin.name!r} (checked once, there)", [name])]
    try:
        g = m.graph
    except BinparseError as exc:  # never passed over: the model is named, with why (exit code 2)
        return [Finding("note", f"not verified: {label} could not be read: {exc.describe(known_file=m.file)}", [name])]
    if not g.nodes:
        return [Finding("note", f"not verified: {label} is an empty graph {shown(g.name)!r}: no nodes, "
                                f"{len(g.inputs)} inputs, {len(g.outputs)} outputs (nothing for esp-dl to run), "
                                "nothing to verify", [name])]
    out = [Finding("ok", f"{label}: {target_of(g)}; {len(g.nodes)} nodes ({ops_text(g)}), "
                         f"{parameters(g):,} parameters", [name])]
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
    unread = m.unreadable_layouts()  # a layout binparse cannot apply to these dims: named, never skipped
    for t in once(g.initializers):  # a table many fields share: checked once
        try:
            lay = m.tensor(t.name).layout
        except BinparseError:
            continue
        if t.layout and not lay.known:
            out.append(Finding("note", f"{label}: {shown(t.name)} has layout {t.layout!r}, which binparse does not know; "
                                       "its logical form is its stored dims", [name]))
        elif lay.block and (lay.blocked_channels % lay.block != 0) != lay.canonical.endswith("_UNALIGNED"):
            k = lay.blocked_channels  # a name that says otherwise is no proof: esp-dl never reads it (_NAMES)
            out.append(Finding("note", f"{label}: {shown(t.name)} is named {t.layout} but has {k} channels "
                                       f"({'a' if k % lay.block == 0 else 'not a'} multiple of {lay.block}): {_NAMES}",
                               [name]))
    if unread:
        out.append(Finding("note", f"not verified: {label}: {len(unread)} of {len(g.initializers)} initializers "
                                   f"could not be read in their layout: {'; '.join(unread[:3])}"
                                   + (f"; and {len(unread) - 3} more" if len(unread) > 3 else ""), [name]))
    graph_io = {"test input": {v.name: v for v in g.inputs}, "test output": {v.name: v for v in g.outputs}}
    for role, tensors in (("test input", g.test_inputs), ("test output", g.test_outputs)):
        for t in once(tensors):
            v = graph_io[role].get(t.name)
            if v is None:
                out.append(_not_graph_io(label, role, t.name, g, name))
            elif v.dims is not None and _hwc_of_nchw(t.dims, tuple(v.dims)):
                out.append(Finding("note", f"{label}: {role} {shown(t.name)!r} {list(t.dims)} holds the graph's "
                                           f"{list(v.dims)} in ESP-DL's H, W, C order (the graph keeps ONNX's "
                                           "N, C, H, W dims, N = 1)", [name]))
            elif v.dims is not None and tuple(v.dims) != t.dims and None not in v.dims \
                    and prod(t.dims) == prod(d for d in v.dims if d is not None):
                out.append(Finding("note", f"{label}: {role} {shown(t.name)!r} has dims {list(t.dims)}, the graph "
                                           f"{list(v.dims)}: the same {prod(t.dims):,} elements ({_SAME_COUNT[role]})",
                                   [name]))
            elif v.dims is not None and tuple(v.dims) != t.dims and None not in v.dims:
                out.append(Finding("problem", f"{label}: {role} {shown(t.name)!r} has {prod(t.dims):,} elements "
                                              f"(dims {list(t.dims)}), the graph's {role.split()[1]} "
                                              f"{prod(d for d in v.dims if d is not None):,} (dims {list(v.dims)}): "
                                              f"esp-dl's Model::test cannot use it ({_OTHER_COUNT[role]})", [name]))
            else:
                out.append(Finding("ok", f"{label}: {role} {shown(t.name)!r} {list(t.dims)} matches the graph", [name]))
    if not g.test_inputs and not g.test_outputs:
        out.append(Finding("note", f"{label}: no test inputs/outputs to check a port with", [name]))
    elif missing := [v.name for v in g.inputs if v.name not in {t.name for t in g.test_inputs}]:
        out.append(Finding("problem", f"{label}: graph input {', '.join(repr(shown(n)) for n in missing)} has no test "
                                      "input, and the model has test values: esp-dl's Model::test refuses it (\"Model "
                                      "input ... doesn't have a corresponding test input\", dl_model_base.cpp)", [name]))
    return out


# esp-dl reads no layout name: a tensor's doc_string has no getter in FbsModel (fbs_model.hpp gives a
# tensor's shape, exponents and data), TensorBase holds no layout, and the Conv/Gemm kernels take the
# aligned or unaligned path from the channel count (dl_base.hpp, ConvOpArgs: n_remainder =
# output_channel % lanes), as binparse orders the elements
_NAMES = ("esp-dl never reads a layout's name (FbsModel gives no tensor's doc_string; its kernels order a weight "
          "by its channel count, dl_base.hpp), and binparse reads it so")


def _not_graph_io(label: str, role: str, tensor: str, g: Any, file: str) -> Finding:
    """A test value not named by a graph input or output, in esp-dl's Model::test (dl_model_base.cpp): a
    test input no graph input names is never used; a test output is compared with the tensor of its name
    wherever the graph makes it (\"Testing output\"), and only a name no tensor has fails the test."""
    if role == "test input":
        return Finding("note", f"{label}: test input {shown(tensor)!r} is not a graph input: esp-dl's Model::test "
                               "never uses it (it looks test inputs up by the graph's input names)", [file])
    made = {o for n in g.nodes for o in n.outputs} | {v.name for v in g.inputs} | {t.name for t in g.initializers}
    if tensor in made:
        return Finding("note", f"{label}: test output {shown(tensor)!r} is an intermediate tensor, not a graph "
                               "output: esp-dl's Model::test compares it where the graph makes it", [file])
    return Finding("problem", f"{label}: test output {shown(tensor)!r} names no tensor of the graph: esp-dl's "
                              "Model::test refuses it (\"There's no intermediate result or output named ...\", "
                              "dl_model_base.cpp)", [file])


# esp-dl's Model::test (dl_model_base.cpp): a test input is copied into the graph input by
# TensorBase::assign, which needs the same element count, not the same dims; a test output is compared
# by TensorBase::equal, which compares shapes too (the EDL1 test app of esp-dl 2024-08 compared the
# raw data alone: test_apps/dl-models/main/test_dl_op.cpp)
_SAME_COUNT = {"test input": "esp-dl copies a test input into the graph input by its element count: "
                             "TensorBase::assign", "test output": "esp-dl's EDL1 test app compared a test output's "
                             "data alone; the Model::test of esp-dl at 12c0616d compares shapes too "
                             "(TensorBase::equal) and would say it does not match"}
_OTHER_COUNT = {"test input": "TensorBase::assign needs the same element count",
                "test output": "TensorBase::equal needs the same shape"}


def _hwc_of_nchw(hwc: tuple[int, ...], nchw: tuple[int | None, ...]) -> bool:
    """True when `hwc` is (H, W, C) of the (1, C, H, W) `nchw`."""
    return len(hwc) == 3 and len(nchw) == 4 and nchw[0] == 1 and hwc == (nchw[2], nchw[3], nchw[1])


@register_check(reads=(("espdl", ".espdl"),))
def check_espdl(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Each ESP-DL model: target, ops, parameters, test tensors against the graph, problems; a model
    that could not be read named as not verified."""
    out: list[Finding] = []
    for rep in reports:
        if rep.family != "espdl" or not isinstance(rep.obj, EspdlFile):
            continue
        try:
            out.extend(Finding("problem", f"{rep.name}: {p}", [rep.name]) for p in rep.obj.problems())
            models = rep.obj.models
        except BinparseError as exc:
            out.append(Finding("note", f"not verified: {rep.name} could not be read: {exc}", [rep.name]))
            continue
        for m in models:
            out.extend(_model_findings(rep.name, m))
    return out
