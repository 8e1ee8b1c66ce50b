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
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ...buffers import BufferLike
from ...errors import FormatError, LayoutError
from ...layouts import StridedLayout

#: numpy dtype of each TIDL element type (eTIDL_ElementType; 6..8 exist on J7 only).
ELEMENT_DTYPES: dict[int, np.dtype[Any]] = {
    0: np.dtype("u1"), 1: np.dtype("i1"), 2: np.dtype("<u2"), 3: np.dtype("<i2"), 4: np.dtype("<u4"),
    5: np.dtype("<i4"), 6: np.dtype("<f4"), 7: np.dtype("<u8"), 8: np.dtype("<i8"),
}
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
        return self.dim1_pitch * self.shape[1]

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
        return {
            "name": self.name, "index": self.index, "data_id": self.data_id, "dtype": self.dtype.name,
            "shape": list(self.shape),
            "pad": {"left": self.pad.left, "top": self.pad.top, "right": self.pad.right,
                    "bottom": self.pad.bottom, "channel": self.pad.channel},
            "channel_pitch": self.channel_pitch, "line_pitch": self.line_pitch,
            "scale": self.scale, "zero_point": self.zero_point, "layout": self.layout,
            "buf_size": self.buf_size, "buf_size_source": self.buf_size_source,
        }


def make_tensor(direction: str, index: int, fields: dict[str, Any], *, root: str, file: str | None) -> Tensor:
    """A Tensor from one entry's field values (keys without the in/out prefix), checked for sanity."""
    prefix = "in" if direction == "input" else "out"
    path = f"{root}.{direction}s[{index}]" + (f" '{fields['name']}'" if fields.get("name") else "")

    def bad(field: str, msg: str, value: Any, expected: str) -> FormatError:
        return FormatError(msg, file=file, path=f"{root}.{prefix}_{field}[{index}]", found=value, expected=expected)

    for key in ("width", "height", "num_channels", "num_batches", "dim1", "dim2", "pad_l", "pad_t",
                "pad_r", "pad_b", "pad_ch", "channel_pitch"):
        if fields[key] < 0:
            raise bad(key, "negative value", fields[key], ">= 0")
    et = fields["element_type"]
    if et not in ELEMENT_DTYPES:
        raise bad("element_type", "unknown TIDL element type", et, "0..8")
    shape = (fields["num_batches"], fields["dim1"], fields["dim2"], fields["num_channels"],
             fields["height"], fields["width"])
    pads = Pads(fields["pad_l"], fields["pad_t"], fields["pad_r"], fields["pad_b"], fields["pad_ch"])
    t = Tensor(direction, index, fields["name"], et, shape, pads, fields["channel_pitch"],
               fields["scale"], fields["zero_point"], LAYOUTS.get(fields["layout"], str(fields["layout"])),
               0, "", fields["data_id"], path, file)
    stored = fields.get("buf_size")
    buf_size, source = (stored, "file") if stored is not None else (shape[0] * t.batch_pitch, "computed")
    return Tensor(**{**t.__dict__, "buf_size": buf_size, "buf_size_source": source})
