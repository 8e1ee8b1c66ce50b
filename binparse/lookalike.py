"""Does a file binparse could not read look like an artifact? (so `doctor` names it, not ignores it)

A file looks like an artifact by its name (the names the vendor tools write) or by its first bytes
(a TIDL netVersion, which is a date 0x20YYMMDD, or an ESP-DL magic): each family registers those
signs (`binparse.family.Signs`). A text or JSON file is never taken for a binary artifact,
whatever its name: only the text formats (Intel's CSV reports) are matched by name when they are text.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path

from .family import signs


@dataclass(frozen=True)
class Lookalike:
    """What a file seems to be, and why binparse thinks so."""

    family: str
    kind: str
    why: str


def is_text(head: bytes) -> bool:
    """True for text (UTF-8 without NUL bytes; JSON included): never a binary artifact."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:  # a multi-byte character cut by the read limit is still text
        return exc.start >= len(head) - 3
    return True


def looks_like_artifact(path: Path, head: bytes | None = None) -> Lookalike | None:
    """Why `path` looks like an artifact binparse should read, or None."""
    if head is None:
        with open(path, "rb") as f:
            head = f.read(4096)
    text = is_text(head)
    for sign in signs():
        for pattern in sign.names:
            if fnmatch.fnmatch(path.name, pattern) and sign.binary != text:
                return Lookalike(sign.family, sign.kind, f"named like {pattern}")
    if text:
        return None
    for sign in signs():
        why = sign.head(head) if sign.head is not None else None
        if why:
            return Lookalike(sign.family, sign.kind, why)
    return None


__all__ = ["Lookalike", "is_text", "looks_like_artifact"]
