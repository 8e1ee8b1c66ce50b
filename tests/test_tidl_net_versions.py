"""TIDL networks of today's SDKs: the real 9.0/9.1 nets against TI's netLog, layer_info and
paramDebug, the real 10.01 net of a known model, netVersions without a verified layout (read with
the nearest layout that holds, with a warning) and corrupt ones (an error naming every layout
tried), and `schema diff` between the versions."""

from __future__ import annotations

import json
import struct
import warnings
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse import BinparseWarning, FormatError
from binparse.cli import main
from binparse.formats.tidl import NetJ7, NetJ7Nearest
from binparse.formats.tidl.printouts.parse import read_layer_info, read_netlog, read_param_debug
from binparse.family.registry import format_of

from .conftest import real

EAST = "tidl/j7-09.x/east-mobilenet/625_tidl_net.bin"
FCNN = "tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin"
OW_TINY = "tidl/j7-10.01/ow-tiny/ow_tiny_net.bin"

# ow-tiny's Conv 1x1 16 -> 8 as stored (int8 weights, 8 output rows of 16; int16 biases), read with xxd
OW_WEIGHTS = [
    [88, 20, 49, 112, 94, -49, 48, -8, -5, 21, 7, 73, 38, 6, 22, 17],
    [75, -10, 16, -43, -128, 33, 43, -37, 114, -73, 2, -9, 77, 74, 8, 19],
    [-45, -99, -17, 8, 62, 60, -19, -15, -53, -71, -86, 98, -26, -22, -63, 39],
    [-81, -11, -45, 19, -26, -59, -1, 21, 3, 15, -32, -18, -34, -18, -41, -87],
    [9, -20, -82, 23, -45, 3, 37, 6, 57, -62, 20, -34, -44, -29, -16, 3],
    [-58, 45, 23, -77, 75, 95, 59, -9, -54, 53, -20, 61, 10, 49, 18, 35],
    [1, 90, 6, 20, 94, -68, -64, 49, -59, 97, -21, -37, 96, 74, 94, 45],
    [-43, 96, -13, 40, 47, -8, 31, 46, 19, -55, 15, 67, -35, -8, -22, 93]]
OW_BIAS = [127, 79, -91, 85, -101, 7, -26, 122]


def align64(n: int) -> int:
    return (n + 63) // 64 * 64


@pytest.mark.parametrize("rel,n", [(EAST, 7), (FCNN, 10)])
def test_real_9x_nets_match_ti_netlog_and_layer_info(rel: str, n: int) -> None:
    path = real(rel)
    net = binparse.open(path)
    assert type(net) is NetJ7 and format_of(net).name == "tidl.net.j7_09_01"
    assert (net.version, net.net_version_hex, net.unverified, net.num_layers) == ("9.0/9.1", "0x20230802", None, n)
    rows = read_netlog(Path(f"{path}_netLog.txt"))
    assert len(rows) == n
    t = net.table()
    by_out = {int(t.out_ids[i, 0]): i for i in range(n) if t.num_out[i] > 0}
    for row in rows:  # matched by out buffer id; the output data layer writes nothing: by its input
        i = by_out[row.out_id] if row.num_out != -1 else int(np.flatnonzero(t.num_out == -1)[0])
        assert i == row.index and net.type_name(int(t.layer_type[i])) == row.layer_type, row
        assert (int(t.num_in[i]), int(t.num_out[i])) == (row.num_in, row.num_out), row
        assert tuple(t.in_ids[i, :max(row.num_in, 0)].tolist()) == row.in_ids, row
        assert tuple(t.out_shapes[i, 0].tolist()) == row.out_nchw, row  # (0, 0, 0, 0) on the output layer
        if row.in_ids:  # In NCHW: the dims of the first input, as its producer wrote them
            assert tuple(t.out_shapes[by_out[row.in_ids[0]], 0].tolist()) == row.in_nchw, row
    info = read_layer_info(Path(f"{path}.layer_info.txt"))
    stored_ids = net.used_layers["out_data"]["data_id"].tolist()  # TI prints the stored id, 0 on the output layer
    assert [(r.index, r.data_id) for r in info] == list(enumerate(stored_ids))
    # the header's blocks: header + layers (64-aligned), parameters up to the end, the GC block
    blocks = [(b.offset, b.size) for b in net.net_buf_info]
    assert blocks[0] == (0, align64(160 + n * 1800)) == (0, net.data_flow_info)
    assert blocks[1][0] + blocks[1][1] == path.stat().st_size
    assert net.graph_compiler_info_offset == blocks[3][0] and net.num_cores == 1


def test_real_9x_weights_against_param_debug() -> None:
    path = real(FCNN)
    net = binparse.open(path)
    rows = read_param_debug(Path(f"{path}_paramDebug.csv"))
    convs = [i for i in range(net.num_layers) if net.type_name(int(net.layers[i].layer_type)) == "TIDL_ConvolutionLayer"]
    assert convs == [2, 4, 6, 7] == [r.layer_id for r in rows[::2]] == [r.layer_id for r in rows[1::2]]
    end = net.net_buf_info[1].offset
    for i, bias_row, weight_row in zip(convs, rows[::2], rows[1::2]):  # TI prints the bias row first
        p, w = net.layers[i].layer_params, net.weights(i)
        assert w["weights"].dtype == np.int8 and w["bias"].dtype == np.int16
        assert (w["weights"].size, w["bias"].size) == (int(weight_row.hist.sum()), int(bias_row.hist.sum()))
        assert (round(p.weight_scale, 6), round(p.bias_scale, 6)) == (weight_row.scale, bias_row.scale)
        # quantizedMax is the largest |stored value| / scale, in float32, printed with %f
        for arr, scale, row in ((w["weights"], p.weight_scale, weight_row), (w["bias"], p.bias_scale, bias_row)):
            top = np.float32(np.abs(arr.astype(np.int32)).max()) / np.float32(scale)
            assert f"{top:f}" == f"{row.quantized_max:f}", (i, row)
        assert (p.weights, p.bias) == (end, end + w["weights"].nbytes)  # one after the other, from netBufInfo[1]
        end = align64(p.bias + w["bias"].nbytes)
        assert not w["weights"].flags.owndata and not w["weights"].flags.writeable
    assert end == path.stat().st_size
    assert [net.layers[i].layer_params.num_out_channels for i in convs] == [64, 128, 256, 256]
    names = {r.index: r.out_name for r in read_netlog(Path(f"{path}_netLog.txt"))}
    assert all(names[i].endswith(("relu/Relu_output_0", "relu/Relu_output_0_netFormat")) for i in convs)
    assert [net.layers[i].act_params.act_type for i in convs] == [1, 1, 1, 1]  # ... so each has ReLU fused
    assert net.layers[3].layer_params.kernel_w == 2 and net.layers[3].layer_params.stride_h == 2  # the max pools
    east = binparse.open(real(EAST))
    assert read_param_debug(real(EAST).with_name("625_tidl_net.bin_paramDebug.csv")) == []
    assert all(east.weights(i) == {} for i in range(7)) and east.net_buf_info[1].size == 0
    assert east.layers[4].layer_params.axis == 1  # the concat joins channels


def test_real_10_01_ow_tiny_is_the_known_model() -> None:
    path = real(OW_TINY)
    net = binparse.open(path)
    assert type(net) is NetJ7 and format_of(net).name == "tidl.net.j7_10_01"
    assert (net.version, net.net_version_hex, net.unverified) == ("10.01", "0x20241120", None)
    t = net.table()
    assert [net.type_name(int(x)) for x in t.layer_type] == ["TIDL_DataLayer", "TIDL_ConvolutionLayer", "TIDL_DataLayer"]
    assert (t.num_in.tolist(), t.num_out.tolist()) == ([-1, 1, 1], [1, 1, -1])
    assert t.out_shapes[:2, 0].tolist() == [[1, 1, 1, 16, 1, 1], [1, 1, 1, 8, 1, 1]]  # [1,16,1,1] -> [1,8,1,1]
    assert t.in_ids[1, 0] == 0 and t.in_ids[2, 0] == 1 and net.topological_order() == [0, 1, 2]
    conv = net.layers[1]
    p = conv.layer_params
    assert (p.num_in_channels, p.num_out_channels, p.kernel_w, p.kernel_h, p.stride_w, p.num_groups) == (16, 8, 1, 1, 1, 1)
    assert p.enable_bias == 1 and conv.act_params.act_type == 1  # with bias, ReLU fused
    assert (p.min_psat, p.max_psat) == (-1, -1)
    w = net.weights(1)
    assert w["weights"].reshape(8, 16).tolist() == OW_WEIGHTS and w["bias"].tolist() == OW_BIAS
    assert (p.bias, p.weights) == (823040, 823104) and [(b.offset, b.size) for b in net.net_buf_info] == [
        (0, 5696), (823040, 192), (5696, 817344), (823232, 451940)]
    assert align64(176 + 3 * 1824) == 5696 and 823232 + 451940 == path.stat().st_size
    assert (net.is_gc_info_available, net.original_gc_buf_info_offset) == (1, 823232)
    # the 11.02 header names the word at 72 netInitBackupDataOffset[TIDL_MAX_NUM_CORES] (one core here)
    assert net.net_init_backup_data_offset.tolist() == [0] and net.soc_cores == 1
    # the io descriptor written by the same import agrees on ids, element types and scales
    io = binparse.open(path.with_name("ow_tiny_io.bin"))
    out = net.used_layers["out_data"]
    for tensor, k in ((io.inputs[0], 0), (io.outputs[0], 1)):
        assert tensor.data_id == out["data_id"][k] and tensor.shape == tuple(t.out_shapes[k, 0].tolist())
        assert tensor.scale == float(out["tensor_scale"][k]) and tensor.element_type == out["element_type"][k]
    assert (io.inputs[0].scale, io.outputs[0].dtype.name) == (128.0, "uint8")  # int8 in, ReLU's uint8 out
    # zero-copy: a writable buffer is written through
    buf = bytearray(path.read_bytes())
    bias = binparse.open(buf).weights(1)["bias"]
    bias[0] = -5
    assert struct.unpack_from("<h", buf, 823040)[0] == -5 and np.shares_memory(bias, np.frombuffer(buf, np.uint8))


def test_inspect_json_of_real_nets(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(real(OW_TINY))]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["format"], doc["version"], doc["net_version"], doc["unverified"]) == (
        "tidl.net.j7_10_01", "10.01", "0x20241120", None)
    assert doc["layers"] == [
        {"index": 0, "type": "TIDL_DataLayer", "num_in": -1, "num_out": 1, "in_ids": [], "out_ids": [0],
         "out_shapes": [[1, 1, 1, 16, 1, 1]]},
        {"index": 1, "type": "TIDL_ConvolutionLayer", "num_in": 1, "num_out": 1, "in_ids": [0], "out_ids": [1],
         "out_shapes": [[1, 1, 1, 8, 1, 1]]},
        {"index": 2, "type": "TIDL_DataLayer", "num_in": 1, "num_out": -1, "in_ids": [1], "out_ids": [], "out_shapes": []}]
    path = real(EAST)
    assert main(["inspect", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = read_netlog(Path(f"{path}_netLog.txt"))
    assert [(L["type"], L["num_in"], L["num_out"], L["in_ids"]) for L in doc["layers"]] == [
        (r.layer_type, r.num_in, r.num_out, list(r.in_ids)) for r in rows]
    assert [L["out_shapes"] for L in doc["layers"]] == [[list(r.out_nchw)] if r.num_out > 0 else [] for r in rows]


def patched(rel: str, version: int) -> bytearray:
    data = bytearray(real(rel).read_bytes())
    struct.pack_into("<I", data, 0, version)
    return data


def test_newer_net_version_reads_with_the_nearest_layout_and_says_so(capsys: pytest.CaptureFixture[str],
                                                                      tmp_path: Path) -> None:
    data = patched(OW_TINY, 0x20260101)
    with pytest.warns(BinparseWarning) as caught:
        net = binparse.open(bytes(data))
    assert type(net) is NetJ7Nearest and net.gen == 101 and format_of(net).name == "tidl.net.j7_other"
    assert caught[0].filename == __file__  # attributed to the caller, not to binparse
    assert net.unverified == str(caught[0].message).removeprefix("buffer: ") == (
        "netVersion 0x20260101 (a version binparse does not know) has no verified layout: read with the 10.01 "
        "layout (netVersion 0x20241120), the nearest under which the file holds together (known layer types, "
        "connected data ids, positive dims, sizes and weight offsets inside the file); fields that moved since "
        "then read wrong. Rejected before it: 11.02 layout (netVersion 0x20251208): the TIDL network header holds "
        "for no SoC's core count; 11.02.12 layout (netVersion 0x20260423): the TIDL network header holds for no "
        "SoC's core count.")  # a 10.01 file: 1,824-byte layers, so 11.02's netBufInfo[0] rule fails
    assert net.version == "unknown" and net.table().out_shapes[1, 0].tolist() == [1, 1, 1, 8, 1, 1]
    assert net.summary()["unverified"] == net.unverified and net.weights(1)["bias"].tolist() == OW_BIAS
    p = tmp_path / "newer_tidl_net.bin"
    p.write_bytes(data)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the JSON says it ("unverified"): no warning besides
        assert main(["inspect", "--json", str(p)]) == 2  # nearest layout: not verified
    doc = json.loads(capsys.readouterr().out)
    assert (doc["format"], doc["version"], doc["unverified"]) == ("tidl.net.j7_other", "unknown", net.unverified)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the report says it: the command does not warn a second time
        assert main(["inspect", str(p)]) == 2  # nearest layout: not verified
    assert capsys.readouterr().out.splitlines()[2] == "UNVERIFIED: " + net.unverified


def test_released_version_without_layout_tries_the_nearest_first() -> None:
    # a 9.0/9.1 body stamped 10.00: 10.01 (same SDK major) is tried first, then the nearest date (09.02)
    with pytest.warns(BinparseWarning, match="TIDL 10.00"):
        net = binparse.open(bytes(patched(FCNN, 0x20240719)))
    assert format_of(net).name == "tidl.net.j7_10_00" and net.version == "10.00" and net.gen == 90
    assert net.unverified is not None and net.unverified.endswith(
        "Rejected before it: 10.01 layout (netVersion 0x20241120): layer 5 has type 1101318370, not one of the "
        "10.01 layer types (2 such layers); 09.02 layout (netVersion 0x20240401): netBufInfo[0].size 18,176 bytes is "
        "not the 64-aligned header + layers, 18,432 bytes.")
    assert net.table().out_shapes[7, 0].tolist() == [1, 256, 8, 25]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a verified version asked for as "other" reads as itself, silently
        assert binparse.open(real(OW_TINY), format="tidl.net.j7_other").unverified is None


def test_corrupt_net_of_unknown_version_names_every_layout_tried(tmp_path: Path) -> None:
    data = patched(OW_TINY, 0x20260101)
    struct.pack_into("<i", data, 176 + 1824 + 1564, 999)  # layer 1's layerType in the 10.01 layout
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(data))
    assert str(e.value) == (
        "no known layout reads this TIDL network (netVersion 0x20260101, a version binparse does not know); "
        "expected a layout under which the layers, data ids, dims and sizes hold, found "
        "tried 11.02 layout (netVersion 0x20251208): the TIDL network header holds for no SoC's core count; "
        "tried 11.02.12 layout (netVersion 0x20260423): the TIDL network header holds for no SoC's core count; "
        "tried 10.01 layout (netVersion 0x20241120): layer 1 has type 999, not one of the 10.01 layer types "
        "(1 such layer); "
        "tried 09.02 layout (netVersion 0x20240401): no input data layer (numInBufs -1) or no output data layer "
        "(numOutBufs -1); "
        "tried 9.0/9.1 layout (netVersion 0x20230802): no input data layer (numInBufs -1) or no output data layer "
        "(numOutBufs -1); "
        "tried 08.06 layout (netVersion 0x20230208): netBufInfo[0].size 1 bytes is not the 64-aligned header + layers, "
        "5,568 bytes; "
        "tried 8.2 layout (netVersion 0x20211201): layer 2 has type 2189552, not one of the 8.2 layer types "
        "(1 such layer). The file is corrupt, or its SDK changed the layout; `binparse schemas` lists the "
        "verified layouts, format=NAME reads it as one anyway")
    p = tmp_path / "bad_tidl_net.bin"
    p.write_bytes(data)
    assert main(["inspect", str(p)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)


def test_every_released_net_version_is_registered() -> None:
    rows = {f.identifies(): f for f in binparse.registered() if f.name.startswith("tidl.net.j7")}
    assert {k: (f.name, f.version) for k, f in rows.items()} == {
        "netVersion 0x20211201": ("tidl.net.j7_08_2", "J7 TIDL 8.2 (layout inferred: real files + netLog)"),
        "netVersion 0x20230208": ("tidl.net.j7_08_06", "J7 TIDL 08.06 (layout: 08.06 header)"),
        "netVersion 0x20230802": ("tidl.net.j7_09_01", "J7 TIDL 9.0/9.1 (layout inferred: real files + netLog, paramDebug)"),
        "netVersion 0x20240401": ("tidl.net.j7_09_02", "J7 TIDL 09.02 (layout: 09.02 header)"),
        "netVersion 0x20240719": ("tidl.net.j7_10_00",
                                  "J7 TIDL 10.00 (no header or net file: the nearest verified layout that holds, 10.01 first, with a warning)"),
        "netVersion 0x20241120": ("tidl.net.j7_10_01", "J7 TIDL 10.01 (layout inferred: a real file of a known model)"),
        "netVersion 0x20250429": ("tidl.net.j7_11_00_04", "J7 TIDL 11.00.04 (no header of its own: the nearest verified layout that holds, 11.02 first, with a warning)"),
        "netVersion 0x20250630": ("tidl.net.j7_11_00", "J7 TIDL 11.00 (no header of its own: the nearest verified layout that holds, 11.02 first, with a warning)"),
        "netVersion 0x20250821": ("tidl.net.j7_11_01", "J7 TIDL 11.01 (no header of its own: the nearest verified layout that holds, 11.02 first, with a warning)"),
        "netVersion 0x20251208": ("tidl.net.j7_11_02",
                                  "J7 TIDL 11.02 (layout: 11.02 header (11_02_04_00) through schema from-header)"),
        "netVersion 0x20260423": ("tidl.net.j7_11_02_12",
                                  "J7 TIDL 11.02.12 (layout: 11_02_12_00 header, 11.02's with dynDimMask)"),
        "a date-like netVersion 0x20YYMMDD not listed (sniffed)": (
            "tidl.net.j7_other", "J7 TIDL, a netVersion not listed here (no verified layout: nearest, with a warning)")}


def test_schema_diff_shows_what_moved(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "diff", "tidl.net.j7_09_02", "tidl.net.j7_10_01"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "  moved    net_buf_info                     96 → 104" in out  # the 10.01 header grew before it
    assert "  added    original_gc_buf_info_offset      at 168 (4 bytes)" in out
    assert main(["schema", "diff", "tidl.net.j7_09_01", "tidl.net.j7_09_02", "--type", "layer", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    moved = {c["field"]: c for c in doc["changes"]}
    assert moved["layer_type"] == {"change": "moved", "field": "layer_type", "old": {"offset": 1560, "size": 4},
                                   "new": {"offset": 1564, "size": 4}}
    data = real(FCNN).read_bytes()  # the bytes say so: fcnn-cnn5's layer 2 is a convolution (type 1) at +1560
    assert struct.unpack_from("<ii", data, 160 + 2 * 1800 + 1560) == (1, 1)  # layerType, layerKernelType  # the 9.0/9.1 union is 4 bytes shorter (as in fcnn-cnn5: type 1 at +1560)
