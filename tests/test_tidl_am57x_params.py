"""AM57x `tidl_param_*.bin`: what TI's readers read per layer type, checked on every pair TI ships
(the PReLU net included) and against every wrong pairing."""

from __future__ import annotations

import itertools
import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.core.errors import FormatError
from binparse.formats.tidl import Config, ParamFile

from .conftest import real

NETS = ("imagenet_jacintonet11v2", "imagenet_jacintonet11v2_prelu", "jdetNet_ssd", "mnist_lenet")
SIZES = {"imagenet_jacintonet11v2": 2_872_761, "imagenet_jacintonet11v2_prelu": 2_880_697, "jdetNet_ssd": 2_972_493,
         "mnist_lenet": 435_408}


def pair(net: str, params: str) -> tuple[Any, Any]:
    return (binparse.open(real(f"tidl/am57x/tidl_net_{net}.bin")),
            binparse.core.filemap.map_file(real(f"tidl/am57x/tidl_param_{params}.bin")))


@pytest.mark.parametrize("name", NETS)
def test_every_shipped_pair_is_read_to_the_last_byte(name: str) -> None:
    net, pm = pair(name, name)
    views = net.weights(pm)
    assert sum(v.nbytes for d in views for v in d.values()) == SIZES[name] == len(pm)
    whole = np.frombuffer(pm, np.uint8)
    assert all(np.shares_memory(v, whole) for d in views for v in d.values())


def test_prelu_slopes_follow_each_batchnorm() -> None:
    net, pm = pair("imagenet_jacintonet11v2_prelu", "imagenet_jacintonet11v2_prelu")
    w = net.weights(pm)
    with_slope = [i for i, d in enumerate(w) if "slope" in d]
    assert with_slope == [3, 5, 8, 10, 13, 15, 18, 20, 23, 25]  # BatchNorm with reluType PReLU (enableRelU 0)
    assert sum(w[i]["slope"].size for i in with_slope) == 1984 == 2_880_697 - 2_878_713  # the bytes once missed
    assert w[3]["slope"].dtype == np.uint8 and w[3]["slope"][:5].tolist() == [216, 179, 187, 153, 177]
    assert w[25]["slope"][-3:].tolist() == [171, 191, 174]
    # had a slope been misplaced, the next BatchNorm's weights and biases would not be these constants
    assert all((w[i]["weights"] == 255).all() and (w[i]["bias"] == 0).all() for i in with_slope)
    assert "slope" not in w[1]  # the input BatchNorm has reluType RelU: no slope is read
    last = real("tidl/am57x/tidl_param_imagenet_jacintonet11v2_prelu.bin").read_bytes()[-8:]
    assert w[27]["bias"][-4:].tolist() == list(struct.unpack("<4h", last)) == [2249, -2499, 16729, 17319]


# dense_1x1: 1,041,488 bytes on disk; TI's readers' rule asks 1,041,512 (its input BatchNorm's 8 + 16 bytes more)
DESCRIBED = {**SIZES, "dense_1x1": 1_041_512}
ON_DISK = {**SIZES, "dense_1x1": 1_041_488}


@pytest.mark.parametrize("net_name,param_name", [p for p in itertools.permutations((*NETS, "dense_1x1"), 2)])
def test_a_param_file_of_another_net_fails(net_name: str, param_name: str) -> None:
    net, pm = pair(net_name, param_name)
    with pytest.raises(FormatError) as e:
        net.weights(pm, file=f"tidl_param_{param_name}.bin")
    assert e.value.expected == f"{DESCRIBED[net_name]:,} bytes (from the network's layers)"
    assert e.value.found == f"{ON_DISK[param_name]:,} bytes"


def test_dense_1x1_is_read_without_its_unscaled_batchnorm_and_said_not_verified() -> None:
    pf = ParamFile.open(real("tidl/am57x/tidl_param_dense_1x1.bin"))
    bn = pf.net.layers[1].layer_params
    assert (int(pf.net.layers[1].layer_type), bn.num_channels, bn.weights_q, bn.bias_q) == (8, 8, 0, 1)
    assert pf.layers[1] == {} and pf.not_verified is not None
    assert pf.not_verified.startswith("a BatchNorm layer whose weightsQ is 0 has no arrays in the param file")
    arrays = pf.arrays()
    assert [(i, n, off) for i, n, off, _ in arrays[:4]] == [(2, "weights", 0), (2, "bias", 256), (3, "weights", 320),
                                                             (3, "bias", 1344)]
    assert arrays[1][3][:16].tolist() == [2, -4, 0, 0, 0, -1, -3, -1, 3, 0, 1, 0, 0, -1, 0, 1]  # small: biases
    assert arrays[-1][3][-2:].tolist() == [2344, 7503] and arrays[-1][3].size == 1000  # the IP's last biases
    assert sum(v.nbytes for *_, v in arrays) == 1_041_488
    whole = np.frombuffer(binparse.core.filemap.map_file(real("tidl/am57x/tidl_param_dense_1x1.bin")), np.uint8)
    assert whole[256:320].view("<i2")[:16].tolist() == arrays[1][3][:16].tolist()
    doc = pf.summary()
    assert doc["not_verified"] == pf.not_verified and doc["arrays"][0]["layer"] == 2
    assert pf.report().startswith("NOT VERIFIED: a BatchNorm layer whose weightsQ is 0")


def test_inspect_and_view_a_param_file_through_its_net(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = real("tidl/am57x/tidl_param_imagenet_jacintonet11v2_prelu.bin")
    assert main(["inspect", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "TIDL param file of tidl_net_imagenet_jacintonet11v2_prelu.bin (TIDL-API 1.3 (AM57x)): 54 arrays"
    assert out[8].split() == ["3.slope", "TIDL_BatchNormLayer", "2569", "uint8", "32"]
    assert main(["inspect", "--json", str(path)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["kind"], doc["net"], doc["size"]) == ("param.bin", "tidl_net_imagenet_jacintonet11v2_prelu.bin", 2_880_697)
    assert doc["arrays"][-1] == {"layer": 27, "type": "TIDL_InnerProductLayer", "name": "bias", "offset": 2_878_697,
                                 "dtype": "int16", "count": 1000}
    npy = tmp_path / "slope.npy"
    assert main(["view", str(path), "--tensor", "3.slope", "--npy", str(npy)]) == 0
    assert np.load(npy)[:5].tolist() == [216, 179, 187, 153, 177]
    assert main(["view", str(path), "--tensor", "3.gamma", "--npy", str(npy)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)
    lone = tmp_path / "tidl_param_x.bin"  # no network beside it: nothing says where the arrays are
    lone.write_bytes(path.read_bytes()[:100])
    assert main(["inspect", str(lone)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)
    with pytest.raises(FormatError, match="read through its network"):
        ParamFile.open(lone)


def test_inspect_a_tidl_api_config(capsys: pytest.CaptureFixture[str]) -> None:
    cfg = binparse.open(real("tidl/am57x/tidl_config_jdetnet.txt"))
    assert isinstance(cfg, Config)
    assert {k: cfg.values[k] for k in ("inWidth", "inHeight", "inNumChannels", "preProcType")} == {
        "inWidth": "768", "inHeight": "320", "inNumChannels": "3", "preProcType": "4"}
    assert cfg.values["netBinFile"] == "../test/testvecs/config/tidl_models/tidl_net_jdetNet_ssd.bin"
    assert main(["inspect", "--json", str(real("tidl/am57x/tidl_config_mnist_lenet.txt"))]) == 0
    assert json.loads(capsys.readouterr().out)["values"]["inNumChannels"] == "2"


@pytest.mark.parametrize("text, path, found", [
    ("# comment\ninWidth = 224\ninHeight 224\n", "line 3", "inHeight 224"),
    ('netBinFile = "a"b"\n', "line 1", 'netBinFile = "a"b"'),
    ("", None, "none (an empty file, or comments only)"),
    ("# only a comment\n\n", None, "none (an empty file, or comments only)"),
])
def test_a_config_line_binparse_cannot_read_is_refused(tmp_path: Path, text: str, path: str | None,
                                                        found: str) -> None:
    cfg = tmp_path / "tidl_config_x.txt"
    cfg.write_text(text)
    with pytest.raises(FormatError) as e:
        binparse.open(cfg)
    assert e.value.file == str(cfg) and e.value.path == path and e.value.found == found


def test_doctor_does_not_compare_a_config_size_that_is_no_number(tmp_path: Path) -> None:
    for name in ("tidl_net_mnist_lenet.bin", "tidl_param_mnist_lenet.bin"):
        (tmp_path / name).write_bytes(real("tidl/am57x/" + name).read_bytes())
    text = real("tidl/am57x/tidl_config_mnist_lenet.txt").read_text()
    (tmp_path / "tidl_config_mnist_lenet.txt").write_text(text.replace("inWidth = 28", "inWidth = 2x8"))
    doc = doctor(tmp_path)
    notes = [f["text"] for f in doc["findings"] if f["text"].startswith("tidl_config_mnist_lenet.txt")]
    assert notes == ["tidl_config_mnist_lenet.txt: inNumChannels '2', inHeight '28', inWidth '2x8' are not all whole "
                     "numbers, so its input is not compared with tidl_net_mnist_lenet.bin's"]


def test_a_tda2_fixture_holds_what_the_readers_read(tmp_path: Path) -> None:
    # A convolution without enableBias has no biases in the param file; a BatchNorm with reluType
    # PReLU is followed by its slopes; a Bias layer has biases only.
    from binparse.family.fixtures import generate
    import yaml
    out = {"id": 1, "dtype": "uint8", "dims": [1, 2, 4, 4]}
    spec = {"family": "tidl", "kind": "net", "version": "tidl-api-1.2", "output": "n_tidl_net.bin",
            "params_output": "n_tidl_param.bin",
            "header": {"weights_element_size": 1, "slope_element_size": 1, "bias_element_size": 2},
            "layers": [
                {"type": "DataLayer", "outputs": [{"id": 0, "dtype": "uint8", "dims": [1, 1, 6, 6]}]},
                {"type": "ConvolutionLayer", "inputs": [0], "outputs": [out], "weights": list(range(18)),
                 "params": {"num_in_channels": 1, "num_out_channels": 2, "num_groups": 1, "kernel_w": 3,
                            "kernel_h": 3, "enable_bias": 0}},
                {"type": "BatchNormLayer", "inputs": [1], "outputs": [{**out, "id": 2}], "weights": [7, 8],
                 "bias": [-1, 300], "slope": [5, 6], "params": {"num_channels": 2, "relu_params": {"relu_type": 1}}},
                {"type": "BiasLayer", "inputs": [2], "outputs": [{**out, "id": 3}], "bias": [1000, -1000],
                 "params": {"num_channels": 2}},
                {"type": "DataLayer", "inputs": [3]}]}
    (tmp_path / "spec.yaml").write_text(yaml.safe_dump(spec))
    generate(tmp_path / "spec.yaml", tmp_path)
    params = (tmp_path / "n_tidl_param.bin").read_bytes()
    assert params == bytes(range(18)) + bytes([7, 8]) + struct.pack("<2h", -1, 300) + bytes([5, 6]) + \
        struct.pack("<2h", 1000, -1000)
    w = binparse.open(tmp_path / "n_tidl_net.bin").weights(params)
    assert [sorted(d) for d in w] == [[], ["weights"], ["bias", "slope", "weights"], ["bias"], []]
    assert w[2]["bias"].tolist() == [-1, 300] and w[2]["slope"].tolist() == [5, 6]
    assert w[3]["bias"].tolist() == [1000, -1000]
