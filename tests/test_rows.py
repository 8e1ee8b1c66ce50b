"""Rows across parallel array fields (`Accessor.to_rows`), and the io tensors built from them."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.core.errors import FormatError
from binparse.formats.tidl import IoBufDesc, Pads, Tensor

from .conftest import FIXTURES, REAL, real_tidl_io_files

IO_08 = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
IO_10 = FIXTURES / "tidl" / "io_10_c1" / "905_tidl_io_1.bin"
P08 = {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}


def test_rows_of_the_fixture() -> None:
    io = IoBufDesc.from_buffer(IO_08.read_bytes(), **P08)
    rows = io.to_rows(["out_data_name", "out_width", "out_height", "out_dim1", "out_tensor_scale", "out_pad_ch"], 3)
    # spec.yaml: logits 1x1x1000 scale 32, seg_map 21x64x64 scale 4 padCh 1, detections 1x100x7 padCh 1;
    # 08.x has no DIM1 (None)
    assert rows == [("logits", 1000, 1, None, 32.0, 0), ("seg_map", 64, 64, None, 4.0, 1),
                    ("detections", 7, 100, None, 1.0, 1)]
    assert io.to_rows(("in_data_name", "in_num_channels"), 2) == [("images", 3), ("im_info", 1)]
    assert io.to_rows(["out_width"], 0) == []
    ins, outs = io.to_row_blocks(((("in_width",), 2), (("out_width", "out_zero_point"), 2)))
    assert ins == [(224,), (3,)] and outs == [(1000, 0), (64, 3)]


@pytest.mark.parametrize("path", [IO_08, IO_10, *real_tidl_io_files()], ids=lambda p: Path(p).name)
def test_rows_equal_the_field_getters(path: Path) -> None:
    io = binparse.open(path)
    names = [f"out_{c}" for c in ("data_name", "width", "height", "dim1", "dim2", "channel_pitch", "tensor_scale",
                                  "buf_size", "layout")]
    n = io.num_output_buf
    cols = [getattr(io, name) for name in names]
    want = [tuple(None if c is None else c[k] if isinstance(c[k], str) else c[k].item() for c in cols)
            for k in range(n)]
    assert io.to_rows(names, n) == want and n > 0


def test_rows_refuse_what_is_not_there() -> None:
    io = binparse.open(IO_08)
    with pytest.raises(FormatError) as e:
        io.to_rows(["out_width"], 33)
    assert e.value.path == "tidl_io_buf_desc" and e.value.found == 33 and e.value.expected == "0..32 rows"
    with pytest.raises(FormatError, match="has no field 'out_nope'"):
        io.to_rows(["out_nope"], 1)
    with pytest.raises(FormatError, match="not an array"):
        io.to_rows(["num_output_buf"], 1)
    bad = bytearray(IO_08.read_bytes())
    off = io.field_info("out_data_name")[0]
    bad[off:off + 2] = b"\xff\xfe"  # not UTF-8
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(bad)).to_rows(["out_data_name"], 1)
    assert e.value.path == "tidl_io_buf_desc.out_data_name[0]" and "not valid UTF-8" in str(e.value)


def test_tensors_are_the_dataclass_values() -> None:
    seg = binparse.open(IO_08).outputs[1]
    assert seg == Tensor("output", 1, "seg_map", 0, (1, 1, 1, 21, 64, 64), Pads(1, 1, 2, 1, 1), 4422, 4.0, 3,
                         "NCHW", 97284, "computed", 61, "tidl_io_buf_desc.outputs[1] 'seg_map'", str(IO_08))
    assert hash(seg) == hash(binparse.open(IO_08).outputs[1]) and seg.batch_pitch == 4422 * 22
    with pytest.raises(AttributeError):
        seg.name = "x"  # type: ignore[misc]  # still frozen


def test_tensors_follow_a_writable_buffer() -> None:
    # bytes and files cannot change, so their tensors are kept; a bytearray's are read again each time
    data = bytearray(IO_08.read_bytes())
    io = binparse.open(data)
    assert io.outputs[0].shape[5] == 1000
    struct.pack_into("<i", data, io.field_info("out_width")[0], 999)
    assert io.outputs[0].shape[5] == 999 and io.out_width[0] == 999
    kept = binparse.open(IO_08.read_bytes())
    assert kept.outputs[0] is kept.outputs[0] and kept.outputs is not kept.outputs  # same tensors, new list


def test_scalar_getters_check_their_rule_every_time() -> None:
    data = bytearray(IO_08.read_bytes())
    io = binparse.open(data)
    assert io.num_output_buf == 3 and io.num_output_buf == 3  # the second read takes the remembered place
    struct.pack_into("<i", data, 4, 33)  # numOutputBuf beyond 32
    with pytest.raises(binparse.core.errors.ValidationError) as e:
        io.num_output_buf
    assert e.value.path == "tidl_io_buf_desc.num_output_buf" and e.value.found == 33
    assert np.shares_memory(io.out_width, np.frombuffer(data, np.uint8))


FIXTURE_IOS = sorted((FIXTURES / "tidl").glob("io_*/*_tidl_io_1.bin"))
REAL_IOS = sorted((REAL / "tidl").glob("*/*/*io*.bin"))


@pytest.mark.filterwarnings("ignore::binparse.core.errors.BinparseWarning")  # sizes read by the rule warn (tested there)
@pytest.mark.parametrize("path", [*FIXTURE_IOS, *REAL_IOS], ids=lambda p: f"{Path(p).parent.name}/{Path(p).name}")
def test_summary_is_the_json_of_the_tensors(path: Path) -> None:
    # summary() makes its documents from the entries without making tensors: the same documents
    io = binparse.open(path)
    doc = io.summary()
    assert doc["inputs"] == [t.to_json() for t in io.inputs] and doc["outputs"] == [t.to_json() for t in io.outputs]
    assert [len(doc["inputs"]), len(doc["outputs"])] == [io.num_input_buf, io.num_output_buf] and doc["outputs"]


def test_summary_values_and_checks() -> None:
    doc = binparse.open(IO_08).summary()
    # spec.yaml: seg_map 21x64x64 uint8, pads L1 T1 R2 B1 and one pad channel, channelPitch 4422, scale 4, zp 3
    assert doc["outputs"][1] == {
        "name": "seg_map", "index": 1, "data_id": 61, "dtype": "uint8", "shape": [1, 1, 1, 21, 64, 64],
        "pad": {"left": 1, "top": 1, "right": 2, "bottom": 1, "channel": 1}, "channel_pitch": 4422,
        "line_pitch": 67, "scale": 4.0, "zero_point": 3, "layout": "NCHW", "buf_size": 4422 * 22,
        "buf_size_source": "computed"}
    assert (doc["version"], doc["cores"], [t["name"] for t in doc["inputs"]]) == ("08.x", 1, ["images", "im_info"])
    data = bytearray(IO_08.read_bytes())
    struct.pack_into("<i", data, 1160, -1)  # inPadL[0]
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(data)).summary()
    assert e.value.path == "tidl_io_buf_desc.in_pad_l[0]" and e.value.found == -1
    struct.pack_into("<i", data, 1160, 0)
    struct.pack_into("<i", data, 1928, 42)  # inElementType[0]
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(data)).summary()
    assert e.value.path == "tidl_io_buf_desc.in_element_type[0]" and e.value.found == 42
