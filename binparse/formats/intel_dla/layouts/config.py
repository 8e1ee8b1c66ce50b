"""`OutputConfiguration`: binparse's model of the compiler's DlaRuntimeOutputConfiguration.

Intel's C++ definition is not public, so this is NOT Intel's binary: it models what the IP
Reference Manual and the transform reports state (schemas/intel_dla/dla_runtime_output_configuration.yaml):
the IP outputs (slices) with padded dims and logical offsets, the vector width KVEC, and
`output_tensor_mapping` as two int64 arrays (IP element offset → logical element offset). It is
built from the output dump + mapping CSVs or from layout parameters alone, converts buffers both
ways with one vectorised gather/scatter, and saves as JSON + .npy.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ....engine.accessors.intel_dla.dla_runtime_output_configuration import SCHEMA
from ....core.buffers import BufferLike, byte_view, view
from ....core import budget
from ....core.documents import load_json
from ....core.errors import FormatError, LayoutError
from .folding import find_roles, output_mapping
from ..compile.tables import DumpTable, MappingTable

Shape5 = tuple[int, int, int, int, int]


@dataclass(frozen=True)
class OutputSlice:
    """One IP output: padded dims and where it starts in the logical tensor."""

    name: str
    batch: int
    channels: int
    depth: int
    height: int
    width: int
    offset_batch: int = 0
    offset_channel: int = 0
    offset_depth: int = 0
    offset_height: int = 0
    offset_width: int = 0

    @property
    def size(self) -> int:
        return self.batch * self.channels * self.depth * self.height * self.width


@dataclass
class OutputConfiguration:
    logical_shape: Shape5
    vector_width: int
    slices: list[OutputSlice]
    ip_offsets: NDArray[np.int64]
    logical_offsets: NDArray[np.int64]
    source: str = ""
    _rows: dict[str, str] = field(default_factory=dict, repr=False)  # role -> CSV column, for errors

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def from_layout(cls, logical_shape: Shape5, kvec: int, slices: list[tuple[int, int]] | None = None) -> OutputConfiguration:
        """From layout parameters alone: logical (N, C, D, H, W), KVEC and the channel slices."""
        if kvec < 1:
            raise LayoutError("vector width must be positive", expected="KVEC 4..128", found=kvec)
        n, c, d, h, w = logical_shape
        ranges = slices or [(0, c)]
        ip, logical = output_mapping(logical_shape, kvec, ranges)
        out = [OutputSlice(f"output 0 tensor {k}", n, -(-(c1 - c0) // kvec) * kvec, d, h, w, 0, c0)
               for k, (c0, c1) in enumerate(ranges)]
        cfg = cls(tuple(logical_shape), kvec, out, ip, logical, f"layout {logical_shape}, KVEC {kvec}")  # type: ignore[arg-type]
        cfg.validate()
        return cfg

    @classmethod
    def from_csvs(cls, dump: DumpTable, mapping: MappingTable) -> OutputConfiguration:
        """From the compiler's output_transform_dump and output_transform_mapping."""
        if dump.kind != "output_transform_dump" or mapping.kind != "output_transform_mapping":
            raise FormatError("need an output dump and an output mapping", file=mapping.file,
                              found=f"{dump.kind}, {mapping.kind}")
        cols = mapping.columns
        slices = [OutputSlice(r["name"], r["batch"], r["channels"], r.get("depth", 1), r["height"], r["width"],
                              r["offset_batch"], r["offset_channel"], r.get("offset_depth", 0),
                              r["offset_height"], r["offset_width"]) for r in dump.rows]
        if not slices or not len(mapping):
            raise FormatError("empty dump or mapping", file=mapping.file)
        first = slices[0]
        names = {r: mapping.column_name(r) for r in mapping.dialect.roles if r != "arrow"}
        roles = find_roles(cols, file=mapping.file, dims=(first.depth, first.height, first.width), names=names)
        shape = (max(s.batch for s in slices),
                 int(cols["logical_c"].max()) + 1, int(cols["logical_d"].max()) + 1,
                 int(cols["logical_h"].max()) + 1, int(cols["logical_w"].max()) + 1)
        cfg = cls(shape, roles.vector, slices, cols["ip_offset"], cols["logical_offset"],
                  f"{dump.file or 'dump'} + {mapping.file or 'mapping'} ({roles.describe(names)})", names)
        cfg.validate(file=mapping.file)
        return cfg

    # -- checks ------------------------------------------------------------------------------------
    @property
    def ip_size(self) -> int:
        """FP16 elements of the IP output buffer (all slices, padding included)."""
        return sum(s.size for s in self.slices)

    @property
    def logical_size(self) -> int:
        return int(np.prod(self.logical_shape))

    def validate(self, file: str | None = None) -> None:
        """Offsets inside both tensors, each logical element written once (FormatError naming the row)."""
        for side, arr, limit in (("ip_offset", self.ip_offsets, self.ip_size),
                                 ("logical_offset", self.logical_offsets, self.logical_size)):
            bad = np.flatnonzero((arr < 0) | (arr >= limit))
            if bad.size:
                raise FormatError("offset outside the tensor", file=file, path=self._where(side, int(bad[0])),
                                  expected=f"0..{limit - 1}", found=int(arr[bad[0]]))
        order = np.argsort(self.logical_offsets, kind="stable")
        dup = np.flatnonzero(np.diff(self.logical_offsets[order]) == 0)
        if dup.size:
            k = int(order[dup[0] + 1])
            raise FormatError("two IP elements map to the same logical element", file=file,
                              path=self._where("logical_offset", k), found=int(self.logical_offsets[k]))

    def _where(self, role: str, k: int) -> str:
        if self._rows:
            return f"row {k + 2}, column '{self._rows.get(role, role)}'"
        return f"output_tensor_mapping.{role}[{k}]"

    @property
    def padding(self) -> int:
        """IP elements that hold no logical element (vector padding)."""
        return self.ip_size - int(self.ip_offsets.size)

    # -- conversion --------------------------------------------------------------------------------
    def _gather(self) -> NDArray[np.int64]:
        """IP offset of every logical element in C order (the mapping covers each exactly once)."""
        if self.logical_offsets.size != self.logical_size:
            raise LayoutError("the mapping does not cover every logical element", expected=self.logical_size,
                              found=int(self.logical_offsets.size))
        budget.ask(8 * self.logical_size, f"the gather of {self.logical_size:,} logical elements")
        g = np.empty(self.logical_size, np.int64)
        g[self.logical_offsets] = self.ip_offsets
        return g

    def ip_elements(self, buffer: BufferLike) -> NDArray[np.float16]:
        """The IP buffer as little-endian FP16 elements (a view; LayoutError if it is too short)."""
        out: NDArray[np.float16] = view(buffer, "<f2", 0, (self.ip_size,), path="ip output buffer")
        return out

    def to_logical(self, buffer: BufferLike, dtype: Any = np.float32) -> NDArray[Any]:
        """The logical output tensor (N, C, D, H, W), a copy made by one vectorised gather.

        float32 by default (the FP16 values widened exactly); dtype=np.float16 keeps the IP's own
        values and skips the widening.
        """
        ip = self.ip_elements(buffer)
        gather = self.__dict__.get("_gather_cache")
        if gather is None:
            gather = self.__dict__["_gather_cache"] = self._gather()
        if np.dtype(dtype) == np.float16:
            half: NDArray[np.float16] = ip.take(gather).reshape(self.logical_shape)
            return half
        if np.dtype(dtype) != np.float32:
            raise LayoutError("to_logical gives float32 or float16", found=str(np.dtype(dtype)))
        # Gather the FP16 bit patterns, then widen them through a 65,536-entry table (exact, and
        # faster than numpy's float16 → float32 cast).
        out: NDArray[np.float32] = _f16_table().take(ip.view(np.uint16).take(gather)).reshape(self.logical_shape)
        return out

    def to_ip(self, logical: ArrayLike) -> bytearray:
        """An FP16 IP buffer holding a logical (N, C, D, H, W) tensor; padding elements zero."""
        arr = np.asarray(logical, dtype=np.float32)
        if arr.shape != self.logical_shape:
            raise LayoutError("array does not have the logical shape", expected=self.logical_shape, found=arr.shape)
        budget.ask(2 * self.ip_size, f"the IP output buffer ({self.ip_size:,} FP16 elements)")
        buf = bytearray(self.ip_size * 2)
        ip = np.frombuffer(buf, "<f2")
        ip[self.ip_offsets] = arr.reshape(-1)[self.logical_offsets]
        return buf

    def ip_view(self, buffer: BufferLike) -> NDArray[np.float16]:
        """Zero-copy view of a one-slice IP buffer as (N, G, D, H, W, V): group G of V lanes."""
        if len(self.slices) != 1:
            raise LayoutError("a sliced output is not one strided tensor; use to_logical", found=len(self.slices))
        s, v = self.slices[0], self.vector_width
        shape = (s.batch, s.channels // v, s.depth, s.height, s.width, v)
        out: NDArray[np.float16] = view(buffer, "<f2", 0, shape, path="ip output buffer")
        return out

    # -- persistence -------------------------------------------------------------------------------
    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write `path` (.json) and the two index arrays beside it (.ip_offsets.npy, .logical_offsets.npy)."""
        from ....core.writes import open_for_write, write_text  # regular files only, never through a link
        p = Path(path).with_suffix(".json")
        for name, arr in ((".ip_offsets.npy", self.ip_offsets), (".logical_offsets.npy", self.logical_offsets)):
            with open_for_write(p.with_suffix(name)) as f:
                np.save(f, arr, allow_pickle=False)
        doc = {"format": SCHEMA["format"], "version": SCHEMA["version"],
               "note": "binparse's model of DlaRuntimeOutputConfiguration, not Intel's binary format",
               "logical_shape": list(self.logical_shape), "vector_width": self.vector_width,
               "slices": [asdict(s) for s in self.slices],
               "ip_offsets": p.with_suffix(".ip_offsets.npy").name,
               "logical_offsets": p.with_suffix(".logical_offsets.npy").name, "source": self.source}
        write_text(p, json.dumps(doc, indent=1) + "\n")
        return p

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> OutputConfiguration:
        p = Path(path)
        try:
            doc = load_json(p.read_text(encoding="utf-8"), file=p, what="the output configuration")
            if doc.get("format") != SCHEMA["format"]:
                raise FormatError("not a saved output configuration", file=str(p), expected=SCHEMA["format"],
                                  found=doc.get("format"))
            slices = [OutputSlice(**s) for s in doc["slices"]]
            arrays = [np.load(p.parent / doc[k], allow_pickle=False) for k in ("ip_offsets", "logical_offsets")]
            cfg = cls(tuple(doc["logical_shape"]), int(doc["vector_width"]), slices,
                      arrays[0].astype(np.int64), arrays[1].astype(np.int64), doc.get("source", ""))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise FormatError(f"cannot load the output configuration: {exc}", file=str(p)) from None
        cfg.validate(file=str(p))
        return cfg


_F16: list[NDArray[np.float32]] = []


def _f16_table() -> NDArray[np.float32]:
    """float32 value of every FP16 bit pattern."""
    if not _F16:
        _F16.append(np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16).astype(np.float32))
    return _F16[0]


def fp16_buffer(values: ArrayLike) -> bytes:
    """Little-endian FP16 bytes of values (what the IP's DDR holds)."""
    return np.asarray(values, dtype="<f2").tobytes()


__all__ = ["OutputConfiguration", "OutputSlice", "byte_view", "fp16_buffer"]
