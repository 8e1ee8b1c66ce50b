"""`binparse doctor` checks for TIDL: io/net agreement, padding notes, AM57x nets with their params and configs.

Registered with `binparse.family.register_check` when the family is imported.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...core.filemap import map_file
from ...core.errors import BinparseError, FormatError
from ...core.paths import files_in
from ...family import FileReport, Finding, register_check
from .am57x import read_config
from .printouts.parse import common_dims
from .net.weights import tda2_weights_read
from .net.versions import RELEASED
from .report import draw_command

IO_VERSIONS = (80, 90, 92, 100)  # the io layouts, named by the TIDL release that introduced each (io_version)


def io_version_of(gen: int) -> int:
    """The io layout the tools of net generation `gen` (82 = 8.2, 92 = 09.02, ...) write: the newest
    layout introduced at or before that release."""
    return max((v for v in IO_VERSIONS if v <= gen), default=IO_VERSIONS[0])


RUNTIMES = {
    "tidl.io.j7_08": "TIDL-RT of J7 08.x (08_00 … 08_06); 09.x and later runtimes reject it (they expect 93,976+ bytes)",
    "tidl.io.j7_09_00": "TIDL-RT of 09.00 and 09.01 (37,272 bytes); 08.x runtimes reject it (edgeai-tidl-tools "
                        "issue #66), 09.02 and later expect 93,976+ bytes",
    "tidl.io.j7_09_02.c1": "the 09.02 runtime on AM62A, J721E, J721S2 (TIDL_MAX_NUM_CORES 1)",
    "tidl.io.j7_09_02.c2": "the 09.02 runtime on J722S (TIDL_MAX_NUM_CORES 2)",
    "tidl.io.j7_09_02.c4": "the 09.02 runtime on J784S4 (TIDL_MAX_NUM_CORES 4)",
    "tidl.io.j7_10.c1": "10.00–11.01 runtimes built with 1 core (AM62A, J721E, J721S2)",
    "tidl.io.j7_10.c2": "10.00–11.01 runtimes built with 2 cores (J722S PSDK header)",
    "tidl.io.j7_10.c4": "10.00–11.01 runtimes built with 4 cores (J784S4), and every 11.02 runtime (itidl_io.h: "
                        "TIDL_IO_MAX_NUM_CORES 4 on every SoC)",
    "tidl.io.tda2": "TDA2/TDA3 TIDL 01.xx",
    "tidl.net.am57x": "AM57x TIDL-API 1.3 (ReadNetworkBinary: 484,384 bytes)",
    "tidl.net.tda2": "TIDL-API 1.2 and TDA2 01.01.03 (TIDL-API 1.3 converts it)",
}
# a J7 net runs on the runtimes of the SDK that wrote its netVersion (the firmware compares it)
RUNTIMES.update({f"tidl.net.j7_{v.key}": f"TIDL {v.sdk} runtimes (netVersion {v.hex})" for v in RELEASED})
RUNTIMES["tidl.net.j7_08_2"] += "; 08.06 firmware checks for 0x20230208"
RUNTIMES["tidl.net.j7_other"] = "the TIDL runtime of the SDK that writes its netVersion (not in binparse's table)"


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
    if getattr(io, "io_version", None) != io_version_of(net.gen):
        if getattr(io, "unverified", None):  # a solved size: which SDK wrote it is what was not verified
            out.append(Finding("note", f"{io_rep.name} was solved as the TIDL {io.version} io layout, {net_rep.name} "
                                       f"is a TIDL {net.version} network: whether their SDKs pair is not verified; "
                                       "their tensors are compared below", files))
        else:
            out.append(Finding("problem", f"{io_rep.name} is a TIDL {io.version} io descriptor but {net_rep.name} is a "
                                          f"TIDL {net.version} network (netVersion {net.net_version_hex}): they come "
                                          "from different SDK versions, and a runtime will reject one of them", files))
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
        dims = tuple(t.out_shapes[k, 0].tolist())
        shape = tuple(tensor.shape) if getattr(io, "io_version", 0) >= 92 else (tensor.shape[0], *tensor.shape[-3:])
        want_dims, got = common_dims(shape, dims)  # the dims both carry: D1, D2 only when both have them
        if got != want_dims:
            names = "N,C,H,W" if len(got) == 4 else "N,D1,D2,C,H,W"
            out.append(Finding("problem", f"{tensor.direction} '{tensor.name}': io says {names} {want_dims}, the net's "
                                          f"layer {k} writes {got}", files))
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
            parts.append(f"channel pitch {t.channel_pitch} elements > H×W {plane}")
        if parts:
            out.append(Finding("note", f"{rep.name}: {t.direction} '{t.name or t.index}' ({t.dtype.name}, "
                                       f"{'x'.join(map(str, t.shape))}) has {', '.join(parts)}: a dense N·C·H·W read is "
                                       "wrong; view reads it without the padding"
                                       + (f", {draw_command(t)} shows it" if t.file else ""), [rep.name]))


def _configs(folder: Path) -> dict[str, list[tuple[Path, dict[str, str]]]]:
    """{a file name: [(a TIDL-API configuration of the folder whose values name it, its pairs)]}: the
    folder's configurations read once (one that cannot be read reports itself), indexed by the file
    names their values give (netBinFile), so that pairing a net with its configurations is one
    look-up, not a read of every configuration per net (a folder of 1,200 nets and 1,200
    configurations took minutes)."""
    index: dict[str, list[tuple[Path, dict[str, str]]]] = {}
    for cfg in files_in(folder):
        if not (cfg.name.startswith("tidl_config_") and cfg.suffix == ".txt"):
            continue
        try:
            conf = read_config(cfg.read_text(errors="replace"), cfg.name)
        except (FormatError, OSError):
            continue
        for name in dict.fromkeys(v.replace("\\", "/").rsplit("/", 1)[-1] for v in conf.values()):
            index.setdefault(name, []).append((cfg, conf))
    return index


def _param_of(rep: FileReport, folder: Path,
              configs: dict[str, list[tuple[Path, dict[str, str]]]]) -> tuple[Path | None, str]:
    """The param file TIDL-API loads with this net (TI's naming tidl_net_X -> tidl_param_X, or the
    paramsBinFile of a configuration whose netBinFile is this net), and how it was found."""
    if rep.name.startswith("tidl_net_"):
        return folder / rep.name.replace("tidl_net_", "tidl_param_", 1), "TI's naming"
    for cfg, conf in configs.get(rep.name, []):
        if Path(conf.get("netBinFile", "")).name == rep.name and conf.get("paramsBinFile"):
            return folder / Path(conf["paramsBinFile"]).name, f"{cfg.name}'s paramsBinFile"
    return None, ""


def _am57x(reports: list[FileReport], folder: Path, out: list[Finding]) -> None:
    nets = [r for r in reports if r.format in ("tidl.net.am57x", "tidl.net.tda2")]
    if not nets:
        return
    by_name = {r.name: r for r in reports}
    configs = _configs(folder)
    for rep in nets:
        net = rep.obj
        param, how = _param_of(rep, folder, configs)
        if param is None or not param.is_file():
            named = f"{param.name} ({how})" if param is not None else "no tidl_param_*.bin, and no configuration names one"
            out.append(Finding("note", f"{rep.name}: its parameter file is not in the folder: {named}; TIDL-API "
                                       "loads a network with its parameters (netBinFile, paramsBinFile), so its "
                                       "weights are not checked", [rep.name]))
        else:
            try:
                _, rule = tda2_weights_read(net, map_file(param))
                if not rule:  # under a rule: the param file is not verified (its `unverified` says why)
                    out.append(Finding("ok", f"{param.name} holds exactly the parameters {rep.name} describes",
                                       [rep.name, param.name]))
                other = by_name.get(param.name)  # the param file has no header: it is identified by its network
                if other is not None:
                    other.family, other.kind, other.version = "tidl", "param.bin", rep.version
                    other.evidence = (f"its size is what {rep.name} describes" if not rule else
                                      f"its size is what {rep.name} describes under an inferred rule")
            except BinparseError as exc:
                out.append(Finding("problem", f"{param.name} does not match {rep.name}: {exc}", [rep.name, param.name]))
        for cfg, conf in configs.get(rep.name, []):
            first = net.input_layers()[0] if net.input_layers() else None
            keys = ("inNumChannels", "inHeight", "inWidth")
            if first is None or not set(keys) <= set(conf):
                continue
            if not all(conf[k].isdigit() for k in keys):
                out.append(Finding("note", f"{cfg.name}: {', '.join(f'{k} {conf[k]!r}' for k in keys)} are not all "
                                           f"whole numbers, so its input is not compared with {rep.name}'s",
                                   [cfg.name, rep.name]))
                continue
            _, c, h, w = net.table().out_shapes[first, 0].tolist()
            want = (int(conf["inNumChannels"]), int(conf["inHeight"]), int(conf["inWidth"]))
            if (c, h, w) == want:
                out.append(Finding("ok", f"{cfg.name}: input {want[0]}x{want[1]}x{want[2]} (C x H x W) matches "
                                         f"{rep.name}'s input data layer {c}x{h}x{w}", [cfg.name, rep.name]))
            else:  # TIDL-API sizes its buffers from the net (ExecutionObject ComputeInputOutputSizes), not these keys
                out.append(Finding("note", f"{cfg.name}: input {want[0]}x{want[1]}x{want[2]} (C x H x W) differs from "
                                           f"{rep.name}'s input data layer {c}x{h}x{w}; TIDL-API sizes its buffers "
                                           "from the net, the config's inWidth/inHeight/inNumChannels describe the "
                                           "application's frames (inData, not in this folder)",
                                   [cfg.name, rep.name]))


def _combined(reports: list[FileReport], out: list[Finding]) -> None:
    """A combined 11.x net with the combined io beside it: the same N (TI's runtime refuses others), then
    each subgraph pair checked as a net and io are."""
    ios = [r for r in reports if r.kind == "combined io"]
    nets = [r for r in reports if r.kind == "combined net"]
    for io_rep in ios:
        prefix = io_rep.name.split("_tidl_io")[0]
        match = [n for n in nets if n.name.split("_tidl_net")[0] == prefix] or (nets if len(ios) == len(nets) == 1 else [])
        for net_rep in match[:1]:
            files = [io_rep.name, net_rep.name]
            n_io, n_net = io_rep.obj.num_subgraphs, net_rep.obj.num_subgraphs
            if n_io != n_net:
                out.append(Finding("problem", f"{io_rep.name} holds {n_io} subgraphs, {net_rep.name} {n_net}: TI's "
                                              "runtime refuses the pair (number of subgraphs in net and io differ)",
                                   files))
                continue
            for i in range(n_net):
                _check_pair(FileReport(f"{io_rep.name}[subgraph {i}]", obj=io_rep.obj.subgraph(i)),
                            FileReport(f"{net_rep.name}[subgraph {i}]", obj=net_rep.obj.subgraph(i)), out)


@register_check(reads=(("tidl", "param.bin"),))
def check_tidl(reports: list[FileReport], folder: Path) -> list[Finding]:
    """The TIDL findings of one folder."""
    out: list[Finding] = []
    for rep in reports:
        rep.runtime = RUNTIMES.get(rep.format, rep.runtime)
    for io_rep, net_rep in _tidl_pairs(reports):
        _check_pair(io_rep, net_rep, out)
    _combined(reports, out)
    for rep in reports:
        if rep.format.startswith("tidl.io"):
            _padding_notes(rep, out)
    _am57x(reports, folder, out)
    return out
