"""A compile folder: the four transform reports read together, with summaries for the CLI."""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from ....core.errors import BinparseError, FormatError
from ....core.paths import files_in
from ....core.text import shown
from ..layouts.config import OutputConfiguration
from ..layouts.inputs import InputConfiguration
from .layer_device import LayerDevice
from .tables import DumpTable, MappingTable, read_table, table_report, table_summary

KINDS = ("input_transform_dump", "input_transform_mapping", "output_transform_dump", "output_transform_mapping")


def _padding_line(out: dict[str, Any], folder: Path) -> list[str]:
    """The line both reports end with when the IP output buffer holds padding lanes (none otherwise)."""
    from ....family.hints import command
    padding = out["ip_elements"] - math.prod(out["logical_shape"]) if "ip_elements" in out else 0
    if padding <= 0:
        return []
    return [f"the output buffer holds {padding} padding lanes: view --intel-dla with this folder reads an IP output "
            f"buffer without them, {command('draw', '--intel-dla', folder, '--svg', 'output.svg')} pictures them"]


class CompileFolder:
    """The transform reports of one compile (any subset), found by their file-name prefixes."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise FormatError("not a folder", file=str(self.path))
        self.tables: dict[str, DumpTable | MappingTable] = {}
        self.other: list[str] = []
        self.placement: LayerDevice | None = None
        for p in files_in(self.path):  # regular files: no link out, no FIFO (binparse.core.paths)
            if p.name.endswith("_dla_layer_device.csv") and self.placement is None:
                self.placement = LayerDevice(p)
                continue
            kind = next((k for k in KINDS if p.name.startswith(k) and p.suffix == ".csv"), None)
            if kind is None:
                self.other.append(p.name)
                continue
            self.tables[kind] = read_table(p)
        if not self.tables:
            raise FormatError("no FPGA AI Suite transform reports here", file=str(self.path),
                              expected=[f"{k}_*.csv" for k in KINDS], found=self.other[:8])

    def output_configuration(self) -> OutputConfiguration:
        dump, mapping = self.tables.get("output_transform_dump"), self.tables.get("output_transform_mapping")
        if not isinstance(dump, DumpTable) or not isinstance(mapping, MappingTable):
            raise FormatError("the folder lacks the output dump or the output mapping", file=str(self.path))
        return OutputConfiguration.from_csvs(dump, mapping)

    def input_configuration(self, cvec: int | None = None) -> InputConfiguration:
        dump, mapping = self.tables.get("input_transform_dump"), self.tables.get("input_transform_mapping")
        if not isinstance(dump, DumpTable):
            raise FormatError("the folder lacks the input dump", file=str(self.path))
        return InputConfiguration.from_dump(dump, mapping if isinstance(mapping, MappingTable) else None, cvec=cvec)

    def input_configurations(self, cvec: int | None = None) -> list[InputConfiguration]:
        """One configuration per input dump row (multi-input graphs)."""
        dump, mapping = self.tables.get("input_transform_dump"), self.tables.get("input_transform_mapping")
        if not isinstance(dump, DumpTable):
            raise FormatError("the folder lacks the input dump", file=str(self.path))
        single = mapping if isinstance(mapping, MappingTable) and len(dump.rows) == 1 else None
        return [InputConfiguration.from_dump(dump, single, row=k, cvec=cvec) for k in range(len(dump.rows))]

    def summary(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"family": "intel_dla", "kind": "compile_folder", "made_by": self.made_by(),
                               "files": {k: {"file": Path(t.file or "").name, **table_summary(t)}
                                         for k, t in self.tables.items()},
                               "other_files": self.other}
        if self.placement is not None:
            doc["placement"] = {"file": self.placement.name, "layers": len(self.placement.layers),
                                "devices": self.placement.devices(),
                                "fallbacks": [la.node for la in self.placement.fallbacks()]}
        for key, make in (("output", self.output_configuration), ("input", self.input_configuration)):
            try:
                cfg = make()
                doc[key] = {"logical_shape": list(cfg.logical_shape), "ip_elements": cfg.ip_size,
                            "vector_width": getattr(cfg, "vector_width", getattr(cfg, "cvec", None))}
            except BinparseError as exc:
                doc[key] = {"error": str(exc)}
        return doc

    def made_by(self) -> str:
        """Which tool wrote the reports, and the dialects (FPGA AI Suite releases) their headers show."""
        dialects = sorted({str(table_summary(t).get("dialect")) for t in self.tables.values()})
        return (f"dla_compiler's transform reports ({', '.join(d.removeprefix('v').replace('_', '.') for d in dialects)} "
                "dialect)")

    def report(self) -> str:
        """What is there and what made it, in a few lines; `details()` (inspect --fields) has every report."""
        s = self.summary()
        lines = [f"FPGA AI Suite compile folder {shown(self.path)}: {self.made_by()}"]
        for key, vec in (("input", "CVEC"), ("output", "KVEC")):
            c = s[key]
            if "error" in c:
                lines.append(f"  {key}: not laid out ({shown(c['error'])})")
                continue
            shape = "×".join(map(str, c["logical_shape"]))
            pad = c["ip_elements"] - math.prod(c["logical_shape"])
            lines.append(f"  {key}: {shape} (N, C, D, H, W) → {c['ip_elements']:,} FP16 IP elements ({vec} "
                         f"{c['vector_width']}" + ((f", {pad:,} padding" if key == "output" else
                                                   f", folded and padded from {math.prod(c['logical_shape']):,}")
                                                  if pad > 0 else "") + ")")
        if self.placement is not None:
            lines.append(f"  layers: {self.placement.placement_line()}")
        lines.append(f"  files: {len(self.tables)} transform report(s) ({', '.join(self.tables)})"
                     + (", a layer placement table" if self.placement is not None else "")
                     + (f", {len(self.other)} other" if self.other else ""))
        from ....family.hints import command
        lines.append(f"  ({command('inspect', '--fields', self.path)}: every report's rows)")
        lines.extend(_padding_line(s["output"], self.path))
        return "\n".join(lines)

    def details(self) -> str:
        lines = [f"FPGA AI Suite compile folder {shown(self.path)}"]
        for t in self.tables.values():
            lines.append(f"{shown(Path(t.file or '').name)}:")
            lines.extend("  " + line for line in table_report(t).splitlines())
        s = self.summary()
        for key in ("input", "output"):
            lines.append(f"{key}: " + ", ".join(f"{k} {shown(v)}" for k, v in s[key].items()))
        if self.placement is not None:
            lines.append(f"layer placement ({shown(self.placement.name)}): {self.placement.placement_line()}")
        if self.other:
            lines.append("other files: " + ", ".join(map(shown, self.other)))
        lines.extend(_padding_line(s["output"], self.path))
        return "\n".join(lines)
