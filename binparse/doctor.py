"""`binparse doctor PATH`: what made each artifact, whether the files agree, and what to watch for.

For a folder (or one file): the family, kind and version of each file with the evidence (size,
netVersion, CSV header); whether files that belong together agree (a TIDL io descriptor and its
network: versions, tensor dims, element types, data ids; an AM57x net and its param file and
config; an FPGA AI Suite compile's dumps and mappings); the padding and pitches that make naive
readers wrong, one line each; and which runtimes can load the artifacts. Unknown files are
listed, not fatal. Findings are `ok`, `note` (worth knowing) or `problem` (exit code 1).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


from . import api
from .errors import BinparseError, FormatError
from .registry import format_of
from .runtime import Accessor

IO_GENERATION = {82: "08.x", 86: "08.x", 92: "09.02"}  # net generation → the io layout of the same tools
RUNTIMES = {
    "tidl.io.j7_08": "TIDL-RT of J7 08.x (08_00 … 08_06); 09.x and later runtimes reject it (they expect 93,976+ bytes)",
    "tidl.io.j7_09_02.c1": "the 09.02 runtime on AM62A, J721E, J721S2 (TIDL_MAX_NUM_CORES 1)",
    "tidl.io.j7_09_02.c2": "the 09.02 runtime on J722S (TIDL_MAX_NUM_CORES 2)",
    "tidl.io.j7_09_02.c4": "the 09.02 runtime on J784S4 (TIDL_MAX_NUM_CORES 4)",
    "tidl.io.j7_10.c1": "10.00–11.x runtimes built with 1 core (AM62A, J721E, J721S2)",
    "tidl.io.j7_10.c2": "10.00–11.x runtimes built with 2 cores (J722S PSDK header)",
    "tidl.io.j7_10.c4": "10.00–11.x runtimes built with 4 cores (J784S4; the 11.02 import tool's default)",
    "tidl.io.tda2": "TDA2/TDA3 TIDL 01.xx",
    "tidl.net.j7_08_2": "TIDL 8.2 runtimes (netVersion 0x20211201); 08.06 firmware checks for 0x20230208",
    "tidl.net.j7_08_06": "TIDL 08.06 runtimes (netVersion 0x20230208)",
    "tidl.net.j7_09_02": "TIDL 09.02 runtimes (netVersion 0x20240401)",
    "tidl.net.am57x": "AM57x TIDL-API 1.3 (ReadNetworkBinary: 484,384 bytes)",
    "tidl.net.tda2": "TIDL-API 1.2 and TDA2 01.01.03 (TIDL-API 1.3 converts it)",
}


@dataclass
class Finding:
    level: str  # ok, note, problem
    text: str
    files: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "text": self.text, "files": self.files}


@dataclass
class FileReport:
    name: str
    family: str = "unknown"
    kind: str = ""
    version: str = ""
    format: str = ""
    evidence: str = ""
    runtime: str = ""
    obj: Any = None

    def to_json(self) -> dict[str, Any]:
        return {"file": self.name, "family": self.family, "kind": self.kind, "version": self.version,
                "format": self.format, "evidence": self.evidence, "runtime": self.runtime}


def _identify(path: Path) -> FileReport:
    rep = FileReport(path.name)
    try:
        obj = api.open(path)
    except BinparseError:
        rep.evidence = f"{path.stat().st_size:,} bytes, no known format"
        return rep
    rep.obj = obj
    if isinstance(obj, Accessor):
        fmt = format_of(obj)
        rep.family, rep.kind, rep.version, rep.format = fmt.family, fmt.kind, fmt.version, fmt.name
        rep.evidence = (fmt.identifies() if fmt.magic is not None else f"size {path.stat().st_size:,} bytes")
        rep.runtime = RUNTIMES.get(fmt.name, "")
    else:
        doc = obj.summary()
        rep.family, rep.kind = doc.get("family", "?"), doc.get("kind", "?")
        rep.version = doc.get("dialect", "")
        rep.evidence = "CSV header" if "dialect" in doc else ""
    return rep


def _tidl_pairs(reports: list[FileReport]) -> list[tuple[FileReport, FileReport]]:
    ios = [r for r in reports if r.format.startswith("tidl.io")]
    nets = [r for r in reports if r.format.startswith("tidl.net.j7")]
    pairs: list[tuple[FileReport, FileReport]] = []
    for io in ios:
        prefix = io.name.split("_tidl_io")[0]
        match = [n for n in nets if n.name.split("_tidl_net")[0] == prefix] or (nets if len(ios) == len(nets) == 1 else [])
        pairs.extend((io, n) for n in match[:1])
    return pairs


def _check_pair(io_rep: FileReport, net_rep: FileReport, out: list[Finding]) -> None:
    io, net = io_rep.obj, net_rep.obj
    files = [io_rep.name, net_rep.name]
    want = IO_GENERATION.get(net.gen)
    if want != io.version:
        out.append(Finding("problem", f"{io_rep.name} is a TIDL {io.version} io descriptor but {net_rep.name} is a "
                                      f"TIDL {net.version} network (netVersion {net.net_version_hex}): they come from "
                                      f"different SDK versions, and a runtime will reject one of them", files))
        return
    t = net.table()
    producer = net.producers()
    bad = 0
    for tensor in io.inputs + io.outputs:
        k = producer.get(tensor.data_id)
        if k is None:
            out.append(Finding("problem", f"{tensor.direction} '{tensor.name}' has dataId {tensor.data_id}, which no "
                                          f"layer of {net_rep.name} writes", files))
            bad += 1
            continue
        dims = t.out_shapes[k, 0].tolist()
        n, c, h, w = (dims[0], dims[-3], dims[-2], dims[-1])
        want_dims = (tensor.shape[0], tensor.shape[3], tensor.shape[4], tensor.shape[5])
        if (n, c, h, w) != want_dims:
            out.append(Finding("problem", f"{tensor.direction} '{tensor.name}': io says N,C,H,W {want_dims}, the net's "
                                          f"layer {k} writes {(n, c, h, w)}", files))
            bad += 1
    if not bad:
        out.append(Finding("ok", f"{io_rep.name} and {net_rep.name} agree: TIDL {io.version} / {net.version}, "
                                 f"{len(io.inputs)} input(s) and {len(io.outputs)} output(s) match the net's data "
                                 f"layers by dataId and dims", files))


def _dense(t: Any) -> bool:
    """True when the logical tensor is a plain row-major prefix of its buffer (a naive read works)."""
    lay = t.layout_desc
    want = 1
    for n, stride in reversed(list(zip(lay.shape, lay.strides))):
        if n > 1 and stride != want:
            return False
        want *= n
    return bool(lay.offset == 0)


def _padding_notes(rep: FileReport, out: list[Finding]) -> None:
    for t in rep.obj.inputs + rep.obj.outputs:
        if _dense(t):
            continue  # padding after the data only: a dense read of N·C·H·W elements is right
        p = t.pad
        plane = t.shape[4] * t.shape[5]
        parts = []
        if p.left or p.top or p.right or p.bottom:
            parts.append(f"padding L{p.left} T{p.top} R{p.right} B{p.bottom}")
        if p.channel:
            parts.append(f"{p.channel} padding channel(s)")
        if t.channel_pitch > plane and not (p.left or p.top or p.right or p.bottom):
            parts.append(f"channel pitch {t.channel_pitch} > H×W {plane}")
        if parts:
            out.append(Finding("note", f"{rep.name}: {t.direction} '{t.name or t.index}' ({t.dtype.name}, "
                                       f"{'x'.join(map(str, t.shape))}) has {', '.join(parts)}: a dense N·C·H·W read is "
                                       f"wrong; use `binparse view` (or `binparse draw` to see it)", [rep.name]))


def _am57x(reports: list[FileReport], folder: Path, out: list[Finding]) -> None:
    for rep in list(reports):
        if rep.format not in ("tidl.net.am57x", "tidl.net.tda2"):
            continue
        net = rep.obj
        param = folder / rep.name.replace("tidl_net_", "tidl_param_")
        if param.exists() and param != folder / rep.name:
            try:
                net.weights(api.map_file(param))
                out.append(Finding("ok", f"{param.name} holds exactly the parameters {rep.name} describes", [rep.name, param.name]))
                for other in reports:  # the param file has no header: it is identified by its network
                    if other.name == param.name:
                        other.family, other.kind, other.version = "tidl", "param.bin", rep.version
                        other.evidence = f"its size is what {rep.name} describes"
            except BinparseError as exc:
                out.append(Finding("problem", f"{param.name} does not match {rep.name}: {exc}", [rep.name, param.name]))
        for cfg in folder.glob("tidl_config_*.txt"):
            text = cfg.read_text(errors="replace")
            if rep.name not in text:
                continue
            conf = dict(re.findall(r"^\s*(\w+)\s*=\s*\"?([^\"\n]*)\"?", text, re.M))
            first = net.input_layers()[0] if net.input_layers() else None
            if first is None or not {"inWidth", "inHeight", "inNumChannels"} <= set(conf):
                continue
            _, c, h, w = net.table().out_shapes[first, 0].tolist()
            want = (int(conf["inNumChannels"]), int(conf["inHeight"]), int(conf["inWidth"]))
            level = "ok" if (c, h, w) == want else "problem"
            out.append(Finding(level, f"{cfg.name}: input {want[0]}x{want[1]}x{want[2]} (C x H x W) "
                                      f"{'matches' if level == 'ok' else 'differs from'} {rep.name}'s input data layer "
                                      f"{c}x{h}x{w}", [cfg.name, rep.name]))


def _intel(reports: list[FileReport], folder: Path, out: list[Finding]) -> None:
    if not any(r.family == "intel_dla" for r in reports):
        return
    from .formats.intel_dla import CompileFolder
    try:
        cf = CompileFolder(folder)
    except BinparseError:
        return
    for label, make in (("output", cf.output_configuration), ("input", cf.input_configuration)):
        try:
            cfg = make()
            out.append(Finding("ok", f"FPGA AI Suite {label}: logical {list(cfg.logical_shape)} → {cfg.ip_size:,} FP16 IP "
                                     f"elements; the reports agree ({cfg.source.split(' (', 1)[-1].rstrip(')')})",
                               [r.name for r in reports if label in r.kind]))
        except BinparseError as exc:
            missing = "lacks" in str(exc)
            out.append(Finding("note" if missing else "problem", f"FPGA AI Suite {label}: {exc.message}",
                               [r.name for r in reports if label in r.kind]))


def doctor(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The doctor's report of a folder or a file."""
    p = Path(path)
    if not p.exists():
        raise FormatError("no such file or folder", file=str(p))
    folder = p if p.is_dir() else p.parent
    paths = sorted(x for x in (p.iterdir() if p.is_dir() else [p]) if x.is_file())
    subfolders = sorted(x.name for x in p.iterdir() if x.is_dir()) if p.is_dir() else []
    reports = [_identify(x) for x in paths]
    findings: list[Finding] = []
    for io_rep, net_rep in _tidl_pairs(reports):
        _check_pair(io_rep, net_rep, findings)
    for rep in reports:
        if rep.format.startswith("tidl.io"):
            _padding_notes(rep, findings)
        if rep.family == "espdl":
            enc = [m.name or "(model)" for m in rep.obj.models if m.encrypted]
            if enc:
                findings.append(Finding("note", f"{rep.name}: encrypted model(s) {enc}; binparse does not decrypt", [rep.name]))
    _am57x(reports, folder, findings)
    _intel(reports, folder, findings)
    known = [r for r in reports if r.family != "unknown"]
    unknown = [r.name for r in reports if r.family == "unknown"]
    status = "problem" if any(f.level == "problem" for f in findings) else "ok"
    return {"path": str(p), "status": status, "files": [r.to_json() for r in known], "unknown_files": unknown,
            "subfolders": subfolders, "findings": [f.to_json() for f in findings]}


def report_text(doc: dict[str, Any]) -> str:
    lines = [f"binparse doctor {doc['path']}: {'no problems found' if doc['status'] == 'ok' else 'PROBLEMS FOUND'}"]
    for f in doc["files"]:
        what = f"{f['family']} {f['kind']} {f['version']}".strip()
        shown = f["evidence"] and f["evidence"] not in what
        lines.append(f"  {f['file']}: {what} ({f['evidence']})" if shown else f"  {f['file']}: {what}")
        if f["runtime"]:
            lines.append(f"      loads on: {f['runtime']}")
    if doc["unknown_files"]:
        lines.append("  other files (not artifacts binparse knows): " + ", ".join(doc["unknown_files"]))
    if doc["subfolders"]:
        lines.append("  subfolders (run doctor on each): " + ", ".join(doc["subfolders"]))
    for f in doc["findings"]:
        lines.append(f"  [{f['level']}] {f['text']}")
    return "\n".join(lines)


__all__ = ["doctor", "report_text"]
