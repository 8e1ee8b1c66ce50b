"""FPGA AI Suite IP folders: Quartus MIF ROMs (any depth, width, radix), the discovery ROM of the real
AGX5 IP, dla_dma_param.svh, and the doctor pairing them with the IP header and the .arch."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli.doctor import doctor
from binparse.core.errors import BinparseError, FormatError
from binparse.formats.intel_dla.arch.mif import MifFile
from binparse.formats.intel_dla.arch.roms import IpRom, kind_of
from binparse.formats.intel_dla.arch.svh import IpParams

from .conftest import real

IP = "intel_dla/arch/agx5-generic-ip"
LENET_ARCH = "intel_dla/lenet-agx5-streaming/AGX5_Streaming_Ddrfree_Softmax.arch"


def test_real_discovery_rom() -> None:
    rom = binparse.open(real(f"{IP}/dla_dma_csr_discovery_rom.mif"))
    assert isinstance(rom, IpRom) and rom.kind == "discovery ROM"
    assert (rom.mif.depth, rom.mif.width, rom.mif.entries, rom.mif.used()) == (512, 32, 512, 8)
    words = rom.mif.words()
    assert words.dtype == np.dtype("<u4") and np.shares_memory(words, rom.mif.data)
    assert words[:7].tolist() == [0x0D76AC93, 0x5FA1173F, 0, 0, 0x36323032, 0x312E312E, 0x0037312F]
    assert words[12:15].tolist() == [0x35584741, 0x6E65475F, 0x63697265] and not words[15:].any()
    d = rom.discovery()
    assert (d["arch_name"], d["name_word"], d["suite_version"], d["version_word"]) == \
        ("AGX5_Generic", 12, "2026.1.1/17", 4)
    assert d["arch_hash_words"] == ["0x0d76ac93", "0x5fa1173f"]


def test_real_svh_and_doctor_of_the_ip_folder() -> None:
    p = IpParams(real(f"{IP}/dla_dma_param.svh"))
    assert len(p.params) == 162 and len(p.arrays) == 13 and p.other_lines == []
    s = p.scalars()
    assert (s["DEVICE"], s["KVEC_OVER_CVEC"], s["STREAM_BUFFER_DEPTH"], s["C_DDR_AXI_DATA_WIDTH"]) == \
        ("AGX5", 2, 63488, 256)
    assert s["XBAR_ID_DEPTHWISE"] == -1 and s["ENABLE_DEBUG"] == 1
    assert s["PE_ARRAY_PARAM_BITS"] & 0xFFFFFFFF == 4 and s["PE_ARRAY_PARAM_BITS"].bit_length() <= 928
    doc = doctor(real(IP))
    texts = {f["text"] for f in doc["findings"]}
    assert "dla_dma_csr_discovery_rom.mif: architecture 'AGX5_Generic', FPGA AI Suite '2026.1.1/17'" in texts
    assert ("dla_dma_param.svh and fpga_arch_instantiator.h: STREAM_BUFFER_DEPTH, SCRATCHPAD_FILTER_DEPTH, "
            "SCRATCHPAD_BIAS_SCALE_DEPTH, KVEC_OVER_CVEC agree") in texts
    assert doc["status"] != "problem"


@pytest.mark.parametrize("text, words", [
    (b"WIDTH=8;DEPTH=8;ADDRESS_RADIX=DEC;DATA_RADIX=DEC;CONTENT BEGIN [0..3] : -1 2; 4 : 7 8 9; END;",
     [255, 2, 255, 2, 7, 8, 9, 0]),
    (b"-- a comment\nDEPTH = 4; WIDTH = 12; ADDRESS_RADIX = OCT; DATA_RADIX = BIN;\nCONTENT\nBEGIN\n"
     b"0 : 111111111111;\n3 : 101; % another %\nEND;\n", [0xFFF, 0, 0, 5]),
    (b"WIDTH=16;DEPTH=4;ADDRESS_RADIX=UNS;DATA_RADIX=OCT;CONTENT BEGIN 1 : 177777; 2 : 12; END;", [0, 0xFFFF, 10, 0]),
    (b"WIDTH=64;DEPTH=2;ADDRESS_RADIX=HEX;DATA_RADIX=HEX;CONTENT BEGIN 1 : FEDCBA9876543210; END;",
     [0, 0xFEDCBA9876543210]),
])
def test_mif_radixes_ranges_and_comments(text: bytes, words: list[int]) -> None:
    assert MifFile(text).words().tolist() == words


def test_mif_wide_words_are_little_endian_bytes() -> None:
    m = MifFile(b"WIDTH=136;DEPTH=2;ADDRESS_RADIX=HEX;DATA_RADIX=HEX;CONTENT BEGIN 0 : 1F" + b"0" * 30 + b"02; END;")
    assert m.data.shape == (2, 17)
    assert m.data[0].tolist() == [2] + [0] * 15 + [0x1F] and m.hex_words(1) == ["1f" + "0" * 30 + "02"]
    with pytest.raises(FormatError, match="have no numpy integer type"):
        m.words()


@pytest.mark.parametrize("text, message", [
    (b"WIDTH=8;DEPTH=4;CONTENT BEGIN 4 : 1; END;", "an address is past DEPTH"),
    (b"WIDTH=8;DEPTH=4;CONTENT BEGIN 0 : 1FF; END;", "does not fit WIDTH 8 bits"),
    (b"WIDTH=8;DEPTH=4;CONTENT BEGIN 0 : 1G; END;", "not a base-16 number"),
    (b"WIDTH=8;CONTENT BEGIN 0 : 1; END;", "declares DEPTH"),
    (b"WIDTH=8;DEPTH=4;", "CONTENT BEGIN"),
    (b"WIDTH=32;DEPTH=4000000000;CONTENT BEGIN [0..EE6B27FF] : 1; END;", "the MIF's words needs 16,000,000,000 bytes"),
    (b"WIDTH=8;DEPTH=4;CONTENT BEGIN 0 : " + b"1" * 5000 + b"; END;", "expected at most 3 digits in HEX"),
])
def test_mif_bad_input_is_named(text: bytes, message: str) -> None:
    with pytest.raises(BinparseError, match=message):  # a FormatError, or the budget's refusal (BudgetError)
        MifFile(text, file="x.mif")


def test_rom_kinds_from_names() -> None:
    assert kind_of("ddrfree_filter_hw_3.mif") == ("filter ROM", 3)
    assert kind_of("ddrfree_bias_scale_hw_0.mif") == ("bias/scale ROM", 0)
    assert kind_of("memoryless_filter_ref2.mif") == ("filter ROM (software reference)", 2)
    assert kind_of("ddrfree_config.mif") == ("config ROM", None)


def _rom(path: Path, depth: int) -> None:
    path.write_text(f"DEPTH = {depth};\nWIDTH = 128;\nADDRESS_RADIX = HEX;\nDATA_RADIX = HEX;\nCONTENT\nBEGIN\n"
                    f"0 : 3c003c003c003c00;\n[1..{depth - 1:x}] : 0;\nEND;\n")


def test_doctor_pairs_parameter_roms_with_the_arch(tmp_path: Path) -> None:
    shutil.copy(real(LENET_ARCH), tmp_path)  # k_vector 4, filter_depth 1532, bias_scale_depth 26, parameter ROM
    for pe in range(4):
        _rom(tmp_path / f"ddrfree_filter_hw_{pe}.mif", 1500)
        _rom(tmp_path / f"ddrfree_bias_scale_hw_{pe}.mif", 26)
    rom = IpRom(tmp_path / "ddrfree_filter_hw_2.mif")
    assert (rom.kind, rom.pe, rom.mif.depth, rom.mif.hex_words(1)) == ("filter ROM", 2, 1500, ["3c003c003c003c00"])
    assert rom.summary()["decoded"].startswith("words only")
    doc = doctor(tmp_path)
    texts = [f["text"] for f in doc["findings"]]
    assert ("4 filter ROM(s) against AGX5_Streaming_Ddrfree_Softmax.arch's filter_scratchpad.filter_depth 1532: every "
            "depth fits (at most 1500); widths not compared") in texts
    assert doc["status"] != "problem"
    _rom(tmp_path / "ddrfree_bias_scale_hw_3.mif", 30)
    (tmp_path / "ddrfree_filter_hw_3.mif").unlink()
    doc = doctor(tmp_path)
    assert doc["status"] == "problem"
    [p] = [f["text"] for f in doc["findings"] if f["level"] == "problem"]
    assert p == ("4 bias/scale ROM(s) against AGX5_Streaming_Ddrfree_Softmax.arch's filter_scratchpad.bias_scale_depth "
                 "26: deeper than the scratchpad they fill: ddrfree_bias_scale_hw_3.mif (30)")
    assert ("3 filter ROM(s) here, AGX5_Streaming_Ddrfree_Softmax.arch has k_vector 4: dla_compiler writes one per PE, "
            "K_VECTOR in all") in [f["text"] for f in doc["findings"] if f["level"] == "note"]


ARCH_OF_IP = """family: 'AGX5'
k_vector: 32
c_vector: 16
stream_buffer_depth: {depth}
pe_array {{ exit_fifo_depth: 1024 }}
filter_scratchpad {{ filter_depth: 512 bias_scale_depth: 512 }}
dma {{ csr_addr_width: 11 ddr_addr_width: 32 ddr_burst_width: 4 ddr_data_bytes: 32 ddr_read_id_width: 2 }}
config_network {{ config_cache_depth: 256 }}
"""


def test_doctor_pairs_svh_with_the_arch(tmp_path: Path) -> None:
    shutil.copy(real(f"{IP}/dla_dma_param.svh"), tmp_path)
    (tmp_path / "AGX5_Generic.arch").write_text(ARCH_OF_IP.format(depth=63488))
    shutil.copy(real(f"{IP}/dla_dma_csr_discovery_rom.mif"), tmp_path)
    doc = doctor(tmp_path)
    texts = [f["text"] for f in doc["findings"]]
    assert ("dla_dma_param.svh was built from AGX5_Generic.arch: 12 parameters agree (DEVICE, C_CSR_AXI_ADDR_WIDTH, "
            "C_DDR_AXI_ADDR_WIDTH, C_DDR_AXI_BURST_WIDTH, ...)") in texts
    assert ("dla_dma_csr_discovery_rom.mif: architecture 'AGX5_Generic', FPGA AI Suite '2026.1.1/17'; "
            "AGX5_Generic.arch is that architecture") in texts
    (tmp_path / "AGX5_Generic.arch").write_text(ARCH_OF_IP.format(depth=8192))
    doc = doctor(tmp_path)
    assert [f["text"] for f in doc["findings"] if f["level"] == "problem"] == [
        "dla_dma_param.svh matches no .arch here: AGX5_Generic.arch: STREAM_BUFFER_DEPTH 63488 but stream_buffer_depth "
        "8192"]


def test_real_build_record_names_another_design() -> None:
    folder = real("intel_dla/lenet-agx5-streaming/build-agx5-lenet")
    rec = binparse.open(folder / ".build.json").summary()
    assert rec["known"] == {
        "design_name": "agx7_iseries_ddrfree",
        "arch_file": "/nfs/tor/disks/fae_work_mtcardos/CoreDLA/coredla-work-25.1/AGX7_Streaming_Ddrfree_MLP_v1_3.arch",
        "build_dir": "build-agx7-mlp", "ip_dir": "build-agx7-mlp/coredla_ip",
        "parameter_rom_dir": "/nfs/tor/disks/fae_work_mtcardos/CoreDLA/coredla-work-25.1/dlac-out-mlpv3/parameter_rom",
        "quartus_project": "build-agx7-mlp/hw", "num_instances": 1, "seed": 1, "build_unlicensed_ip": False}
    doc = doctor(folder)
    assert [(f["level"], f["text"]) for f in doc["findings"]] == [
        ("note", ".build.json names the architecture AGX7_Streaming_Ddrfree_MLP_v1_3.arch (design agx7_iseries_ddrfree), "
                 "not the .arch beside this build (../AGX5_Streaming_Ddrfree_Softmax.arch): the record is of another "
                 "build")]


def test_inspect_ip_folder_says_what_is_there_and_what_made_it(capsys: pytest.CaptureFixture[str]) -> None:
    from binparse.cli import main
    folder = str(real(IP))
    assert main(["inspect", folder]) == 0
    assert capsys.readouterr().out.splitlines() == [
        f"FPGA AI Suite IP folder {folder}: made by dla_create_ip (fpga_arch_instantiator.h, dla_dma_param.svh, "
        "dla_dma_csr_discovery_rom.mif)",
        "  architecture 'AGX5_Generic', FPGA AI Suite '2026.1.1/17' (discovery ROM)",
        "  device AGX5, k_vector 32, c_vector 16, stream_buffer_depth 63488, filter_depth 512, bias_scale_depth 512, "
        "input_streaming 0, on_chip_parameters 0",
        "  ROMs: 1 discovery ROM"]
    assert main(["inspect", folder, "--json"]) == 0
    import json
    doc = json.loads(capsys.readouterr().out)
    assert (doc["kind"], doc["architecture"], doc["suite_version"], doc["k_vector"], doc["roms"]) == \
        ("ip folder", "AGX5_Generic", "2026.1.1/17", 32, {"discovery ROM": 1})
    assert main(["inspect", folder, "--fields"]) == 0
    assert "FPGA AI Suite IP parameters dla_dma_param.svh (SystemVerilog, written by dla_create_ip): 162 parameters" \
        in capsys.readouterr().out


def test_inspect_arch_opens_with_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    from binparse.cli import main
    assert main(["inspect", str(real(LENET_ARCH))]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "FPGA AI Suite architecture AGX5_Streaming_Ddrfree_Softmax.arch: family AGX5, KVEC 4, CVEC 4, FP11, stream "
        "buffer depth 2048",
        "  auxiliary widths: activation 4, pool 4, custom_aux_primitive 'softmax' 1",
        "  interfaces: input streamed (128-bit AXI4-Stream, FIFO 128); output streamed (128-bit AXI4-Stream, FIFO 128); "
        "lightweight layout transform (1 channel(s) of F16 on a 128-bit bus); parameters in on-chip ROM (DDR-free)",
        "  limits: filter_size_width_max 16, filter_size_height_max 16, filter_depth 1532, bias_scale_depth 26",
        "  1 note(s) on fields binparse does not declare or the file does not set: "
        f"`binparse doctor {real(LENET_ARCH)}` or `binparse inspect --fields {real(LENET_ARCH)}` lists them",
        f"  (`binparse inspect --fields {real(LENET_ARCH)}`: every field of the 195-line file)"]
    assert main(["inspect", str(real(LENET_ARCH)), "--fields"]) == 0
    full = capsys.readouterr().out.splitlines()
    assert "  lightweight_layout_transform_params {" in full and "    input_bus_width: 128" in full
    assert full[-1].startswith("  [note] line 10: field enable_debug = False is not in binparse's declaration")


def test_rom_depths_against_the_ip_header(tmp_path: Path) -> None:
    shutil.copy(real(f"{IP}/fpga_arch_instantiator.h"), tmp_path)  # FILTER_CACHE_DEPTH 512, BIAS_SCALE_CACHE_DEPTH 512
    _rom(tmp_path / "ddrfree_filter_hw_0.mif", 600)
    _rom(tmp_path / "ddrfree_bias_scale_hw_0.mif", 40)
    doc = doctor(tmp_path)
    assert [(f["level"], f["text"]) for f in doc["findings"] if "ROM(s)" in f["text"]] == [
        ("problem", "1 filter ROM(s) against fpga_arch_instantiator.h's FILTER_CACHE_DEPTH 512: deeper than the "
                    "scratchpad they fill: ddrfree_filter_hw_0.mif (600)"),
        ("ok", "1 bias/scale ROM(s) against fpga_arch_instantiator.h's BIAS_SCALE_CACHE_DEPTH 512: every depth fits "
               "(at most 40); widths not compared")]
