"""TIDL tensors: views into padded buffers (positions worked out by hand from TI's pitch rules),
zero-copy proofs, packing with zeroed padding, (de)quantisation, all io versions."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import binparse
from binparse import FormatError, LayoutError

from .conftest import FIXTURES

IO_08 = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
IO_0902 = FIXTURES / "tidl" / "io_09_02_c1" / "902_tidl_io_1.bin"
IO_10 = FIXTURES / "tidl" / "io_10_c1" / "905_tidl_io_1.bin"
IO_TDA2 = FIXTURES / "tidl" / "io_tda2" / "908_tidl_io_1.bin"


def seg_map() -> binparse.formats.tidl.Tensor:  # type: ignore[name-defined]
    return binparse.open(IO_08).tensor("seg_map")


def hand_buffer() -> tuple[bytearray, np.ndarray]:
    """seg_map (21 x 64 x 64 uint8; pads L1 T1 R2 B1, padCh 1, channel pitch 4422, line pitch 67)
    written element by element from the pitch rules, padding filled with 0xEE."""
    logical = ((np.arange(21 * 64 * 64) * 7) % 251).astype(np.uint8).reshape(21, 64, 64)
    buf = bytearray(b"\xee" * (22 * 4422))
    for c in (0, 5, 20):
        for h in (0, 31, 63):
            for w in (0, 17, 63):
                buf[1 * 67 + 1 + w + h * 67 + c * 4422] = int(logical[c, h, w])
    return buf, logical


def test_view_reads_the_elements_where_the_pitches_put_them() -> None:
    t = seg_map()
    assert (t.line_pitch, t.channel_pitch, t.offset) == (67, 4422, 68)  # seed 000's loop would start at 2
    buf, logical = hand_buffer()
    v = t.view(buf)
    assert v.shape == (1, 1, 1, 21, 64, 64) and v.dtype == np.uint8
    for c in (0, 5, 20):
        for h in (0, 31, 63):
            for w in (0, 17, 63):
                assert v[0, 0, 0, c, h, w] == logical[c, h, w]
    assert v.strides == (97284, 97284, 97284, 4422, 67, 1)


def test_view_is_zero_copy_and_writes_through() -> None:
    t = seg_map()
    buf = bytearray(t.new_buffer())
    v = t.view(buf)
    assert not v.flags.owndata and np.shares_memory(v, np.frombuffer(buf, np.uint8))
    v[0, 0, 0, 2, 3, 4] = 99
    assert buf[68 + 4 + 3 * 67 + 2 * 4422] == 99
    buf[68] = 5
    assert v[0, 0, 0, 0, 0, 0] == 5
    ro = t.view(bytes(buf))
    assert not ro.flags.writeable


def test_view_of_a_mapped_file_is_read_only(tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = seg_map()
    p = tmp_path / "out.bin"
    p.write_bytes(bytes(t.pack(np.ones((21, 64, 64), np.uint8))))
    v = t.view(binparse.core.filemap.map_file(p))
    assert int(v.sum()) == 21 * 64 * 64 and not v.flags.writeable


def test_bounds() -> None:
    t = seg_map()
    last = 68 + 63 + 63 * 67 + 20 * 4422  # byte of the last logical element
    assert t.view(bytes(last + 1))[0, 0, 0, 20, 63, 63] == 0  # shorter than buf_size, still every element inside
    with pytest.raises(LayoutError) as e:
        t.view(bytes(last))
    assert "outside the buffer" in str(e.value) and "outputs[1]" in str(e.value)
    assert t.buf_size == 22 * 4422 and t.buf_size_source == "computed"
    assert len(t.new_buffer()) == 22 * 4422


def test_pack_zeroes_every_padding_byte() -> None:
    t = seg_map()
    buf, logical = hand_buffer()
    out = t.pack(logical, into=buf)
    assert out is buf
    expected = np.zeros(22 * 4422, np.uint8)
    idx = (68 + np.arange(64)[None, :, None] * 67 + np.arange(64)[None, None, :] + np.arange(21)[:, None, None] * 4422)
    expected[idx] = logical
    assert bytes(buf) == expected.tobytes()
    fresh = t.pack(logical.reshape(1, 1, 1, 21, 64, 64))
    assert bytes(fresh) == expected.tobytes()


def test_pack_errors() -> None:
    t = seg_map()
    with pytest.raises(LayoutError, match="logical shape"):
        t.pack(np.zeros((21, 64, 63), np.uint8))
    with pytest.raises(LayoutError, match="float values for an integer tensor"):
        t.pack(np.zeros((21, 64, 64), np.float32))
    with pytest.raises(LayoutError, match="outside the element type's range"):
        t.pack(np.full((21, 64, 64), 256))
    with pytest.raises(LayoutError, match="read-only"):
        t.pack(np.zeros((21, 64, 64), np.uint8), into=bytes(22 * 4422))
    with pytest.raises(LayoutError, match="outside the buffer"):
        t.pack(np.zeros((21, 64, 64), np.uint8), into=bytearray(100))


def test_dequantize_and_quantize() -> None:
    io = binparse.open(IO_08)
    logits, seg, dets = io.outputs
    buf, logical = hand_buffer()
    seg.pack(logical, into=buf)
    real = seg.dequantize(buf)
    assert real.dtype == np.float32 and not np.shares_memory(real, np.frombuffer(buf, np.uint8))
    assert real[0, 0, 0, 5, 31, 17] == (int(logical[5, 31, 17]) - 3) / 4.0
    assert logits.name == "logits" and logits.dtype == np.int8
    q = logits.quantize([[-1.0, 0.5, 3.99, 100.0]])
    assert q.tolist() == [[-32, 16, 127, 127]] and q.dtype == np.int8
    lb = logits.pack(np.clip(np.arange(-500, 500), -128, 127))
    assert logits.dequantize(lb)[0, 0, 0, 0, 0, :3].tolist() == [-4.0, -4.0, -4.0]
    floats = np.linspace(0, 1, 700, dtype=np.float32).reshape(100, 7)
    db = dets.pack(floats)
    assert len(db) == 2 * 700 * 4  # one padding channel
    assert np.array_equal(dets.dequantize(db)[0, 0, 0, 0], floats)


def test_six_d_tensor_of_09_02() -> None:
    io = binparse.open(IO_0902)
    assert io.version == "09.02" and io.num_cores == 1
    t = io.inputs[0]
    assert (t.name, t.dtype, t.shape) == ("volume", np.dtype("<i2"), (2, 1, 2, 3, 4, 5))
    assert (t.line_pitch, t.dim2_pitch, t.dim1_pitch, t.batch_pitch) == (6, 120, 240, 240)
    buf = bytearray(t.new_buffer())
    assert len(buf) == 2 * 240 * 2
    struct.pack_into("<h", buf, 2 * (1 + 4 + 3 * 6 + 2 * 30 + 1 * 120 + 1 * 240), -1234)
    v = t.view(buf)
    assert v[1, 0, 1, 2, 3, 4] == -1234 and int(np.count_nonzero(v)) == 1
    assert t.dequantize(buf)[1, 0, 1, 2, 3, 4] == -1234 / 128.0
    out = io.outputs[0]
    assert (out.name, out.dtype, out.shape, out.zero_point, out.scale) == ("scores", np.dtype("<u2"), (2, 1, 1, 10, 1, 1), 7, 1024.0)
    assert io.num_valid_tensor_dims[0] == 4


def test_10x_buffer_sizes_come_from_the_file() -> None:
    io = binparse.open(IO_10)
    assert io.version == "10.x-11.x" and io.cores == 1
    dets = io.outputs[0]
    assert (dets.buf_size, dets.buf_size_source) == (2000, "file")
    assert dets.dim2_pitch == 2000 and dets.layout == "NCHW"
    assert io.inputs[0].layout == "NHWC" and io.inputs[0].buf_size == 3 * 64 * 64
    four = binparse.open(FIXTURES / "tidl" / "io_10_c4" / "907_tidl_io_1.bin")
    assert four.cores == 4 and four.num_cores == 4 and len(four.in_width) == 128 and len(four.out_width) == 512


def test_tda2_tensors() -> None:
    io = binparse.open(IO_TDA2)
    assert io.version == "TDA2 01.xx"
    t = io.inputs[0]
    assert (t.channel_pitch, t.line_pitch, t.offset, t.scale, t.name) == (1008, 36, 74, None, "")
    buf = t.pack(np.full((3, 24, 32), 9, np.uint8))
    assert len(buf) == 3 * 1008 and bytes(buf)[74] == 9 and bytes(buf)[73] == 0
    with pytest.raises(LayoutError, match="no usable scale"):
        t.dequantize(buf)
    assert io.outputs[0].dtype == np.int8 and io.outputs[0].shape == (1, 1, 1, 16, 6, 8)


def test_real_ssd_outputs_view_with_channel_padding() -> None:
    from .conftest import real
    io = binparse.open(real("tidl/j7-08.2/ssdlite-mobdet/321_tidl_io_1.bin"))
    boxes = io.tensor("TFLite_Detection_PostProcess")
    assert boxes.shape == (1, 1, 1, 1, 100, 4) and boxes.dtype == np.float32
    assert boxes.buf_size == (1 + 6) * 400  # outPadCh 6
    raw = np.arange(7 * 400, dtype=np.float32)
    v = boxes.view(raw)
    assert np.shares_memory(v, raw) and v[0, 0, 0, 0, 99, 3] == 399.0


def test_lookup_and_bad_descriptors() -> None:
    io = binparse.open(IO_08)
    assert io.tensor(0, "input").name == "images" and io.tensor("im_info", "input").index == 1
    with pytest.raises(FormatError, match="no output 'nope'"):
        io.tensor("nope")
    data = bytearray(IO_08.read_bytes())
    struct.pack_into("<i", data, 1160, -1)  # inPadL[0]
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(data)).inputs
    assert e.value.path == "tidl_io_buf_desc.in_pad_l[0]" and e.value.found == -1
    struct.pack_into("<i", data, 1160, 0)
    struct.pack_into("<i", data, 1928, 42)  # inElementType[0]
    with pytest.raises(FormatError, match="unknown TIDL element type"):
        binparse.open(bytes(data)).inputs
