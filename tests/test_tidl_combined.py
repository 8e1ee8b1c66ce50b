"""The combined multi-subgraph net and io of TIDL 11.x (magic 0xFF00FF00): listed, opened subgraph by
subgraph (zero-copy), paired by the doctor, refused when torn or when net and io disagree on N."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.formats.tidl import NetJ7
from binparse.formats.tidl.combined import Combined, combine
from binparse.family.registry import format_of

from .conftest import FIXTURES

HERE = FIXTURES / "tidl" / "combined_11_02_am62a"
NET, IO = HERE / "424_tidl_net.bin", HERE / "424_tidl_io_1.bin"


def test_the_net_lists_its_subgraphs_and_each_reads_as_the_net_it_is(capsys: pytest.CaptureFixture[str]) -> None:
    data = NET.read_bytes()
    assert struct.unpack_from("<IIIIIIIIIII", data) == (0x20251208, 0xFF00FF00, 2, 40, 5952, 0, 0, 5952, 5760, 0, 0)
    assert main(["inspect", str(NET)]) == 0
    assert capsys.readouterr().out == (
        "TIDL combined net: 2 subgraphs, netVersion 0x20251208\n"
        "  subgraph 0: bytes 44..5,996 (5,952 B), TIDL 11.02, 3 layers\n"
        "  subgraph 1: bytes 5,996..11,756 (5,760 B), TIDL 11.02, 3 layers\n"
        f"--subgraph N reads one of them (inspect, view, traces, compare, draw): `binparse inspect {NET} --subgraph 0`\n")
    buf = bytearray(data)
    both = Combined.from_buffer(buf)
    one = both.subgraph(1)
    assert type(one) is NetJ7 and format_of(one).name == "tidl.net.j7_11_02" and one.soc_cores == 1
    assert [one.type_name(int(x)) for x in one.table().layer_type] == ["TIDL_DataLayer", "TIDL_PoolingLayer",
                                                                     "TIDL_DataLayer"]
    layers = one.used_layers
    assert np.shares_memory(layers, np.frombuffer(buf, np.uint8))  # a view of the combined file, no copy
    struct.pack_into("<i", buf, 5996 + 176 + 1848 + 1588, 12)  # write through: subgraph 1's layer 1 type
    assert int(one.used_layers["layer_type"][1]) == 12
    assert bytes(data[44:44 + 5952]) == (FIXTURES / "tidl" / "net_11_02_am62a" / "1102_tidl_net.bin").read_bytes()


def test_subgraph_option_picks_one_for_inspect_and_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(NET), "--subgraph", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:5] == ["TIDL network 11.02, netVersion 0x20251208, 3 layers", "SoC: TIDL_MAX_NUM_CORES 1 (J721E, J721S2, AM62A, AM68A, AM68PA), numCores 1", "inputs: 1 (dataIds 0); outputs: 1 (dataIds 1)", "parameters: 0 arrays, 0 bytes"]
    assert "TIDL_PoolingLayer" in out[7]
    assert main(["inspect", str(IO), "--subgraph", "0"]) == 0
    assert "  0  mid   int8   1,1,1,4,8,8" in capsys.readouterr().out
    buf = tmp_path / "mid.bin"
    buf.write_bytes(np.arange(256, dtype=np.int8).tobytes())
    assert main(["view", str(IO), str(buf), "--subgraph", "1", "--input", "mid", "--npy", str(tmp_path / "m.npy")]) == 0
    assert np.load(tmp_path / "m.npy").reshape(-1).tolist() == np.arange(256, dtype=np.int8).tolist()
    assert main(["inspect", str(NET), "--subgraph", "2"]) == 3
    assert "no such subgraph" in capsys.readouterr().err


def test_the_io_holds_the_models_descriptor_then_each_subgraphs() -> None:
    io = binparse.open(IO)
    assert isinstance(io, Combined) and io.kind == "io" and io.magic_at == 378392
    assert [t.name for t in io.head().inputs + io.head().outputs] == ["input.1", "424"]
    doc = io.summary()
    assert [(s["offset"], s["size"], s["inputs"], s["outputs"]) for s in doc["subgraphs"]] == [
        (378432, 378392, ["input.1"], ["mid"]), (756824, 378392, ["mid"], ["424"])]


def test_doctor_pairs_the_combined_net_and_io_subgraph_by_subgraph() -> None:
    doc = doctor(HERE)
    assert doc["status"] == "ok"
    assert [f["text"] for f in doc["findings"] if f["level"] == "ok"] == [
        f"424_tidl_io_1.bin[subgraph {i}] and 424_tidl_net.bin[subgraph {i}] agree: TIDL 10.x-11.x / 11.02, "
        "1 input(s) and 1 output(s) match the net's data layers by dataId and dims" for i in (0, 1)]


def test_doctor_refuses_a_pair_whose_subgraph_counts_differ(tmp_path: Path) -> None:
    (tmp_path / NET.name).write_bytes(NET.read_bytes())
    one_io = IO.read_bytes()
    head, first = one_io[:378392], one_io[378432:756824]
    (tmp_path / IO.name).write_bytes(combine([first], head=head))
    doc = doctor(tmp_path)
    assert doc["status"] == "problem"
    assert [f["text"] for f in doc["findings"] if f["level"] == "problem"] == [
        "424_tidl_io_1.bin holds 1 subgraphs, 424_tidl_net.bin 2: TI's runtime refuses the pair (number of "
        "subgraphs in net and io differ)"]


def test_doctor_refuses_a_torn_table(tmp_path: Path) -> None:
    data = bytearray(NET.read_bytes())
    struct.pack_into("<I", data, 12 + 16, 7000)  # subgraph 1 now starts past the end
    (tmp_path / NET.name).write_bytes(data)
    doc = doctor(tmp_path)
    assert doc["status"] == "not verified" and doc["not_verified"] == [NET.name]  # not read: as inspect, exit 2
    text = [f["text"] for f in doc["findings"] if f["files"] == [NET.name]][0]
    assert "torn subgraph table: subgraph 1 lies outside the file" in text and "offset 7000 -> bytes 7,044..12,804" in text


def test_traces_take_one_subgraph_of_a_combined_net(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    traces = FIXTURES / "tidl" / "traces_10_01"
    net = FIXTURES / "tidl" / "net_10_01_traces" / "915_tidl_net.bin"
    joined = tmp_path / "915_tidl_net.bin"
    joined.write_bytes(combine([NET.read_bytes()[44:44 + 5952], net.read_bytes()]))
    assert main(["traces", str(traces), "--net", str(net)]) == 0
    alone = capsys.readouterr().out
    assert main(["traces", str(traces), "--net", str(joined), "--subgraph", "1"]) == 0
    assert capsys.readouterr().out == alone.replace(f"read with {net}", f"read with {joined}[subgraph 1]")
    assert f"read with {net}" in alone
