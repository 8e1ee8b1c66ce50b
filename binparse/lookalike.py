"""Does a file binparse could not read look like an artifact? (so `doctor` names it, not ignores it)

A file looks like an artifact by its name (the names the vendor tools write) or by its first bytes
(a TIDL netVersion, which is a date 0x20YYMMDD, or an ESP-DL magic). A text or JSON file is never
taken for a binary artifact, whatever its name: only the text formats (Intel's CSV reports) are
matched by name when they are text.
"""

from __future__ import annotations

import fnmatch
import struct
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Lookalike:
    """What a file seems to be, and why binparse thinks so."""

    family: str
    kind: str
    why: str


# (name pattern, family, kind, binary?): the names the vendor tools give their artifacts.
NAMES = (
    ("*_tidl_net.bin", "tidl", "net.bin", True),
    ("*_tidl_io_1.bin", "tidl", "io_1.bin", True),
    ("tidl_net_*.bin", "tidl", "net.bin", True),
    ("tidl_io_buff*.bin", "tidl", "io_1.bin", True),
    ("*.espdl", "espdl", ".espdl", True),
    ("*transform*.csv", "intel_dla", "transform report", False),
)
ESPDL_MAGICS = (b"EDL", b"PDL")


def is_text(head: bytes) -> bool:
    """True for text (UTF-8 without NUL bytes; JSON included): never a binary artifact."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:  # a multi-byte character cut by the read limit is still text
        return exc.start >= len(head) - 3
    return True


def net_version_like(word: int) -> bool:
    """True when a 32-bit word reads as a TIDL netVersion: a date 0x20YYMMDD in hex digits."""
    digits = f"{word:08X}"
    if not digits.isdigit() or not digits.startswith("20"):
        return False
    month, day = int(digits[4:6]), int(digits[6:8])
    return 1 <= month <= 12 and 1 <= day <= 31


def looks_like_artifact(path: Path, head: bytes | None = None) -> Lookalike | None:
    """Why `path` looks like an artifact binparse should read, or None."""
    if head is None:
        with open(path, "rb") as f:
            head = f.read(4096)
    text = is_text(head)
    for pattern, family, kind, binary in NAMES:
        if fnmatch.fnmatch(path.name, pattern) and binary != text:
            return Lookalike(family, kind, f"named like {pattern}")
    if text:
        return None
    if len(head) >= 4 and net_version_like(struct.unpack_from("<I", head)[0]):
        return Lookalike("tidl", "net.bin", f"first word 0x{struct.unpack_from('<I', head)[0]:08X} is a "
                                            "netVersion-like date")
    if head[:3] in ESPDL_MAGICS:
        return Lookalike("espdl", ".espdl", f"magic {head[:4]!r}")
    return None


__all__ = ["Lookalike", "NAMES", "is_text", "looks_like_artifact", "net_version_like"]
