"""`binparse doctor` checks of an IP folder's ROMs (.mif) and parameters (dla_dma_param.svh).

- the discovery ROM: the architecture name and suite version it holds, and whether an .arch of the
  folder has that name;
- dla_dma_param.svh against fpga_arch_instantiator.h (the same depths, KVEC_OVER_CVEC = K/C): a
  difference is two files of one IP contradicting each other, a problem;
- dla_dma_param.svh against the folder's .arch files: the one it was built from (every parameter it
  carries agrees), or a problem when none agrees;
- filter and bias/scale ROMs against the .arch and the IP header (FILTER_CACHE_DEPTH,
  BIAS_SCALE_CACHE_DEPTH): a ROM deeper than the scratchpad it fills
  (filter_scratchpad.filter_depth / bias_scale_depth) contradicts it (a problem); fewer or more
  filter ROMs than K_VECTOR, one per PE (IP Reference Manual 768974, "DDR-Free Operation"), is a
  note (a folder may hold a partial copy). Word widths are not compared: how they follow from the
  vectors and the precision is not published.
"""

from __future__ import annotations

from pathlib import Path

from ....family import FileReport, Finding, register_check
from .file import ArchFile
from .ip_header import IpHeader
from .roms import IpRom
from .svh import IpParams


def _discovery(roms: list[IpRom], archs: list[ArchFile]) -> list[Finding]:
    out = []
    for r in roms:
        d = r.discovery()
        if not d:
            continue
        name, version = d["arch_name"], d["suite_version"]
        text = f"{r.name}: architecture {name!r}, FPGA AI Suite {version!r}"
        stems = {Path(a.name).stem: a.name for a in archs}
        if name in stems:
            out.append(Finding("ok", f"{text}; {stems[name]} is that architecture", [r.name, stems[name]]))
        elif archs:
            out.append(Finding("note", f"{text}; no .arch here is named so ({', '.join(sorted(stems.values()))})",
                               [r.name]))
        else:
            out.append(Finding("ok", text, [r.name]))
    return out


def _params(params: list[IpParams], headers: list[IpHeader], archs: list[ArchFile]) -> list[Finding]:
    out = []
    for p in params:
        for h in headers:
            names, diffs = p.compare_header(h)
            if names:
                out.append(Finding("problem" if diffs else "ok",
                                   f"{p.name} and {h.name}: " + ("; ".join(diffs) + " (one IP's two files disagree)"
                                                                 if diffs else f"{', '.join(names)} agree"),
                                   [p.name, h.name]))
        results = [(a, *p.compare_arch(a)) for a in archs]
        matches = [(a, names) for a, names, diffs in results if names and not diffs]
        if matches:
            a, names = matches[0]
            out.append(Finding("ok", f"{p.name} was built from {a.name}: {len(names)} parameters agree "
                                     f"({', '.join(names[:4])}{', ...' if len(names) > 4 else ''})", [p.name, a.name]))
        elif results:
            differ = "; ".join(f"{a.name}: {', '.join(d[:3])}" for a, _, d in results if d)
            out.append(Finding("problem", f"{p.name} matches no .arch here: {differ}",
                               [p.name, *(a.name for a in archs)]))
    return out


def _depths(group: list[IpRom], source: str, what: str, limit: int, files: list[str]) -> Finding:
    deep = [f"{r.name} ({r.mif.depth})" for r in group if r.mif.depth > limit]
    return Finding("problem" if deep else "ok",
                   f"{len(group)} {group[0].kind}(s) against {source}'s {what} {limit}: " +
                   (f"deeper than the scratchpad they fill: {', '.join(deep[:4])}" if deep else
                    f"every depth fits (at most {max(r.mif.depth for r in group)}); widths not compared"),
                   [*files, *(r.name for r in group)])


def _parameter_roms(roms: list[IpRom], archs: list[ArchFile], headers: list[IpHeader]) -> list[Finding]:
    out: list[Finding] = []
    filters = [r for r in roms if r.kind == "filter ROM"]
    biases = [r for r in roms if r.kind == "bias/scale ROM"]
    if not (filters or biases):
        return out
    for a in archs:
        for group, path in ((filters, "filter_scratchpad.filter_depth"),
                            (biases, "filter_scratchpad.bias_scale_depth")):
            limit = a.get(path)
            if group and limit is not None:
                out.append(_depths(group, a.name, path, limit, [a.name]))
        k = a.k_vector
        if filters and k and len(filters) != k:
            out.append(Finding("note", f"{len(filters)} filter ROM(s) here, {a.name} has k_vector {k}: dla_compiler "
                                       "writes one per PE, K_VECTOR in all", [a.name]))
        if not a.get("enable_parameter_rom"):
            out.append(Finding("note", f"parameter ROMs beside {a.name}, which does not set enable_parameter_rom",
                               [a.name]))
    for h in headers:
        values = h.values()
        for group, name in ((filters, "FILTER_CACHE_DEPTH"), (biases, "BIAS_SCALE_CACHE_DEPTH")):
            limit = values.get(name)
            if group and isinstance(limit, int):
                out.append(_depths(group, h.name, name, limit, [h.name]))
    return out


@register_check(reads=(("intel_dla", "discovery ROM"), ("intel_dla", "ip header"), ("intel_dla", "ip parameters")))
def check_intel_ip(reports: list[FileReport], folder: Path) -> list[Finding]:
    objs = [r.obj for r in reports]
    roms = [o for o in objs if isinstance(o, IpRom)]
    params = [o for o in objs if isinstance(o, IpParams)]
    if not (roms or params):
        return []
    archs = [o for o in objs if isinstance(o, ArchFile)]
    headers = [o for o in objs if isinstance(o, IpHeader)]
    return _discovery(roms, archs) + _params(params, headers, archs) + _parameter_roms(roms, archs, headers)


__all__ = ["check_intel_ip"]
