"""What the commands share: opening a source with its options, saving arrays, writing files."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import BinparseError


def open_source(path: str, args: argparse.Namespace) -> Any:
    """`binparse.open(path)` with the options the object takes (`with_options`: e.g. a key) and,
    with `--net NET`, the artifact that describes it (`Described`)."""
    from .. import api
    from ..family import Described
    obj: Any = api.open(path, format=getattr(args, "format", None))
    with_options = getattr(obj, "with_options", None)
    if callable(with_options):
        obj = with_options(args)
    net = getattr(args, "net", None)
    if net:
        if not isinstance(obj, Described):
            raise BinparseError("--net describes trace files and folders; this file needs no net", file=path)
        described: Any = api.open(net)
        pick = getattr(described, "with_options", None)
        obj = obj.described_by(pick(args) if callable(pick) else described)  # e.g. one subgraph of a combined net
    return obj


def save_npy(path: str, arr: Any, what: str) -> None:
    import numpy as np
    out = np.ascontiguousarray(arr)
    with open(path, "wb") as f:
        np.save(f, out)
    print(f"{path}: {what}, {out.dtype}, shape {tuple(out.shape)}")


def write_file(path: str, data: bytes, what: str) -> None:
    """Write `data` atomically (a progress line for a long write), then say what was written."""
    from ..fixtures.common import write_atomic
    from ..progress import LONG_BUFFER_BYTES, task
    with task(f"writing {path} ({len(data) / 2**20:,.0f} MB)", long=len(data) > LONG_BUFFER_BYTES):
        write_atomic(Path(path), data)
    print(f"{path}: {what}")


__all__ = ["open_source", "save_npy", "write_file"]
