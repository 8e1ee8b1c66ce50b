"""`binparse doctor` check for ESP-DL files: what can and cannot be read in each model."""

from __future__ import annotations

from pathlib import Path

from ...family import FileReport, Finding, register_check


@register_check
def check_espdl(reports: list[FileReport], folder: Path) -> list[Finding]:
    """A note for each file holding encrypted models (binparse reads their header only)."""
    out: list[Finding] = []
    for rep in reports:
        if rep.family != "espdl":
            continue
        enc = [m.name or "(model)" for m in rep.obj.models if m.encrypted]
        if enc:
            out.append(Finding("note", f"{rep.name}: encrypted model(s) {enc}; binparse does not decrypt", [rep.name]))
    return out
