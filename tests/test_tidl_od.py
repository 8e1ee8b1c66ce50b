"""TIDL object-detection output buffers → structured array of detections (zero-copy)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

from binparse import FormatError, LayoutError
from binparse.formats.tidl.od import detections


def od_buffer(objects: list[tuple[float, ...]], size: int = 412, first: int = 20, lead: int = 0) -> bytearray:
    buf = bytearray(lead + first + size * len(objects))
    struct.pack_into("<4fi", buf, lead, float(len(objects)), float(size), 0.0, float(first), 1)
    for k, obj in enumerate(objects):
        struct.pack_into("<7f", buf, lead + first + k * size, *obj)
    return buf


def test_detections_are_a_view() -> None:
    buf = od_buffer([(0, 3, 0.9, 0.1, 0.2, 0.3, 0.4), (1, 7, 0.5, 0.5, 0.5, 0.75, 0.625)])
    struct.pack_into("<3f", buf, 20 + 412 + 28 + 12, 10.0, 20.0, 0.5)  # object 1, key point 1
    d = detections(buf)
    assert d.shape == (2,) and d.dtype.itemsize == 412
    assert d["label"].tolist() == [3.0, 7.0] and d["xmax"].tolist() == [0.30000001192092896, 0.75]
    assert d["key_points"].shape == (2, 32) and d["key_points"][1, 1].tolist() == (10.0, 20.0, 0.5)
    assert np.shares_memory(d, np.frombuffer(buf, np.uint8)) and not d.flags.owndata
    struct.pack_into("<f", buf, 20 + 8, 0.25)
    assert d["score"][0] == 0.25


def test_short_records_and_offsets() -> None:
    buf = od_buffer([(5, 1, 0.5, 0, 0, 1, 1)] * 3, size=28 + 2 * 12, first=32, lead=8)
    d = detections(buf, offset=8)
    assert d.shape == (3,) and d["key_points"].shape == (3, 2) and d["obj_id"].tolist() == [5.0] * 3
    bare = detections(od_buffer([(5, 1, 0.5, 0, 0, 1, 1)], size=28))
    assert "key_points" not in (bare.dtype.names or ())


def test_bad_headers() -> None:
    buf = od_buffer([(0, 1, 0.5, 0, 0, 1, 1)])
    struct.pack_into("<f", buf, 0, 2.5)
    with pytest.raises(FormatError, match="whole number") as e:
        detections(buf)
    assert e.value.path == "tidl_od_output.header.num_det_objects"
    struct.pack_into("<f", buf, 0, float("nan"))
    with pytest.raises(FormatError):
        detections(buf)
    struct.pack_into("<f", buf, 0, 1000.0)  # more objects than the buffer holds
    with pytest.raises(LayoutError, match="outside the buffer"):
        detections(buf)
    with pytest.raises(FormatError, match="data too short"):
        detections(bytes(10))
