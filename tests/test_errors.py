"""The exact message a user gets for the common mistakes, per family. Each names where, what was
expected and what was found, and says what to do."""

from __future__ import annotations

import struct
from typing import Any, Callable

import numpy as np
import pytest

import binparse
from binparse.formats.dlhdl import ConvLayout
from binparse.formats.espdl import DlTensor
from binparse.formats.intel_dla import CompileFolder, read_table

from .conftest import FIXTURES

IO = (FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin").read_bytes()
NET = (FIXTURES / "tidl" / "net_08_06" / "910_tidl_net.bin").read_bytes()


def message(fn: Callable[[], Any]) -> str:
    with pytest.raises(binparse.BinparseError) as e:
        fn()
    return str(e.value)


def test_tidl_io_from_another_sdk_version() -> None:
    # a size no TIDL version writes (37,272 bytes, edgeai-tidl-tools issue #66, is now 09.00-09.01)
    assert message(lambda: binparse.open(IO + bytes(24))) == (
        "no known format matches this file; expected one of: 37,272 bytes = tidl.io.j7_09_00 (J7 TIDL "
        "09.00–09.01); 37,256 bytes = tidl.io.j7_08 (J7 TIDL 08.x (08_00 … 08_06)); 1,160 bytes = tidl.io.tda2 "
        "(TDA2 TIDL 01.xx (16/16)); 93,976 bytes = tidl.io.j7_09_02.c1 (J7 TIDL 09.02, 1 core); …, found 37,280 "
        "bytes starting 02 00 00 00 03 00 00 00. It is +8 bytes from tidl.io.j7_09_00 (J7 TIDL 09.00–09.01): a "
        "file from another SDK version, or a truncated or padded one; pass format=NAME to read it as one anyway")


def test_tidl_io_truncated() -> None:
    assert message(lambda: binparse.open(IO[:-4], format="tidl.io.j7_08")) == (
        "wrong size for tidl.io.j7_08; expected 37,256 bytes (J7 TIDL 08.x (08_00 … 08_06)), found 37,252 "
        "bytes. The file is truncated or padded, or was written by another SDK version; `binparse schemas` "
        "lists the sizes each version writes")


def test_tidl_buffer_too_small() -> None:
    seg = binparse.open(IO).tensor("seg_map")
    assert message(lambda: seg.view(bytes(1000))) == (
        "tidl_io_buf_desc.outputs[1] 'seg_map', offset 68 (0x44): view reaches outside the buffer; "
        "expected a buffer of at least 92,793 bytes (the view spans bytes 68..92,793), found 1,000 bytes. "
        "Pass the whole device buffer from its first byte, or check the shape, pitches and padding")


def test_tidl_net_of_an_unknown_version_and_truncated() -> None:
    newer = bytearray(struct.pack("<I", 0x20250429) + NET[4:])  # TIDL 11.00.04 (bbappend): no verified layout
    struct.pack_into("<i", newer, 136 + 1792 + 1560, 999)  # and a corrupt layer type: no layout holds
    assert message(lambda: binparse.open(bytes(newer))) == (
        "no known layout reads this TIDL network (netVersion 0x20250429, TIDL 11.00.04); expected a layout under "
        "which the layers, data ids, dims and sizes hold, found tried 11.02 layout (netVersion 0x20251208): the "
        "TIDL network header holds for no SoC's core count; tried 11.02.12 layout (netVersion 0x20260423): the TIDL "
        "network header holds for no SoC's core count; tried 10.01 layout (netVersion 0x20241120): "
        "netBufInfo[0].size 192 bytes is not the 64-aligned header + layers, 5,696 bytes; tried 09.02 layout (netVersion "
        "0x20240401): no input data layer (numInBufs -1) or no output data layer (numOutBufs -1); tried 9.0/9.1 "
        "layout (netVersion 0x20230802): no input data layer (numInBufs -1) or no output data layer (numOutBufs "
        "-1); tried 08.06 layout (netVersion 0x20230208): layer 1 has type 999, not one of the 08.06 layer types "
        "(1 such layer); tried 8.2 layout (netVersion 0x20211201): field runs past the end of the data "
        "(tidl_net_j7.layers). The file is corrupt, or its SDK changed the layout; `binparse schemas` lists the "
        "verified layouts, format=NAME reads it as one anyway")
    assert message(lambda: binparse.open(NET[:2000]).table()) == (
        "tidl_net_j7.layers, offset 136 (0x88): field runs past the end of the data; expected 5376 bytes "
        "(3 x 1792), found 1864 bytes left. The file is truncated, or a count in it is corrupt")


def test_intel_wrong_header_and_short_buffer() -> None:
    good = (FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_mapping_TestNet_0.csv").read_bytes()
    assert message(lambda: read_table(good.replace(b";output depth (d)", b"", 1))).startswith(
        "unknown CSV header; expected a header of one of ['input_transform_dump', 'input_transform_mapping', "
        "'output_transform_dump', 'output_transform_mapping']; closest: output_transform_mapping (v2025_1 "
        "dialect) — missing ['output depth (d)'], found 11 columns")
    cfg = CompileFolder(FIXTURES / "intel_dla" / "testnet_2025").output_configuration()
    assert message(lambda: cfg.to_logical(bytes(100))) == (
        "ip output buffer, offset 0 (0x0): view reaches outside the buffer; expected a buffer of at least "
        "576 bytes (the view spans bytes 0..576), found 100 bytes. Pass the whole device buffer from its "
        "first byte, or check the shape, pitches and padding")


def test_espdl_unknown_file_encrypted_model_and_small_buffer() -> None:
    assert message(lambda: binparse.open(b"EDL9" + bytes(20))) == (
        "unknown espdl .espdl version; expected magic EDL1 = espdl.edl1; magic EDL2 = espdl.edl2, found "
        "b'EDL9'. Pass format=NAME to read it as the closest known version (fields may have moved); "
        "`binparse schemas` lists them")
    pack = binparse.open(FIXTURES / "espdl" / "tensors_and_models" / "pack_pdl2.espdl")
    assert message(lambda: pack.model_named("secret").payload).endswith(
        "espdl_container.entries[1].model: model payload is encrypted (AES-128-CTR); expected mode 0 "
        "(plain), found mode 1. Pass the 16-byte key (--key HEX, or EspdlFile.with_key)")
    assert message(lambda: DlTensor((4, 4, 3), (1, 1, 1, 1)).view(bytes(50))) == (
        "espdl tensor, offset 21 (0x15): view reaches outside the buffer; expected a buffer of at least 87 "
        "bytes (the view spans bytes 21..87), found 50 bytes. Pass the whole device buffer from its first "
        "byte, or check the shape, pitches and padding")
    assert message(lambda: DlTensor((4, 4, 3), (1, 1, 1, 1)).view(bytes(108), pad=(2, 0, 0, 0))) == (
        "layer padding larger than the tensor's padding; expected <= (1, 1, 1, 1), found (2, 0, 0, 0). "
        "Layer.padding must be <= Tensor.padding in each axis")


def test_dlhdl_thread_number_and_buffer() -> None:
    assert message(lambda: ConvLayout(12, (3, 3, 4))) == (
        "ConvThreadNumber must be a square the processor supports; expected [4, 9, 16, 25, 36, 49, 64], found 12")
    assert message(lambda: ConvLayout(9, (3, 3, 4)).to_logical(np.zeros(25, np.float32))) == (
        "dlhdl conv buffer, offset 0 (0x0): view reaches outside the buffer; expected a buffer of at least "
        "288 bytes (the view spans bytes 0..288), found 100 bytes. Pass the whole device buffer from its "
        "first byte, or check the shape, pitches and padding")


def test_a_missing_runtime_dependency_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from binparse.core.errors import BinparseError
    from binparse.formats.espdl.model.crypto import decrypt
    p = FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_mapping_TestNet_0.csv"
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # an environment without pyarrow
    monkeypatch.setitem(sys.modules, "pyarrow.csv", None)
    with pytest.raises(BinparseError) as e:
        read_table(p)
    assert e.value.file == str(p) and "reading a mapping table needs the Python package 'pyarrow'" in str(e.value)
    assert (e.value.hint or "").startswith("pip install pyarrow")
    monkeypatch.setitem(sys.modules, "cryptography.hazmat.primitives.ciphers", None)
    with pytest.raises(BinparseError) as e2:
        decrypt(b"\0" * 16, b"k" * 16, file="m.espdl")
    assert "decrypting an ESP-DL model needs the Python package 'cryptography'" in str(e2.value)
