"""Which folders `binparse.open` reads as TIDL layer traces or as reference arrays.

Registered as a sniffer of folders (a folder has no telling name), so it is asked about every folder:
it imports nothing heavy and looks no further than the file names; the readers are imported by the opener.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .names import parse

NOTES = (".json", ".txt", ".md")  # what may lie beside reference arrays (a manifest, a readme)


def folder_kind(path: Path) -> str | None:
    """"traces" for a folder holding a trace file; "reference" for a folder of .npy files and nothing else
    but notes (so never a compile folder with its .csv or .bin files); None otherwise."""
    try:
        with os.scandir(path) as it:
            names = [e.name for e in it if e.is_file() and not e.name.startswith(".")]
    except OSError:
        return None
    if any(parse(n) is not None for n in names):
        return "traces"
    if any(n.endswith(".npy") for n in names) and all(n.endswith((".npy", *NOTES)) for n in names):
        return "reference"
    return None


def _open_traces(source: str) -> Any:
    from .read import TraceFolder
    return TraceFolder(source)


def _open_reference(source: str) -> Any:
    from .reference import ReferenceFolder
    return ReferenceFolder(source)


def sniff_folder(path: Any, head: bytes) -> Any:
    """binparse.open() of a folder of layer traces or of reference arrays. Asked about every source, so it
    imports nothing and looks no further than the names: the readers are imported by the opener."""
    if head or path is None or not Path(path).is_dir():
        return None
    kind = folder_kind(Path(path))
    return _open_traces if kind == "traces" else _open_reference if kind == "reference" else None


__all__ = ["NOTES", "folder_kind", "sniff_folder"]
