"""TIDL io_1.bin (J7 08.x): real 8.2 files against TI's own netLog printout, and the bundled fixture."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.engine.accessors.tidl.tidl_enums import TidlEnums
from binparse.formats.tidl import IoBufDesc
from binparse.engine.backends import construct_backend as cb
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import FIXTURES, real, real_tidl_io_files

IO_SCHEMA = SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy"
P08 = {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}
FIXTURE = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"


def net_log_data_layers(path: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """Input and output data layers from a TIDL `*_netLog.txt` (TI's printout of the network)."""
    inputs, outputs = [], []
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 11 or cells[1] != "TIDL_DataLayer":
            continue
        ins, outs = int(cells[4]), int(cells[5])
        in_ids = [int(x) for x in cells[6].split() if x != "x"]
        row = {"name_tail": cells[2], "out_id": int(cells[7]), "in_ids": in_ids,
               "in_nchw": tuple(int(x) for x in cells[8].split()), "out_nchw": tuple(int(x) for x in cells[9].split())}
        (inputs if ins == -1 else outputs if outs == -1 else []).append(row)
    return inputs, outputs


@pytest.mark.parametrize("model,prefix", [("deeplabv3-ade20k", "201"), ("mobilenetv1-mlperf", "87")])
def test_real_io_agrees_with_ti_net_log(model: str, prefix: str) -> None:
    io = binparse.open(real(f"tidl/j7-08.2/{model}/{prefix}_tidl_io_1.bin"))
    inputs, outputs = net_log_data_layers(real(f"tidl/j7-08.2/{model}/{prefix}_tidl_net.bin_netLog.txt"))
    assert isinstance(io, IoBufDesc) and io.version == "08.x"
    assert (io.num_input_buf, io.num_output_buf) == (len(inputs), len(outputs))
    for k, layer in enumerate(inputs):
        n, c, h, w = layer["out_nchw"]  # type: ignore[misc]
        assert (io.in_num_batches[k], io.in_num_channels[k], io.in_height[k], io.in_width[k]) == (n, c, h, w)
        assert io.in_data_id[k] == layer["out_id"]
        assert io.in_data_name[k].endswith(str(layer["name_tail"]))
    for k, layer in enumerate(outputs):
        n, c, h, w = layer["in_nchw"]  # type: ignore[misc]
        assert (io.out_num_batches[k], io.out_num_channels[k], io.out_height[k], io.out_width[k]) == (n, c, h, w)
        assert io.out_data_id[k] == layer["in_ids"][0]  # type: ignore[index]
        assert io.out_data_name[k].endswith(str(layer["name_tail"]))


def test_real_deeplabv3_fields() -> None:
    io = binparse.open(real("tidl/j7-08.2/deeplabv3-ade20k/201_tidl_io_1.bin"))
    assert (io.num_input_buf, io.num_output_buf) == (1, 1)
    assert (io.in_num_channels[0], io.in_height[0], io.in_width[0]) == (3, 512, 512)
    assert io.in_channel_pitch[0] == 512 * 512
    assert io.raw_data_in_element_type[0] == 6 and io.in_element_type[0] == 0  # float fed, uint8 in the buffer
    assert io.in_layout[0] == TidlEnums.Layout.nhwc
    assert io.in_data_name[0] == ("MobilenetV2/Conv/Relu6;MobilenetV2/Conv/BatchNorm/FusedBatchNormV3;"
                                  "logits/semantic/Conv2D;MobilenetV2/Conv/weights;"
                                  "MobilenetV2/Conv/Conv2D1/Mul/Bias/InCast")
    assert io.out_data_name[0] == "ArgMax" and io.out_data_name[1] == ""
    assert (io.out_width[0], io.out_height[0], io.out_channel_pitch[0], io.out_pad_ch[0]) == (512, 512, 262144, 1)
    assert io.out_tensor_scale[:2].tolist() == [1.0, 0.0]


def test_real_ssd_outputs_carry_channel_padding() -> None:
    io = binparse.open(real("tidl/j7-08.2/ssdlite-mobdet/321_tidl_io_1.bin"))
    n = io.num_output_buf
    assert n == 4
    assert io.out_pad_ch[:n].tolist() == [1151, 15, 15, 6]
    assert io.out_width[:n].tolist() == [1, 100, 100, 4] and io.out_height[:n].tolist() == [1, 1, 1, 100]
    assert list(io.out_data_name[:n]) == ["TFLite_Detection_PostProcess:3", "TFLite_Detection_PostProcess:1",
                                          "TFLite_Detection_PostProcess:2", "TFLite_Detection_PostProcess"]
    assert io.out_element_type[:n].tolist() == [6, 6, 6, 6]


def test_every_real_io_file_matches_construct_backend() -> None:
    files = real_tidl_io_files()
    if not files:
        pytest.skip("real vendor files not present")
    assert len(files) == 4
    schema = load_schema(IO_SCHEMA)
    for f in files:
        data = f.read_bytes()
        io = binparse.open(f)
        io.validate()
        assert io.to_dict() == cb.to_plain(cb.parse(schema, data, **P08), schema.root), f


def test_fixture_bytes_at_header_offsets() -> None:
    """Offsets from facts/tidl.md §1.2(c), worked out by hand: 19 int32 arrays of 32 after the counts."""
    data = FIXTURE.read_bytes()
    assert len(data) == 8 + 32 * (20 * 4 + 512) + 32 * (15 * 4 + 512) == 37256
    assert struct.unpack_from("<2i", data, 0) == (2, 3)
    assert struct.unpack_from("<2i", data, 8 + 4 * 128) == (224, 3)         # inWidth
    assert struct.unpack_from("<f", data, 8 + 19 * 128)[0] == 1.0            # inTensorScale[0]
    assert data[2568:2568 + 7] == b"images\0"                                # inDataName[0]
    outs = 2568 + 32 * 512
    assert struct.unpack_from("<3i", data, outs) == (1000, 64, 7)           # outWidth
    assert data[outs + 12 * 128:outs + 12 * 128 + 7] == b"logits\0"          # outDataName before ...
    assert struct.unpack_from("<3f", data, outs + 12 * 128 + 32 * 512) == (32.0, 4.0, 1.0)  # ... outTensorScale


def test_fixture_through_the_accessor_and_numpy_dtype() -> None:
    io = binparse.open(FIXTURE)
    assert list(io.in_data_name[:2]) == ["images", "im_info"]
    assert io.out_zero_point[:3].tolist() == [0, 3, 0]
    assert io.out_tensor_scale.dtype == np.dtype("<f4")
    dt = IoBufDesc._dtype_for(P08)
    assert dt is not None and dt.itemsize == 37256
    rec = np.frombuffer(FIXTURE.read_bytes(), dtype=dt)[0]
    assert rec["out_pad_r"][1] == 2 and rec["in_channel_pitch"][0] == 51076
    assert dt.fields["out_data_name"][1] == 20488  # type: ignore[index]
    assert "in_dim1" not in dt.names and "in_buf_size" not in dt.names  # absent in 08.x


def test_open_variants_share_memory(tmp_path: Path) -> None:
    data = bytearray(FIXTURE.read_bytes())
    io = binparse.open(data)
    widths = io.in_width
    assert np.shares_memory(widths, np.frombuffer(data, np.uint8)) and not widths.flags.owndata
    struct.pack_into("<i", data, 520, 640)
    assert widths[0] == 640 and io.in_width[0] == 640
    mapped = binparse.open(FIXTURE)
    assert not mapped.in_width.flags.writeable
    assert binparse.open(np.frombuffer(bytes(data), np.uint8)).in_width[0] == 640
    assert binparse.open(memoryview(bytes(data)), format="tidl.io.j7_08").in_width[0] == 640


def test_wrong_sizes_name_the_known_versions(tmp_path: Path) -> None:
    data = FIXTURE.read_bytes()
    p = tmp_path / "x_tidl_io_1.bin"
    p.write_bytes(data + bytes(8))  # a size no TIDL version has
    with pytest.raises(binparse.FormatError) as e:
        binparse.open(p)
    msg = str(e.value)
    assert str(p) in msg and "37,264 bytes" in msg and "37,256 bytes = tidl.io.j7_08" in msg
    assert "37,272 bytes = tidl.io.j7_09_00" in msg
    with pytest.raises(binparse.FormatError) as e:
        binparse.open(p, format="tidl.io.j7_08")
    assert "wrong size" in str(e.value) and "expected 37,256 bytes" in str(e.value)
    p.write_bytes(data[:-4])
    with pytest.raises(binparse.FormatError, match="37,252 bytes"):
        binparse.open(p, format="tidl.io.j7_08")
    with pytest.raises(binparse.FormatError, match="data too short"):
        IoBufDesc.from_buffer(data[:-4], **P08)


def test_bad_counts_are_validation_errors() -> None:
    data = bytearray(FIXTURE.read_bytes())
    struct.pack_into("<i", data, 4, 99)
    io = binparse.open(bytes(data))
    with pytest.raises(binparse.ValidationError) as e:
        io.num_output_buf
    assert e.value.path == "tidl_io_buf_desc.num_output_buf" and e.value.offset == 4
    assert e.value.expected == "0..32" and e.value.found == 99


def test_paths_that_are_not_files(tmp_path: Path) -> None:
    with pytest.raises(binparse.FormatError, match="directory"):
        binparse.open(tmp_path)
    with pytest.raises(binparse.FormatError, match="no such file"):
        binparse.open(tmp_path / "missing.bin")
    (tmp_path / "empty.bin").write_bytes(b"")
    with pytest.raises(binparse.FormatError, match="no known format"):
        binparse.open(tmp_path / "empty.bin")
    with pytest.raises(binparse.FormatError, match="unknown format"):
        binparse.open(FIXTURE, format="tidl.io.nope")


def test_input_file_is_never_modified() -> None:
    before = FIXTURE.read_bytes()
    io = binparse.open(FIXTURE)
    io.validate()
    with pytest.raises(ValueError):
        io.in_width[0] = 1
    assert FIXTURE.read_bytes() == before


def test_version_restricts_detection() -> None:
    two = FIXTURES / "tidl" / "io_09_02_c2" / "903_tidl_io_1.bin"
    assert binparse.open(two, version="09.02").cores == 2
    with pytest.raises(binparse.FormatError) as e:
        binparse.open(FIXTURES / "tidl" / "io_10_c1" / "905_tidl_io_1.bin", version="09.02")
    assert "94,616 bytes" in str(e.value) and "93,976 bytes = tidl.io.j7_09_02.c1" in str(e.value)
    assert "37,256" not in str(e.value)  # only 09.02's sizes are listed
    with pytest.raises(binparse.FormatError, match="no format of version"):
        binparse.open(two, version="07.01")
