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

from ....core.errors import FormatError
from ....core.text import shown, statement_value

GUARD = "__FPGA_ARCH_GEN_H__"
# Each expression matches a line's head only; what follows is cut with str methods (`_define`,
# `_constant`): an expression with a lazy value before optional spaces and a comment tries every
# split of a long line (quadratic: a 10^6-character line took minutes).
_DEFINE = re.compile(r"#\s*define\s+(\w+)")
_CONSTANT = re.compile(r"CONSTANT\s+(?:int|unsigned|long|short|char|bool)\s+(\w+)\s*=")
_SKIP = re.compile(r"#\s*(ifndef|endif|if|else|pragma)\b|//|$")


def _define(line: str) -> tuple[str, str | None] | None:
    """(name, value or None) of `#define NAME [value] [// comment]`, else None."""
    m = _DEFINE.match(line)
    if m is None:
        return None
    rest = line[m.end():]
    if rest and not rest[0].isspace() and not rest.startswith("//"):
        return None  # `#define F(x)`: a macro with parameters, not a value
    value = rest.partition("//")[0].strip()
    return m.group(1), value or None


def _constant(line: str) -> tuple[str, str] | None:
    """(name, value) of `CONSTANT type NAME = value; [// comment]`: the value ends at the first `;`
    followed only by spaces or a comment; else None."""
    m = _CONSTANT.match(line)
    if m is None:
        return None
    value = statement_value(line[m.end():])
    return (m.group(1), value.strip()) if value and value.strip() else None


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
            elif d := _define(line):
                if d[0] != GUARD:
                    self.defines[d[0]] = _value(d[1])
                    self.sections[d[0]] = section
            elif c := _constant(line):
                self.constants[c[0]] = _value(c[1])
                self.sections[c[0]] = section
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
