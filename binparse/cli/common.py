"""What the commands share: opening a source with its options, saving arrays, writing files."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.errors import BinparseError, UsageError
from ..core.text import shown


def open_source(path: str, args: argparse.Namespace) -> Any:
    """`binparse.open(path)` with the options the object takes (`with_options`: e.g. a key) and,
    with `--net NET`, the artifact that describes it (`Described`)."""
    from ..family import opening
    from ..family import Described
    try:
        obj: Any = opening.open(path, format=getattr(args, "format", None))
    except BinparseError as exc:  # its hint in the command line's terms (--format NAME, not format=NAME)
        raise exc.on_command_line() from None
    with_options = getattr(obj, "with_options", None)
    if callable(with_options):
        obj = with_options(args)
    net = getattr(args, "net", None)
    if net:
        if not isinstance(obj, Described):
            raise UsageError("--net describes trace files and folders; this file needs no net", file=path)
        described: Any = opening.open(net)
        pick = getattr(described, "with_options", None)
        obj = obj.described_by(pick(args) if callable(pick) else described)  # e.g. one subgraph of a combined net
    return obj


def save_npy(path: str, arr: Any, what: str) -> tuple[str, dict[str, Any]]:
    """Write `arr` as .npy (`binparse.core.writes`: never through a link or onto a FIFO or device); the
    line that says so and its record (`written`)."""
    import os

    import numpy as np
    from ..core import budget
    from ..core.writes import open_for_write
    if not (isinstance(arr, np.ndarray) and arr.flags.c_contiguous):  # a strided view: copied whole first
        budget.ask(int(np.asarray(arr).nbytes), f"the C-order copy of {shown(what)}", transient=True)
    out = np.ascontiguousarray(arr)
    with open_for_write(path) as f:
        np.save(f, out, allow_pickle=False)
    line = f"{shown(path)}: {shown(what)}, {out.dtype}, shape {tuple(out.shape)}"  # `what` may quote a tensor name
    return line, written(path, os.stat(path).st_size, what, dtype=str(out.dtype), shape=list(out.shape))


def write_file(path: str, data: bytes, what: str) -> tuple[str, dict[str, Any]]:
    """Write `data` atomically (a progress line for a long write); the line that says so and its record."""
    from ..core.progress import LONG_BUFFER_BYTES, task
    from ..core.writes import write_bytes
    with task(f"writing {shown(path)} ({len(data) / 2**20:,.0f} MB)", long=len(data) > LONG_BUFFER_BYTES):
        write_bytes(path, data)
    return f"{shown(path)}: {shown(what)}", written(path, len(data), what)


def written(path: str, nbytes: int, what: str, **more: Any) -> dict[str, Any]:
    """A file a command wrote, as its `--json` says it: the path as given, its size in bytes, what it holds."""
    return {"file": path, "bytes": nbytes, "what": what, **more}


def say(args: argparse.Namespace, lines: list[str], doc: dict[str, Any]) -> None:
    """Print what a command did: its text lines, or with `--json` the document of the same facts
    (through the one JSON writer, `render.json_text`)."""
    from ..core.render import json_text
    print(json_text(doc) if getattr(args, "json", False) else "\n".join(lines))


__all__ = ["open_source", "save_npy", "say", "write_file", "written"]
