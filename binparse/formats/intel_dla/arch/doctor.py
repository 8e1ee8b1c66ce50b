"""`binparse doctor` checks of architecture files, IP headers, layer placements and JSON records.

- each .arch: absurd values and contradictions (problems), values outside the manual's wording
  (notes citing what real builds show and any build of it beside it), undeclared fields (notes);
- an IP header (fpga_arch_instantiator.h): the .arch of the folder it was built from, by every
  value the header takes from an .arch; none matching is a problem naming each difference, and
  the other .arch files of a folder that holds a match are not problems;
- a layer placement table: how many layers run where, which fall back, and with an .arch beside
  it the convolutions whose shapes exceed the architecture's maxima;
- a compile folder's transform reports beside an .arch: whether their vector widths agree.
"""

from __future__ import annotations

from pathlib import Path

from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check
from .file import IP_HEADER_FIELDS, ArchFile
from .rules import evidence
from .ip_header import IpHeader
from ..compile.layer_device import ON_IP, LayerDevice
from ..compile.records import BuildRecord


BUILD_NAMES = ("*.svh", "*.mif", "*area_estimate*.txt", "*.qsf", "*.qpf", "*.sof", "*.fit.rpt", "*.build.json")


def _built(folder: Path, archs: list[ArchFile], paired: dict[str, str], records: list[BuildRecord]) -> dict[str, str]:
    """.arch name -> what in its folder shows Intel's tools built from it (the vendor's acceptance)."""
    out = dict(paired)
    for r in records:
        for arch_file in r.summary()["arch_files"]:
            name = Path(arch_file).name
            if any(a.name == name for a in archs):
                out.setdefault(name, f"{r.name} names it")
    if len(archs) == 1 and archs[0].name not in out:
        try:
            files = sorted({p.name for pat in BUILD_NAMES for p in folder.glob(pat) if p.is_file()})
        except OSError:
            files = []
        if files:
            out[archs[0].name] = f"the folder's only .arch, beside build output ({', '.join(files[:4])}" + \
                (f" and {len(files) - 4} more" if len(files) > 4 else "") + ")"
    return out


def _arch_findings(archs: list[ArchFile], built: dict[str, str]) -> list[Finding]:
    """Absurd values and contradictions are problems; the manual's wording is a note citing what
    real builds show of it, and the build of this .arch beside it if there is one (rules.py)."""
    out = []
    for a in archs:
        out += [Finding("problem", f"{a.name}: {p}", [a.name]) for p in a.problems()]
        for text, rule in a.manual():
            facts = [f for f in (evidence(rule), (f"Intel's tools built this .arch: {built[a.name]}"
                                                  if a.name in built else "")) if f]
            out.append(Finding("note", f"{a.name}: {text}; " + ("; ".join(facts) if facts else
                               "no vendor tool is known to refuse it, so it is not a problem"), [a.name]))
        out += [Finding("note", f"{a.name}: {n}", [a.name]) for n in a.notes()]
    return out


def _pair(h: IpHeader, archs: list[ArchFile]) -> tuple[list[Finding], ArchFile | None]:
    """Which .arch the IP header was built from."""
    if not archs:
        return [Finding("note", f"{h.name}: no .arch file beside it, so the architecture it was built from is not "
                                "checked", [h.name])], None
    results = [(a, *h.compare(a.ip_values())) for a in archs]
    matches = [(a, names) for a, names, diffs in results if not diffs and {"K_VECTOR", "C_VECTOR"} <= set(names)]
    used = {n for _, names, _ in results for n in names}
    unset = [n for n in h.values() if n not in used and n in IP_HEADER_FIELDS]
    unknown = [n for n in h.values() if n not in used and n not in IP_HEADER_FIELDS]
    tail = (f"; not compared, as no .arch here sets them: {', '.join(unset)}" if unset else "") + \
        (f"; not compared, as binparse does not know how dla_create_ip derives them: {', '.join(unknown)}"
         if unknown else "")
    if matches:
        a, names = matches[0]
        values = ", ".join(f"{n} {h.values()[n]}" for n in names)
        others = [m.name for m, _ in matches[1:]]
        text = (f"{h.name} was built from {a.name}" + (f" (or {', '.join(others)}: the header's values do not tell "
                                                        "them apart)" if others else "")
                + f": every value it takes from an .arch agrees ({values}){tail}")
        rest = [f"{b.name} ({', '.join(d)})" for b, _, d in results if d]
        if rest:
            text += "; the other .arch files differ from the IP: " + "; ".join(rest)
        return [Finding("ok", text, [h.name, a.name, *others])], a
    diffs = "; ".join(f"{a.name}: {', '.join(d) if d else 'no K_VECTOR/C_VECTOR to compare'}" for a, _, d in results)
    return [Finding("problem", f"{h.name} matches no .arch in this folder: {diffs}",
                    [h.name, *(a.name for a in archs)])], None


MAXIMA = ("filter_size_height_max", "filter_size_width_max", "output_channels_max", "output_image_height_max",
          "output_image_width_max")


def _exceeding(placement: LayerDevice, limits: dict[str, int]) -> list[str]:
    """Convolutions on the FPGA whose filter, output channels or output image exceed the maxima."""
    out = []
    for la in placement.layers:
        if la.device != ON_IP or la.type != "Convolution":
            continue
        found = {}
        if len(la.input_shapes) > 1 and len(la.input_shapes[1]) == 4:
            found["filter_size_height_max"], found["filter_size_width_max"] = la.input_shapes[1][2:]
        if la.output_shapes and len(la.output_shapes[0]) == 4:
            _, found["output_channels_max"], found["output_image_height_max"], found["output_image_width_max"] = \
                la.output_shapes[0]
        over = [f"{k.removesuffix('_max')} {v} > {limits[k]}" for k, v in found.items() if k in limits and v > limits[k]]
        if over:
            out.append(f"{la.node} ({', '.join(over)})")
    return out


def _limits(arch: ArchFile, header: IpHeader | None) -> tuple[dict[str, int], str]:
    """The maxima the .arch sets, and those only the IP header built from it gives (image size)."""
    limits = {k: v for k in MAXIMA if (v := arch.get(k)) is not None}
    from_header = {k: v for k, v in (header.constants.items() if header else ())
                   if k in MAXIMA and k not in limits and isinstance(v, int)}
    source = arch.name + (f" and {header.name} ({', '.join(from_header)})" if from_header and header else "")
    return {**limits, **from_header}, source


def _placement_findings(placements: list[LayerDevice], arch: ArchFile | None, archs: list[ArchFile],
                        header: IpHeader | None) -> list[Finding]:
    out = []
    for p in placements:
        out.append(Finding("ok", f"{p.name}: {p.placement_line()}", [p.name]))
        for a in ([arch] if arch is not None else archs):
            limits, source = _limits(a, header if arch is not None else None)
            over = _exceeding(p, limits)
            text = (f"{p.name}: with {source}, {len(over)} convolution(s) exceed the architecture's maxima: "
                    + "; ".join(over) if over else
                    f"{p.name}: no convolution exceeds the maxima {source} sets: "
                    + ", ".join(f"{k} {v}" for k, v in limits.items()))
            out.append(Finding("note" if over else "ok", text, [p.name, a.name]))
    return out


def _reports_vs_arch(folder: Path, archs: list[ArchFile]) -> list[Finding]:
    """Do a compile folder's transform reports agree with the .arch beside them (they win)?"""
    from ..compile.folder import CompileFolder
    try:
        cf = CompileFolder(folder)
    except BinparseError:
        return []
    out = []
    for a in archs:
        try:
            v = cf.output_configuration().vector_width
            ok = v == a.k_vector
            out.append(Finding("ok" if ok else "problem", f"the output reports pad channels to {v}; {a.name} has "
                               f"k_vector {a.k_vector}: " + ("they agree" if ok else "they disagree (the reports win; "
                               "this .arch is not the one the graph was compiled for)"), [a.name]))
        except BinparseError:
            pass
        try:
            cfg = cf.input_configuration(cvec=a.c_vector)
            folded = cfg.logical_shape[1] * cfg.folding.stride_h * cfg.folding.stride_w
            want = -(-folded // a.c_vector) * a.c_vector if a.c_vector else None
            got = cfg.folding.out_channels
            out.append(Finding("ok" if want == got else "note",
                               f"the input dump pads {folded} folded channels to {got}; {a.name}'s c_vector "
                               f"{a.c_vector} gives {want}: " + ("they agree" if want == got else "they differ"),
                               [a.name]))
        except BinparseError:
            pass
    return out


def _records(folder: Path, records: list[BuildRecord], archs: list[ArchFile]) -> list[Finding]:
    """Does a build record name the .arch beside it (in its folder, or the project folder above)?"""
    out = []
    names = {a.name for a in archs}
    try:
        above = sorted(p.name for p in folder.parent.glob("*.arch") if p.is_file()) if not archs else []
    except OSError:
        above = []
    for r in records:
        s = r.summary()
        design = f" (design {s['design']})" if s["design"] else ""
        for arch_file in s["arch_files"]:
            name = Path(arch_file).name
            if name in names:
                out.append(Finding("ok", f"{r.name} names the architecture {name}{design}, which is in this folder", [r.name, name]))
            elif archs or above:
                beside = sorted(names) or [f"../{n}" for n in above]
                out.append(Finding("note", f"{r.name} names the architecture {name}{design}, not the .arch beside this build "
                                           f"({', '.join(beside)}): the record is of another build", [r.name]))
            else:
                out.append(Finding("note", f"{r.name} names the architecture {arch_file}{design}, which is not in "
                                           "this folder", [r.name]))
    return out


@register_check(reads=(("intel_dla", "build record"), ("intel_dla", "compile report"), ("intel_dla", "layer placement")))
def check_intel_arch(reports: list[FileReport], folder: Path) -> list[Finding]:
    objs = [r.obj for r in reports]
    archs = [o for o in objs if isinstance(o, ArchFile)]
    headers = [o for o in objs if isinstance(o, IpHeader)]
    placements = [o for o in objs if isinstance(o, LayerDevice)]
    records = [o for o in objs if isinstance(o, BuildRecord)]
    if not (archs or headers or placements or records):
        return []
    out: list[Finding] = []
    paired: ArchFile | None = None
    paired_header: IpHeader | None = None
    built: dict[str, str] = {}
    for h in headers:
        found, a = _pair(h, archs)
        out += found
        if a is not None:
            built.setdefault(a.name, f"{h.name} (dla_create_ip's header) agrees with it")
        if a is not None and paired is None:
            paired, paired_header = a, h
    out = _arch_findings(archs, _built(folder, archs, built, records)) + out
    out += _placement_findings(placements, paired, archs, paired_header)
    out += _reports_vs_arch(folder, [paired] if paired else archs)
    out += _records(folder, records, archs)
    return out


__all__ = ["check_intel_arch"]
