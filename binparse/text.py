"""Is a file text? (A text file is never read as a binary artifact, whatever its name or first bytes.)"""

from __future__ import annotations


def is_text(head: bytes) -> bool:
    """True for text (UTF-8 without NUL bytes; JSON included): never a binary artifact."""
    if b"\x00" in head:
        return False
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:  # a multi-byte character cut by the read limit is still text
        return exc.start >= len(head) - 3
    return True


__all__ = ["is_text"]
