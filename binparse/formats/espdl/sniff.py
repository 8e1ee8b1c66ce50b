"""Files of the ESP-DL family known by name: esp-ppq's `.info` printouts and `.json` quantization
records, and `.espdl` names whose
magic is none ESP-DL writes (refused with the magic found, never matched against other families'
sizes)."""

from __future__ import annotations

import os
from typing import Any, NoReturn

from ...core.errors import FormatError
from ...core.text import is_text

MAGICS = (b"EDL1", b"EDL2", b"PDL1", b"PDL2", b"PDL3")  # fbs_loader.hpp's container formats


def refuse(file: str | None, head: bytes) -> NoReturn:
    """The error for a file named .espdl that is no ESP-DL container."""
    raise FormatError("not an ESP-DL model file: its magic is none of the container formats ESP-DL writes",
                      file=file, path="espdl_container.magic", offset=0,
                      expected=" / ".join(m.decode() for m in MAGICS),
                      found=f"{head[:4]!r} ({head[:4].hex(' ') or 'an empty file'})",
                      hint="the name says .espdl but the bytes are another format (e.g. a custom header); "
                           "binparse reads the files esp-ppq and esp-dl's pack_espdl_models.py write")


def sniff(path: Any, head: bytes) -> Any:
    """An opener for a `.info` printout or a refusal for a `.espdl` name with an unknown magic; else None."""
    if path is None:
        return None
    name = os.fspath(path)
    if name.endswith(".espdl") and head[:4] not in MAGICS and not os.path.isdir(name):
        return lambda source: refuse(name, head)
    if name.endswith(".info") and is_text(head):
        from .plugin import info_head
        if not info_head(head):
            return None
        from .printouts.info import InfoPrintout
        return InfoPrintout.read
    if name.endswith(".json") and is_text(head):
        from .plugin import record_head
        if record_head(head):
            from .printouts.record import QuantRecord
            return QuantRecord.read
    return None


__all__ = ["MAGICS", "refuse", "sniff"]
