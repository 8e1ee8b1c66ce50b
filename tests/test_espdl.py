"""ESP-DL: padded HWC views (seed 002's get_element_ptr), concat members sharing one buffer,
(de)quantisation, packing, TensorBase alignment, the .espdl container."""

from __future__ import annotations

import struct
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse import FormatError, LayoutError
from binparse.formats.espdl import DlTensor, EspdlFile, TensorBase, concat

from .conftest import REPO


def test_view_and_layer_padding_follow_get_element_ptr() -> None:
    t = DlTensor((5, 3, 4), (1, 2, 2, 1), "int8", exponent=-3)  # H 5, W 3, C 4; padded 8 x 6 x 4
    assert t.shape_with_padding == (8, 6, 4)
    buf = bytearray((np.arange(192) % 127).astype(np.int8).tobytes())  # element k holds k % 127
    v = t.view(buf)
    # element (y, x, c) of the unpadded tensor is at ((y + top) * Wp + x + left) * Cp + c
    assert v.shape == (5, 3, 4) and v[2, 1, 3] == ((2 + 1) * 6 + 1 + 2) * 4 + 3
    assert v.strides == (24, 4, 1) and np.shares_memory(v, np.frombuffer(buf, np.uint8))
    # Layer.padding (1, 1, 1, 0): starts at ((1 - 1) * 6 + (2 - 1)) * 4 = 4 elements in
    region = t.view(buf, pad=(1, 1, 1, 0))
    assert region.shape == (7, 4, 4) and region[0, 0, 0] == 4
    with pytest.raises(LayoutError, match="layer padding larger"):
        t.view(buf, pad=(2, 0, 0, 0))
    with pytest.raises(LayoutError, match="outside the buffer"):
        t.view(bytes(100))


def test_quantisation_and_pack() -> None:
    t = DlTensor((2, 2, 3), (1, 1, 1, 1), "int16", exponent=-8)
    x = np.array([[[0.5, -1.0, 127.99], [1000.0, 0.0, -0.00390625]], [[1, 2, 3], [-128, -200, 0.25]]])
    q = t.quantize(x)
    assert q.dtype == np.int16 and q[0, 0].tolist() == [128, -256, 32765] and q[0, 1, 0] == 32767
    assert q[1, 1, 1] == -32768 and q[0, 1, 2] == -1
    buf = bytearray(b"\xee" * (4 * 4 * 3 * 2))
    t.pack(q, into=buf)
    arr = np.frombuffer(buf, "<i2").reshape(4, 4, 3)
    assert np.array_equal(arr[1:3, 1:3], q)
    assert int(np.abs(arr.astype(np.int64)).sum()) == int(np.abs(q.astype(np.int64)).sum())  # padding all zero
    assert t.dequantize(buf)[0, 0].tolist() == [0.5, -1.0, 32765 / 256]
    with pytest.raises(LayoutError, match="exponent out of range"):
        DlTensor((1, 1, 1), exponent=100)


def test_concat_members_share_one_buffer() -> None:
    a, b, c = concat((2, 3), [2, 3, 1], padding=(1, 0, 0, 1))
    assert (b.channel_offset, b.channel_stride, b.shape_with_padding) == (2, 6, (3, 4, 6))
    buf = bytearray(a.new_buffer())
    assert len(buf) == 3 * 4 * 6
    b.pack(np.full((2, 3, 3), 5, np.int8), into=buf)
    a.pack(np.full((2, 3, 2), 1, np.int8), into=buf)
    c.pack(np.full((2, 3, 1), 9, np.int8), into=buf)
    full = np.frombuffer(buf, np.int8).reshape(3, 4, 6)
    assert full[1, 0].tolist() == [1, 1, 5, 5, 5, 9] and full[0].sum() == 0 and full[:, 3].sum() == 0
    vb = b.view(buf)
    assert vb.strides == (24, 6, 1) and np.shares_memory(vb, np.frombuffer(buf, np.uint8)) and int(vb.sum()) == 90


def test_tensor_base() -> None:
    t = TensorBase((1, 3, 3, 5), dtype=3, exponents=(-2,))  # int8
    assert t.aligned_nbytes == 48  # 45 bytes rounded to 16
    buf = bytearray(64)
    buf[16:61] = bytes(range(45))
    v = t.view(buf, 16)
    assert v[0, 2, 2, 4] == 44 and np.shares_memory(v, np.frombuffer(buf, np.uint8))
    with pytest.raises(LayoutError, match="16-byte boundary"):
        t.view(buf, 8)
    with pytest.raises(LayoutError, match="buffer too small"):
        t.view(bytes(60), 16)
    w = TensorBase((2, 3), dtype=5, exponents=(0, -1, 1))  # int16, per-channel exponents
    data = np.array([[2, 2, 2], [4, 4, 4]], "<i2").tobytes() + bytes(4)
    assert w.dequantize(data).tolist() == [[2.0, 1.0, 4.0], [4.0, 2.0, 8.0]]
    with pytest.raises(LayoutError, match="no numeric storage"):
        TensorBase((1,), dtype=8)


def edl2(payload: bytes, mode: int = 0) -> bytes:
    return b"EDL2" + struct.pack("<II", mode, len(payload)) + bytes(4) + payload


def test_container() -> None:
    single = binparse.open(edl2(b"FLATBUFFER!!"))
    assert isinstance(single, EspdlFile) and single.magic == "EDL2"
    (m,) = single.models
    p = m.payload
    assert isinstance(p, memoryview) and bytes(p) == b"FLATBUFFER!!" and p.readonly
    assert single.summary()["models"] == [{"name": "", "encrypted": False, "size": 12, "payload_offset": 16, "graph": None,
                                           "error": "Model, offset 16 (0x10): the payload's FlatBuffer root is not a Model "
                                                    "(offset points past the payload); expected a position inside the "
                                                    "12-byte payload, found 1413565510. Checked the root offset, the root "
                                                    "table's vtable, Model.graph and the Graph table's vtable: the payload "
                                                    "is not an espdl.fbs Model"}]
    edl1 = binparse.open(b"EDL1" + struct.pack("<II", 0, 3) + b"abc")
    assert bytes(edl1.models[0].payload) == b"abc"
    m1, m2 = edl2(b"ABCDEFGH"), edl2(b"WXYZ", mode=1)
    names = b"firstsecond"
    d1 = 8 + 24 + len(names)
    pack = b"PDL2" + struct.pack("<I", 2) + struct.pack("<3I", d1, 32, 5) + struct.pack("<3I", d1 + len(m1), 37, 6) + names + m1 + m2
    f = binparse.open(pack)
    assert [m.name for m in f.models] == ["first", "second"] and bytes(f.model_named("first").payload) == b"ABCDEFGH"
    with pytest.raises(FormatError, match="encrypted"):
        f.model_named("second").payload
    # PDL3: version (16 B), package size, SHA-256 (32 B), model_num at 56, entries from 60
    pdl3 = b"PDL3" + b"v1.0".ljust(16, b"\0") + struct.pack("<I", 99) + bytes(range(32)) + struct.pack("<I", 1) \
        + struct.pack("<3I", 80, 72, 1) + b"n" + bytes(7) + edl2(b"Q")
    g = binparse.open(pdl3)
    assert g.model_num == 1 and g.pdl3_header.package_size == 99 and bytes(g.pdl3_header.sha256[:3]) == b"\0\1\2"
    assert g.models[0].name == "n" and bytes(g.models[0].payload) == b"Q"
    with pytest.raises(FormatError):
        binparse.open(b"EDL2" + struct.pack("<II", 0, 1000) + bytes(4) + b"short").models[0].payload


def test_cli(tmp_path: Path) -> None:
    t = DlTensor((2, 3, 4), (1, 1, 0, 2), "int8", exponent=-2)
    x = (np.arange(24) - 12).reshape(2, 3, 4).astype(np.int8)
    np.save(tmp_path / "x.npy", x)
    run = lambda *a: subprocess.run([sys.executable, "-m", "binparse.cli", *a], capture_output=True, text=True, cwd=REPO)  # noqa: E731
    opts = ["--espdl", "--shape", "2,3,4", "--padding", "1,1,0,2", "--dtype", "int8"]
    r = run("pack", *opts, str(tmp_path / "x.npy"), "--out", str(tmp_path / "buf.bin"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "buf.bin").read_bytes() == bytes(t.pack(x))
    r = run("view", *opts, "--exponent", "-2", "--dequantize", str(tmp_path / "buf.bin"), "--npy", str(tmp_path / "y.npy"))
    assert r.returncode == 0, r.stderr
    assert np.array_equal(np.load(tmp_path / "y.npy"), x.astype(np.float32) / 4)
    r = run("view", *opts[:-2], "--padding", "9,9,9,9", str(tmp_path / "buf.bin"), "--npy", str(tmp_path / "y.npy"))
    assert r.returncode == 2 and "outside the buffer" in r.stderr
