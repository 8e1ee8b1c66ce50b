"""`IpRom`: an FPGA AI Suite on-chip ROM (.mif), identified by the name Intel's tools give it.

- `dla_dma_csr_discovery_rom.mif` (dla_create_ip, in every IP): the words the host reads over the
  CSR bus to discover the IP. Read so: runs of printable ASCII in the words' little-endian bytes,
  NUL-ended: the one shaped like a version (`2026.1.1/17`) is the suite's build version, the other
  the architecture's name (`AGX5_Generic`); words 0 and 1 are, by a user's bring-up report that read
  them back from silicon, the architecture hash (`arch_hash`) — shown, not verified.
- `ddrfree_filter_hw_N.mif`, `ddrfree_bias_scale_hw_N.mif` (older: `memoryless_*`), one per PE,
  K_VECTOR of each (IP Reference Manual 768974, "DDR-Free Operation"), and `ddrfree_config.mif`,
  the instruction stream (dla_compiler, for an .arch with enable_parameter_rom): their words are
  shown as words. How a filter word packs weights (block floating point, KVEC/CVEC lanes) is not
  published and no build here lets it be checked, so binparse decodes no weights from them.
- `*_ref*.mif`: the same parameters "in software-reference form" (Compiler Reference Manual 768972).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np

from ....core.text import shown
from .mif import MifFile

DISCOVERY = "dla_dma_csr_discovery_rom.mif"
_KINDS = (
    (re.compile(r"dla_dma_csr_discovery_rom\.mif$"), "discovery ROM"),
    (re.compile(r"(ddrfree|memoryless)_filter_ref_?(\d+)\.mif$"), "filter ROM (software reference)"),
    (re.compile(r"(ddrfree|memoryless)_bias_scale_ref_?(\d+)\.mif$"), "bias/scale ROM (software reference)"),
    (re.compile(r"(ddrfree|memoryless)_filter_hw_?(\d+)\.mif$"), "filter ROM"),
    (re.compile(r"(ddrfree|memoryless)_bias_scale_hw_?(\d+)\.mif$"), "bias/scale ROM"),
    (re.compile(r"(ddrfree|memoryless)_config\.mif$"), "config ROM"),
)
_VERSION = re.compile(r"\d{4}\.\d+(\.\d+)*(/\d+)?$")
PATTERNS = ("*.mif",)


def kind_of(name: str) -> tuple[str, int | None]:
    """(kind, PE index or None) from a ROM's file name; 'memory initialization file' if unnamed."""
    for pattern, kind in _KINDS:
        if m := pattern.search(name):
            pe = m.group(2) if m.lastindex and m.lastindex >= 2 else None
            return kind, int(pe) if pe is not None else None
    return "memory initialization file", None


def ascii_strings(data: Any) -> list[tuple[int, str]]:
    """(first word, text) of each NUL-ended printable ASCII run of 4+ bytes starting on a word."""
    raw = np.ascontiguousarray(data).reshape(-1)
    word = max(int(np.asarray(data).shape[-1]), 1)
    printable = (raw >= 0x20) & (raw < 0x7F)
    edges = np.flatnonzero(np.diff(np.concatenate(([0], printable.astype(np.int8), [0]))))
    out = []
    for start, end in zip(edges[::2].tolist(), edges[1::2].tolist()):  # one per string, not per word
        if end - start >= 4 and start % word == 0 and (end == raw.size or raw[end] == 0):
            out.append((start // word, raw[start:end].tobytes().decode("ascii")))
    return out


class IpRom:
    """An on-chip ROM of an FPGA AI Suite IP: its MIF, its kind, and what the discovery ROM says."""

    def __init__(self, source: str | os.PathLike[str] | bytes, *, file: str | None = None) -> None:
        self.mif = MifFile(source, file=file)
        self.file = self.mif.file
        self.kind, self.pe = kind_of(self.name)

    @property
    def name(self) -> str:
        return self.mif.name

    @property
    def unverified(self) -> str | None:
        """Why a discovery ROM was read only in part: words of another width than dla_create_ip's 32 bits
        (its strings and hash words are then not read), else None."""
        if self.kind == "discovery ROM" and self.mif.word_bytes != 4:
            return (f"a discovery ROM of {self.mif.width}-bit words: the IP writes 32-bit words, so its architecture "
                    "name, suite version and hash words were not read")
        return None

    def discovery(self) -> dict[str, Any]:
        """Architecture name, suite version and hash words of a discovery ROM (empty otherwise)."""
        if self.kind != "discovery ROM" or self.mif.word_bytes != 4:
            return {}
        strings = ascii_strings(self.mif.data)
        versions = [(w, s) for w, s in strings if _VERSION.match(s)]
        names = [(w, s) for w, s in strings if not _VERSION.match(s)]
        words = self.mif.words()
        return {"suite_version": versions[0][1] if versions else None,
                "version_word": versions[0][0] if versions else None,
                "arch_name": names[0][1] if names else None, "name_word": names[0][0] if names else None,
                "arch_hash_words": [f"0x{int(w):08x}" for w in words[:2]],
                "other_strings": [s for _, s in (versions[1:] + names[1:])]}

    def summary(self) -> dict[str, Any]:
        m = self.mif
        doc: dict[str, Any] = {"family": "intel_dla", "kind": self.kind, "pe": self.pe, "depth": m.depth,
                               "width": m.width, "address_radix": m.address_radix, "data_radix": m.data_radix,
                               "entries": m.entries, "nonzero_words": m.used(), "first_words": m.hex_words(8)}
        if self.kind == "discovery ROM" and self.unverified:
            doc["unverified"] = self.unverified
        elif self.kind == "discovery ROM":
            doc["discovery"] = self.discovery()
        elif self.kind != "memory initialization file":
            doc["decoded"] = ("words only: how the IP packs weights into these words is not published and no build "
                              "here checks it, so binparse decodes none")
        return doc

    def report(self) -> str:
        s = self.summary()
        pe = f" (PE {s['pe']})" if s["pe"] is not None else ""
        lines = [f"FPGA AI Suite {s['kind']}{pe} {shown(self.name)}: Quartus MIF, {s['depth']:,} words of {s['width']} bits "
                 f"({shown(s['address_radix'])} addresses, {shown(s['data_radix'])} data), {s['nonzero_words']:,} not zero"]
        if "discovery" in s:
            d = s["discovery"]
            lines.append(f"  architecture: {d['arch_name']!r} (ASCII from word {d['name_word']})")
            lines.append(f"  suite version: {d['suite_version']!r} (ASCII from word {d['version_word']})")
            lines.append(f"  words 0-1: {', '.join(d['arch_hash_words'])} (the architecture hash, as a user's "
                         "bring-up report reads them; not verified)")
        if "unverified" in s:
            lines.append(f"  UNVERIFIED: {s['unverified']}")
        if "decoded" in s:
            lines.append(f"  {s['decoded']}")
        lines.append("  first words: " + " ".join(s["first_words"]))
        return "\n".join(lines)


__all__ = ["DISCOVERY", "IpRom", "PATTERNS", "ascii_strings", "kind_of"]
