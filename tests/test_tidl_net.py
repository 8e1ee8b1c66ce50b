"""TIDL networks: the real 8.2 net against TI's own netLog, the real AM57x nets against their
configs and param files, fixtures for 08.06 / 9.0-9.1 / 09.02 / 10.01 / TDA2, weights, graph, JSON,
hostile files. (Real 9.x and 10.01 nets and unknown netVersions: test_tidl_net_versions.py.)"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse import FormatError
from binparse.cli import main
from binparse.formats.tidl import NetJ7, NetTda2

from .conftest import FIXTURES, real

DEEPLAB = "tidl/j7-08.2/deeplabv3-ade20k"
NET_0806 = FIXTURES / "tidl" / "net_08_06" / "910_tidl_net.bin"
NET_0902 = FIXTURES / "tidl" / "net_09_02" / "911_tidl_net.bin"
NET_0901 = FIXTURES / "tidl" / "net_09_01" / "913_tidl_net.bin"
NET_1001 = FIXTURES / "tidl" / "net_10_01" / "914_tidl_net.bin"
NET_TDA2 = FIXTURES / "tidl" / "net_tidl_api_1_2" / "912_tidl_net.bin"


def net_log(path: Path) -> list[dict[str, object]]:
    """Every layer row of a TIDL `*_netLog.txt` (TI's printout of the imported network)."""
    rows = []
    for line in path.read_text().splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 11 or not cells[0].isdigit():
            continue
        rows.append({"num": int(cells[0]), "type": cells[1], "num_in": int(cells[4]), "num_out": int(cells[5]),
                     "in_ids": [int(x) for x in cells[6].split() if x != "x"], "out_id": int(cells[7]),
                     "in_nchw": [int(x) for x in cells[8].split()], "out_nchw": [int(x) for x in cells[9].split()]})
    return rows


def test_real_8_2_net_matches_ti_net_log_row_by_row() -> None:
    net = binparse.open(real(f"{DEEPLAB}/201_tidl_net.bin"))
    assert isinstance(net, NetJ7) and net.version == "8.2" and net.net_version_hex == "0x20211201"
    rows = net_log(real(f"{DEEPLAB}/201_tidl_net.bin_netLog.txt"))
    assert len(rows) == net.num_layers == 82
    t = net.table()
    in_dims = net.used_layers["in_data_params"]["dim_values"][:, 0]
    by_out = {int(t.out_ids[i, 0]): i for i in range(len(t)) if t.num_out[i] > 0}
    moved = 0
    for row in rows:
        # Match by out buffer id (the netLog's order differs from the file's from row 64 on);
        # the graph's output data layer writes nothing and is matched by its input.
        if row["num_out"] == -1:
            i = next(k for k in range(len(t)) if t.num_out[k] == -1 and t.in_ids[k, 0] == row["in_ids"][0])  # type: ignore[index]
        else:
            i = by_out[row["out_id"]]  # type: ignore[index]
        moved += i != row["num"]
        assert net.type_name(int(t.layer_type[i])) == row["type"], row
        assert (int(t.num_in[i]), int(t.num_out[i])) == (row["num_in"], row["num_out"]), row
        assert t.in_ids[i, :max(int(t.num_in[i]), 0)].tolist() == row["in_ids"], row
        expected_out = row["out_nchw"] if row["num_out"] != -1 else [0, 0, 0, 0]
        assert t.out_shapes[i, 0].tolist() == expected_out, row
        assert in_dims[i].tolist() == row["in_nchw"], row
    assert moved > 0  # the reordering is real, so matching by id is needed


def test_real_io_agrees_with_the_net_data_layers() -> None:
    net = binparse.open(real(f"{DEEPLAB}/201_tidl_net.bin"))
    io = binparse.open(real(f"{DEEPLAB}/201_tidl_io_1.bin"))
    t = net.table()
    (first,), (last,) = net.input_layers(), net.output_layers()
    n, c, h, w = t.out_shapes[first, 0].tolist()
    assert io.inputs[0].shape == (n, 1, 1, c, h, w) and io.inputs[0].data_id == t.out_ids[first, 0]
    producer = net.producers()[io.outputs[0].data_id]
    assert t.out_shapes[producer, 0].tolist() == [1, 1, 512, 512] == [io.outputs[0].shape[k] for k in (0, 3, 4, 5)]
    assert net.type_name(int(t.layer_type[producer])) == "TIDL_ArgMaxLayer" and t.in_ids[last, 0] == 80


def test_real_8_2_conv_params_and_weights() -> None:
    net = binparse.open(real(f"{DEEPLAB}/201_tidl_net.bin"))
    conv = net.layers[2].layer_params
    assert (conv.num_in_channels, conv.num_out_channels, conv.kernel_w, conv.stride_w, conv.pad_w) == (3, 32, 3, 2, 1)
    assert conv.pad_l is None and conv.enable_pooling is None  # not in the inferred 8.2 prefix
    assert conv.weights == 371712 == (80 + 82 * 4532 + 63) // 64 * 64  # first param right after the layers
    w = net.weights(2)
    assert w["weights"].dtype == np.int8 and w["weights"].shape == (32 * 3 * 3 * 3,)
    assert w["bias"].dtype == np.int16 and w["bias"].shape == (32,)
    assert w["bias"][:4].tolist() == [-3, -29, -23, -15]
    assert not w["weights"].flags.writeable and not w["weights"].flags.owndata
    # Every conv's bias follows its weights, and the next parameters follow its bias, 64-byte aligned.
    t = net.table()
    convs = [i for i in range(len(t)) if t.layer_type[i] == 1]
    align = lambda x: (x + 63) // 64 * 64  # noqa: E731
    ends = []
    for i in convs:
        p = net.layers[i].layer_params
        n = p.num_out_channels * (p.num_in_channels // p.num_groups) * p.kernel_w * p.kernel_h
        assert p.bias == align(p.weights + n), i
        ends.append((p.weights, align(p.bias + 2 * p.num_out_channels)))
    starts = sorted(s for s, _ in ends)
    assert all(e in starts or e == max(x for _, x in ends) for _, e in ends)
    assert len(net.weights(1)) == 0 and net.layers[1].layer_params.type == 0  # data convert: input


def test_real_am57x_nets_configs_and_param_files() -> None:
    configs = {"mnist_lenet": "tidl_config_mnist_lenet.txt", "jdetNet_ssd": "tidl_config_jdetnet.txt",
               "imagenet_jacintonet11v2": "tidl_config_j11_v2.txt"}
    for name, cfg in configs.items():
        net = binparse.open(real(f"tidl/am57x/tidl_net_{name}.bin"))
        assert isinstance(net, NetTda2) and net.version == "TIDL-API 1.3 (AM57x)" and net.net_version_hex is None
        text = real(f"tidl/am57x/{cfg}").read_text()
        conf = {k.strip(): v.strip() for k, _, v in (line.partition("=") for line in text.splitlines()) if _}
        first = net.input_layers()[0]
        n, c, h, w = net.table().out_shapes[first, 0].tolist()
        assert (c, h, w) == (int(conf["inNumChannels"]), int(conf["inHeight"]), int(conf["inWidth"])), name
        params = real(f"tidl/am57x/tidl_param_{name}.bin")
        views = net.weights(binparse.core.filemap.map_file(params))
        total = sum(v.nbytes for layer in views for v in layer.values())
        assert total == params.stat().st_size
    lenet = binparse.open(real("tidl/am57x/tidl_net_mnist_lenet.bin"))
    assert [lenet.type_name(int(x)) for x in lenet.table().layer_type] == [
        "TIDL_DataLayer", "TIDL_ConvolutionLayer", "TIDL_ConvolutionLayer", "TIDL_FlattenLayer",
        "TIDL_InnerProductLayer", "TIDL_InnerProductLayer", "TIDL_SoftMaxLayer", "TIDL_DataLayer"]
    p = lenet.layers[1].layer_params
    assert (p.num_in_channels, p.num_out_channels, p.kernel_w, p.zero_weight_value) == (2, 20, 5, 112)
    w = lenet.weights(binparse.core.filemap.map_file(real("tidl/am57x/tidl_param_mnist_lenet.bin")))
    assert w[1]["weights"].shape == (1000,) and w[1]["bias"].shape == (20,) and w[4]["weights"].shape == (800 * 504,)
    assert abs(float(w[1]["weights"].mean()) - 112) < 5  # unsigned weights centred on zeroWeightValue
    with pytest.raises(FormatError, match="param file size does not match"):
        lenet.weights(bytes(1000))


@pytest.mark.parametrize("path,version,dims,header,layer", [
    (NET_0806, "08.06", [1, 4, 8, 8], 136, 1792), (NET_0901, "9.0/9.1", [1, 4, 8, 8], 160, 1800),
    (NET_0902, "09.02", [1, 1, 1, 4, 8, 8], 160, 1824), (NET_1001, "10.01", [1, 1, 1, 4, 8, 8], 176, 1824)])
def test_j7_fixtures(path: Path, version: str, dims: list[int], header: int, layer: int) -> None:
    net = binparse.open(path)
    assert net.version == version and net.num_layers == 3 and net.unverified is None
    assert net.field_info("layers")[0] == header and net.layers[0].nbytes == layer
    t = net.table()
    assert t.out_shapes[1, 0].tolist() == dims and t.in_ids[1, :1].tolist() == [0]
    conv = net.layers[1].layer_params
    assert (conv.num_out_channels, conv.kernel_w, conv.pad_l, conv.weight_scale) == (4, 3, 1, 64.0)
    assert net.layers[1].act_params.act_type == 1
    w = net.weights(1)
    assert w["weights"].tolist() == list(range(-54, 54)) and w["bias"].tolist() == [-300, 0, 300, 32767]
    assert net.topological_order() == [0, 1, 2] and net.consumers() == {0: [1], 1: [2]}
    assert net.calibration_params.bias_calibration_factor == 0.0625
    first = (header + 3 * layer + 63) // 64 * 64  # the weights follow the 64-aligned header + layers
    assert net.layers[1].layer_params.weights == first and net.layers[1].layer_params.bias == first + 128
    assert [(b.offset, b.size) for b in net.net_buf_info[:2]] == [(0, first), (first, 192)]
    assert path.stat().st_size == first + 192
    if version == "08.06":
        assert net.num_cores is None and len(net.net_buf_info) == 3 and net.layers[1].layer_kernel_type is None
    else:
        assert net.num_cores == 1 and net.layers[1].layer_kernel_type == 0 and len(net.net_buf_info) == 4
    assert (net.is_gc_info_available, net.original_gc_buf_info_offset) == ((0, 0) if version == "10.01" else (None, None))
    assert net.layers[1].multi_core_mode == (0 if version in ("09.02", "10.01") else None)


def test_tda2_fixture() -> None:
    net = binparse.open(NET_TDA2)
    assert isinstance(net, NetTda2) and net.api == 12 and net.stride_offset_method == 1
    assert net.layers[0].stride_offset_method is None and net.layers[0].nbytes == 1888
    assert net.type_name(int(net.table().layer_type[2])) == "TIDL_SoftMaxLayer"
    assert net.layers[2].layer_params.num_channels == 8
    params = bytes(range(200)) + bytes(8 * 2)
    w = net.weights(params)
    assert w[1]["weights"].tolist() == list(range(200)) and w[1]["bias"].shape == (8,)


def test_json_contract_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(NET_0806)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["family"], doc["kind"], doc["version"], doc["net_version"]) == ("tidl", "network", "08.06", "0x20230208")
    assert doc["layers"] == [
        {"index": 0, "type": "TIDL_DataLayer", "num_in": -1, "num_out": 1, "in_ids": [], "out_ids": [0], "out_shapes": [[1, 3, 8, 8]]},
        {"index": 1, "type": "TIDL_ConvolutionLayer", "num_in": 1, "num_out": 1, "in_ids": [0], "out_ids": [1], "out_shapes": [[1, 4, 8, 8]]},
        {"index": 2, "type": "TIDL_DataLayer", "num_in": 1, "num_out": -1, "in_ids": [1], "out_ids": [], "out_shapes": []}]
    assert main(["inspect", str(NET_0902)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "TIDL network 09.02, netVersion 0x20240401, 3 layers"
    assert out[2:4] == ["inputs: 1 (dataIds 0); outputs: 1 (dataIds 1)", "parameters: 2 arrays, 116 bytes"]
    assert out[4:] == ["(-v: every layer, as TI's netLog lists them)"]  # the summary; the layers with -v
    assert main(["inspect", "-v", str(NET_0902)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:4] == ["TIDL network 09.02, netVersion 0x20240401, 3 layers",
                        "inputs: 1 (dataIds 0); outputs: 1 (dataIds 1)", "parameters: 2 arrays, 116 bytes"]
    assert out[6].split() == ["1", "TIDL_ConvolutionLayer", "1", "1", "0", "1", "1x1x1x4x8x8"]
    assert main(["inspect", "--json", str(NET_TDA2)]) == 0
    assert json.loads(capsys.readouterr().out)["net_version"] is None


def test_hostile_net_files(tmp_path: Path) -> None:
    data = NET_0806.read_bytes()
    with pytest.raises(FormatError) as e:
        binparse.open(data[:136 + 1792 + 100]).layers
    assert "layers" in str(e.value) and "3 x 1792" in str(e.value)
    big = bytearray(data)
    struct.pack_into("<i", big, 8, 1000)  # numLayers beyond the file (still <= TIDL_NUM_MAX_LAYERS)
    with pytest.raises(FormatError, match="runs past the end"):
        binparse.open(bytes(big)).table()
    struct.pack_into("<i", big, 8, 5000)
    with pytest.raises(binparse.ValidationError):
        binparse.open(bytes(big)).num_layers
    bad = bytearray(data)
    struct.pack_into("<i", bad, 136 + 1792, len(data) - 10)  # layer 1's weights offset near the end
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(bad)).weights(1)
    assert "outside the file" in str(e.value) and e.value.path == "tidl_net_j7.layers[1].layer_params.weights"
    unknown = struct.pack("<I", 0x20991231) + data[4:]
    with pytest.warns(binparse.BinparseWarning, match="0x20991231 .* read with the 08.06 layout"):
        assert binparse.open(unknown).version == "unknown"  # the nearest layout that holds, said aloud
    assert binparse.open(unknown, format="tidl.net.j7_08_06").num_layers == 3  # an override reads it anyway
    p = tmp_path / "cut_tidl_net.bin"
    p.write_bytes(data[:3000])
    assert main(["inspect", str(p)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)


def test_every_real_tidl_net_opens_as_its_version() -> None:
    expected = {"j7-08.2": "tidl.net.j7_08_2", "j7-09.x": "tidl.net.j7_09_01", "j7-10.01": "tidl.net.j7_10_01",
                "tidl": "tidl.net.am57x"}  # by the folder above the file's own (am57x lies directly in tidl/)
    nets = sorted(p for p in real("tidl").rglob("*.bin") if "_io" not in p.name and "tidl_param_" not in p.name)
    for path in nets:  # io descriptors and AM57x param files: test_tidl_io.py and the AM57x test above
        acc = binparse.open(path)
        acc.validate()
        assert binparse.family.registry.format_of(acc).name == expected[path.parent.parent.name], path
        assert acc.unverified is None
    assert len(nets) == 9  # 4 J7 nets (8.2, two 9.0/9.1, 10.01), 5 AM57x nets


def test_view_a_j7_nets_parameter_arrays(tmp_path: Path) -> None:
    path = real("tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin")
    net = binparse.open(path)
    arr, what = net.tensor_array("2.weights")
    assert (what, arr.dtype, arr.size) == ("layer 2 weights as stored", np.dtype("i1"), 576)
    raw = path.read_bytes()
    offset = int(net.layers[2].layer_params.weights)
    assert offset == 2965760 and arr[:8].tolist() == [-12, -7, -45, 44, 85, 43, -62, -34]
    assert arr.tolist() == list(np.frombuffer(raw, np.int8, 576, offset))
    assert not arr.flags.owndata and np.shares_memory(arr, np.frombuffer(net._mv, np.uint8))
    assert main(["view", str(path), "--tensor", "2.bias", "--npy", str(tmp_path / "b.npy")]) == 0
    assert np.load(tmp_path / "b.npy")[:4].tolist() == [-1, 1, -128, -1]
    with pytest.raises(FormatError) as e:
        net.tensor_array("1.weights")
    assert e.value.expected[:2] == ["2.weights", "2.bias"]
    am = binparse.open(real("tidl/am57x/tidl_net_dense_1x1.bin"))
    with pytest.raises(FormatError, match="holds no parameter arrays"):
        am.tensor_array("2.weights")
