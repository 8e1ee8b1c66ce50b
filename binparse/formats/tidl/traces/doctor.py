"""`binparse doctor` of a folder holding TIDL layer traces: each file's size against the dims its name
gives and, when the folder holds one J7 net, against the element type the net gives its dataId."""

from __future__ import annotations

from pathlib import Path

from ....family import FileReport, Finding, register_check
from .net import net_data
from .read import TraceFile


@register_check(reads=(("tidl", "trace"),))
def check_traces(reports: list[FileReport], folder: Path) -> list[Finding]:
    traces = [r for r in reports if isinstance(r.obj, TraceFile)]
    if not traces:
        return []
    nets = [r for r in reports if r.format.startswith("tidl.net.j7")]
    net = nets[0] if len(nets) == 1 else None
    data = net_data(net.obj) if net is not None else {}
    out: list[Finding] = []
    wrong, unknown = [], []
    for r in traces:
        f = r.obj
        info = data.get(f.trace.data_id)
        if net is not None and info is None:
            unknown.append(r.name)
        if info is not None and info.shape != f.trace.shape:
            out.append(Finding("problem", f"{r.name}: dims {'x'.join(map(str, f.trace.shape))} in the name, "
                                          f"{'x'.join(map(str, info.shape))} in {net.name if net else 'the net'} "
                                          f"(dataId {info.data_id}, layer {info.layer})", [r.name]))
            wrong.append(r.name)
        sizes = f.allowed_sizes() if info is None else TraceFile(f.trace.file, info, name=f.trace).allowed_sizes()
        size = f.trace.file.stat().st_size
        if size not in sizes:
            want = " or ".join(f"{s:,}" for s in sizes)
            out.append(Finding("problem", f"{r.name}: {size:,} bytes, but its name's dims "
                                          f"{'x'.join(map(str, f.trace.shape))} make {want}", [r.name]))
            wrong.append(r.name)
    if unknown and net is not None:
        out.append(Finding("problem", f"{len(unknown)} trace(s) of dataIds no layer of {net.name} writes: "
                                      f"{', '.join(unknown[:6])}{' …' if len(unknown) > 6 else ''}",
                           [net.name, *unknown]))
    if not wrong:
        rule = f"the element types {net.name} gives" if net is not None else \
            "1 or 2 bytes per element for .y (no net here: traces with --net NET checks the types), 4 for float"
        out.append(Finding("ok", f"{len(traces)} layer trace(s): sizes agree with the dims their names give and {rule}",
                           [r.name for r in traces]))
    return out


__all__ = ["check_traces"]
