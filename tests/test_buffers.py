"""The zero-copy core: views share memory, stay inside the buffer, and inherit read-only-ness."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

from binparse import LayoutError, byte_view, view
from binparse.core.buffers import reach


def test_view_shares_memory_and_writes_through_bytearray() -> None:
    buf = bytearray(range(16))
    v = view(buf, "<u2", 2, (3,), (4,))
    assert v.tolist() == [0x0302, 0x0706, 0x0B0A]
    assert not v.flags.owndata
    assert np.shares_memory(v, np.frombuffer(buf, np.uint8))
    buf[2] = 0xFF  # a write into the source is seen through the view ...
    assert v[0] == 0x03FF
    v[1] = 0x1234  # ... and a write through the view lands in the source
    assert buf[6:8] == b"\x34\x12"


def test_copy_does_not_share() -> None:
    buf = bytearray(8)
    v = view(buf, "<u4", 0, (2,))
    c = v.copy()
    assert c.flags.owndata and not np.shares_memory(c, v)
    buf[0] = 9
    assert c[0] == 0 and v[0] == 9


def test_read_only_sources_give_read_only_views(tmp_path) -> None:  # type: ignore[no-untyped-def]
    assert not view(bytes(8), "<u4", 0, (2,)).flags.writeable
    p = tmp_path / "f.bin"
    p.write_bytes(bytes(range(8)))
    with open(p, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    v = view(mm, "<u4", 4, ())
    assert int(v) == 0x07060504
    assert not v.flags.writeable
    with pytest.raises(ValueError):
        v[...] = 1
    assert p.read_bytes() == bytes(range(8))


def test_numpy_and_memoryview_sources() -> None:
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    v = view(a, "<f4", 8, (2,), (12,))  # column 2 of the 2x3 array
    assert v.tolist() == [2.0, 5.0]
    assert np.shares_memory(v, a)
    mv = memoryview(bytearray(b"\x01\x00\x02\x00"))
    assert view(mv, "<u2", 0, (2,)).tolist() == [1, 2]


def test_negative_strides_are_bounds_checked() -> None:
    buf = bytes(range(8))
    assert view(buf, "u1", 7, (4,), (-2,)).tolist() == [7, 5, 3, 1]
    with pytest.raises(LayoutError):
        view(buf, "u1", 3, (5,), (-1,))


def test_view_outside_buffer_is_a_layout_error_naming_bytes() -> None:
    with pytest.raises(LayoutError) as e:
        view(bytes(16), "<u4", 14, (1,), path="io.out[0]")
    msg = str(e.value)
    assert "io.out[0]" in msg and "offset 14" in msg and "bytes 14..18" in msg and "16 bytes" in msg
    with pytest.raises(LayoutError):
        view(bytes(16), "u1", -1, (1,))
    with pytest.raises(LayoutError):
        view(bytes(16), "u1", 0, (-1,))


def test_reach_and_empty_views() -> None:
    assert reach(10, (3, 4), (40, 4), 4) == (10, 10 + 80 + 12 + 4)
    assert reach(10, (0, 4), (40, 4), 4) == (10, 10)
    e = view(bytes(4), "<u4", 4, (0,))
    assert e.shape == (0,)


def test_non_contiguous_array_is_refused_with_advice() -> None:
    a = np.zeros((4, 4), np.uint8)[:, ::2]
    with pytest.raises(LayoutError) as e:
        byte_view(a)
    assert "ascontiguousarray" in str(e.value)
    with pytest.raises(LayoutError):
        byte_view(12345)  # type: ignore[arg-type]
