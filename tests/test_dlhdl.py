"""MATLAB Deep Learning HDL Toolbox external memory format: every worked example of seed 003."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from binparse import LayoutError
from binparse.formats.dlhdl import THREAD_NUMBERS, ConvLayout, FcLayout

from .conftest import REPO


def test_terms() -> None:
    assert (ConvLayout(9, (1, 1, 1)).c, ConvLayout(9, (1, 1, 1)).n) == (3, 4)  # "nine ... C is three, N is four"
    assert [(ConvLayout(t, (1, 1, 1)).c, ConvLayout(t, (1, 1, 1)).n) for t in THREAD_NUMBERS] == [
        (2, 2), (3, 4), (4, 4), (5, 8), (6, 8), (7, 8), (8, 8)]
    for bad in (0, 8, 10, 81, -4):
        with pytest.raises(LayoutError, match="ConvThreadNumber"):
            ConvLayout(bad, (1, 1, 1))


def test_3x3x4_with_n_4_is_36_values_z_then_x_then_y() -> None:
    lay = ConvLayout(16, (3, 3, 4))  # C = N = 4
    a = np.arange(36, dtype=np.float32).reshape(3, 3, 4)  # a[x, y, z]
    buf = np.frombuffer(lay.pack(a), "<f4")
    assert buf.size == lay.size == 36
    # N values along z, then x, then y: position ((y * X) + x) * N + z
    assert buf[(1 * 3 + 2) * 4 + 3] == a[2, 1, 3] and buf[:8].tolist() == [0, 1, 2, 3, 12, 13, 14, 15]


def test_z3_n4_pads_one_zero_plane() -> None:
    lay = ConvLayout(16, (2, 2, 3))
    a = np.ones((2, 2, 3), np.float32)
    buf = np.frombuffer(lay.pack(a), "<f4").reshape(2, 2, 4)
    assert lay.size == 16 and buf[..., 3].sum() == 0 and buf[..., :3].sum() == 12
    assert lay.padded(a).shape == (2, 2, 4)


def test_c3_n4_z4_is_72_values_with_planes_after_channel_3_and_4() -> None:
    lay = ConvLayout(9, (3, 3, 4))
    a = np.arange(1, 37, dtype=np.float32).reshape(3, 3, 4)
    assert lay.size == 3 * 3 * 8 == 72 and lay.padded_shape == (3, 3, 8)
    padded = lay.padded(a)
    # channels 1..3, a zero plane, channel 4, three zero planes
    assert np.array_equal(padded[..., :3], a[..., :3]) and not padded[..., 3].any()
    assert np.array_equal(padded[..., 4], a[..., 3]) and not padded[..., 5:].any()
    buf = np.frombuffer(lay.pack(a), "<f4")
    assert buf[:8].tolist() == [1, 2, 3, 0, 13, 14, 15, 0]  # x = 0, 1 of block 0
    assert buf[36:40].tolist() == [4, 0, 0, 0]  # block 1 starts with channel 4


def test_10x10x5_with_thread_number_9_is_10x10x8() -> None:
    lay = ConvLayout(9, (10, 10, 5))
    assert lay.padded_shape == (10, 10, 8) and lay.size == 800


def test_views_round_trips_and_int8() -> None:
    lay = ConvLayout(9, (5, 4, 7), "int8")
    a = np.random.default_rng(3).integers(-128, 128, (5, 4, 7)).astype(np.int8)
    buf = bytearray(lay.pack(a))
    assert np.array_equal(lay.unpack(buf), a) and np.array_equal(lay.to_logical(bytes(buf)), a)
    v = lay.buffer_view(buf)
    assert v.shape == (3, 4, 5, 4) and np.shares_memory(v, np.frombuffer(buf, np.uint8))
    ch = lay.channels_view(buf)
    assert ch.shape == (3, 4, 5, 3) and ch[1, 2, 3, 0] == a[3, 2, 3] and not v[..., 3].any()
    v[0, 0, 0, 0] = 7  # write-through
    assert lay.to_logical(buf)[0, 0, 0] == 7
    with pytest.raises(LayoutError, match="outside the buffer"):
        lay.to_logical(bytes(lay.size - 1))
    with pytest.raises(LayoutError, match="shape"):
        lay.pack(np.zeros((5, 4, 6), np.int8))


def test_fc() -> None:
    fc = FcLayout(10)
    data = np.arange(30, dtype="<f4").tobytes()
    v = fc.view(data)
    assert v.shape == (3, 10) and v[2, 0] == 20 and not v.flags.writeable
    with pytest.raises(LayoutError, match="whole number"):
        fc.view(data[:-4])


def test_cli(tmp_path: Path) -> None:
    run = lambda *a: subprocess.run([sys.executable, "-m", "binparse.cli", *a], capture_output=True, text=True, cwd=REPO)  # noqa: E731
    a = np.arange(1, 37, dtype=np.float32).reshape(3, 3, 4)
    np.save(tmp_path / "a.npy", a)
    opts = ["--dlhdl", "conv", "--thread-number", "9", "--shape", "3,3,4", "--dtype", "float32"]
    r = run("pack", *opts, str(tmp_path / "a.npy"), "--out", str(tmp_path / "a.bin"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "a.bin").stat().st_size == 72 * 4
    r = run("view", *opts, str(tmp_path / "a.bin"), "--npy", str(tmp_path / "b.npy"))
    assert r.returncode == 0, r.stderr
    b = np.load(tmp_path / "b.npy")
    assert b.shape == (3, 3, 4) and np.array_equal(b, a) and b[1, 2, 3] == 24  # MATLAB's (2, 3, 4)
    r = run("view", "--dlhdl", "fc", "--size", "8", str(tmp_path / "a.bin"), "--npy", str(tmp_path / "f.npy"))
    assert r.returncode == 0 and np.load(tmp_path / "f.npy").shape == (9, 8)  # 72 values = 9 outputs of 8
    r = run("view", "--dlhdl", "conv", "--thread-number", "10", "--shape", "3,3,4", str(tmp_path / "a.bin"),
            "--npy", str(tmp_path / "b.npy"))
    assert r.returncode == 3 and "ConvThreadNumber" in r.stderr
