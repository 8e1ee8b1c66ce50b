"""`binparse doctor` on TI's records: param.yaml, onnxrtMetaData.txt and allowedNode.txt against the io.

- onnxrtMetaData.txt names each subgraph and its input and output tensors; TI's import names the io
  `<subGraphName>_tidl_io_1.bin` and writes the names TI's tools give them into it (the same names,
  but an input TI's input optimization casts is named after the Cast, and the order is TIDL's:
  `names.py`): another name or count is a contradiction between two of TI's own files (a problem).
- allowedNode.txt and onnxrtMetaData.txt count the same subgraphs.
- param.yaml's target_device fixes TIDL_MAX_NUM_CORES (itidl_ti.h: 1 on AM62A, J721E, J721S2; 2 on
  J722S; 4 on J784S4), which sizes the 09.02-11.01 io: an io laid out for another core count is one
  that SoC's runtime refuses (TIDL-RT checks the io size). From 11.02 every io is 4-core
  (itidl_io.h): a 4-core io on a smaller SoC says the tools were 11.02. Its input and output names
  must be the io's (as `names.py` says TI's tools write them); shapes are compared without their leading
  1s (ONNX NCHW against TIDL's 6 dims). A solved io's core count is what the solver assumed: that it
  fits the SoC is said as a note, not an ok.
Which SDK made the folder is said by `sdk.py` from all the evidence, the records' among it.
"""

from __future__ import annotations

from numbers import Integral
from pathlib import Path
from typing import Any

from ....family import opening
from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check
from ....core.paths import files_in
from ..net.cores import SOC_CORES
from .folder import artifacts_folder
from .names import NameMatch, match
from .read import Record


def _kind(r: FileReport) -> str:
    return r.obj.kind if isinstance(r.obj, Record) else ""


def _strip(shape: Any) -> list[int]:
    ints = isinstance(shape, (list, tuple)) and all(isinstance(x, Integral) and not isinstance(x, bool) for x in shape)
    dims = [int(x) for x in shape] if ints else []  # a shape of other things (a name, None) is no shape
    while dims and dims[0] == 1:
        dims = dims[1:]
    return dims


def _metadata(meta: FileReport, by_name: dict[str, FileReport], out: list[Finding]) -> None:
    for s in meta.obj.subgraphs:
        io_name = f"{s.name}_tidl_io_1.bin"
        io_rep = by_name.get(io_name)
        files = [meta.name, io_name]
        if io_rep is None or not hasattr(io_rep.obj, "inputs"):
            out.append(Finding("note", f"{meta.name} names subgraph {s.index} '{s.name}', but {io_name} is not here "
                                       "or is not an io descriptor binparse read", files))
            continue
        io = io_rep.obj
        got = ([t.name for t in io.inputs], [t.name for t in io.outputs])
        counts = (s.num_inputs if s.num_inputs is not None else len(s.inputs),
                  s.num_outputs if s.num_outputs is not None else len(s.outputs))
        names = match(s.inputs, s.outputs, *got)
        if names.same and counts == (len(got[0]), len(got[1])):
            out.append(Finding("ok", f"{io_name} holds the inputs ({', '.join(s.inputs)}) and outputs "
                                     f"({', '.join(s.outputs)}) {meta.name} names for subgraph {s.index}"
                                     + _as(names), files))
        else:
            out.append(Finding("problem", f"{meta.name} names subgraph {s.index}'s inputs {s.inputs} and outputs "
                                          f"{s.outputs} ({counts[0]} and {counts[1]}), {io_name} holds {got[0]} and "
                                          f"{got[1]}: TI's import writes the record's names into the io (an input TI's "
                                          "input optimization casts is named after the Cast)", files))


def _as(names: NameMatch) -> str:
    how = names.how()
    return f" ({how})" if how else ""


def _allowed(allowed: FileReport, meta: FileReport | None, out: list[Finding]) -> None:
    if meta is None:
        return
    n_allowed, n_meta = len(allowed.obj.subgraphs), len(meta.obj.subgraphs)
    total = meta.obj.values.get("numGraphNodes")
    files = [allowed.name, meta.name]
    if n_allowed != n_meta:
        out.append(Finding("problem", f"{allowed.name} lists {n_allowed} subgraph(s), {meta.name} {n_meta}: "
                                      "the import writes both from the same partition", files))
        return
    taken = sum(len(s.nodes or []) for s in allowed.obj.subgraphs)
    whole = f" of the model's {total}" if isinstance(total, int) else ""
    out.append(Finding("ok", f"{allowed.name} and {meta.name} agree: {n_meta} subgraph(s), {taken} ONNX node(s){whole} "
                             "offloaded to TIDL", files))


def _ios_of(folder: Path, by_name: dict[str, FileReport]) -> list[tuple[str, Any]]:
    """The io descriptors param.yaml describes: the folder's, else those of the artifacts folder it names."""
    found = [(r.name, r.obj) for r in by_name.values() if r.name.endswith("_tidl_io_1.bin") and hasattr(r.obj, "inputs")]
    where = artifacts_folder(folder)
    if not found and where is not None:
        rel = where.relative_to(folder).as_posix()
        for p in sorted(q for q in files_in(where, folder) if q.name.endswith("_tidl_io_1.bin")):
            try:
                found.append((f"{rel}/{p.name}" if rel != "." else p.name, opening.open(p)))
            except BinparseError:
                continue  # doctor of that folder says why
    return found


def _fit(param: FileReport, device: str, cores: int | None, io_name: str, io: Any, out: list[Finding]) -> None:
    """param.yaml's target_device against the core count the io is laid out for."""
    files = [param.name, io_name]
    layout_cores = int(getattr(io, "cores", 1) or 1) if getattr(io, "io_version", 0) >= 92 else None
    if cores is None:
        return
    if getattr(io, "unverified", None):  # its cores are what the solver assumed, not what a header says
        if layout_cores is not None:
            out.append(Finding("note", f"{param.name}: target_device {device} (TIDL_MAX_NUM_CORES {cores}); "
                                       f"{io_name} was solved with {layout_cores} core(s), an assumption its size "
                                       "allows, so the two are not compared", files))
    elif layout_cores is not None and layout_cores != cores:
        if layout_cores == 4 and getattr(io, "io_version", 0) >= 100:
            out.append(Finding("note", f"{io_name} is laid out for 4 cores on {device} (TIDL_MAX_NUM_CORES {cores}): "
                                       "TIDL 11.02 tools write every io so (itidl_io.h), earlier ones only for "
                                       "J784S4", files))
        else:
            out.append(Finding("problem", f"{param.name} says target_device {device} (TIDL_MAX_NUM_CORES {cores}), "
                                          f"but {io_name} is laid out for {layout_cores} cores: that SoC's runtime "
                                          "refuses its size", files))
    else:
        out.append(Finding("ok", f"{param.name}: target_device {device} (TIDL_MAX_NUM_CORES {cores}) fits "
                                 f"{io_name} ({io.version})", files))


def _param(param: FileReport, folder: Path, by_name: dict[str, FileReport], out: list[Finding]) -> None:
    values = param.obj.values
    device = str(values.get("target_device") or "")
    cores = SOC_CORES.get(device.upper())
    for io_name, io in _ios_of(folder, by_name):
        files = [param.name, io_name]
        _fit(param, device, cores, io_name, io, out)
        for side, details, tensors in (("input", values.get("inputs", []), io.inputs),
                                       ("output", values.get("outputs", []), io.outputs)):
            want = [d["name"] for d in details]
            got = [t.name for t in tensors]
            if not details:
                continue
            names = match(want, [], got, []) if side == "input" else match([], want, [], got)
            if not names.same:
                out.append(Finding("problem", f"{param.name} names the model's {side}s {want}, {io_name} holds {got}"
                                   + _optimized(values, side), files))
                continue
            tensor_of = {t.name: t for t in tensors}
            io_of = {r.record: r.io for r in names.renamed}
            shapes = [(d["name"], _strip(d["shape"]), _strip(tensor_of[io_of.get(d["name"], d["name"])].shape))
                      for d in details]
            odd = [f"{n} {a} vs {b}" for n, a, b in shapes if a and a != b]
            if odd:
                out.append(Finding("note", f"{param.name} and {io_name} give the {side} shapes differently (leading "
                                           f"1s aside): {'; '.join(odd)}; a layout change (NHWC) or the import's "
                                           "reshaping can explain it", files))
                continue
            option = "input_optimization: true; " if names.renamed and values.get("input_optimization") else ""
            how = names.how()
            out.append(Finding("ok", f"{param.name}'s {side}s ({', '.join(want)}) are {io_name}'s, same shapes"
                                     + (f" ({option}{how})" if how else ""), files))


def _optimized(values: dict[str, Any], side: str) -> str:
    """What the record's option says of the names, for a problem line."""
    if side == "input" and values.get("input_optimization"):
        return ("; with input_optimization: true TI's optimizers name the input <name>Net_IN (io: TIDL_cast_in) "
                "or <name>_net_in (io: <name>_cast_out)")
    return ""


@register_check
def check_records(reports: list[FileReport], folder: Path) -> list[Finding]:
    out: list[Finding] = []
    by_name = {r.name: r for r in reports}
    records = [r for r in reports if isinstance(r.obj, Record)]
    meta = next((r for r in records if _kind(r) == "onnxrtMetaData record"), None)
    for r in records:
        r.family, r.kind, r.version = "tidl", "record", ""
        r.evidence = (f"{r.obj.writer}'s record of the run" if _kind(r) == "param.yaml record" else
                      "the OSRT import's record of the partition")
    if meta is not None:
        _metadata(meta, by_name, out)
    for r in records:
        if _kind(r) == "allowedNode record":
            _allowed(r, meta, out)
        elif _kind(r) == "param.yaml record":
            _param(r, folder, by_name, out)
    return out


__all__ = ["check_records"]
