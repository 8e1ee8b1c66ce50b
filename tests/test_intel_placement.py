"""FPGA AI Suite layer placement (`*_dla_layer_device.csv`), JSON build records, and tensors laid
out from an .arch alone (`--intel-dla --arch X.arch --shape N,C,H,W`), with exact values."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse import FormatError
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.formats.intel_dla import (ArchFile, ArchLayout, BuildRecord, CompileFolder, InputConfiguration,
                                        LayerDevice)
from binparse.formats.intel_dla.layouts.arch_layout import parse_shape
from binparse.formats.intel_dla.layouts.buffer_layout import make

from .conftest import FIXTURES, real

RESNET = "intel_dla/2025.1-resnet50-tf"
TABLE = "TensorFlow_Frontend_IR_dla_layer_device.csv"
PLACEMENT = FIXTURES / "intel_dla" / "placement"
RECORDS = FIXTURES / "intel_dla" / "records"
ARCH = FIXTURES / "intel_dla" / "arch_variants" / "hand_comments.arch"  # KVEC 32, CVEC 16


# -- layer placement ------------------------------------------------------------------------------------------------
def test_real_resnet50_layer_device_every_row(capsys: pytest.CaptureFixture[str]) -> None:
    path = real(f"{RESNET}/{TABLE}")
    assert main(["inspect", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["family"], doc["kind"], doc["layers"]) == ("intel_dla", "layer placement", 181)
    assert doc["devices"] == {"FPGA": 181} and doc["fallbacks"] == []
    assert doc["types"] == {"Convolution": 53, "Add": 71, "Relu": 49, "MaxPool": 1, "Transpose": 2, "ReduceMean": 1,
                            "Squeeze": 1, "MatMul": 1, "Softmax": 1, "Result": 1}
    rows = doc["rows"]
    lines = path.read_text().splitlines()[1:]
    assert len(rows) == len(lines) == 181
    assert [r["node"] for r in rows] == [line.split(",")[0] for line in lines]
    assert rows[0] == {"node": "Convolution_101", "device": "FPGA", "type": "Convolution",
                       "input_shapes": [[1, 256, 56, 56], [64, 256, 1, 1]], "output_shapes": [[1, 64, 56, 56]]}
    pool = next(r for r in rows if r["node"] == "MaxPool_46")
    assert pool["output_shapes"] == [[1, 64, 56, 56], [1, 64, 56, 56]]
    assert rows[-1] == {"node": "softmax_tensor:0", "device": "FPGA", "type": "Result", "input_shapes": [[1, 1001]],
                        "output_shapes": [[1, 1001]]}
    assert main(["inspect", str(path)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0] == f"FPGA AI Suite layer placement {TABLE}: 181 layers: 181 on FPGA; none falls back"
    assert len(text) == 182


def test_real_compile_folder_summary_says_where_layers_run() -> None:
    s = CompileFolder(real(RESNET)).summary()
    assert s["placement"] == {"file": TABLE, "layers": 181, "devices": {"FPGA": 181}, "fallbacks": []}
    assert TABLE not in s["other_files"]
    assert "layer placement (" + TABLE + "): 181 layers: 181 on FPGA; none falls back" in \
        CompileFolder(real(RESNET)).details()
    assert s["made_by"] == "dla_compiler's transform reports (2025.1 dialect)"
    assert CompileFolder(real(RESNET)).report().splitlines()[1:] == [
        "  input: 1×3×1×224×224 (N, C, D, H, W) → 423,200 FP16 IP elements (CVEC 32, folded and padded from 150,528)",
        "  output: 1×1001×1×1×1 (N, C, D, H, W) → 1,024 FP16 IP elements (KVEC 32, 23 padding)",
        "  layers: 181 layers: 181 on FPGA; none falls back",
        "  files: 3 transform report(s) (input_transform_dump, output_transform_dump, output_transform_mapping), a layer "
        "placement table",
        f"  (`binparse inspect --fields {real(RESNET)}`: every report's rows)",
        "the output buffer holds 23 padding lanes: view --intel-dla with this folder reads an IP output buffer without "
        f"them, `binparse draw --intel-dla {real(RESNET)} --svg output.svg` pictures them"]


def test_fallbacks_and_maxima_from_the_arch_beside_it() -> None:
    t = LayerDevice(PLACEMENT / "SmallNet_dla_layer_device.csv")
    assert t.devices() == {"FPGA": 5, "CPU": 2}
    assert [la.node for la in t.fallbacks()] == ["nms", "topk"]
    assert t.layers[6].input_shapes == [[1, 1000], []] and t.layers[6].output_shapes == [[1, 5], [1, 5]]
    doc = doctor(PLACEMENT)
    texts = [(f["level"], f["text"]) for f in doc["findings"]]
    assert ("ok", "SmallNet_dla_layer_device.csv: 7 layers: 5 on FPGA, 2 on CPU; falls back: nms (NonMaxSuppression, "
                  "CPU), topk (TopK, CPU)") in texts
    assert ("note", "SmallNet_dla_layer_device.csv: with SmallNet.arch, 2 convolution(s) exceed the architecture's "
                    "maxima: conv_wide (output_channels 20000 > 16384); conv_big_filter (filter_size_height 31 > 28, "
                    "filter_size_width 29 > 28)") in texts


def test_real_placement_within_the_agx3_maxima(tmp_path: Path) -> None:
    shutil.copy(real(f"{RESNET}/{TABLE}"), tmp_path / TABLE)
    shutil.copy(real("intel_dla/arch/agx3-examples/AGX3_Small_NoSoftmax.arch"), tmp_path / "AGX3_Small_NoSoftmax.arch")
    texts = [(f["level"], f["text"]) for f in doctor(tmp_path)["findings"]]
    assert ("ok", f"{TABLE}: no convolution exceeds the maxima AGX3_Small_NoSoftmax.arch sets: filter_size_height_max "
                  "28, filter_size_width_max 28, output_channels_max 14320") in texts


def test_image_maxima_come_from_the_ip_header_paired_with_the_arch(tmp_path: Path) -> None:
    agx3 = real("intel_dla/arch/agx3-examples")
    for p in agx3.iterdir():
        shutil.copy(p, tmp_path / p.name)
    (tmp_path / "Wide_dla_layer_device.csv").write_text(
        "Node name,Device,Node Type (extra info),Input Shape (extra info),Output Shape (extra info)\n"
        "conv_a,FPGA,Convolution,[1 3 112 300];[64 3 3 3],[1 64 112 300]\n"
        "conv_b,FPGA,Convolution,[1 3 112 112];[64 3 3 3],[1 64 112 112]\n")
    texts = [(f["level"], f["text"]) for f in doctor(tmp_path)["findings"]]
    assert ("note", "Wide_dla_layer_device.csv: with AGX3_Small_NoSoftmax.arch and AGX3_Small_NoSoftmax_fpga_arch_"
                    "instantiator.h (output_image_width_max, output_image_height_max), 1 convolution(s) exceed the "
                    "architecture's maxima: conv_a (output_image_width 300 > 128)") in texts


@pytest.mark.parametrize("text, path", [
    ("Node name,Device\nx,FPGA\n", "row 1"),
    ("Node name,Device,Node Type (extra info),Input Shape (extra info),Output Shape (extra info)\n"
     "a,FPGA,Relu,[1 2 x],[1 2]\n", "row 2, column 'Input Shape (extra info)'"),
    ("Node name,Device,Node Type (extra info),Input Shape (extra info),Output Shape (extra info)\na,FPGA\n", "row 2"),
])
def test_bad_layer_device(tmp_path: Path, text: str, path: str) -> None:
    p = tmp_path / "x_dla_layer_device.csv"
    p.write_text(text)
    with pytest.raises(FormatError) as e:
        LayerDevice(p)
    assert e.value.path == path and e.value.file == str(p)


# -- JSON records ---------------------------------------------------------------------------------------------------
def test_records_are_identified_and_summarised() -> None:
    b = binparse.open(RECORDS / "AGX5_camera.build.json")
    assert isinstance(b, BuildRecord)
    assert b.summary() == {"family": "intel_dla", "kind": "build record", "inferred": True,
                           "design": "agx5_camera_coredla", "arch_files": ["generated_arch.arch"],
                           "known": {"arch_file": "generated_arch.arch"},
                           "clocks": {"clocks.dla_clk_mhz": 300.0, "clocks.ddr_clk_mhz": 200.0},
                           "resources": {"resources.alms": 78000, "resources.dsps": 360, "resources.m20ks": 920,
                                         "resources.registers": 150000},
                           "keys": ["design", "tool", "arch_file", "device", "clocks", "resources"]}
    r = binparse.open(RECORDS / "dla_compile_report.json").summary()
    assert (r["kind"], r["design"], r["arch_files"], r["clocks"]) == \
        ("compile report", "resnet-50-tf", ["AGX3_Small_NoSoftmax.arch"], {"fmax_mhz": 250})
    assert r["resources"] == {"estimates.resources.alm": 41000, "estimates.resources.dsp": 136,
                              "estimates.resources.m20k": 512}


def test_record_names_an_arch_in_its_folder(tmp_path: Path) -> None:
    shutil.copy(RECORDS / "AGX5_camera.build.json", tmp_path)
    (tmp_path / "generated_arch.arch").write_text('family: "AGX5"\nk_vector: 32\nc_vector: 16\narch_precision: FP12AGX\n')
    texts = [(f["level"], f["text"]) for f in doctor(tmp_path)["findings"]]
    assert ("ok", "AGX5_camera.build.json names the architecture generated_arch.arch (design agx5_camera_coredla), "
                   "which is in this folder") in texts


def test_bad_record(tmp_path: Path) -> None:
    p = tmp_path / "x.build.json"
    p.write_text('{"design": 1,,}')
    with pytest.raises(FormatError) as e:
        BuildRecord(p)
    assert e.value.path == "line 1, column 14"
    p.write_text("[1, 2]")
    with pytest.raises(FormatError, match="a JSON object"):
        BuildRecord(p)


# -- layouts from the architecture ------------------------------------------------------------------------------------
def test_parse_shape() -> None:
    assert parse_shape("1,3,224,224") == (1, 3, 1, 224, 224)
    assert parse_shape("2,8,3,4,5") == (2, 8, 3, 4, 5)
    for bad in ("1,3", "1,a,2,2", "1,0,2,2"):
        with pytest.raises(binparse.BinparseError):
            parse_shape(bad)


def test_input_padded_to_cvec_output_to_kvec() -> None:
    lay = ArchLayout(ArchFile(ARCH), (1, 20, 1, 2, 3))
    logical = np.arange(1 * 20 * 2 * 3, dtype=np.float32).reshape(1, 20, 1, 2, 3)
    data, what = lay.pack_bytes(logical.reshape(1, 20, 2, 3))  # an input: CVEC 16 -> 2 groups of 16 lanes
    assert what == ("FPGA AI Suite IP input 1×20×1×2×3 (N, C, D, H, W) from hand_comments.arch, channels padded "
                    "to CVEC 16: 192 FP16 elements")
    ip = np.frombuffer(data, "<f2").reshape(2, 2, 3, 16)  # (group, h, w, lane)
    assert ip[0, 1, 2].tolist() == [float(c * 6 + 5) for c in range(16)]
    assert ip[1, 0, 1].tolist() == [float(c * 6 + 1) for c in range(16, 20)] + [0.0] * 12
    # the same rule as the compile-folder input path (inputs.py, no folding)
    assert data == bytes(InputConfiguration.from_params((1, 20, 1, 2, 3), 16).to_ip(logical))
    out = ArchLayout(ArchFile(ARCH), (1, 20, 1, 2, 3), side="output")
    packed, _ = out.pack_bytes(logical)
    assert len(packed) == 2 * 32 * 6  # one group of KVEC 32 lanes
    assert np.frombuffer(packed, "<f2").reshape(2, 3, 32)[1, 2].tolist() == \
        [float(c * 6 + 5) for c in range(20)] + [0.0] * 12
    back, what = out.view_array(bytearray(packed))
    assert np.array_equal(back, logical) and what.startswith("FPGA AI Suite IP output 1×20×1×2×3")


def test_ip_view_is_zero_copy() -> None:
    lay = ArchLayout(ArchFile(ARCH), (1, 20, 1, 2, 3), side="output")
    buf = bytearray(2 * 32 * 6)
    v = lay.ip_view(buf)
    assert v.shape == (1, 1, 1, 2, 3, 32) and not v.flags.owndata
    assert np.shares_memory(v, np.frombuffer(buf, np.uint8))
    v[0, 0, 0, 1, 2, 19] = 2.0
    assert lay.view_array(buf)[0][0, 19, 0, 1, 2] == 2.0


def test_cli_view_pack_draw_with_arch(tmp_path: Path) -> None:
    x = np.arange(2 * 20 * 3 * 4, dtype=np.float32).reshape(2, 20, 3, 4)
    np.save(tmp_path / "x.npy", x)
    args = ["--intel-dla", "--arch", str(ARCH), "--shape", "2,20,3,4"]
    assert main(["pack", *args, str(tmp_path / "x.npy"), "--out", str(tmp_path / "x.bin")]) == 0
    assert (tmp_path / "x.bin").stat().st_size == 2 * 2 * 16 * 3 * 4 * 2  # input: 2 groups of CVEC 16
    assert main(["view", *args, "--side", "input", str(tmp_path / "x.bin"), "--npy", str(tmp_path / "y.npy")]) == 0
    assert np.array_equal(np.load(tmp_path / "y.npy").reshape(x.shape), x)
    assert main(["draw", "--intel-dla", str(ARCH), "--shape", "1,40,2,2", "--svg", str(tmp_path / "a.svg")]) == 0
    assert "KVEC 32: 256 FP16 elements" in (tmp_path / "a.svg").read_text()


def test_compile_folder_reports_win_over_the_arch(tmp_path: Path) -> None:
    opts = argparse.Namespace(arch=str(ARCH), shape="1,40,2,3", side=None, cvec=None)
    src = FIXTURES / "intel_dla" / "testnet_2025"
    with pytest.warns(binparse.BinparseWarning, match="pad outputs to 16, hand_comments.arch has k_vector 32: the "
                                                       "reports are used"):
        layout = make(opts, [str(src)])
    assert not isinstance(layout, ArchLayout)
    assert layout.output().vector_width == 16  # the reports' KVEC, not the .arch's 32
    for p in src.glob("*.csv"):
        shutil.copy(p, tmp_path / p.name)
    shutil.copy(ARCH, tmp_path / "hand_comments.arch")
    texts = [(f["level"], f["text"]) for f in doctor(tmp_path)["findings"]]
    assert ("problem", "the output reports pad channels to 16; hand_comments.arch has k_vector 32: they disagree "
                       "(the reports win; this .arch is not the one the graph was compiled for)") in texts
    assert ("note", "the input dump pads 12 folded channels to 12; hand_comments.arch's c_vector 16 gives 16: "
                    "they differ") in texts
