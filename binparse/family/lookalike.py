"""Does a file binparse could not read look like an artifact? (so `doctor` names it, not ignores it)

A file looks like an artifact by its name (the names the vendor tools write) or by its first bytes
(a TIDL netVersion, which is a date 0x20YYMMDD, or an ESP-DL magic): each family registers those
signs (`binparse.family.Signs`). A text or JSON file is never taken for a binary artifact,
whatever its name: only the text formats are matched when they are text (Intel's CSV reports by
name; esp-ppq's printouts and records, whose names say nothing, by their first bytes).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .plugins import signs
from ..core.text import is_text, name_matches


@dataclass(frozen=True)
class Lookalike:
    """What a file seems to be, and why binparse thinks so."""

    family: str
    kind: str
    why: str


def describe_text(head: bytes) -> str:
    """What a text file looks like, in a few words: JSON, CSV with its header, or its first line."""
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if first[:1] in ("{", "["):
        return "a JSON text file"
    if first and (first.count(",") >= 2 or first.count(";") >= 2):
        cells = first.replace(";", ",").split(",")
        shown = ",".join(cells[:6]) + (",…" if len(cells) > 6 else "")
        return f"a CSV text file with the header {shown[:100]!r}"
    return f"a text file starting {first[:60]!r}" if first else "an empty text file"


def text_kinds() -> str:
    """The text files binparse reads, with their names, or "by its first line" (from every family's signs)."""
    kinds = [f"{s.family} {s.kind} ({', '.join(s.names) or 'by its first line'})" for s in signs() if not s.binary]
    return "; ".join(dict.fromkeys(kinds)) or "none"


def looks_like_artifact(path: Path, head: bytes | None = None) -> Lookalike | None:
    """Why `path` looks like an artifact binparse should read, or None."""
    if head is None:
        with open(path, "rb") as f:
            head = f.read(4096)
    text = is_text(head)
    for sign in signs():
        for pattern in sign.names:
            if name_matches(path.name, pattern) and sign.binary != text:
                return Lookalike(sign.family, sign.kind, f"named like {pattern}")
    if text:  # a text file by the first bytes of a text kind only (a printout whose name says nothing)
        for sign in signs():
            why = sign.head(head) if sign.head is not None and not sign.binary and not sign.names else None
            if why:
                return Lookalike(sign.family, sign.kind, why)
        return None
    for sign in signs():
        why = sign.head(head) if sign.head is not None else None
        if why:
            return Lookalike(sign.family, sign.kind, why)
    return None


__all__ = ["Lookalike", "describe_text", "is_text", "looks_like_artifact", "text_kinds"]
