"""`IpFolder`: the folder `dla_create_ip` writes for one IP instance (`.../verilog/<ARCH>_<FAMILY>/`),
or a DDR-free build's parameter-ROM folder: what is there and what made it.

Files are recognised by the names Intel's tools give them: `fpga_arch_instantiator.h` and
`dla_dma_param.svh` and `dla_dma_csr_discovery_rom.mif` (dla_create_ip), `ddrfree_*.mif` /
`memoryless_*.mif` (dla_compiler, for an .arch with a parameter ROM), `*.arch`, `*.build.json`.
Links and anything that is not a regular file are listed, never opened.
"""

from __future__ import annotations

import fnmatch
import os
from pathlib import Path
from typing import Any

from ....core.errors import BinparseError
from ....core.text import shown
from ..plugin import ROM_NAMES
from .ip_header import IpHeader
from .roms import IpRom
from .svh import IpParams

HEADERS = ("*fpga_arch_instantiator*.h",)
PARAMS = ("dla_dma_param*.svh",)


def _match(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatch(name, p) for p in patterns)


def is_ip_folder(path: str | os.PathLike[str]) -> bool:
    try:
        return any(_match(e.name, HEADERS + PARAMS + ROM_NAMES) for e in os.scandir(path))
    except OSError:
        return False


class IpFolder:
    """An IP folder's header, parameters and ROMs, read; every other file named."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.headers: list[IpHeader] = []
        self.params: list[IpParams] = []
        self.roms: list[IpRom] = []
        self.archs: list[str] = []
        self.other: list[str] = []
        self.unread: dict[str, str] = {}
        for e in sorted(os.scandir(self.path), key=lambda e: e.name):
            if not e.is_file(follow_symlinks=False):
                self.other.append(e.name + ("/" if e.is_dir(follow_symlinks=False) else ""))
                continue
            try:
                if _match(e.name, HEADERS):
                    self.headers.append(IpHeader(e.path))
                elif _match(e.name, PARAMS):
                    self.params.append(IpParams(e.path))
                elif _match(e.name, ROM_NAMES):
                    self.roms.append(IpRom(e.path))
                elif e.name.endswith(".arch"):
                    self.archs.append(e.name)
                else:
                    self.other.append(e.name)
            except BinparseError as exc:
                self.unread[e.name] = exc.message

    def made_by(self) -> list[str]:
        tools = []
        created = [h.name for h in self.headers] + [p.name for p in self.params] + \
            [r.name for r in self.roms if r.kind == "discovery ROM"]
        if created:
            tools.append(f"dla_create_ip ({', '.join(created)})")
        compiled = [r for r in self.roms if r.kind != "discovery ROM"]
        if compiled:
            tools.append(f"dla_compiler ({len(compiled)} parameter ROM(s))")
        return tools

    def summary(self) -> dict[str, Any]:
        disc = next((r.discovery() for r in self.roms if r.kind == "discovery ROM"), {})
        h = self.headers[0].values() if self.headers else {}
        p = self.params[0].scalars() if self.params else {}
        kinds: dict[str, int] = {}
        for r in self.roms:
            kinds[r.kind] = kinds.get(r.kind, 0) + 1
        return {"family": "intel_dla", "kind": "ip folder", "made_by": self.made_by(),
                "architecture": disc.get("arch_name"), "suite_version": disc.get("suite_version"),
                "device": p.get("DEVICE"), "k_vector": h.get("K_VECTOR"), "c_vector": h.get("C_VECTOR"),
                "stream_buffer_depth": h.get("STREAM_BUFFER_DEPTH", p.get("STREAM_BUFFER_DEPTH")),
                "filter_depth": h.get("FILTER_CACHE_DEPTH", p.get("SCRATCHPAD_FILTER_DEPTH")),
                "bias_scale_depth": h.get("BIAS_SCALE_CACHE_DEPTH", p.get("SCRATCHPAD_BIAS_SCALE_DEPTH")),
                "input_streaming": p.get("ENABLE_INPUT_STREAMING"), "on_chip_parameters": p.get("ENABLE_ON_CHIP_PARAMETERS"),
                "roms": kinds, "arch_files": self.archs, "other_files": self.other, "unread": self.unread}

    def report(self) -> str:
        s = self.summary()
        lines = [f"FPGA AI Suite IP folder {shown(self.path)}: made by {'; '.join(map(shown, s['made_by'])) or 'no FPGA AI Suite tool'}"]
        if s["architecture"] or s["suite_version"]:
            lines.append(f"  architecture {s['architecture']!r}, FPGA AI Suite {s['suite_version']!r} (discovery ROM)")
        vec = ", ".join(f"{k} {shown(s[k])}" for k in ("device", "k_vector", "c_vector", "stream_buffer_depth", "filter_depth",
                                                "bias_scale_depth", "input_streaming", "on_chip_parameters")
                        if s[k] is not None)
        if vec:
            lines.append(f"  {vec}")
        if s["roms"]:
            lines.append("  ROMs: " + ", ".join(f"{n} {k}" for k, n in s["roms"].items()))
        if s["arch_files"]:
            lines.append("  architecture files: " + ", ".join(map(shown, s["arch_files"])))
        if s["other_files"]:
            listed = s["other_files"][:6]
            lines.append(f"  other files: {', '.join(map(shown, listed))}" + (f" and {len(s['other_files']) - 6} more"
                                                                  if len(s["other_files"]) > 6 else ""))
        lines += [f"  not read: {shown(n)}: {shown(why)}" for n, why in s["unread"].items()]
        return "\n".join(lines)

    def details(self) -> str:
        parts = [self.report()] + [h.report() for h in self.headers] + [p.report() for p in self.params] + \
            [r.report() for r in self.roms]
        return "\n".join(parts)


__all__ = ["IpFolder", "is_ip_folder"]
