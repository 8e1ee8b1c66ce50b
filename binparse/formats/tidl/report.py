"""Human-readable tables of TIDL artifacts (what `binparse inspect` prints without --json)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ...core.render import columns, float_text
from ...core.text import shown
from .tensors import DTYPE_NAMES, Tensor


class Network(Protocol):
    """What the net table reads of a network (a `net._Network`; net.py imports this module, not back)."""

    @property
    def version(self) -> str: ...

    @property
    def net_version_hex(self) -> str | None: ...

    @property
    def unverified(self) -> str | None: ...

    def table(self) -> Any: ...

    def type_name(self, layer_type: int) -> str: ...


def tail(text: str, width: int = 40) -> str:
    """The end of a long name, as TI's netLog shows it."""
    return text if len(text) <= width else "…" + text[-(width - 1):]


def tensor_rows(tensors: Sequence[Tensor]) -> list[list[Any]]:
    rows = []
    for t in tensors:
        p = t.pad
        rows.append([t.index, tail(t.name) or "-", DTYPE_NAMES[t.element_type], ",".join(map(str, t.shape)),
                     f"{p.left},{p.top},{p.right},{p.bottom},{p.channel}", t.channel_pitch, t.line_pitch,
                     "-" if t.scale is None else float_text(t.scale), t.zero_point, t.layout,
                     f"{t.buf_size:,} ({t.buf_size_source})", f"{t.buf_size * t.dtype.itemsize:,}"])
    return rows


def io_table(title: str, inputs: Sequence[Tensor], outputs: Sequence[Tensor]) -> str:
    head = ["#", "name", "dtype", "N,D1,D2,C,H,W", "pad L,T,R,B,ch", "ch pitch", "line pitch", "scale",
            "zero pt", "layout", "buf elements", "buf bytes"]
    lines = [title]
    for label, tensors in (("inputs", inputs), ("outputs", outputs)):
        lines.append(f"{label}: {len(tensors)}" + (" (pitches in elements)" if tensors else ""))
        if tensors:
            lines.extend(columns(head, tensor_rows(tensors)))
    padded = [t for t in (*inputs, *outputs) if t.has_padding]
    if padded:
        names = ", ".join(f"{t.direction} {shown(t.name or t.index)}" for t in padded)
        lines.append(f"padded in the device buffer: {names}; view reads a buffer without the padding,")
        lines.append(f"  {draw_command(padded[-1])} pictures where it lies" if padded[-1].file else
                     "  draw pictures where it lies")
    return "\n".join(lines)


def draw_command(t: Tensor) -> str:
    """The command that draws tensor `t` of its io descriptor (by name, or by index when it has none)."""
    import re
    from ...family.hints import command
    which = str(t.name) if t.name else str(t.index)
    return command("draw", t.file or "", f"--{t.direction}", which, "--svg",
                   re.sub(r"[^A-Za-z0-9_-]", "_", f"{t.direction}_{which}") + ".svg")


def _summary(net: Any, t: Any) -> list[str]:
    """What a user asks first: the SoC the header was laid out for, the inputs and outputs, the parameters."""
    out = []
    cores = getattr(net, "soc_cores", None)
    if cores:
        socs = net.soc_names
        out.append(f"SoC: TIDL_MAX_NUM_CORES {cores} ({socs}), numCores {int(net.num_cores)}")
    ins = [i for i in range(len(t)) if int(t.num_in[i]) < 0]
    outs = [i for i in range(len(t)) if int(t.num_out[i]) < 0]
    in_ids = " ".join(str(int(t.out_ids[i, 0])) for i in ins) or "-"
    out_ids = " ".join(str(int(t.in_ids[i, 0])) for i in outs) or "-"
    out.append(f"inputs: {len(ins)} (dataIds {in_ids}); outputs: {len(outs)} (dataIds {out_ids})")
    weights = getattr(net, "weights", None)
    if callable(weights) and hasattr(net, "gen"):
        arrays = [a for i in range(len(t)) for a in weights(i).values()]
        out.append(f"parameters: {len(arrays)} arrays, {sum(int(a.nbytes) for a in arrays):,} bytes")
    return out


def net_table(net: Network, layers: bool = True) -> str:
    """The net's summary, then (`layers`) a table like TI's `*_netLog.txt`: one row per layer, in file order."""
    t = net.table()
    version = f", netVersion {net.net_version_hex}" if net.net_version_hex else ""
    lines = [f"TIDL network {net.version}{version}, {len(t)} layers"]
    if net.unverified:
        lines.append(f"UNVERIFIED: {net.unverified}")
    lines.extend(_summary(net, t))
    if not layers:
        lines.append("(-v: every layer, as TI's netLog lists them)")
        return "\n".join(lines)
    head = ["Num", "TIDL layer type", "#Ins", "#Outs", "Inbuf ids", "Outbuf ids", "Out dims"]
    rows = []
    for i in range(len(t)):
        nin, nout = int(t.num_in[i]), int(t.num_out[i])
        rows.append([i, net.type_name(int(t.layer_type[i])), nin, nout,
                     " ".join(map(str, t.in_ids[i, :max(nin, 0)].tolist())) or "-",
                     " ".join(map(str, t.out_ids[i, :max(nout, 0)].tolist())) or "-",
                     " ".join("x".join(map(str, s)) for s in t.out_shapes[i, :max(nout, 0)].tolist()) or "-"])
    lines.extend(columns(head, rows))
    return "\n".join(lines)
