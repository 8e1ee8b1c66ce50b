"""A folder of reference tensors (.npy) named by tensor name, e.g. ONNX Runtime intermediate outputs,
to compare TIDL layer traces with.

A file matches a net buffer when its stem is the buffer's name (TI's `layer_info.txt` name, which is
the model's tensor name) with every character outside `A-Za-z0-9_.-` read as `_` on both sides (a
name like `/conv1/Relu_output_0` cannot be a file name as it is). The arrays are memory-mapped
(`np.load(mmap_mode="r")`); only their headers are read to list them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core.errors import FormatError
from ....core.filemap import map_npy
from ....core.paths import files_in
from ....core.render import columns
from ....core.text import shown
from ..report import tail
from .compare import Source, TraceComparison, chunked, compare_runs
from .net import DataInfo, net_data

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def name_key(name: str) -> str:
    """How a tensor name and a file stem are compared."""
    return _UNSAFE.sub("_", name)


def load(path: Path) -> NDArray[Any]:
    """A reference .npy, memory-mapped read-only."""
    try:
        arr: NDArray[Any] = map_npy(path)
    except (OSError, ValueError) as exc:
        raise FormatError(f"cannot read the reference array: {exc}", file=str(path),
                          expected="a .npy of numbers (numpy.save)") from None
    if arr.dtype.kind not in "iuf":
        raise FormatError("a reference array must hold numbers", file=str(path), found=arr.dtype)
    return arr


def _flat(path: Path) -> Callable[[], NDArray[Any]]:
    return lambda: load(path).reshape(-1)


def _as_float32(a: NDArray[Any]) -> NDArray[Any]:
    return np.asarray(a, dtype=np.float32)


class ReferenceFolder:
    """Reference tensors by name (`*.npy`); with a net, matched to the buffers' dataIds."""

    def __init__(self, path: str | os.PathLike[str], net: Any = None) -> None:
        self.path = Path(path)
        self.net = net
        self.files = {name_key(p.stem): p for p in files_in(self.path) if p.suffix == ".npy"}  # binparse.core.paths

    def described_by(self, net: Any) -> ReferenceFolder:
        return ReferenceFolder(self.path, net)

    def file_of(self, info: DataInfo) -> Path | None:
        """The reference file of a net buffer, by its name (None: the buffer has no name or no file)."""
        return self.files.get(name_key(info.name)) if info.name else None

    def by_data_id(self, data: dict[int, DataInfo]) -> dict[int, Path]:
        """dataId → reference file, for the named buffers of `data` that have one."""
        out: dict[int, Path] = {}
        for did, info in data.items():
            p = self.file_of(info)
            if p is not None:
                out[did] = p
        return out

    def buffers(self, data: dict[int, DataInfo]) -> dict[int, Source]:
        """dataId → its reference array as a source of float32 chunks (matched by name: needs the net)."""
        if not data:
            raise FormatError("reference tensors are matched to traces by name, through the net", file=str(self.path),
                              hint="pass --net NET.bin (with its layer_info.txt beside it, which names the buffers)")
        return {did: Source(int(load(p).size), None, chunked(_flat(p), _as_float32), p.name)
                for did, p in self.by_data_id(data).items()}

    def compare(self, other: Any, *, min_snr_db: float = 30.0) -> TraceComparison:
        return compare_runs(self, other, min_snr_db=min_snr_db)

    def summary(self) -> dict[str, Any]:
        data = net_data(self.net) if self.net is not None else {}
        ids = {name_key(d.name): d.data_id for d in data.values() if d.name}
        tensors = []
        for key, p in self.files.items():
            arr = load(p)
            tensors.append({"file": p.name, "shape": list(arr.shape), "dtype": arr.dtype.name,
                            "data_id": ids.get(key)})
        return {"family": "tidl", "kind": "reference_tensors", "tensors": tensors}

    def report(self) -> str:
        s = self.summary()["tensors"]
        lines = [f"reference tensors in {shown(self.path)}: {len(s)} .npy files"
                 + ("" if self.net is not None else " (pass --net to match them to the net's buffers by name)")]
        rows = [[tail(t["file"], 48), "x".join(map(str, t["shape"])), t["dtype"],
                 "-" if t["data_id"] is None else t["data_id"]] for t in s]
        if rows:
            lines.extend(columns(["file", "shape", "dtype", "dataId"], rows))
        return "\n".join(lines)


__all__ = ["ReferenceFolder", "load", "name_key"]
