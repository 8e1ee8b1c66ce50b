"""TIDL io_1.bin of 09.00-09.01 (37,272 bytes, no published header): the three real files against
TI's netLog of the same networks, every tensor field, view / --dequantize / pack, and the fixture."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import binparse
from binparse.engine.backends import construct_backend as cb
from binparse.cli import main
from binparse.family.fixtures import generate
from binparse.formats.tidl import IoBufDesc
from binparse.formats.tidl.printouts.parse import read_netlog
from binparse.family.registry import format_of
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import FIXTURES, REPO, real

P90 = {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 90}
FOLDERS = {"east-mobilenet": "625", "fcnn-cnn5": "_cnn_cnn.5_relu_Relu_output_0", "yolo-448": "detections"}
FIXTURE = FIXTURES / "tidl" / "io_09_00"

# (direction, name, dtype, (N, D1, D2, C, H, W), pads L,T,R,B,ch, channel pitch, line pitch, scale, zero
#  point, layout, dataId) of every tensor, as TI's import tool wrote them.
EXPECTED: dict[str, list[tuple[Any, ...]]] = {
    "east-mobilenet": [
        ("input", "onnx::Concat_616", "float32", (1, 1, 1, 4, 176, 320), (0, 0, 0, 0, 0), 56320, 320, 1.0, 0, "NCHW", 0),
        ("input", "onnx::Concat_624", "float32", (1, 1, 1, 1, 176, 320), (0, 0, 0, 0, 0), 56320, 320, 1.0, 0, "NCHW", 1),
        ("output", "625", "float32", (1, 1, 1, 5, 176, 320), (0, 0, 0, 0, 16), 56320, 320, 1.0, 0, "NCHW", 5)],
    "fcnn-cnn5": [
        ("input", "input", "float32", (1, 1, 1, 1, 32, 100), (0, 0, 0, 0, 0), 3200, 100, 1.0, 0, "NCHW", 0),
        ("output", "/cnn/cnn.5/relu/Relu_output_0", "float32", (1, 1, 1, 256, 8, 25), (0, 0, 0, 0, 774), 200, 25,
         1.0, 0, "NCHW", 8)],
    "yolo-448": [
        ("input", "images", "float32", (1, 1, 1, 3, 448, 448), (0, 0, 0, 0, 0), 200704, 448, 1.0, 0, "NCHW", 0),
        ("output", "detections", "float32", (1, 1, 1, 1, 300, 6), (0, 0, 0, 0, 4), 1800, 6, 1.0, 0, "NCHW", 117)],
}


def io_file(folder: str) -> Path:
    return real(f"tidl/j7-09.x/{folder}/{FOLDERS[folder]}_tidl_io_1.bin")


def fields(t: Any) -> tuple[Any, ...]:
    p = t.pad
    return (t.direction, t.name, t.dtype.name, t.shape, (p.left, p.top, p.right, p.bottom, p.channel), t.channel_pitch,
            t.line_pitch, t.scale, t.zero_point, t.layout, t.data_id)


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_real_09x_io_fields(folder: str) -> None:
    io = binparse.open(io_file(folder))
    assert isinstance(io, IoBufDesc) and format_of(io).name == "tidl.io.j7_09_00"
    assert io.version == "09.00-09.01" and format_of(io).version == "J7 TIDL 09.00–09.01"
    # the 16 bytes 8.x lacks: numCores, numVirtualCores, numSuperBatches, inferenceMode after the two counts
    assert (io.num_cores, io.num_virtual_cores, io.num_super_batches, int(io.inference_mode)) == (1, 1, 1, 0)
    assert io.in_dim1 is None and io.out_dim2 is None and io.num_valid_tensor_dims is None  # 09.02 fields
    assert [fields(t) for t in io.inputs + io.outputs] == EXPECTED[folder]
    n_in, n_out = io.num_input_buf, io.num_output_buf
    assert io.raw_data_in_element_type[:n_in].tolist() == [6] * n_in  # fed as float
    assert io.in_data_format[:n_in].tolist() == [1] * n_in  # RGB planar
    assert not io.in_width[n_in:].any() and not io.out_width[n_out:].any() and io.in_data_name[n_in] == ""


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_real_09x_io_dims_agree_with_ti_netlog(folder: str) -> None:
    io = binparse.open(io_file(folder))
    log = read_netlog(real(f"tidl/j7-09.x/{folder}/{FOLDERS[folder]}_tidl_net.bin_netLog.txt"))
    data_in = [r for r in log if r.layer_type == "TIDL_DataLayer" and r.num_in == -1]
    data_out = [r for r in log if r.layer_type == "TIDL_DataLayer" and r.num_out == -1]
    assert (io.num_input_buf, io.num_output_buf) == (len(data_in), len(data_out))
    for t, r in zip(io.inputs, data_in):  # an input data layer writes the buffer the io names
        assert (t.data_id, t.name) == (r.out_id, r.out_name)
        assert (t.shape[0], *t.shape[3:]) == r.out_nchw
    for t, r in zip(io.outputs, data_out):  # an output data layer reads it
        assert (t.data_id,) == r.in_ids and t.name == r.out_name
        assert (t.shape[0], *t.shape[3:]) == r.in_nchw


def test_real_09x_io_matches_construct_backend() -> None:
    schema = load_schema(SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy")
    for folder in FOLDERS:
        f = io_file(folder)
        io = binparse.open(f)
        io.validate()
        assert io.to_dict() == cb.to_plain(cb.parse(schema, f.read_bytes(), **P90), schema.root), f


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "binparse.cli", *args], capture_output=True, text=True, cwd=REPO)


def test_pack_and_view_through_a_real_09x_io(tmp_path: Path) -> None:
    src = io_file("east-mobilenet")
    logical = (np.arange(4 * 176 * 320) % 251).astype(np.float32).reshape(1, 1, 1, 4, 176, 320) / 4
    np.save(tmp_path / "in.npy", logical)
    buf, out = tmp_path / "in.bin", tmp_path / "back.npy"
    r = run("pack", str(src), str(tmp_path / "in.npy"), "--out", str(buf), "--input", "onnx::Concat_616")
    assert r.returncode == 0, r.stderr
    assert buf.stat().st_size == 4 * 56320 * 4  # C x channel pitch float32, no padding on this input
    assert np.array_equal(np.frombuffer(buf.read_bytes(), np.float32).reshape(4, 176, 320), logical[0, 0, 0])
    r = run("view", str(src), str(buf), "--input", "0", "--npy", str(out))
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(out), logical)
    # the output has 16 padding channels after its 5: a 21-channel buffer, read back without them
    t = binparse.open(src).tensor("625")
    want = (np.arange(5 * 176 * 320) % 13).astype(np.float32).reshape(1, 1, 1, 5, 176, 320)
    dev = tmp_path / "out.bin"
    dev.write_bytes(bytes(t.pack(want)))
    assert dev.stat().st_size == 21 * 56320 * 4
    r = run("view", str(src), str(dev), "--output", "625", "--npy", str(out), "--dequantize")
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(out), want)  # scale 1, zero point 0: real values as stored


def test_inspect_json_of_a_real_09x_io(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(io_file("yolo-448"))]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["format"], doc["version"], doc["size"], doc["cores"]) == ("tidl.io.j7_09_00", "09.00-09.01", 37272, 1)
    assert doc["outputs"][0]["name"] == "detections" and doc["outputs"][0]["shape"] == [1, 1, 1, 1, 300, 6]
    assert doc["outputs"][0]["pad"]["channel"] == 4 and doc["outputs"][0]["channel_pitch"] == 1800


def test_fixture_09_00_round_trips(tmp_path: Path) -> None:
    written = {p.name: p for p in generate(FIXTURE / "spec.yaml", tmp_path)}
    data = written["901_tidl_io_1.bin"].read_bytes()
    assert data == (FIXTURE / "901_tidl_io_1.bin").read_bytes() and len(data) == 37272
    assert data[:24] == bytes.fromhex("02000000" "03000000" "01000000" "01000000" "02000000" "01000000")
    io = binparse.open(data)
    assert format_of(io).name == "tidl.io.j7_09_00"
    assert (io.num_cores, io.num_super_batches, io.inference_mode.name) == (1, 2, "high_throughput")
    assert [fields(t) for t in io.outputs] == [
        ("output", "625", "float32", (1, 1, 1, 5, 6, 10), (0, 0, 0, 0, 16), 60, 10, 1.0, 0, "NCHW", 5),
        ("output", "logits", "int8", (1, 1, 1, 1, 1, 10), (0, 0, 0, 0, 0), 10, 10, 16.0, 0, "NCHW", 7),
        ("output", "heat", "uint8", (1, 1, 1, 2, 3, 4), (1, 0, 2, 1, 1), 28, 7, 8.0, 3, "NCHW", 9)]
    heat = io.tensor("heat")
    buf = written["output_2_heat.buffer.bin"].read_bytes()
    expected = np.load(written["output_2_heat.expected.npy"])
    assert np.array_equal(heat.view(buf), expected)
    assert np.array_equal(heat.view(bytes(heat.pack(expected))), expected)  # pack then view gives it back
    assert np.array_equal(heat.dequantize(buf), (expected.astype(np.float32) - 3) / 8)
    mask = io.tensor("mask", "input")
    assert bytes(mask.pack(np.full((1, 1, 1, 1, 6, 10), 7, np.uint8)))[:14] == bytes(13) + b"\x07"  # pad row, pad col
