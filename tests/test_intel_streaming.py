"""FPGA AI Suite streamed inputs (lightweight layout transform): the real LeNet build's input read
as its 28×28 digit, written back byte for byte, drawn, and the layouts the other .arch files keep."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from binparse.cli import main
from binparse.core.errors import LayoutError
from binparse.formats.intel_dla import ArchFile, ArchLayout

from .conftest import real

LENET = "intel_dla/lenet-agx5-streaming"
ARCH = f"{LENET}/AGX5_Streaming_Ddrfree_Softmax.arch"
INPUT = f"{LENET}/data/array_hwc_fp16_0.bin"
# MNIST normalisation (x - 0.1307) / 0.3081 of a black (0) and a white (1) pixel, in FP16
BLACK, WHITE = np.float16(-0.1307 / 0.3081), np.float16((1 - 0.1307) / 0.3081)


def _layout(side: str | None = "input") -> ArchLayout:
    return ArchLayout(ArchFile(real(ARCH)), (1, 1, 1, 28, 28), side)


def test_lenet_input_is_its_digit_zero_copy() -> None:
    data = bytearray(real(INPUT).read_bytes())
    assert len(data) == 1568
    arr, what = _layout().view_array(data)
    assert arr.shape == (1, 1, 1, 28, 28) and arr.dtype == np.float16
    img = arr[0, 0, 0]
    assert (img.min(), img.max()) == (BLACK, WHITE)
    assert np.all(img[:4] == BLACK) and np.all(img[-4:] == BLACK)  # the margin rows MNIST leaves
    assert [float(v) for v in img[4, 12:17]] == [-0.2841796875, 1.4853515625, 2.796875, 2.146484375,
                                                 -0.029632568359375]
    assert img[14, 14] == BLACK and img[14, 8] > 2.7 and img[14, 20] == WHITE  # a zero: a dark hole in a bright ring
    assert int((img > 0).sum()) == 177 and int((img == WHITE).sum()) == 3
    assert np.shares_memory(arr, np.frombuffer(data, np.uint8)) and not arr.flags.owndata
    data[(4 * 28 + 12) * 2:(4 * 28 + 12) * 2 + 2] = np.float16(1.0).tobytes()
    assert img[4, 12] == 1.0  # write-through: the view is the buffer
    assert what.startswith("FPGA AI Suite streamed input 1×1×1×28×28 (N, C, D, H, W) from "
                           "AGX5_Streaming_Ddrfree_Softmax.arch: raw HWC F16, 1 channel(s) a pixel, 8 pixel(s) a "
                           "128-bit bus word")


def test_lenet_input_packs_back_to_the_same_bytes(tmp_path: Path) -> None:
    raw = real(INPUT).read_bytes()
    arr, _ = _layout().view_array(raw)
    data, what = _layout().pack_bytes(np.array(arr))
    assert data == raw and "lightweight layout transform" in what


def test_cli_view_pack_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arch, buf = str(real(ARCH)), str(real(INPUT))
    assert main(["view", "--intel-dla", "--arch", arch, "--shape", "1,1,28,28", buf, "--npy", str(tmp_path / "a.npy")]) == 0
    out = capsys.readouterr().out
    assert "no --side: read as the streamed input, as its 1,568 bytes are the input's size, not the output's 6,272" in out
    digit = np.load(tmp_path / "a.npy")
    assert digit[0, 0, 0, 9, 10] == WHITE and digit[0, 0, 0, 0, 0] == BLACK
    assert main(["pack", "--intel-dla", "--arch", arch, "--shape", "1,1,28,28", str(tmp_path / "a.npy"),
                 "--out", str(tmp_path / "b.bin")]) == 0
    assert (tmp_path / "b.bin").read_bytes() == real(INPUT).read_bytes()
    assert main(["draw", "--intel-dla", "--arch", arch, "--shape", "1,1,28,28", "--side", "input",
                 "--svg", str(tmp_path / "c.svg")]) == 0
    assert "raw HWC F16, 8 pixel(s) a 128-bit word" in capsys.readouterr().out
    assert (tmp_path / "c.svg").read_text().startswith("<svg") or "<svg" in (tmp_path / "c.svg").read_text()[:200]


def test_streamed_map_rows_are_bus_words() -> None:
    m = _layout().memory_map()
    assert m.role.shape == (98, 8)  # 784 pixels, 8 a 128-bit word
    assert m.logical_index[1].tolist() == list(range(8, 16))


def test_output_side_and_other_arch_keep_the_padded_layout() -> None:
    out = _layout("output")
    assert out.config("output").ip_size == 28 * 28 * 4  # KVEC 4
    plain = ArchLayout(ArchFile(real("intel_dla/arch/agx3-examples/AGX3_Small_NoSoftmax.arch")), (1, 3, 1, 4, 4),
                       "input")
    assert plain.streamed is None and plain.config("input").ip_size == 16 * 16


def test_streamed_input_refuses_a_wrong_size_or_channels() -> None:
    with pytest.raises(LayoutError, match="not this streamed input") as e:
        _layout().view_array(bytes(1570))
    assert "1,568 bytes" in str(e.value) and "1,570 bytes" in str(e.value)
    with pytest.raises(LayoutError, match="streams 1 channel"):
        ArchLayout(ArchFile(real(ARCH)), (1, 3, 1, 28, 28), "input").view_array(bytes(28 * 28 * 6))


def test_u8_stream_and_whole_pixel_bus(tmp_path: Path) -> None:
    text = ("family: 'AGX7'\nk_vector: 16\nc_vector: 16\nenable_lightweight_layout_transform: true\n"
            "lightweight_layout_transform_params {{ channels: 3 input_bus_width: {} input_type: U8 }}\n")
    (tmp_path / "u8.arch").write_text(text.format(48))
    lay = ArchLayout(ArchFile(tmp_path / "u8.arch"), (1, 3, 1, 2, 2), "input")
    rgb = np.arange(12, dtype=np.uint8)  # HWC bytes: pixel p holds 3p, 3p+1, 3p+2
    arr, _ = lay.view_array(rgb.tobytes())
    assert arr[0, :, 0, 0, 1].tolist() == [3, 4, 5] and arr[0, 2, 0, 1, 1] == 11
    assert lay.pack_bytes(np.array(arr))[0] == rgb.tobytes()
    (tmp_path / "odd.arch").write_text(text.format(40))
    with pytest.raises(LayoutError, match="carries whole pixels"):
        ArchLayout(ArchFile(tmp_path / "odd.arch"), (1, 3, 1, 2, 2), "input")


def test_absurd_arch_lays_out_nothing(tmp_path: Path) -> None:
    (tmp_path / "big.arch").write_text("family: 'AGX7'\nk_vector: 100000000\nc_vector: 100000000\n")
    with pytest.raises(LayoutError, match="k_vector 100000000 is impossible"):
        ArchLayout(ArchFile(tmp_path / "big.arch"), (1, 3, 1, 8, 8), "input")


def test_lightweight_params_with_a_streamed_input_are_the_streamed_layout() -> None:
    # a user's built .arch: lightweight params and input streaming, no enable flag, no full transform
    arch = ArchFile(real("intel_dla/arch/agx3-compiled-builds/resnet8_agx3_logits.arch"))
    lay = ArchLayout(arch, (1, 3, 1, 32, 32), "input")
    assert lay.streamed is not None and lay.streamed.pixels_per_word == 2  # 96 bits: two pixels of 3 × F16
    rgb = np.arange(32 * 32 * 3, dtype=np.float16)
    arr, what = lay.view_array(rgb.tobytes())
    assert arr[0, :, 0, 0, 1].tolist() == [3.0, 4.0, 5.0]
    assert "lightweight layout transform, by lightweight_layout_transform_params with a streamed input and no full " \
           "transform" in what
    plain = ArchLayout(ArchFile(real("intel_dla/arch/agx3-compiled-builds/AGX3_Ddrfree.arch")), (1, 3, 1, 4, 4),
                       "input")
    assert plain.streamed is None  # no lightweight parameters: the padded CVEC layout stays
