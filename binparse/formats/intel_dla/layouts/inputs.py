"""The IP input side: logical input → FP16 IP input buffer (CVEC-packed, optionally folded).

Built from an input_transform_dump row (and its input mapping when the compile wrote one) or
from parameters. When both the dump and a mapping are there, the mapping is used and checked
against what the dump's parameters give.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ....core import budget
from ....core.buffers import view
from ....core.errors import FormatError, LayoutError
from .folding import VECTOR_WIDTHS, Folding, find_roles, input_mapping
from ..compile.tables import DumpTable, MappingTable

Shape5 = tuple[int, int, int, int, int]


@dataclass
class InputConfiguration:
    """One IP input: logical shape (N, C, D, H, W), CVEC, folding, and the index arrays.

    The index arrays are made when first used (`logical_offsets`, `ip_offsets`): a dump's row
    claims a shape, and describing or checking the configuration costs nothing whatever it claims;
    packing or reading a buffer makes them, for an array or a buffer that holds the elements.
    """

    name: str
    logical_shape: Shape5
    cvec: int
    folding: Folding
    ip_size: int
    source: str = ""
    _offsets: tuple[NDArray[np.int64], NDArray[np.int64]] | None = field(default=None, repr=False, compare=False)

    def _mapping(self) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        if self._offsets is None:
            self._offsets = input_mapping(self.logical_shape, self.cvec, self.folding)
        return self._offsets

    @property
    def logical_offsets(self) -> NDArray[np.int64]:
        return self._mapping()[0]

    @property
    def ip_offsets(self) -> NDArray[np.int64]:
        return self._mapping()[1]

    @classmethod
    def from_params(cls, logical_shape: Shape5, cvec: int, folding: Folding | None = None,
                    name: str = "input 0") -> InputConfiguration:
        f = folding or Folding()
        n, c, d, h, w = logical_shape
        out_c, out_h, out_w = f.ip_dims(c, h, w, cvec)
        size = n * out_c * d * out_h * out_w
        return cls(name, logical_shape, cvec, f, size, f"parameters, CVEC {cvec}")

    @classmethod
    def from_dump(cls, dump: DumpTable, mapping: MappingTable | None = None, row: int = 0,
                  cvec: int | None = None) -> InputConfiguration:
        """From an input dump row; CVEC from the mapping, else the one that pads the folded
        channels to the dump's output channels, else `cvec`."""
        if dump.kind != "input_transform_dump" or not dump.rows:
            raise FormatError("need an input transform dump with a row", file=dump.file, found=dump.kind)
        r = dump.rows[row]
        if "channels" in r:
            shape = (1, r["channels"], r.get("depth", 1), r["height"], r["width"])
        elif mapping is not None:  # the manuals' dump has the folded dims only: take the logical ones from the mapping
            cols = mapping.columns
            shape = (1, *(int(cols[f"logical_{k}"].max()) + 1 for k in "cdhw"))  # type: ignore[assignment]
        else:
            raise FormatError("this dump dialect has only the folded dims; the input mapping is needed too",
                              file=dump.file, found=dump.dialect.name)
        sh, sw = r.get("stride_h", 1), r.get("stride_w", 1)
        folding = Folding(sh, sw, r.get("pad_top", 0), r.get("pad_left", 0), r.get("pad_bottom", 0),
                          r.get("pad_right", 0), r["out_channels"], r["out_height"], r["out_width"])
        if mapping is not None:
            cvec = find_roles(mapping.columns, file=mapping.file).vector
        elif cvec is None:
            folded = shape[1] * sh * sw
            fits = [v for v in VECTOR_WIDTHS if v >= 4 and -(-folded // v) * v == r["out_channels"]]
            if not fits:
                raise FormatError("cannot tell CVEC from the dump", file=dump.file, path=f"row {row + 2}",
                                  expected="output channels = folded channels rounded up to a CVEC",
                                  found=f"{folded} folded, {r['out_channels']} output channels",
                                  hint="pass cvec=N, the CVEC the IP was built with")
            cvec = fits[0]
        cfg = cls.from_params(shape, cvec, folding, r.get("name", f"input {row}"))
        cfg.source = f"{dump.file or 'dump'} row {row + 2}, CVEC {cvec}"
        if mapping is not None:
            if mapping.columns["logical_offset"].size != int(np.prod(shape)):
                raise FormatError("the input mapping's rows are not the dump's elements", file=mapping.file,
                                  expected=f"{int(np.prod(shape)):,} rows", found=mapping.columns["logical_offset"].size)
            order = np.argsort(mapping.columns["logical_offset"])
            got = mapping.columns["ip_offset"][order]
            if not np.array_equal(got, cfg.ip_offsets[np.sort(mapping.columns["logical_offset"])]):
                k = int(np.flatnonzero(got != cfg.ip_offsets[np.sort(mapping.columns["logical_offset"])])[0])
                raise FormatError("the input mapping disagrees with the dump's layout", file=mapping.file,
                                  path=f"row {int(order[k]) + 2}, column '{mapping.column_name('ip_offset')}'",
                                  found=int(got[k]))
            cfg.source += f" (checked against {mapping.file or 'the mapping'})"
        return cfg

    def to_ip(self, logical: ArrayLike) -> bytearray:
        """FP16 IP input buffer of a logical (N, C, D, H, W) or (N, C, H, W) array; padding zero."""
        arr = np.asarray(logical, dtype=np.float32)
        n, c, d, h, w = self.logical_shape
        if arr.shape == (n, c, h, w) and d == 1:
            arr = arr.reshape(self.logical_shape)
        if arr.shape != self.logical_shape:
            raise LayoutError("array does not have the input's logical shape", path=self.name,
                              expected=self.logical_shape, found=arr.shape)
        if self.ip_size > 64 * arr.size + (1 << 20):
            raise LayoutError("the input's IP buffer is far larger than its elements", path=self.name,
                              expected=f"IP size near {arr.size:,} elements", found=f"{self.ip_size:,} elements")
        budget.ask(2 * self.ip_size, f"the IP input buffer ({self.ip_size:,} FP16 elements)", path=self.name)
        buf = bytearray(self.ip_size * 2)
        np.frombuffer(buf, "<f2")[self.ip_offsets] = arr.reshape(-1)[self.logical_offsets]
        return buf

    def ip_view(self, buffer: Any) -> NDArray[np.float16]:
        """Zero-copy view of an IP input buffer as (N, G, D, OH, OW, CVEC): group G of CVEC lanes."""
        n, c, d, h, w = self.logical_shape
        oc, oh, ow = self.folding.ip_dims(c, h, w, self.cvec)
        out: NDArray[np.float16] = view(buffer, "<f2", 0, (n, oc // self.cvec, d, oh, ow, self.cvec),
                                        path=f"{self.name} ip buffer")
        return out

    def to_logical(self, buffer: Any) -> NDArray[np.float32]:
        """The logical input back from an IP input buffer (a copy), for round trips."""
        have = len(memoryview(buffer).cast("B"))
        if have < 2 * self.ip_size:
            raise LayoutError("the buffer is shorter than the IP input", path=self.name,
                              expected=f"{2 * self.ip_size:,} bytes", found=f"{have:,} bytes")
        ip = np.frombuffer(buffer, "<f2", count=self.ip_size)
        out = np.empty(int(np.prod(self.logical_shape)), np.float32)
        out[self.logical_offsets] = ip[self.ip_offsets]
        return out.reshape(self.logical_shape)


def pack_inputs(configs: list[InputConfiguration], arrays: list[ArrayLike]) -> bytearray:
    """One IP input buffer for a multi-input graph: each input's batches in turn, inputs in order
    ("stored by batch and then by input number": input 1 batch 1, input 1 batch 2, input 2 …).

    The compiler reports where each input starts; this packs them back to back, which is that
    layout when the inputs are not further aligned. Returns the buffer; `offsets_of` gives the
    byte offset of each input in it.
    """
    if len(configs) != len(arrays):
        raise LayoutError("one array per input", expected=len(configs), found=len(arrays))
    out = bytearray()
    for cfg, arr in zip(configs, arrays):
        out += cfg.to_ip(arr)
    return out


def offsets_of(configs: list[InputConfiguration]) -> list[int]:
    """Byte offset of each input in a `pack_inputs` buffer."""
    sizes = [2 * c.ip_size for c in configs]
    return [sum(sizes[:k]) for k in range(len(sizes))]
