"""Two runs of a TIDL net compared layer by layer: on trace folders written from the real 8.2, 9.x and 10.01
nets with one buffer perturbed on purpose (and the buffers computed from it), in both naming styles; reference
.npy folders; streaming; the SVG; and the `traces`, `compare` and `view` commands."""

from __future__ import annotations

import json
import math
import tracemalloc
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.core.errors import FormatError
from binparse.formats.tidl.traces.fixtures import write_traces
from binparse.formats.tidl.traces import compare as trace_compare
from binparse.formats.tidl.printouts.parse import read_layer_info
from binparse.formats.tidl.traces.reference import name_key

from .conftest import FIXTURES, real
from .test_tidl_traces import NET_915, NETS, TRACES, fixture_trace

OLD = FIXTURES / "tidl" / "traces_10_01_old"
PERTURBED = {"8.2": 20, "9.x-east": 3, "9.x-fcnn": 4, "10.01": 1}  # east: 3 is one input of the concat (4)
LAYER_OF = {"8.2": 20, "9.x-east": 3, "9.x-fcnn": 4, "10.01": 1}  # TI's layer_info (10.01: the net's conv)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """Per real net: a clean run (current names) and a run with one buffer perturbed (old names)."""
    out = {}
    for key, rel in NETS.items():
        net = real(rel)
        out[key, "clean"] = tmp_path_factory.mktemp(f"{key}-clean")
        write_traces(net, out[key, "clean"], prefix="tidl_trace_subgraph_0_", seed=3)
        out[key, "perturbed"] = tmp_path_factory.mktemp(f"{key}-perturbed")
        write_traces(net, out[key, "perturbed"], style="old", seed=3, perturb={PERTURBED[key]: 0.1})
    return out


def _layer_info_index(key: str) -> dict[int, int]:
    if key == "10.01":
        return {0: 0, 1: 1}
    net = real(NETS[key])
    out: dict[int, int] = {}
    for r in read_layer_info(f"{net}.layer_info.txt"):
        out.setdefault(r.data_id, r.index)
    return out


@pytest.mark.parametrize("key", list(NETS))
@pytest.mark.parametrize("reverse", [False, True], ids=["current-vs-old", "old-vs-current"])
def test_finds_the_perturbed_layer(runs: dict[tuple[str, str], Path], key: str, reverse: bool) -> None:
    net = binparse.open(real(NETS[key]))
    a, b = binparse.open(runs[key, "clean"]), binparse.open(runs[key, "perturbed"])
    if reverse:
        a, b = b, a
    doc = a.described_by(net).compare(b, min_snr_db=30.0).summary()
    assert doc["family"] == "tidl" and doc["kind"] == "trace_comparison"
    x = PERTURBED[key]
    assert doc["first_divergence"] == {"data_id": x, "layer": LAYER_OF[key]}
    layers = doc["layers"]
    info = _layer_info_index(key)
    assert sorted(d["data_id"] for d in layers) == sorted(info)  # every buffer, once
    seen: set[int] = set()
    below = {d["data_id"] for d in layers if d["snr_db"] is not None}
    for d in layers:  # topological: a layer after the layers whose buffers it reads
        assert d["layer"] == info[d["data_id"]]
        ins = set(net.table().in_ids[d["layer"]].tolist()) - {-1}
        assert ins <= seen
        seen.add(d["data_id"])
        if d["data_id"] in below:
            assert d["snr_db"] < 30.0 and d["max_abs_diff"] > 0
        else:
            assert d["max_abs_diff"] == 0.0 and d["mean_abs_diff"] == 0.0
    assert x in below and all(d["data_id"] in below for d in layers if ins_from(net, d["layer"]) & below)


def ins_from(net: object, layer: int) -> set[int]:
    return set(net.table().in_ids[layer].tolist()) - {-1}  # type: ignore[attr-defined]


def test_snr_and_differences_by_their_definition() -> None:
    """dataId 2 of the committed fixtures: SNR = 10 log10(Σb² / Σ(a−b)²) of the dequantized uint8 buffers."""
    net = binparse.open(NET_915)
    doc = binparse.open(TRACES).compare(binparse.open(OLD).described_by(net)).summary()
    a = (np.fromfile(fixture_trace(2), np.uint8).astype(np.float64) - 7) / 16
    b = (np.fromfile(OLD / "tidl_trace0002_00001_00003_00005x00004.y", np.uint8).astype(np.float64) - 7) / 16
    d = next(x for x in doc["layers"] if x["data_id"] == 2)
    assert d["snr_db"] == pytest.approx(10 * math.log10((b * b).sum() / ((a - b) ** 2).sum()), rel=1e-12)
    assert d["max_abs_diff"] == np.abs(a - b).max() and d["mean_abs_diff"] == pytest.approx(np.abs(a - b).mean())
    assert d["shape"] == [1, 1, 1, 3, 4, 5] and d["layer_type"] == "TIDL_PoolingLayer"
    assert doc["first_divergence"] == {"data_id": 2, "layer": 2}
    assert [x["snr_db"] is None for x in doc["layers"]] == [True, True, False, False, False]


@pytest.mark.parametrize("key", ["9.x-east", "9.x-fcnn", "10.01"])
def test_fixed_against_float_traces_of_one_run(runs: dict[tuple[str, str], Path], key: str, tmp_path: Path) -> None:
    """`.y` read with the net against TIDL's `_float.bin` of the same run: identical everywhere."""
    write_traces(real(NETS[key]), tmp_path, style="old", mode="float", seed=3)
    doc = binparse.open(runs[key, "clean"]).compare(
        binparse.open(tmp_path).described_by(binparse.open(real(NETS[key])))).summary()
    assert doc["first_divergence"] is None and doc["unmatched"] == {"a": [], "b": []}
    assert [d["snr_db"] for d in doc["layers"]] == [None] * len(_layer_info_index(key))


def test_reference_npy_by_tensor_name(runs: dict[tuple[str, str], Path], tmp_path: Path) -> None:
    """A folder of .npy named by ONNX tensor name (NCHW), as ONNX Runtime intermediate outputs are saved."""
    key = "9.x-fcnn"
    netfile = real(NETS[key])
    floats = tmp_path / "floats"
    write_traces(netfile, floats, mode="float", seed=3, perturb={4: 0.1})
    names = {r.data_id: r.name for r in read_layer_info(f"{netfile}.layer_info.txt")}
    ref = tmp_path / "ref"
    ref.mkdir()
    for p in floats.glob("*_float.bin"):
        did = int(p.name[len("tidl_trace"):][:4])
        n, _, _, c, h, w = binparse.open(p).trace.shape
        np.save(ref / f"{name_key(names[did])}.npy", np.fromfile(p, "<f4").reshape(n, c, h, w))
    assert (ref / "_cnn_cnn.2_relu_Relu_output_0.npy").is_file()
    doc = binparse.open(runs[key, "clean"]).described_by(binparse.open(netfile)).compare(binparse.open(ref)).summary()
    assert doc["first_divergence"] == {"data_id": 4, "layer": 4}
    assert len(doc["layers"]) == 9 and doc["layers"][4]["shape"] == [1, 1, 1, 128, 16, 50]
    with pytest.raises(FormatError, match="matched to traces by name, through the net"):
        binparse.open(runs[key, "clean"]).compare(binparse.open(ref))


def test_streamed_in_chunks(runs: dict[tuple[str, str], Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The east runs in chunks of 4 Ki elements: the same result, and less memory than half of one trace.
    (Measured on the two 81 MB 8.2 runs with 64 Ki-element chunks: a 2.3 MiB peak; see the README.)"""
    net = binparse.open(real(NETS["9.x-east"]))
    a, b = binparse.open(runs["9.x-east", "clean"]).described_by(net), binparse.open(runs["9.x-east", "perturbed"])
    whole = a.compare(b).summary()
    monkeypatch.setattr(trace_compare, "CHUNK", 1 << 12)
    tracemalloc.start()
    chunked = a.compare(b).summary()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    largest = max(p.stat().st_size for p in runs["9.x-east", "clean"].iterdir())
    assert largest == 1_126_400  # 5 x 176 x 320 float32
    assert peak < largest // 2
    assert chunked["first_divergence"] == whole["first_divergence"] == {"data_id": 3, "layer": 3}
    for x, y in zip(chunked["layers"], whole["layers"]):
        assert x["data_id"] == y["data_id"] and x["max_abs_diff"] == y["max_abs_diff"]
        assert (x["snr_db"] is None) == (y["snr_db"] is None)
        if x["snr_db"] is not None:
            assert x["snr_db"] == pytest.approx(y["snr_db"], rel=1e-9)


def test_svg() -> None:
    c = binparse.open(TRACES).described_by(binparse.open(NET_915)).compare(binparse.open(OLD))
    root = ET.fromstring(c.svg())
    ns = "{http://www.w3.org/2000/svg}"
    circles = root.findall(f"{ns}circle")
    assert [x.get("class") for x in circles] == ["same", "same", "first", "low", "low"]
    assert circles[2].findtext(f"{ns}title", "").startswith("dataId 2, layer 2 TIDL_PoolingLayer: 19.")
    assert "first divergence: dataId 2, layer 2 TIDL_PoolingLayer" in "".join(root.itertext())


# -- the commands --------------------------------------------------------------------------------------
def test_cli_traces_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["traces", str(TRACES), "--net", str(NET_915), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "traces" and len(doc["traces"]) == 8
    assert doc["traces"][3] == {
        "file": "tidl_trace_subgraph_0_0002_0001_0001_00001_00003_00005x00004.y", "data_id": 2,
        "shape": [1, 1, 1, 3, 4, 5], "dtype": "uint8", "float": False, "layer": 2, "layer_type": "TIDL_PoolingLayer",
        "name": None, "scale": 16.0, "zero_point": 7}


def test_cli_traces_text_without_net(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["traces", str(OLD)]) == 2  # read without the net: not read whole
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("5 files (old names), without a net: what the names say (pass --net for layers, "
                           "element types, scales)")
    assert out[3].split() == ["1", "-", "-", "1,1,1,3,4,5", "?", "(no", "net)", "-", "-", "-",
                              "tidl_trace0001_00001_00003_00005x00004.y"]


def test_cli_compare(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "snr.svg"
    # the runs diverge (named in the output): exit 1, as the contract says of two files that contradict each other
    assert main(["compare", str(TRACES), str(OLD), "--net", str(NET_915), "--svg", str(svg)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("5 layers compared in the net's topological order; SNR of A against the reference B; "
                      "divergence below 30 dB")
    assert out[2] == "first divergence: dataId 2, layer 2 TIDL_PoolingLayer"
    assert out[6].split()[:5] == ["2", "2", "TIDL_PoolingLayer", "1,1,1,3,4,5", "19.57"] and out[6].endswith("FIRST")
    assert svg.read_text().count("<circle") == 5
    assert svg.read_bytes() == (FIXTURES.parent / "docs" / "tidl_trace_snr.svg").read_bytes(), "README picture stale"
    assert main(["compare", str(TRACES), str(OLD), "--net", str(NET_915), "--json", "--min-snr", "10"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["first_divergence"] == {"data_id": 4, "layer": 4} and doc["min_snr_db"] == 10.0  # 2 and 3 above 10 dB


def test_cli_view(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "x.npy"
    assert main(["view", str(fixture_trace(1)), "--net", str(NET_915), "--dequantize", "--npy", str(out)]) == 0
    np.testing.assert_array_equal(np.load(out), np.fromfile(fixture_trace(1, "_float.bin"), "<f4").reshape(1, 1, 1, 3, 4, 5))
    assert main(["view", str(fixture_trace(1)), "--net", str(NET_915), "--npy", str(out)]) == 0
    assert np.load(out).dtype == np.int8 and np.load(out).reshape(-1).tolist() == np.fromfile(fixture_trace(1), "i1").tolist()
    capsys.readouterr()
    assert main(["view", str(fixture_trace(1)), "--dequantize", "--npy", str(out)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)
    assert "a .y trace without its net has no known element type" in capsys.readouterr().err


@pytest.mark.parametrize("key", list(NETS))
def test_cli_on_the_real_nets(runs: dict[tuple[str, str], Path], key: str, capsys: pytest.CaptureFixture[str]) -> None:
    net = str(real(NETS[key]))
    assert main(["traces", str(runs[key, "perturbed"]), "--net", net, "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["traces"]
    assert sorted(e["data_id"] for e in listed) == sorted(_layer_info_index(key))
    assert all(e["layer"] == _layer_info_index(key)[e["data_id"]] for e in listed)
    assert main(["compare", str(runs[key, "clean"]), str(runs[key, "perturbed"]), "--net", net, "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["first_divergence"] == {"data_id": PERTURBED[key], "layer": LAYER_OF[key]}
