"""`binparse doctor` for TI's printouts beside a J7 net: does what TI printed agree with the files?

For `<net>_netLog.txt`, `<net>.layer_info.txt` and `<net>_paramDebug.csv` (readers in
`printouts.py`) this compares, when the files are there:
- the net's layer table with the netLog (layer count, TI layer type, #Ins/#Outs, buffer ids, Out
  dims) and with layer_info (count, out dataIds), and the paramDebug layer ids with the net's layers;
- the io descriptor `<prefix>_tidl_io_1.bin` with the netLog: each input and output found by its
  dataId among the layers that write a buffer, with the same dims and name.
Dims are compared as far as both sides carry them (`printouts.common_dims`): a 4-value netLog
(8.x, 9.0) against a 6-dim net or io by N, C, H, W; 6 against 6 (9.1 AM68A, 10.x) all six; an
io descriptor before 09.02 has no D1, D2, so only N, C, H, W of it are compared.
- the two printouts with each other (data ids and names).
A net that could not be read is not compared (the doctor names it as a problem and hands the
checks only the files it read); this says which printouts were left uncompared and why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check
from .files import Printout
from .parse import PRINTOUTS, LayerInfoRow, NetLogRow, ParamDebugRow, common_dims

MAX_LISTED = 10  # differences listed one by one per printout; the rest are counted


def _x(dims: Sequence[int]) -> str:
    return "x".join(map(str, dims))


def _differ(a: Sequence[int], b: Sequence[int]) -> tuple[str, str, str] | None:
    """The dims both carry, spelled, and their names, when they differ (None when they agree)."""
    x, y = common_dims(a, b)
    return None if x == y else (_x(x), _x(y), "N,C,H,W" if len(x) == 4 else "N,D1,D2,C,H,W")


def net_rows(net: Any) -> list[NetLogRow]:
    """The net's layer table as netLog rows (names and In dims are not in the net: left empty)."""
    t = net.table()
    rows = []
    for i in range(len(t)):
        nin, nout = int(t.num_in[i]), int(t.num_out[i])
        out = tuple(int(v) for v in t.out_shapes[i, 0].tolist())
        rows.append(NetLogRow(index=i, layer_type=net.type_name(int(t.layer_type[i])), out_name="", group=0,
                              num_in=nin, num_out=nout, in_ids=tuple(t.in_ids[i, :max(nin, 0)].tolist()),
                              out_id=int(t.out_ids[i, 0]) if nout > 0 else 0, in_nchw=(0,) * len(out),
                              out_nchw=out if nout > 0 else (0,) * len(out), macs=0))
    return rows


def _key(r: NetLogRow) -> tuple[Any, ...]:
    """What identifies a layer whatever its position: the buffer it writes (or, for the graph's
    output data layers, which write none, the buffers they read)."""
    return ("out", r.out_id) if r.num_out > 0 else ("in", r.in_ids)


def _netlog_vs_net(log: list[NetLogRow], net: list[NetLogRow]) -> tuple[list[str], list[int]]:
    """Differences, and the netLog rows listed at another position than the net's (TI's import
    tool prints the netLog before its last reordering of the layers)."""
    diffs = []
    if len(log) != len(net):
        diffs.append(f"{len(log)} layers in the netLog, {len(net)} in the net")
    by_key = {_key(b): b for b in net}
    moved = []
    for a in log:
        b = by_key.get(_key(a))
        if b is None:
            what = f"writes buffer {a.out_id}" if a.num_out > 0 else f"reads buffers {a.in_ids}"
            diffs.append(f"layer {a.index} ({a.layer_type}) {what}, which no layer of the net does")
            continue
        if b.index != a.index:
            moved.append(a.index)
        for what, x, y in (("type", a.layer_type, b.layer_type), ("#Ins", a.num_in, b.num_in),
                           ("#Outs", a.num_out, b.num_out), ("Inbuf Ids", a.in_ids, b.in_ids)):
            if x != y:
                diffs.append(f"layer {a.index}: {what} {x} in the netLog, {y} in the net's layer {b.index}")
        d = _differ(a.out_nchw, b.out_nchw) if a.num_out > 0 else None
        if d:
            what = "Out NCHW" if d[2] == "N,C,H,W" else f"Out {d[2]}"
            diffs.append(f"layer {a.index}: {what} {d[0]} in the netLog, {d[1]} in the net's layer {b.index}")
    return diffs, moved


def _layer_info_vs_net(info: list[LayerInfoRow], net: list[NetLogRow]) -> list[str]:
    """layer_info against the net, line by line (both are in the net's final layer order)."""
    diffs = []
    if len(info) != len(net):
        diffs.append(f"{len(info)} layers in layer_info, {len(net)} in the net")
    for a, b in zip(info, net):
        if a.index != b.index:
            diffs.append(f"line {a.index + 1}: layer index {a.index} where the net has layer {b.index}")
        elif b.num_out > 0 and a.data_id != b.out_id:
            diffs.append(f"layer {a.index}: dataId {a.data_id} in layer_info, {b.out_id} in the net")
    return diffs


def _writers(info: list[LayerInfoRow]) -> list[LayerInfoRow]:
    """The layer_info rows of layers that write a buffer: the graph's output data layers write none
    and show dataId 0 again (their unset outData), so a repeated dataId 0 is skipped."""
    seen_zero = False
    out = []
    for r in info:
        if r.data_id == 0:
            if seen_zero:
                continue
            seen_zero = True
        out.append(r)
    return out


def _layer_info_vs_netlog(info: list[LayerInfoRow], log: list[NetLogRow]) -> tuple[list[str], list[int]]:
    """layer_info against the netLog, matched by the buffer each layer writes (TI prints the
    netLog before its last reordering): count, dataIds, names; and the layers listed elsewhere."""
    diffs = []
    if len(info) != len(log):
        diffs.append(f"{len(info)} layers in layer_info, {len(log)} in the netLog")
    by_id = {r.out_id: r for r in log if r.num_out > 0}
    first: dict[int, int] = {}
    moved = []
    for a in _writers(info):
        if a.data_id in first:
            diffs.append(f"dataId {a.data_id} is written by layers {first[a.data_id]} and {a.index} in layer_info")
            continue
        first[a.data_id] = a.index
        b = by_id.get(a.data_id)
        if b is None:
            diffs.append(f"layer {a.index}: dataId {a.data_id} in layer_info, which no layer of the netLog writes")
            continue
        if b.index != a.index:
            moved.append(a.index)
        if not b.name_matches(a.name):
            diffs.append(f"dataId {a.data_id}: name '{a.name}' in layer_info, '{b.out_name}' in the netLog")
    return diffs, moved


def _order_note(out: list[Finding], moved: list[int], a: str, b: str, files: list[str]) -> None:
    if moved:
        out.append(Finding("note", f"{a} lists {len(moved)} layer(s) at another position than {b} (layers "
                                   f"{_ranges(moved)}); they are compared by the buffer each writes", files))


def _ranges(ix: list[int]) -> str:
    """'3, 64-72' for [3, 64, 65, ..., 72]."""
    parts: list[str] = []
    start = prev = ix[0]
    for cur in [*ix[1:], None]:
        if cur is None or cur != prev + 1:
            parts.append(str(start) if start == prev else f"{start}-{prev}")
            start = cur if cur is not None else start
        prev = cur if cur is not None else prev
    return ", ".join(parts)


def _param_debug_vs(rows: list[ParamDebugRow], layers: list[NetLogRow], source: str) -> tuple[list[str], str]:
    ids = sorted({r.layer_id for r in rows})
    diffs = [f"layer {i} is in paramDebug but the {source} has {len(layers)} layers" for i in ids if i >= len(layers)]
    types = sorted({layers[i].layer_type for i in ids if i < len(layers)})
    return diffs, f"{len(ids)} layer(s) {_ranges(ids)} ({', '.join(types)})"


def _io_vs_netlog(io: Any, log: list[NetLogRow]) -> list[str]:
    writers = {r.out_id: r for r in log if r.num_out > 0}
    diffs = []
    for t in io.inputs + io.outputs:
        r = writers.get(t.data_id)
        label = f"{t.direction} '{t.name or t.index}'"
        if r is None:
            diffs.append(f"{label} has dataId {t.data_id}, which no layer of the netLog writes")
            continue
        shape = tuple(t.shape) if getattr(io, "io_version", 0) >= 92 else (t.shape[0], *t.shape[-3:])
        d = _differ(shape, r.out_nchw)
        if d:
            diffs.append(f"{label}: io says {d[2]} {d[0]}, the netLog's layer {r.index} ({r.layer_type}) writes {d[1]}")
        if t.name and not r.name_matches(t.name):
            diffs.append(f"{label}: the netLog's layer {r.index} names its output '{r.out_name}'")
    return diffs


def _report(out: list[Finding], diffs: list[str], ok: str, what: str, files: list[str]) -> None:
    if not diffs:
        out.append(Finding("ok", ok, files))
        return
    for d in diffs[:MAX_LISTED]:
        out.append(Finding("problem", f"{what}: {d}", files))
    if len(diffs) > MAX_LISTED:
        out.append(Finding("problem", f"{what}: {len(diffs) - MAX_LISTED} more difference(s)", files))


def _group(reports: list[FileReport]) -> dict[str, dict[str, FileReport]]:
    """Printouts by the net file name they describe."""
    groups: dict[str, dict[str, FileReport]] = {}
    for r in reports:
        for suffix, (kind, _) in PRINTOUTS.items():
            if r.name.endswith(suffix) and len(r.name) > len(suffix):
                groups.setdefault(r.name[: -len(suffix)], {})[kind] = r
    return groups


def _with_net(out: list[Finding], names: dict[str, str], net_name: str, rows: list[NetLogRow],
              log: list[NetLogRow] | None, info: list[LayerInfoRow] | None,
              params: list[ParamDebugRow] | None, nearest: str | None = None) -> bool:
    """The printouts against the net's own layer table; True when the netLog agrees with it.
    `nearest`: the layout label of a net read with the nearest layout (the netLog then verifies or refutes it)."""
    agrees = False
    if log is not None:
        diffs, moved = _netlog_vs_net(log, rows)
        files = [names["netLog"], net_name]
        agrees = not diffs
        _report(out, diffs, f"{names['netLog']} agrees with {net_name}: {len(rows)} layers, their types, "
                "buffer ids and Out NCHW" + (f"; its nearest layout ({nearest}) is verified by TI's printout"
                                             if nearest else ""),
                names["netLog"] + (f" (against {net_name}, read with the nearest layout {nearest}: refuted)"
                                   if nearest else ""), files)
        _order_note(out, moved, names["netLog"], net_name, files)
    if info is not None:
        _report(out, _layer_info_vs_net(info, rows), f"{names['layer_info']} agrees with {net_name}: "
                f"{len(rows)} layers and their out dataIds", names["layer_info"], [names["layer_info"], net_name])
    if params is not None:
        _param_debug(out, params, rows, names["paramDebug"], net_name, "net")
    return agrees


def _param_debug(out: list[Finding], params: list[ParamDebugRow], layers: list[NetLogRow], name: str, other: str,
                 source: str) -> None:
    """paramDebug's layer ids against the net's (or the netLog's) layers; a paramDebug of no row (its header
    only) has nothing to compare: a note, not an ok."""
    if not params:
        out.append(Finding("note", f"{name} lists no layer (TI's header line only): nothing in it to compare with "
                                   f"{other}", [name, other]))
        return
    diffs, listed = _param_debug_vs(params, layers, source)
    _report(out, diffs, f"{name} lists {listed} of {other if source == 'net' else 'the netLog'}", name, [name, other])


def _beside(by_name: dict[str, FileReport], name: str) -> tuple[str, FileReport | None]:
    """The report of the artifact a printout names: beside the printout, else (a printout in a
    companion folder such as TI's `tempDir/`, named "tempDir/<file>") in the folder it belongs to."""
    if name in by_name or "/" not in name:
        return name, by_name.get(name)
    owner = name.rsplit("/", 1)[1]
    return owner, by_name.get(owner)


@register_check(reads=(("tidl", "netLog printout"), ("tidl", "layer_info printout"), ("tidl", "paramDebug printout")))
def check_printouts(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Findings on every group of TI printouts in the folder."""
    out: list[Finding] = []
    by_name = {r.name: r for r in reports}
    for net_name, found in sorted(_group(reports).items()):
        data: dict[str, Any] = {}
        for suffix, (kind, reader) in PRINTOUTS.items():
            rep = found.get(kind)
            if rep is None:
                continue
            try:  # opened already when doctor identified it (a Printout); read here if not
                data[kind] = rep.obj.rows if isinstance(rep.obj, Printout) else reader(folder / rep.name)
            except BinparseError as exc:
                out.append(Finding("problem", f"{rep.name} could not be read: {exc}", [rep.name]))
                continue
            rep.family, rep.kind, rep.version = "tidl", f"{kind} printout", "TI import tool"
            rep.evidence = f"of {net_name}"
        names = {k: found[k].name for k in data}
        net_name, net_rep = _beside(by_name, net_name)
        net = net_rep.obj if net_rep is not None and net_rep.format.startswith("tidl.net.j7") else None
        log, info, params = data.get("netLog"), data.get("layer_info"), data.get("paramDebug")
        if net is not None:
            nearest = net.gen_label if getattr(net, "unverified", None) else None
            if _with_net(out, names, net_name, net_rows(net), log, info, params, nearest) and nearest and net_rep:
                net_rep.verified_by = f"{names['netLog']} (TI's printout of the same import)"
        elif data:
            why = ("is not a J7 net binparse read" if net_rep is not None else
                   "could not be read (see above)" if (folder / net_name).exists() else "is not in the folder")
            out.append(Finding("note", f"{', '.join(names.values())} not compared with {net_name}: it {why}",
                               [*names.values(), net_name]))
        if log is not None and info is not None:
            diffs, moved = _layer_info_vs_netlog(info, log)
            files = [names["layer_info"], names["netLog"]]
            _report(out, diffs, f"{names['layer_info']} and {names['netLog']} agree: {len(info)} layers, dataIds and "
                    "names", names["layer_info"], files)
            _order_note(out, moved, names["layer_info"], names["netLog"], files)
        if log is not None and params is not None and net is None:
            _param_debug(out, params, log, names["paramDebug"], names["netLog"], "netLog")
        io_rep = _beside(by_name, net_name.replace("_tidl_net.bin", "_tidl_io_1.bin"))[1]
        if log is not None and io_rep is not None and io_rep.format.startswith(("tidl.io.j7", "tidl.io.solved")):
            io = io_rep.obj
            diffs = _io_vs_netlog(io, log)
            solved = io_rep.format.startswith("tidl.io.solved")
            _report(out, diffs, f"{io_rep.name} agrees with {names['netLog']}: {len(io.inputs)} "
                    f"input(s) and {len(io.outputs)} output(s) found by dataId with the same "
                    f"{'dims' if len(log[0].out_nchw) == 6 and getattr(io, 'io_version', 0) >= 92 else 'N,C,H,W'} "
                    "and name" + (f"; its solved layout ({io.version}) is verified by TI's printout" if solved else ""),
                    io_rep.name + (f" (solved as {io.version}: refuted by TI's printout)" if solved else ""),
                    [io_rep.name, names["netLog"]])
            if solved and not diffs:
                io_rep.verified_by = f"{names['netLog']} (TI's printout of the same import)"
    return out


__all__ = ["check_printouts", "net_rows"]
