"""The records of a pack (PDL1, PDL2, PDL3) lie apart: checked before any model of it is decoded.

esp-dl's `pack_espdl_models.py` writes each model's record right after the one before (its name
table first): records never overlap, and `FbsLoader` finds each by its entry's `data_off`. Entries
that point at one record share it (decoded once: `EspdlModel.twin`). Records that overlap without
being one are no pack any tool writes: a hostile file can so make every 16 bytes the start of
another model (20,000 entries over one 7 KB model in 565 KB: 20,000 decodings, 40 s and 357 MB
before this check). Such a pack is not read (a `FormatError`: exit 2, nothing about it proven).
"""

from __future__ import annotations

from typing import Any

from ....core.errors import FormatError


def check_apart(entries: list[Any], header_size: int, file: str | None) -> None:
    """Raise a FormatError naming two entries whose records overlap (an entry's record: its magic, its
    `header_size`-byte header and its payload from `data_off`); entries at one `data_off` share it."""
    spans: dict[int, tuple[int, int]] = {}  # data_off -> (end, entry index), first entry of each record
    for k, e in enumerate(entries):
        start = int(e.data_off)
        if start not in spans:
            spans[start] = (start + header_size + int(e.model.size), k)
    prev_start, prev_end, prev_k = -1, -1, -1
    for start in sorted(spans):
        end, k = spans[start]
        if start < prev_end:
            a, b = sorted((prev_k, k))
            raise FormatError(
                f"the records of pack entries {a} and {b} overlap (bytes {prev_start:,}..{prev_end:,} and "
                f"{start:,}..{end:,}): not a pack esp-dl's tools write, not read", file=file,
                path=f"espdl_container.entries[{b}].data_off", offset=start,
                expected="records one after another, as pack_espdl_models.py writes them (entries that point at "
                         "one record share it)",
                found=f"a record starting inside another, {prev_end - start:,} bytes before its end",
                hint="the pack is damaged or made by hand; each model of it may still be cut out with its offsets")
        if end > prev_end:
            prev_start, prev_end, prev_k = start, end, k
