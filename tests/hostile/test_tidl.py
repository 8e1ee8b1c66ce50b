"""Hostile TIDL inputs: claims are checked against the bytes and the array before anything is allocated."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest

from binparse.engine.build import fill
from binparse.formats.tidl.combined import combine
from binparse.formats.tidl.fixtures import io_values

from .harness import bound, run_cli, within

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "tidl"


def _io(tmp_path: Path, pitch: int) -> Path:
    """A 10.x one-core io descriptor whose output claims a channel pitch of `pitch` elements."""
    spec = {"version": "10.x-11.x", "cores": 1,
            "inputs": [{"name": "x", "dtype": "uint8", "shape": [1, 3, 4, 4]}],
            "outputs": [{"name": "y", "dtype": "float32", "shape": [1, 2, 4, 4], "channel_pitch": pitch}]}
    schema, params, values, _, _ = io_values(spec)
    path = tmp_path / "7_tidl_io_1.bin"
    path.write_bytes(fill(schema, values, params))
    return path


def test_pack_refuses_a_claimed_4_gib_buffer_before_allocating(tmp_path: Path) -> None:
    io = _io(tmp_path, 1 << 29)  # 2 channels x 2^29 float32 elements: a 4 GiB buffer claimed
    arr = tmp_path / "y.npy"
    np.save(arr, np.ones((1, 2, 4, 4), "<f4"))
    r = run_cli("pack", io, arr, "--output", "y", "--out", tmp_path / "y.bin")
    assert r.returncode != 0 and not (tmp_path / "y.bin").exists()
    assert "the descriptor claims a device buffer far larger than its tensor" in r.stderr
    assert "found 4,294,967,296 bytes (channel pitch 536,870,912" in r.stderr
    assert within(r, io.stat().st_size + arr.stat().st_size), (r.peak_rss, bound(io.stat().st_size))


def test_pack_checks_the_arrays_shape_first(tmp_path: Path) -> None:
    io = _io(tmp_path, 1 << 29)
    arr = tmp_path / "wrong.npy"
    np.save(arr, np.ones((3, 3), "<f4"))
    r = run_cli("pack", io, arr, "--output", "y", "--out", tmp_path / "y.bin")
    assert r.returncode != 0 and "the array does not have the tensor's logical shape" in r.stderr
    assert "expected (1, 1, 1, 2, 4, 4), found (3, 3)" in r.stderr and within(r, io.stat().st_size)


def test_a_combined_net_claiming_2_billion_subgraphs_is_refused(tmp_path: Path) -> None:
    net = (FIXTURES / "net_11_02_j721e" / "1102_tidl_net.bin").read_bytes()
    data = bytearray(combine([net, net]))
    struct.pack_into("<I", data, 8, 0x7FFFFFFF)
    path = tmp_path / "9_tidl_net.bin"
    path.write_bytes(data)
    r = run_cli("inspect", path)
    assert r.returncode != 0 and "subgraph count does not fit it" in r.stderr
    assert "expected 1..746 (16-byte entries in the bytes present), found 2147483647" in r.stderr
    assert within(r, len(data))


def test_a_torn_subgraph_table_is_refused(tmp_path: Path) -> None:
    net = (FIXTURES / "net_11_02_j721e" / "1102_tidl_net.bin").read_bytes()
    data = bytearray(combine([net, net]))
    struct.pack_into("<I", data, 12 + 16 + 4, 0xFFFFFF00)  # subgraph 1's size
    path = tmp_path / "9_tidl_net.bin"
    path.write_bytes(data)
    r = run_cli("inspect", path)
    assert r.returncode != 0 and "torn subgraph table: subgraph 1 lies outside the file" in r.stderr
    assert within(r, len(data))


def test_a_sparse_40_gb_trace_has_one_verdict_with_and_without_a_memory_cap(tmp_path: Path) -> None:
    """Issue 37: a trace is named by its path and size, never mapped whole to be identified, so a
    40 GB (sparse) trace gets the same doctor verdict under the suite's 3 GiB address-space cap as
    without one (it was a problem under the cap, 'no problems' without)."""
    import subprocess
    import sys
    trace = tmp_path / "tidl_trace_subgraph_0_0001_0001_0001_00001_40000_10000x00100.y"
    with open(trace, "wb") as f:
        f.truncate(40_000 * 10_000 * 100)  # 40 GB of holes: no disk used
    capped = run_cli("doctor", tmp_path, timeout=60)
    free = subprocess.run([sys.executable, "-m", "binparse", "doctor", str(tmp_path)], capture_output=True, text=True,
                          timeout=60)
    assert capped.returncode == free.returncode == 0, (capped.stdout, free.stdout)
    assert capped.stdout == free.stdout
    assert "[ok] 1 layer trace(s): sizes agree with the dims their names give" in capped.stdout
    assert within(capped, 0)  # nothing of it was read: the allowance alone


def test_a_folder_of_1201_am57x_nets_and_1200_configurations_is_linear(tmp_path: Path) -> None:
    """Issue 37: the configurations are read once and indexed by the net they name (each net used to
    list the folder and read every configuration again: past 120 s; now ~2 s)."""
    net = FIXTURES / "net_tidl_api_1_2" / "912_tidl_net.bin"
    for k in range(1201):
        (tmp_path / f"tidl_net_m{k}.bin").hardlink_to(net)
    for k in range(1200):
        (tmp_path / f"tidl_config_m{k}.txt").write_text(f'inWidth = 1\ninHeight = 1\ninNumChannels = 1\n'
                                                         f'netBinFile = "tidl_net_m{k}.bin"\n')
    r = run_cli("doctor", tmp_path, timeout=10)
    assert not r.killed and r.returncode == 0, (r.seconds, r.stderr[-500:])
    notes = [line for line in r.stdout.splitlines() if "input 1x1x1 (C x H x W) differs from" in line]
    assert len(notes) == 1200 and notes[0].startswith("  [note] tidl_config_m0.txt: input 1x1x1 (C x H x W) differs "
                                                      "from tidl_net_m0.bin's input data layer ")
    assert within(r, net.stat().st_size)  # one file, linked 1,201 times


ZERO_DIMS = ["tidl_trace_subgraph_0_0001_0001_0001_00001_00000_00005x00004.y",  # C = 0
             "tidl_trace_subgraph_0_0001_0000_0000_00000_00000_00000x00000.y",  # every dim 0
             "tidl_trace_subgraph_0_0002_0001_0001_00001_00003_00005x00000_float.bin",  # H = 0
             "tidl_trace0001_00000_00003_00005x00004.y"]  # the older names, N = 0


def test_traces_with_zero_dims_have_one_answer_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44 item 8 (`view` of a TIDL trace with zero dims ended on the bug path): every command on a
    trace whose name says a dim of 0 gives its documented answer in one line. Empty, the file holds what
    its name says (0 elements): `view --net` writes the empty array (exit 0); with bytes it is cut short
    or not what the name says (exit 2); without a net a .y has no element type (exit 2)."""
    from binparse.cli import main
    net = FIXTURES / "net_10_01_traces" / "915_tidl_net.bin"
    out = tmp_path / "o.npy"
    for name in ZERO_DIMS:
        for size in (0, 60):
            folder = tmp_path / f"{size}"
            folder.mkdir(exist_ok=True)
            trace = folder / name
            trace.write_bytes(bytes(range(size)))
            float_trace = name.endswith("_float.bin")
            for args, code in ((["view", str(trace), "--npy", str(out)], 0 if size == 0 and float_trace else 2),
                               (["view", str(trace), "--net", str(net), "--npy", str(out), "--dequantize"],
                                0 if size == 0 else 2)):
                assert main(args) == code, (name, size, args)
                said = capsys.readouterr()
                text = said.out if code == 0 else said.err
                assert text.count("\n") == 1 and "binparse failed" not in text, (name, size, args, text)
                if code == 0:
                    assert np.load(out).size == 0 and text.startswith(f"{out}: TIDL trace of dataId "), text
                elif "--net" in args:
                    assert "trace size does not match its name's dims; expected 0 elements" in text, text
                elif not float_trace:
                    assert f"found {size} B for 0 elements (a dim of its name is 0)" in text, text
            trace.unlink()
    folder = tmp_path / "all"
    folder.mkdir()
    for name in ZERO_DIMS[:3]:  # the current names (one prefix)
        (folder / name).write_bytes(b"")
    assert main(["traces", str(folder), "--net", str(net)]) == 0
    assert capsys.readouterr().out.count("1,1,1,0,4,5") == 1
    (folder / net.name).hardlink_to(net)
    r = run_cli("doctor", folder, timeout=30)  # the names and the net that wrote them contradict: proven
    assert r.returncode == 1 and "[problem] tidl_trace_subgraph_0_0001_0001_0001_00001_00000_00005x00004.y: dims " \
                                 "1x1x1x0x4x5 in the name, 1x1x1x3x4x5 in 915_tidl_net.bin (dataId 1, layer 1)" in r.stdout
    assert "Traceback" not in r.stderr and within(r, net.stat().st_size)
