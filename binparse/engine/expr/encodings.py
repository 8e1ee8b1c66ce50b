"""Text encodings as Kaitai Struct names them, decoded and encoded by Python's codecs.

Kaitai's compiler accepts a fixed list of encodings (its canonical names below) and common
aliases of them; binparse accepts a name when Python's codec registry finds it and it is the same
codec as one of Kaitai's, so `utf8`, `SJIS` and `cp437` mean what they mean to Kaitai.
"""

from __future__ import annotations

import codecs
from functools import lru_cache

KAITAI_ENCODINGS = (
    "ASCII", "UTF-8", "UTF-16BE", "UTF-16LE", "UTF-32BE", "UTF-32LE",
    *(f"ISO-8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
    *(f"windows-{n}" for n in range(1250, 1259)),
    "IBM437", "IBM866", "Shift_JIS", "Big5", "EUC-KR",
)


# Python's own names of those codecs (`codecs.lookup(name).name` of each: tests/test_expr.py checks that they
# agree), so that naming one encoding looks up that one codec, not all of them (each is a module to import)
PYTHON_CODECS = frozenset({
    "ascii", "utf-8", "utf-16-be", "utf-16-le", "utf-32-be", "utf-32-le",
    *(f"iso8859-{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16)),
    *(f"cp{n}" for n in range(1250, 1259)), "cp437", "cp866", "shift_jis", "big5", "euc_kr"})


@lru_cache(maxsize=256)
def python_codec(name: str) -> str | None:
    """Python's codec name for a Kaitai encoding name (canonical or alias), or None if Kaitai has no such encoding."""
    try:
        codec = codecs.lookup(name).name
    except LookupError:
        return None
    return codec if codec in PYTHON_CODECS else None


def decode(data: bytes, encoding: str) -> str:
    """Bytes to text as Kaitai's Python does (`bytes.decode`, strict): a bad byte raises."""
    codec = python_codec(encoding)
    if codec is None:
        raise LookupError(f"unknown encoding {encoding!r}")
    return data.decode(codec)


def encode(text: str, encoding: str) -> bytes:
    codec = python_codec(encoding)
    if codec is None:
        raise LookupError(f"unknown encoding {encoding!r}")
    return text.encode(codec)
