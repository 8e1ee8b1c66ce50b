"""`binparse doctor` check for FPGA AI Suite compile folders: do the dumps and mappings agree."""

from __future__ import annotations

from pathlib import Path

from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check


@register_check(reads=(("intel_dla", "input_transform_dump"), ("intel_dla", "input_transform_mapping"),
                         ("intel_dla", "output_transform_dump"), ("intel_dla", "output_transform_mapping")))
def check_intel_dla(reports: list[FileReport], folder: Path) -> list[Finding]:
    """The input and output configurations a compile folder's reports give, or why not."""
    out: list[Finding] = []
    if not any(r.family == "intel_dla" for r in reports):
        return out
    from .folder import CompileFolder
    try:
        cf = CompileFolder(folder)
    except BinparseError:
        return out
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
    return out
