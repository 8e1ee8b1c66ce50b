"""`IpHeader`: the fpga_arch_instantiator.h that `dla_create_ip` writes into the IP it builds.

The header holds `#define NAME value` lines and `CONSTANT int name = value;` lines (maxima),
grouped under `// section` comments. They are the values the IP was built with; `match()`
compares them with the values an .arch file determines (ArchFile.ip_values), so `doctor` can say
which architecture an IP came from. Lines of any other form are listed in `other_lines`, not
guessed at.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ....errors import FormatError
from ....text import shown

GUARD = "__FPGA_ARCH_GEN_H__"
_DEFINE = re.compile(r"#\s*define\s+(\w+)(?:\s+(.*?))?\s*(?://.*)?$")
_CONSTANT = re.compile(r"CONSTANT\s+(?:int|unsigned|long|short|char|bool)\s+(\w+)\s*=\s*(.+?)\s*;\s*(?://.*)?$")
_SKIP = re.compile(r"#\s*(ifndef|endif|if|else|pragma)\b|//|$")


def _value(raw: str | None) -> int | str | None:
    if raw is None or raw == "":
        return None
    try:
        return int(raw, 0)
    except ValueError:
        return raw


class IpHeader:
    """The defines and constants of one fpga_arch_instantiator.h, with their section comments."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.file = os.fspath(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError("the IP header is not UTF-8 text", file=self.file, offset=exc.start) from None
        if GUARD not in text:
            raise FormatError("not an FPGA AI Suite IP header", file=self.file, expected=f"the include guard {GUARD}")
        self.defines: dict[str, int | str | None] = {}
        self.constants: dict[str, int | str | None] = {}
        self.sections: dict[str, str] = {}  # name -> the comment heading its group
        self.other_lines: list[str] = []
        section = ""
        for line in (s.strip() for s in text.splitlines()):
            if line.startswith("//"):
                section = line.lstrip("/ ").strip()
            elif m := _DEFINE.match(line):
                if m.group(1) != GUARD:
                    self.defines[m.group(1)] = _value(m.group(2))
                    self.sections[m.group(1)] = section
            elif m := _CONSTANT.match(line):
                self.constants[m.group(1)] = _value(m.group(2))
                self.sections[m.group(1)] = section
            elif not _SKIP.match(line):
                self.other_lines.append(line)

    @property
    def name(self) -> str:
        return Path(self.file).name

    def values(self) -> dict[str, int | str | None]:
        """Defines and constants together (the header never uses a name for both)."""
        return {**self.defines, **self.constants}

    def compare(self, arch_values: dict[str, int]) -> tuple[list[str], list[str]]:
        """(names compared, differences as 'NAME: header X, .arch Y') against an .arch's ip_values()."""
        mine = self.values()
        names = [n for n in arch_values if n in mine]
        diffs = [f"{n}: IP {mine[n]}, .arch {arch_values[n]}" for n in names if mine[n] != arch_values[n]]
        return names, diffs

    def summary(self) -> dict[str, Any]:
        return {"family": "intel_dla", "kind": "ip header", "defines": self.defines, "constants": self.constants,
                "sections": self.sections, "other_lines": self.other_lines}

    def report(self) -> str:
        lines = [f"FPGA AI Suite IP header {shown(self.name)} (written by dla_create_ip): {len(self.defines)} defines, "
                 f"{len(self.constants)} constants"]
        section = None
        for name, value in self.values().items():
            if self.sections.get(name) != section:
                section = self.sections.get(name)
                lines.append(f"  {shown(section)}:")
            lines.append(f"    {shown(name)} = {shown(value)}")
        lines += [f"  not read: {shown(line)}" for line in self.other_lines]
        return "\n".join(lines)


__all__ = ["GUARD", "IpHeader"]
