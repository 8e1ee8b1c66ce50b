"""Detections from a TIDL object-detection output buffer, as a zero-copy structured array.

The header (`TIDL_ODLayerHeaderInfo`, floats) gives the object count, the record size and the
offset of the first record; the records are `TIDL_ODLayerObjInfo`. The structured dtype comes from
the generated accessor of `schemas/tidl/tidl_od_output.ksy`; records shorter than the full
412-byte struct keep only the key points that fit.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ...engine.accessors.tidl.tidl_od_output import OdLayerObjInfo, TidlOdOutput
from ...core.buffers import BufferLike, byte_view, view
from ...core.errors import FormatError

OBJ_DTYPE: np.dtype[Any] = OdLayerObjInfo._DTYPE  # type: ignore[assignment]
_BASE = 28  # obj_id .. ymax


def _whole(value: float, name: str, offset: int, file: str | None, lo: int = 0) -> int:
    if not math.isfinite(value) or value != int(value) or value < lo:
        raise FormatError("header field is not a usable whole number", file=file,
                          path=f"tidl_od_output.header.{name}", offset=offset,
                          expected=f"a whole number >= {lo}", found=value)
    return int(value)


def detections(buffer: BufferLike, offset: int = 0, *, file: str | None = None) -> NDArray[Any]:
    """The detected objects of an OD output buffer starting at byte `offset`, as a structured view
    (fields obj_id, label, score, xmin, ymin, xmax, ymax, key_points[k].{x, y, kpt_confidence})."""
    mv = byte_view(buffer, file=file)
    head = TidlOdOutput.from_buffer(mv, offset, file=file).header
    n = _whole(head.num_det_objects, "num_det_objects", offset, file)
    size = _whole(head.obj_info_size, "obj_info_size", offset + 4, file, _BASE)
    first = _whole(head.obj_info_offset, "obj_info_offset", offset + 12, file, 20)
    keep = min(32, (size - _BASE) // 12)
    fields: dict[str, Any] = dict(OBJ_DTYPE.fields or {})
    names = [x for x in OBJ_DTYPE.names or () if x != "key_points"]
    formats: list[Any] = [fields[x][0] for x in names]
    offsets = [fields[x][1] for x in names]
    if keep:
        names.append("key_points")
        formats.append((fields["key_points"][0].base, (keep,)))
        offsets.append(_BASE)
    spec: Any = {"names": names, "formats": formats, "offsets": offsets, "itemsize": size}
    return view(mv, np.dtype(spec), offset + first, (n,), (size,), file=file, path="tidl_od_output.objects")
