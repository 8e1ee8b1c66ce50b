"""TIDL input/output tensors: one object per used entry of an io descriptor, with views into the
padded device buffer.

Buffer format (TI, edgeai-tidl-tools `docs/tidl_fsg_io_tensors_format.md`, seed 000): each channel
is a padded plane of `padT + H + padB` lines of `linePitch = padL + W + padR` elements, channels are
`channelPitch` apart, then `padCh` padding channels, then DIM2, DIM1 and batch blocks:
`dim2Pitch = channelPitch * (C + padCh)`, `dim1Pitch = dim2Pitch * DIM2`,
`batchPitch = dim1Pitch * DIM1`. Element (n, d1, d2, c, h, w) is at
`padT*linePitch + padL + w + h*linePitch + c*channelPitch + d2*dim2Pitch + d1*dim1Pitch + n*batchPitch`.
TI's sample loop starts at `outPtr[outPadT + outPadL]`, omitting `* linePitch` on padT; binparse
follows the pitches (as TI's own code does), which only differs when padT > 0.

TI documents the NCHW buffer format only. The `layout` flag is reported as stored; in the real
08.2 files inputs flagged NHWC still carry NCHW pitches (inChannelPitch = H*W), so views always
follow the pitches.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...core.buffers import BufferLike
from ...core.errors import FormatError, LayoutError
from ...engine.layouts import StridedLayout

#: numpy dtype of each TIDL element type (eTIDL_ElementType; 6..8 exist on J7 only).
ELEMENT_DTYPES: dict[int, np.dtype[Any]] = {
    0: np.dtype("u1"), 1: np.dtype("i1"), 2: np.dtype("<u2"), 3: np.dtype("<i2"), 4: np.dtype("<u4"),
    5: np.dtype("<i4"), 6: np.dtype("<f4"), 7: np.dtype("<u8"), 8: np.dtype("<i8"),
    9: np.dtype("?"),  # TIDL_Bool: itidl_io.h of tools 11_02_12_00
}
#: Their names ("uint8", …): numpy builds `dtype.name` anew on every access, slowly.
DTYPE_NAMES = {code: dt.name for code, dt in ELEMENT_DTYPES.items()}
LAYOUTS = {0: "NCHW", 1: "NHWC"}


@dataclass(frozen=True)
class Pads:
    left: int
    top: int
    right: int
    bottom: int
    channel: int


@dataclass(frozen=True)
class Tensor:
    """One input or output of a TIDL network, as its io descriptor states it.

    `shape` is the logical `(N, DIM1, DIM2, C, H, W)` (DIM1 = DIM2 = 1 before 09.02). `scale` is
    None where the io version has none (TDA2). `buf_size` is `inBufSize`/`outBufSize` as stored
    (unit undocumented) where the version has it, else the computed element count
    `N * batchPitch`; `buf_size_source` says which.
    """

    direction: str
    index: int
    name: str
    element_type: int
    shape: tuple[int, int, int, int, int, int]
    pad: Pads
    channel_pitch: int
    scale: float | None
    zero_point: int
    layout: str
    buf_size: int
    buf_size_source: str
    data_id: int
    path: str = ""
    file: str | None = None

    @property
    def dtype(self) -> np.dtype[Any]:
        return ELEMENT_DTYPES[self.element_type]

    @property
    def line_pitch(self) -> int:
        return self.pad.left + self.shape[5] + self.pad.right

    @property
    def dim2_pitch(self) -> int:
        return self.channel_pitch * (self.shape[3] + self.pad.channel)

    @property
    def dim1_pitch(self) -> int:
        return self.dim2_pitch * self.shape[2]

    @property
    def batch_pitch(self) -> int:
        return batch_pitch(self.shape, self.pad.channel, self.channel_pitch)

    @property
    def offset(self) -> int:
        """Element offset of the first logical element (padT * linePitch + padL)."""
        return self.pad.top * self.line_pitch + self.pad.left

    @property
    def has_padding(self) -> bool:
        p = self.pad
        return bool(p.left or p.top or p.right or p.bottom or p.channel) or \
            self.channel_pitch != self.shape[4] * self.shape[5]

    @property
    def layout_desc(self) -> StridedLayout:
        """The strided layout of this tensor in its device buffer."""
        strides = (self.batch_pitch, self.dim1_pitch, self.dim2_pitch, self.channel_pitch, self.line_pitch, 1)
        return StridedLayout(self.dtype, self.shape, strides, self.offset,
                             self.shape[0] * self.batch_pitch, name=self.path)

    # -- buffers ---------------------------------------------------------------------------------
    def view(self, buffer: BufferLike) -> NDArray[Any]:
        """The logical tensor, shape (N, DIM1, DIM2, C, H, W), as a view of the padded buffer.

        No copy; read-only when `buffer` is; `LayoutError` when an element would lie outside it.
        """
        return self.layout_desc.view(buffer)  # errors name the tensor; the buffer is not the io file

    def dequantize(self, buffer: BufferLike) -> NDArray[np.float32]:
        """A float32 copy: `(q - zero_point) / scale`; float tensors are copied unchanged."""
        q = self.view(buffer)
        if self.dtype.kind == "f":
            return q.astype(np.float32)
        scale = self._scale()
        out: NDArray[np.float32] = (q.astype(np.float32) - np.float32(self.zero_point)) / np.float32(scale)
        return out

    def quantize(self, values: ArrayLike) -> NDArray[Any]:
        """A copy of real values in this tensor's element type: `round(x * scale) + zero_point`, clipped."""
        x = np.asarray(values, dtype=np.float64)
        if self.dtype.kind == "f":
            return x.astype(self.dtype)
        info = np.iinfo(self.dtype)
        q = np.rint(x * self._scale()) + self.zero_point
        out: NDArray[Any] = np.clip(q, info.min, info.max).astype(self.dtype)
        return out

    def pack(self, array: ArrayLike, into: BufferLike | None = None) -> BufferLike:
        """Write a logical array into a padded buffer (new one by default), zeroing all padding."""
        return self.layout_desc.pack(array, into)

    def new_buffer(self) -> bytearray:
        """A zero-filled buffer large enough for this tensor with its padding."""
        return self.layout_desc.new_buffer()

    def _scale(self) -> float:
        if self.scale is None or not np.isfinite(self.scale) or self.scale == 0:
            raise LayoutError("tensor has no usable scale", file=self.file, path=self.path,
                              expected="a finite non-zero tensor scale", found=self.scale,
                              hint="this io version stores no scale" if self.scale is None else None)
        return self.scale

    def to_json(self) -> dict[str, Any]:
        """This tensor as `binparse inspect --json` shows it (the document `summary()` makes of the
        entry; `FormatError` for values no entry may hold, as in a tensor made by hand)."""
        p = self.pad
        row = (*self.shape, p.left, p.top, p.right, p.bottom, p.channel, self.channel_pitch, self.element_type,
               self.name, self.scale, self.zero_point, self.layout,
               self.buf_size if self.buf_size_source == "file" else None, self.data_id)
        return entries_json(self.direction, (row,), self.index, self.path, self.file)[0]

#: The fields of one io entry `make_tensors` takes, in this order (TI's names without in/out and
#: without the Python prefix: `outNumBatches` is `num_batches`); the first 12 must be >= 0. dim1
#: and dim2 are 1 in versions without them (before 09.02), buf_size None where it is not stored.
ENTRY_FIELDS = ("num_batches", "dim1", "dim2", "num_channels", "height", "width", "pad_l", "pad_t", "pad_r",
                "pad_b", "pad_ch", "channel_pitch", "element_type", "data_name", "tensor_scale", "zero_point",
                "layout", "buf_size", "data_id")


def entry_shape(row: tuple[Any, ...]) -> tuple[int, ...] | None:
    """The logical shape of an entry (values in `ENTRY_FIELDS` order) when it passes the sanity
    checks every tensor passes (no negative dimension, pad or pitch; a known element type), else
    None. The check of `make_tensors`; `entries_json` has it inline (its hot path)."""
    if min(row[:12]) < 0 or row[12] not in ELEMENT_DTYPES:
        return None
    return row[:6]


def make_tensors(inputs: Iterable[tuple[Any, ...]], outputs: Iterable[tuple[Any, ...]], *, root: str,
                 file: str | None) -> tuple[list[Tensor], list[Tensor]]:
    """Input and output tensors from entries' values in `ENTRY_FIELDS` order (entry k is tensor k),
    checked (`entry_shape`).

    `buf_size` None (a version without it) becomes the computed element count. Each frozen
    dataclass instance gets its `__dict__` whole, holding every field: what its `__init__` does
    one frozen `setattr` at a time, several times slower (an io file has up to 160 tensors).
    """
    out: tuple[list[Tensor], list[Tensor]] = ([], [])
    new, set_dict = object.__new__, object.__setattr__
    for direction, rows, tensors in (("input", inputs, out[0]), ("output", outputs, out[1])):
        for k, row in enumerate(rows):
            shape = entry_shape(row)
            if shape is None:
                raise _bad_entry(direction, k, row, root, file)
            name, layout, stored = row[13], row[16], row[17]
            pads = new(Pads)
            set_dict(pads, "__dict__", {"left": row[6], "top": row[7], "right": row[8], "bottom": row[9],
                                        "channel": row[10]})
            t = new(Tensor)
            set_dict(t, "__dict__", {
                "direction": direction, "index": k, "name": name, "element_type": row[12], "shape": shape,
                "pad": pads, "channel_pitch": row[11], "scale": row[14], "zero_point": row[15],
                "layout": LAYOUTS.get(layout) or str(layout),
                "buf_size": stored if stored is not None else  # N * batch_pitch(shape, padCh, channelPitch)
                shape[0] * row[11] * (shape[3] + row[10]) * shape[2] * shape[1],
                "buf_size_source": "file" if stored is not None else "computed", "data_id": row[18],
                "path": f"{root}.{direction}s[{k}] '{name}'" if name else f"{root}.{direction}s[{k}]",
                "file": file})
            tensors.append(t)
    return out


def entries_json(direction: str, rows: Iterable[tuple[Any, ...]], first: int, root: str, file: str | None
                 ) -> list[dict[str, Any]]:
    """`to_json()` of the tensors `make_tensors` would make of entries first, first + 1, … (values
    in `ENTRY_FIELDS` order; the layout as its code or its name), without making them, after the
    same checks: the one JSON rule of `summary()` and `Tensor.to_json`."""
    docs = []
    k = first
    for row in rows:  # the values as locals (one unpack) and entry_shape's checks inline: the hot
        nb, d1, d2, c, h, w, pl, pt, pr, pb, pc, pitch, et, name, scale, zp, layout, stored, data_id = row
        dtype = DTYPE_NAMES.get(et)  # path of summary() (tests hold both to the same errors)
        if dtype is None or min(nb, d1, d2, c, h, w, pl, pt, pr, pb, pc, pitch) < 0:
            raise _bad_entry(direction, k, row, root, file)
        docs.append({
            "name": name, "index": k, "data_id": data_id, "dtype": dtype, "shape": [nb, d1, d2, c, h, w],
            "pad": {"left": pl, "top": pt, "right": pr, "bottom": pb, "channel": pc},
            "channel_pitch": pitch, "line_pitch": pl + w + pr, "scale": scale, "zero_point": zp,
            "layout": LAYOUTS.get(layout) or str(layout),
            "buf_size": stored if stored is not None else nb * pitch * (c + pc) * d2 * d1,  # N * batch_pitch
            "buf_size_source": "file" if stored is not None else "computed"})
        k += 1
    return docs


def batch_pitch(shape: tuple[int, ...], pad_ch: int, channel_pitch: int) -> int:
    """Elements between batches: `channelPitch * (C + padCh) * DIM2 * DIM1` (TI's dim2Pitch,
    dim1Pitch, batchPitch) for a logical (N, DIM1, DIM2, C, H, W) `shape`."""
    return channel_pitch * (shape[3] + pad_ch) * shape[2] * shape[1]


def _bad_entry(direction: str, k: int, row: tuple[Any, ...], root: str, file: str | None) -> FormatError:
    """The error for an entry with a negative dimension, pad or pitch, or an unknown element type."""
    prefix = f"{root}.{'in' if direction == 'input' else 'out'}_"
    neg = next((j for j in range(12) if row[j] < 0), None)
    if neg is not None:
        return FormatError("negative value", file=file, path=f"{prefix}{ENTRY_FIELDS[neg]}[{k}]", found=row[neg],
                           expected=">= 0")
    return FormatError("unknown TIDL element type", file=file, path=f"{prefix}element_type[{k}]", found=row[12],
                       expected="0..8")
