"""TIDL layer traces: one file, or a folder of them, read against the net that made them.

A trace's name gives its dataId and dims (`trace_names`); the net gives the element type of a
`.y`, the scale and zero point that dequantize it, the layer that wrote it and its name
(`trace_net`). Data are memory-mapped read-only (`np.memmap`): a view costs no copy and no read
until used. Without a net a `.y` has no known element type (8 or 16 bits, signed or not), so it can
be listed but neither viewed nor dequantized: the error says to pass the net.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core.errors import BinparseError, FormatError, Retry, warn
from ....core.filemap import guard
from ....core.paths import files_in, require_regular
from ....core.render import columns, float_text
from ....core.text import shown
from ..report import tail
from .names import TraceName, parse
from .compare import Source, TraceComparison, chunked, compare_runs
from .net import DataInfo, net_data


def _mapped(path: Path, dtype: np.dtype[Any], shape: tuple[int, ...]) -> NDArray[Any]:
    """The file's elements as a read-only memory map of `shape` (an empty array for no elements)."""
    if int(np.prod(shape)) == 0:
        return np.zeros(shape, dtype)
    require_regular(path)  # an input of the command (binparse.core.inputs): never written over
    try:
        arr: NDArray[Any] = np.memmap(path, dtype=dtype, mode="r", shape=shape)
    except OSError as exc:
        raise FormatError(f"cannot read the trace: {exc.strerror or exc}", file=str(path)) from None
    guard(arr, path)  # a trace cut short while it is read: one line and exit 3, not SIGBUS
    return arr


class TraceFile:
    """One trace file: `name` (what its name says) and `info` (what the net says of its dataId, or None)."""

    def __init__(self, path: str | os.PathLike[str], info: DataInfo | None = None, *,
                 name: TraceName | None = None, net: Any = None) -> None:
        parsed = name or parse(os.fspath(path))
        if parsed is None:
            raise FormatError("not a TIDL trace file name", file=os.fspath(path),
                              expected="<prefix>DDDD_NNNN_DDDD_DDDDD_CCCCC_WWWWWxHHHHH.y / _float.bin "
                                       "(or the older <prefix>DDDD_NNNNN_CCCCC_WWWWWxHHHHH)",
                              found=Path(path).name)
        self.trace = parsed
        self.info = info
        self.net = net

    @property
    def file(self) -> str:
        return os.fspath(self.trace.file)

    def described_by(self, net: Any) -> TraceFile:
        """This trace read with the net that made it (a new object)."""
        info = net_data(net).get(self.trace.data_id)
        if info is None:
            raise FormatError("the net writes no buffer of this trace's dataId", file=self.file,
                              path="dataId (from the file name)", found=self.trace.data_id,
                              hint="the trace comes from another net or subgraph")
        return TraceFile(self.trace.file, info, name=self.trace, net=net)

    # -- what it holds -------------------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype[Any] | None:
        """float32 for a float trace; a `.y` has the net's element type (None without a net)."""
        if self.trace.is_float:
            return np.dtype("<f4")
        return self.info.dtype if self.info is not None else None

    def _checked_dtype(self) -> np.dtype[Any]:
        dt = self.dtype
        if dt is None:
            raise BinparseError("a .y trace without its net has no known element type", file=self.file,
                                expected="the net that wrote it", found=f"{self._element_bytes()} byte(s) per element",
                                hint="pass --net NET.bin (TIDL writes .y traces in the element type of the layer's "
                                     "outData: uint8, int8, uint16 or int16)")
        if not self.trace.is_float and dt.kind == "f":
            raise FormatError("a .y trace of a float buffer", file=self.file,
                              expected="a _float.bin (TIDL writes float buffers as float32 traces)",
                              found=f"the net's element type {self.info.dtype_name if self.info else dt}",
                              hint="the trace and the net do not belong together")
        size = self.trace.file.stat().st_size
        if size != self.trace.count * dt.itemsize:
            raise FormatError("trace size does not match its name's dims", file=self.file,
                              expected=f"{self.trace.count:,} elements x {dt.itemsize} B = "
                                       f"{self.trace.count * dt.itemsize:,} bytes ({dt.name})",
                              found=f"{size:,} bytes",
                              hint="the file is cut short, or the net is not the one that wrote it")
        return dt

    def allowed_sizes(self) -> tuple[int, ...]:
        """Bytes the file may have: float32 for a float trace; the net's element size for a `.y`, else 1 or 2."""
        n = self.trace.count
        if self.trace.is_float:
            return (4 * n,)
        return (self.info.dtype.itemsize * n,) if self.info is not None else (n, 2 * n)

    def dims_fit(self) -> bool:
        """Whether the name's dims are the net's dims of its dataId (True without a net)."""
        return self.info is None or self.info.shape == self.trace.shape

    def size_fits(self) -> bool:
        return self.trace.file.stat().st_size in self.allowed_sizes()

    def _element_bytes(self) -> str:
        size, n = self.trace.file.stat().st_size, self.trace.count
        if n == 0:
            return f"{size:,} B for 0 elements (a dim of its name is 0): no whole number of"
        return str(size // n) if size % n == 0 else f"{size:,} B for {n:,} elements: no whole number of"

    def array(self) -> NDArray[Any]:
        """The logical (N, D1, D2, C, H, W) elements as stored: a read-only memory map (no copy)."""
        return _mapped(self.trace.file, self._checked_dtype(), self.trace.shape)

    def dequantize_copy(self, q: NDArray[Any] | None = None) -> NDArray[np.float32]:
        """Real values, float32: `(q - tensorZeroPoint) / tensorScale` of a `.y` (TI's float trace rule), a
        copy of a float trace. `q`: a slice of `array()` to convert instead of the whole."""
        q = self.array() if q is None else q
        if self.trace.is_float:
            return np.array(q, dtype=np.float32)
        info = self.info
        assert info is not None  # _checked_dtype raised without a net
        if not np.isfinite(info.scale) or info.scale == 0:
            raise FormatError("the net gives this buffer no usable scale", file=self.file,
                              path=f"layers[{info.layer}].outData.tensorScale", expected="a finite non-zero scale",
                              found=info.scale)
        out: NDArray[np.float32] = q.astype(np.float32)  # (q - zp) / scale, each step in float32, in place
        out -= np.float32(info.zero_point)
        out /= np.float32(info.scale)
        return out

    # -- protocols -------------------------------------------------------------------------------------
    def buffers(self, data: dict[int, DataInfo]) -> dict[int, Source]:
        """This trace as a source of dequantized chunks, for `compare`."""
        return {self.trace.data_id: Source(self.trace.count, list(self.trace.shape),
                                           chunked(_flat(self), self.dequantize_copy), self.trace.file.name)}

    def compare(self, other: Any, *, min_snr_db: float = 30.0) -> TraceComparison:
        """This trace against another of the same dataId (e.g. a `.y` and TIDL's `_float.bin`)."""
        return compare_runs(self, other, min_snr_db=min_snr_db)

    def tensor_array(self, name: str | None = None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """The trace as a 6-D (N, D1, D2, C, H, W) array. A trace is dense: stored = logical."""
        if name is not None and not _names_trace(name, self):
            raise BinparseError("a trace file holds one tensor", file=self.file, expected=self.label(),
                                found=name, hint="name no tensor", retry=Retry("name no tensor", drop=("--tensor",)))
        if dequantize:
            return self.dequantize_copy(), f"{self.label()}, dequantized to float32 (a copy)"
        arr = self.array()
        return arr, f"{self.label()}, {arr.dtype.name} as stored (dense, a read-only map of the file)"

    def label(self) -> str:
        t, info = self.trace, self.info
        where = f"layer {info.layer} {info.layer_type}" if info else "no net"
        return f"TIDL trace of dataId {t.data_id} ({where})"

    def entry(self) -> dict[str, Any]:
        """The trace's row of `traces --json` (exactly the keys of issue 22)."""
        t, info = self.trace, self.info
        dt = self.dtype
        return {"file": t.file.name, "data_id": t.data_id, "shape": list(t.shape),
                "dtype": None if dt is None else dt.name, "float": t.is_float,
                "layer": info.layer if info else None, "layer_type": info.layer_type if info else None,
                "name": info.name if info else None, "scale": info.scale if info else None,
                "zero_point": info.zero_point if info else None}

    def summary(self) -> dict[str, Any]:
        return {"family": "tidl", "kind": "trace", **self.entry()}

    def report(self) -> str:
        return "\n".join([self.label(), *columns(_HEAD, [_row(self)])])


_HEAD = ["dataId", "layer", "layer type", "N,D1,D2,C,H,W", "dtype", "scale", "zero pt", "name", "file"]


def _row(f: TraceFile) -> list[Any]:
    e = f.entry()
    return [e["data_id"], "-" if e["layer"] is None else e["layer"], e["layer_type"] or "-",
            ",".join(map(str, e["shape"])), e["dtype"] or "? (no net)", "-" if e["scale"] is None else float_text(e["scale"]),
            "-" if e["zero_point"] is None else e["zero_point"], tail(e["name"] or "-", 32), e["file"]]


def _names_trace(name: str, f: TraceFile) -> bool:
    return name in (f.trace.file.name, str(f.trace.data_id)) or (f.info is not None and name == f.info.name)


def _flat(f: TraceFile) -> Callable[[], NDArray[Any]]:
    return lambda: f.array().reshape(-1)


class TraceFolder:
    """Every trace file in a folder (both naming styles, any prefix), optionally with the net."""

    def __init__(self, path: str | os.PathLike[str], net: Any = None) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise FormatError("not a folder", file=os.fspath(path), hint="a folder of TIDL trace files")
        # regular files only: no link out of the folder, no FIFO or device (binparse.core.paths)
        names = [n for n in map(parse, files_in(self.path)) if n is not None]
        names.sort(key=lambda n: (n.prefix, n.data_id, n.is_float))
        self.net = net
        data = net_data(net) if net is not None else {}
        self.files = [TraceFile(n.file, data.get(n.data_id), name=n, net=net) for n in names]
        prefixes = sorted({n.prefix for n in names})
        if net is not None and len(prefixes) > 1:
            warn(f"{self.path}: traces of {len(prefixes)} prefixes ({', '.join(prefixes)}) are all matched to one "
                 "net by dataId; a net describes one subgraph")

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> TraceFolder:
        return cls(path)

    def described_by(self, net: Any) -> TraceFolder:
        """The same folder read with the net that made it (a new object)."""
        return TraceFolder(self.path, net)

    def by_data_id(self) -> dict[int, TraceFile]:
        """One trace per dataId, for comparing: the `.y` where the net can dequantize it, else the float
        trace. FormatError when two prefixes (subgraphs, cores) trace the same dataId."""
        groups: dict[int, list[TraceFile]] = {}
        for f in self.files:
            groups.setdefault(f.trace.data_id, []).append(f)
        out: dict[int, TraceFile] = {}
        for did, fs in groups.items():
            if len({f.trace.prefix for f in fs}) > 1:
                raise FormatError("traces of one dataId with different prefixes", file=str(self.path),
                                  path=f"dataId {did}", found=", ".join(f.trace.file.name for f in fs),
                                  hint="compare one subgraph or core at a time (one folder each)")
            fixed = [f for f in fs if not f.trace.is_float and f.info is not None]
            floats = [f for f in fs if f.trace.is_float]
            out[did] = (fixed or floats or fs)[0]
        return out

    def buffers(self, data: dict[int, DataInfo]) -> dict[int, Source]:
        """dataId → its trace (`by_data_id`) as a source of dequantized chunks, for `compare`."""
        return {did: src for f in self.by_data_id().values() for did, src in f.buffers(data).items()}

    def compare(self, other: Any, *, min_snr_db: float = 30.0) -> TraceComparison:
        """Layer-by-layer comparison with `other` (a trace folder or a folder of reference .npy)."""
        return compare_runs(self, other, min_snr_db=min_snr_db)

    def tensor_array(self, name: str | None = None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """One trace of the folder, chosen by file name, dataId or tensor name."""
        hits = [f for f in self.files if name is not None and _names_trace(name, f)]
        if len(self.files) == 1 and name is None:
            hits = self.files
        if len(hits) != 1:
            raise BinparseError("choose one trace of the folder" if not hits else "several traces match",
                                file=str(self.path), expected="--tensor FILE_NAME, DATA_ID or tensor name",
                                found=name if not hits else ", ".join(f.trace.file.name for f in hits))
        return hits[0].tensor_array(None, stored=stored, dequantize=dequantize)

    @property
    def unverified(self) -> str | None:
        """Why the folder is not read whole: without its net, no trace is matched to a layer and a `.y` has
        no known element type (`traces DIR` exits 2 then; `--net NET` reads them)."""
        if self.net is not None or not self.files:
            return None
        return (f"{len(self.files)} trace(s) read without their net: the names give dataIds and dims only; "
                "the layers, the element type of each .y and the scales need --net NET")

    def summary(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"family": "tidl", "kind": "traces", "traces": [f.entry() for f in self.files]}
        if self.unverified:
            doc["unverified"] = self.unverified
        return doc

    def report(self) -> str:
        styles = sorted({f.trace.style for f in self.files})
        net = f"read with {shown(getattr(self.net, '_file', None) or 'a net')}" if self.net is not None else \
            "without a net: what the names say (pass --net for layers, element types, scales)"
        lines = [f"TIDL layer traces in {shown(self.path)}: {len(self.files)} files ({', '.join(styles) or 'none'} names), {net}"]
        unmatched = [shown(f.trace.file.name) for f in self.files if self.net is not None and f.info is None]
        if unmatched:
            lines.append(f"not written by any layer of the net ({len(unmatched)}): {', '.join(unmatched[:8])}"
                         + (" …" if len(unmatched) > 8 else ""))
        misfits = [shown(f.trace.file.name) for f in self.files if not f.size_fits()]
        if misfits:
            lines.append(f"SIZE DOES NOT MATCH the dims in the name ({len(misfits)}): {', '.join(misfits[:8])}"
                         + (" …" if len(misfits) > 8 else ""))
        other = [f"{shown(f.trace.file.name)} (net: {'x'.join(map(str, f.info.shape))})" for f in self.files
                 if f.info is not None and not f.dims_fit()]
        if other:
            lines.append(f"DIMS DIFFER from the net's ({len(other)}): {', '.join(other[:4])}" + (" …" if len(other) > 4 else ""))
        if self.files:
            lines.extend(columns(_HEAD, [_row(f) for f in self.files]))
        return "\n".join(lines)


def sniff(path: Any, head: bytes) -> Any:
    """binparse.open() of one trace file, by its name (registered for `trace_names.NAME_PATTERNS`)."""
    if path is None or parse(os.fspath(path)) is None or Path(path).is_dir():
        return None
    return TraceFile


__all__ = ["TraceFile", "TraceFolder", "sniff"]
