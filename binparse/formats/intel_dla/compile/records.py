"""`BuildRecord`: the JSON records FPGA AI Suite tools leave beside a build (`*.build.json`,
`dla_compile_report.json`), identified by name and summarised.

Intel publishes no schema of these files. The keys `dla_build_example_design` writes into
`.build.json` are read by name (`BUILD_KEYS`, from the real record in
`../shared/real/intel_dla/lenet-agx5-streaming/build-agx5-lenet`); beyond them the summary is found
by what keys mean, not by fixed paths: the architecture file is any string value ending
in `.arch`; clocks are numbers under keys that name a clock or fMAX; resources are numbers under
keys that name ALMs, DSPs, M20Ks, RAM blocks, registers or LUTs; the design is the first
`design`/`design_name`/`top`/`name` string. Each value is reported with its JSON path and the
summary says `inferred: true`, so nothing reads as more certain than it is.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import Any

from ....core.documents import load_json
from ....core.errors import FormatError
from ....core.text import shown

NAMES = ("*.build.json", "dla_compile_report.json", "*_dla_compile_report.json")
_CLOCK = re.compile(r"(clock|clk|fmax|mhz|freq)", re.I)
_RESOURCE = re.compile(r"^(alms?|dsps?|m20ks?|mlabs?|rams?|brams?|registers?|regs?|luts?|ffs?)(_\w+)?$", re.I)
_DESIGN = ("design", "design_name", "top", "top_level", "name", "project")
# the keys of a real .build.json (dla_build_example_design) and what each names
BUILD_KEYS = {"design_name": "the design example built", "arch_file": "the .arch the IP was built from",
              "build_dir": "the build folder", "ip_dir": "the generated IP's folder",
              "parameter_rom_dir": "the folder of the DDR-free parameter ROMs (.mif)",
              "quartus_project": "the Quartus project folder", "num_instances": "IP instances",
              "seed": "the Quartus fitter seed", "build_unlicensed_ip": "built without an IP license"}


def is_record_name(name: str) -> bool:
    return any(fnmatch.fnmatch(name, p) for p in NAMES)


def _walk(doc: Any, path: str = "") -> list[tuple[str, str, Any]]:
    """(path, key, value) of every scalar in a JSON document."""
    if isinstance(doc, dict):
        return [x for k, v in doc.items() for x in (_walk(v, f"{path}.{k}" if path else str(k)) if isinstance(v, (dict, list))
                                                      else [(f"{path}.{k}" if path else str(k), str(k), v)])]
    if isinstance(doc, list):
        return [x for i, v in enumerate(doc) for x in (_walk(v, f"{path}[{i}]") if isinstance(v, (dict, list))
                                                       else [(f"{path}[{i}]", path.rsplit(".", 1)[-1], v)])]
    return []


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class BuildRecord:
    """One FPGA AI Suite JSON record: the document and what the summary could find in it."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.file = os.fspath(path)
        try:
            text = Path(path).read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FormatError("an FPGA AI Suite record is JSON", file=self.file, found=str(exc)) from None
        self.doc = load_json(text, file=self.file, what="an FPGA AI Suite record")  # within the budget, bounded
        if not isinstance(self.doc, dict):
            raise FormatError("an FPGA AI Suite record is a JSON object", file=self.file,
                              found=type(self.doc).__name__)
        scalars = _walk(self.doc)
        self.arch_files = [(p, v) for p, _, v in scalars if isinstance(v, str) and v.lower().endswith(".arch")]
        self.clocks = [(p, v) for p, k, v in scalars if _number(v) and _CLOCK.search(k)]
        self.resources = [(p, v) for p, k, v in scalars if _number(v) and _RESOURCE.match(k)]
        self.design = next(((p, v) for p, k, v in scalars if isinstance(v, str) and k.lower() in _DESIGN), None)

    @property
    def name(self) -> str:
        return Path(self.file).name

    @property
    def kind(self) -> str:
        return "compile report" if "compile_report" in self.name else "build record"

    def summary(self) -> dict[str, Any]:
        return {"family": "intel_dla", "kind": self.kind, "inferred": True,
                "design": self.design[1] if self.design else None,
                "arch_files": [v for _, v in self.arch_files],
                "known": {k: self.doc[k] for k in BUILD_KEYS if k in self.doc},
                "clocks": {p: v for p, v in self.clocks}, "resources": {p: v for p, v in self.resources},
                "keys": list(self.doc)}

    def report(self) -> str:
        s = self.summary()
        lines = [f"FPGA AI Suite {self.kind} {shown(self.name)} (JSON; "
                 + ("dla_build_example_design's keys, " if s["known"] else "") + "other fields' meanings inferred from their names)",
                 f"  design: {shown(s['design'])}",
                 f"  architecture file: {', '.join(map(shown, s['arch_files'])) or 'none named'}"]
        lines += [f"  {k} ({BUILD_KEYS[k]}): {shown(v)}" for k, v in s["known"].items() if k not in ("design_name", "arch_file")]
        lines += [f"  clock {shown(p)}: {shown(v)}" for p, v in self.clocks]
        lines += [f"  resource {shown(p)}: {shown(v)}" for p, v in self.resources]
        lines.append("  top-level keys: " + ", ".join(map(shown, s["keys"])))
        return "\n".join(lines)


__all__ = ["BUILD_KEYS", "BuildRecord", "NAMES", "is_record_name"]
