"""FPGA AI Suite architecture files (.arch) and the IP header: the shared real files with exact
values, every hand-written syntax variant read and round-tripped, documented-range problems,
the generated descriptor in step with the .proto, and doctor pairing an IP with its .arch."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import binparse
from binparse import FormatError
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.formats.intel_dla import ArchFile, IpHeader
from binparse.formats.intel_dla.arch.descriptor import SOURCE_SHA256

from .conftest import FIXTURES, REPO, real

AGX3 = "intel_dla/arch/agx3-examples"
AGX5 = "intel_dla/arch/agx5-generated/generated_arch.arch"
HEADER = "AGX3_Small_NoSoftmax_fpga_arch_instantiator.h"
VARIANTS = FIXTURES / "intel_dla" / "arch_variants"


# -- the real files ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, output_channels_max, pool_k, softmax, eltwise", [
    ("AGX3_Performance.arch", 16384, 4, True, True),
    ("AGX3_Small_NoSoftmax.arch", 14320, 1, False, None),
    ("AGX3_Small_Softmax.arch", 16384, 4, True, True),
])
def test_real_agx3_examples(name: str, output_channels_max: int, pool_k: int, softmax: bool,
                            eltwise: bool | None) -> None:
    a = binparse.open(real(f"{AGX3}/{name}"))
    assert isinstance(a, ArchFile)
    s = a.summary()
    assert (s["family"], s["kind"], s["arch_family"], s["k_vector"], s["c_vector"], s["arch_precision"],
            s["stream_buffer_depth"]) == ("intel_dla", "arch", "AGX3", 16, 16, "FP12AGX", 8192)
    arch = s["arch"]
    assert arch["output_channels_max"] == output_channels_max
    assert arch["pool"]["k_vector"] == pool_k and arch["activation"]["k_vector"] == 16
    assert arch.get("enable_eltwise_mult") is eltwise
    assert arch["pe_array"]["num_interleaved_features"] == 12 and arch["pe_array"]["exit_fifo_depth"] == 1024
    assert arch["dma"] == {"csr_addr_width": 11, "csr_data_bytes": 4, "ddr_addr_width": 32, "ddr_burst_width": 4,
                           "ddr_data_bytes": 32, "ddr_read_id_width": 2, "ddr_write_id_width": 5}
    prims = arch.get("custom_aux_primitive", [])
    assert prims == ([{"k_vector": 1, "layer_type": "softmax", "name": "softmax", "type": "ELTWISE_WITH_MEMORY",
                       "max_num_channels": 2048}] if softmax else [])
    assert s["unknown_fields"] == [] and s["problems"] == [] and s["notes"] == []


def test_real_agx5_generated() -> None:
    s = ArchFile(real(AGX5)).summary()
    assert (s["arch_family"], s["k_vector"], s["c_vector"], s["arch_precision"], s["stream_buffer_depth"]) == \
        ("AGX5", 32, 16, "FP12AGX", 20548)
    arch = s["arch"]
    assert (arch["filter_precision"], arch["sb_precision"], arch["num_lanes"]) == ("FP12AGX", "FP12AGX", 1)
    assert arch["pe_array"]["dsp_limit"] == 75
    assert [m.get("name") for m in arch["config_network"]["modules"]["module"]] == [
        "filter_reader", "input_feeder_mux", "input_feeder_writer", "input_feeder_in", "input_feeder_reader",
        "input_feeder_out", "feature_writer", "feature_reader", "xbar", "activation", "pool"]
    assert [m.get("cross_clock") for m in arch["config_network"]["modules"]["module"]][:3] == [1, None, None]
    assert arch["xbar"]["xbar_out_port"]["input_connection"] == ["xbar_in_port", "activation", "pool"]
    assert s["aux_k_vectors"] == {"activation": 16, "pool": 2}
    assert s["problems"] == [] and s["unknown_fields"] == []


def test_inspect_json_every_shared_arch(capsys: pytest.CaptureFixture[str]) -> None:
    paths = sorted(real("intel_dla/arch").glob("*/*.arch"), key=lambda p: p.name)
    assert [p.name for p in paths] == ["AGX3_Ddrfree.arch", "AGX3_Performance.arch", "AGX3_Small_NoSoftmax.arch",
                                       "AGX3_Small_Softmax.arch", "generated_arch.arch", "resnet8_agx3_logits.arch"]
    for p in paths:
        assert main(["inspect", str(p), "--json"]) == 0
        doc = json.loads(capsys.readouterr().out)
        assert (doc["family"], doc["kind"]) == ("intel_dla", "arch")
        assert doc["k_vector"] == doc["arch"]["k_vector"]
        assert main(["inspect", str(p)]) == 0
        text = capsys.readouterr().out
        assert text.startswith(f"FPGA AI Suite architecture {p.name}: family ")


def test_real_ip_header() -> None:
    h = binparse.open(real(f"{AGX3}/{HEADER}"))
    assert isinstance(h, IpHeader)
    s = h.summary()
    assert (s["family"], s["kind"]) == ("intel_dla", "ip header")
    assert len(s["defines"]) == 23 and s["other_lines"] == []
    assert s["defines"]["K_VECTOR"] == 16 and s["defines"]["STREAM_BUFFER_DEPTH"] == 8192
    assert s["defines"]["SB_CVEC_BANK_PACK"] == 2 and s["defines"]["MAX_DILATION"] == 16
    assert s["constants"] == {"output_channels_max": 14320, "filter_size_width_max": 28, "filter_size_height_max": 28,
                              "output_image_width_max": 128, "output_image_height_max": 128}
    assert s["sections"]["FILTER_CACHE_DEPTH"] == "filter scratchpad"


# -- doctor: which architecture the IP was built from -------------------------------------------------------------------
def test_doctor_pairs_the_ip_header_with_its_arch() -> None:
    doc = doctor(real(AGX3))
    assert doc["status"] == "ok"
    pair = [f for f in doc["findings"] if HEADER in f["files"]]
    assert len(pair) == 1 and pair[0]["level"] == "ok"
    assert pair[0]["files"] == [HEADER, "AGX3_Small_NoSoftmax.arch"]
    text = pair[0]["text"]
    assert text.startswith(f"{HEADER} was built from AGX3_Small_NoSoftmax.arch: every value it takes from an .arch "
                           "agrees (K_VECTOR 16, C_VECTOR 16,")
    assert "; not compared, as no .arch here sets them: output_image_width_max, output_image_height_max; not " \
           "compared, as binparse does not know how dla_create_ip derives them: INPUT_FEEDER_K_VECTOR, " in text
    assert "the other .arch files differ from the IP: AGX3_Performance.arch (output_channels_max: IP 14320, " \
           ".arch 16384); AGX3_Small_Softmax.arch (output_channels_max: IP 14320, .arch 16384)" in text
    assert not [f for f in doc["findings"] if f["level"] == "problem"]


def test_doctor_no_matching_arch_is_a_problem_naming_each_difference(tmp_path: Path) -> None:
    for name in ("AGX3_Performance.arch", "AGX3_Small_Softmax.arch"):
        shutil.copy(real(f"{AGX3}/{name}"), tmp_path / name)
    text = real(f"{AGX3}/{HEADER}").read_text().replace("#define STREAM_BUFFER_DEPTH 8192", "#define STREAM_BUFFER_DEPTH 4096")
    (tmp_path / HEADER).write_text(text)
    doc = doctor(tmp_path)
    assert doc["status"] == "problem"
    [p] = [f for f in doc["findings"] if f["level"] == "problem"]
    assert p["text"] == (f"{HEADER} matches no .arch in this folder: AGX3_Performance.arch: STREAM_BUFFER_DEPTH: IP 4096, "
                         ".arch 8192, output_channels_max: IP 14320, .arch 16384; AGX3_Small_Softmax.arch: "
                         "STREAM_BUFFER_DEPTH: IP 4096, .arch 8192, output_channels_max: IP 14320, .arch 16384")


# -- hand-written variants ------------------------------------------------------------------------------------------
EXPECTED = {
    "hand_comments.arch": ("AGX7", 32, 16, "FP13AGX", 63488, {"activation": 16}),
    "crlf_mixed_colons.arch": ("S10", 64, 32, "FP11", 32768, {}),
    "older_nested.arch": ("AGX7", 32, 16, "FP12AGX", 40960, {"activation": 16, "pool": 4}),
    "repeated_blocks.arch": ("AGX5", 32, 32, "FP12AGX", 16384,
                             {"depthwise": 32, "custom_aux_primitive 'softmax'": 1,
                              "custom_aux_primitive 'softmax_2'": 2}),
    "newer_release.arch": ("AGX5", 16, 16, "FP12AGX", 8192, {}),
    "layout_transform.arch": ("AGX5", 32, 16, "FP12AGX", 32768, {}),
    "out_of_range.arch": ("AGX7", 24, 16, "FP13AGX", None, {"activation": 16, "pool": 5, "depthwise": 16}),
}


def test_every_variant_has_a_fixture() -> None:
    assert sorted(p.name for p in VARIANTS.glob("*.arch")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_variant_reads_and_round_trips(name: str) -> None:
    a = ArchFile(VARIANTS / name)
    s = a.summary()
    assert (s["arch_family"], s["k_vector"], s["c_vector"], s["arch_precision"], s["stream_buffer_depth"],
            s["aux_k_vectors"]) == EXPECTED[name]
    again = ArchFile(a.to_text().encode())
    assert again.message == a.message and again.unknown == []
    assert ArchFile(again.to_text().encode()).message == a.message
    assert again.to_text().count("\n# not declared by binparse") == 0


def test_variant_details() -> None:
    crlf = (VARIANTS / "crlf_mixed_colons.arch").read_bytes()
    assert crlf.count(b"\r\n") == 13 and b"\n" not in crlf.replace(b"\r\n", b"")
    c = ArchFile(VARIANTS / "crlf_mixed_colons.arch").to_dict()
    assert (c["num_lanes"], c["filter_precision"], c["sb_precision"]) == (2, "FP11", "FP16")
    assert c["dma"] == {"csr_addr_width": 11, "csr_data_bytes": 4, "ddr_data_bytes": 64}
    assert c["filter_scratchpad"] == {"filter_depth": 1024, "bias_scale_depth": 1024}
    h = ArchFile(VARIANTS / "hand_comments.arch").to_dict()
    assert "pool" not in h and h["activation"] == {"k_vector": 16, "enable_clamp": True, "enable_leaky_relu": False}
    assert h["pe_array"] == {"num_interleaved_features": 5, "num_interleaved_filters": 1, "exit_fifo_depth": 1024}
    o = ArchFile(VARIANTS / "older_nested.arch").to_dict()
    assert o["pool"]["generic_aux_parameters"] == {"k_vector": 4} and "k_vector" not in o["pool"]
    r = ArchFile(VARIANTS / "repeated_blocks.arch").to_dict()
    assert [p["name"] for p in r["custom_aux_primitive"]] == ["softmax", "softmax_2"]
    assert [p["name"] for p in r["xbar"]["xbar_ports"]["xbar_aux_port"]] == ["softmax", "softmax_2"]
    assert r["output_stream_interface"] == {"enable": True, "data_width": 128, "fifo_depth": 1024}


def test_layout_transform_params() -> None:
    a = ArchFile(VARIANTS / "layout_transform.arch")
    lt = a.to_dict()["layout_transform_params"]
    assert (lt["channels"], lt["feature_height"], lt["stride_width"], lt["pad_top"], lt["output_channels"],
            lt["output_width"], lt["do_u8_fp16_conversion"]) == (3, 224, 2, 3, 16, 115, True)
    assert a.to_dict()["input_stream_interface"] == {"enable": True, "data_width": 128}
    assert [u.to_json() for u in a.unknown] == [
        {"path": "lightweight_layout_transform", "line": 30, "what": "field",
         "value": {"channels": 3, "input_bus_width": 48, "pixel_fifo_depth": 16, "enable_bias_scale": True,
                   "input_type": "F16"}}]
    assert a.problems() == []


def test_newer_release_fields_are_kept_and_reported() -> None:
    a = ArchFile(VARIANTS / "newer_release.arch")
    assert [u.to_json() for u in a.unknown] == [
        {"path": "sb_precision", "line": 6, "value": "F16", "what": "enum value"},
        {"path": "enable_future_thing", "line": 8, "value": True, "what": "field"},
        {"path": "pe_array.accumulator_mode", "line": 13, "value": "wide", "what": "field"},
        {"path": "future_group", "line": 15, "value": {"width": 8, "ports": [{"name": "a"}, {"name": "b"}]},
         "what": "field"},
    ]
    assert a.get("sb_precision") is None and a.get("pe_array.num_interleaved_features") == 12
    assert a.to_text().splitlines()[-4:] == [
        "# not declared by binparse (line 6): sb_precision = 'F16'",
        "# not declared by binparse (line 8): enable_future_thing = True",
        "# not declared by binparse (line 13): pe_array.accumulator_mode = 'wide'",
        "# not declared by binparse (line 15): future_group = {'width': 8, 'ports': [{'name': 'a'}, {'name': 'b'}]}"]
    doc = doctor(VARIANTS)
    notes = [f["text"] for f in doc["findings"] if f["level"] == "note" and "newer_release.arch" in f["files"]]
    assert len(notes) == 4 and notes[0].startswith("newer_release.arch: line 6: enum value sb_precision = 'F16' ")


def test_manual_wording_is_a_note_contradictions_are_problems() -> None:
    a = ArchFile(VARIANTS / "out_of_range.arch")
    assert [p.split(" (")[0] for p in a.problems()] == [
        "k_vector 24 is not a multiple of c_vector 16",
        "pool sets k_vector 5 and generic_aux_parameters k_vector 4",
    ]
    assert [(t.split(" (")[0], rule) for t, rule in a.manual()] == [
        ("num_lanes 3 is not one of [1, 2, 4]", "lanes"),
        ("num_lanes 3 with a softmax module: the softmax module is not supported with lanes", "lanes_softmax"),
        ("activation k_vector 16 does not divide k_vector 24", "aux_divides"),
        ("pool k_vector 5 does not divide k_vector 24", "aux_divides"),
        ("depthwise k_vector 16 does not divide k_vector 24", "aux_divides"),
        ("pool k_vector 5 is not one of [1, 2, 4, 8, 16, 32, 64]", "pool_k"),
        ("a depthwise module needs k_vector = c_vector, found 24 and 16", "depthwise_kc"),
        ("depthwise max_window_height 9 is not one of [3, 5, 7]", "depthwise_window"),
        ("custom_aux_primitive 'softmax' max_num_channels 5000 is outside [1, 4096]", "softmax_channels"),
        ("output_stream_interface data_width 100 is not 2^n with n >= 4 as the manual words it", "stream_2n"),
    ]
    doc = doctor(VARIANTS)
    assert doc["status"] == "problem"
    named = [f["text"] for f in doc["findings"] if f["level"] == "problem"]
    assert named == [f"out_of_range.arch: {p}" for p in a.problems()]
    [stream] = [f["text"] for f in doc["findings"] if "data_width 100" in f["text"]]
    assert stream.endswith("Intel's tools built IP from input_stream_interface data_width 96 and output_stream_interface "
                           "fifo_depth 3072 (fpga-professional-association/agilex_3_ai_benchmarks: "
                           "resnet8_agx3_logits.arch, AGX3_Ddrfree.arch), so this wording is not a check they make")


def test_no_real_arch_has_a_problem() -> None:
    paths = sorted(real("intel_dla").rglob("*.arch"))
    assert len(paths) == 7
    for p in paths:
        assert ArchFile(p).problems() == [], p.name
    built = ArchFile(real("intel_dla/arch/agx3-compiled-builds/resnet8_agx3_logits.arch"))
    assert built.manual() == [("input_stream_interface data_width 96 is not 2^n with n >= 4 as the manual words it "
                               "(IP Reference Manual (768974), input_stream_interface)", "stream_2n")]
    for folder in ("arch/agx3-compiled-builds", "lenet-agx5-streaming", "arch/agx3-examples"):
        doc = doctor(real(f"intel_dla/{folder}"))
        assert not [f for f in doc["findings"] if f["level"] == "problem"], folder


def test_wording_note_cites_the_build_beside_the_arch(tmp_path: Path) -> None:
    shutil.copy(real("intel_dla/arch/agx3-compiled-builds/AGX3_Ddrfree.arch"), tmp_path)
    shutil.copy(real("intel_dla/arch/agx3-compiled-builds/coredla_agx3_ddrfree_area_estimate.txt"), tmp_path)
    doc = doctor(tmp_path)
    [note] = [f["text"] for f in doc["findings"] if "fifo_depth 3072" in f["text"]]
    assert note.endswith("; Intel's tools built this .arch: the folder's only .arch, beside build output "
                         "(coredla_agx3_ddrfree_area_estimate.txt)")
    assert doc["status"] != "problem"


@pytest.mark.parametrize("line, named", [
    (b"k_vector: 100000000\nc_vector: 16\n", "k_vector 100000000 is impossible"),
    (b"k_vector: 32\nc_vector: 100000000\n", "c_vector 100000000 is impossible"),
    (b"k_vector: 32\nc_vector: 16\nstream_buffer_depth: 2000000000\n", "stream_buffer_depth 2000000000 is impossible"),
    (b"k_vector: 32\nc_vector: 16\ninput_stream_interface { data_width: -8 }\n",
     "input_stream_interface.data_width -8 is impossible"),
])
def test_invented_impossible_values_stay_problems(tmp_path: Path, line: bytes, named: str) -> None:
    (tmp_path / "bad.arch").write_bytes(b"family: 'AGX7'\narch_precision: FP16\n" + line)
    probs = ArchFile(tmp_path / "bad.arch").problems()
    assert probs and probs[0].startswith(named)
    doc = doctor(tmp_path)
    assert doc["status"] == "problem"
    assert any(f["level"] == "problem" and f["text"].startswith(f"bad.arch: {named}") for f in doc["findings"])


# -- bad input ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text, where, found", [
    (b"k_vector: 16\npe_array {\n  exit_fifo_depth: 1024\n", "line 3, column 24", "Expected \"}\""),
    (b"k_vector: sixteen\n", "line 1, column 11", "Couldn't parse integer: sixteen"),
    (b"family 'AGX7'\n", "line 1, column 8", "Expected \"{\""),
    (b"k_vector: 99999999999\n", "line 1, column 11", "Value out of range: 99999999999"),
    (b"family: 16\n", "line 1, column 9", "Expected string but found: '16'"),
    (b"arch_precision: 99\n", "line 1, column 17", "has no value with number 99"),
    (b"k_vector: 16 k_vector: 32\n", "line 1, column 24", "should not have multiple \"k_vector\" fields"),
    (b"\x00\x01\x02", "line 1, column 1", "Expected identifier or number"),
    # lists cut or closed by a brace (these once made the reader loop for ever)
    (b"pe_array {\n  num_lanes: [\n}\n", "line 3, column 1", "expected a value, found '}'"),
    (b"pe_array { num_lanes: [1, 2", "line 1, column 28", "a list of values ends with ']', found the end of the file"),
    (b"future_list: [1 2]\n", "line 1, column 17", "a list of values ends with ']', found '2'"),
    (b"k_vector:", "line 1, column 10", "expected a value, found the end of the file"),
])
def test_bad_arch_text(text: bytes, where: str, found: str) -> None:
    with pytest.raises(FormatError) as e:
        ArchFile(text, file="bad.arch")
    assert e.value.file == "bad.arch" and e.value.path == where and found in str(e.value.found)


def test_deep_nesting_is_refused() -> None:
    with pytest.raises(FormatError, match="blocks nested more than 64 deep") as e:
        ArchFile(b"future {\n" * 65 + b"}" * 65, file="deep.arch")
    assert e.value.file == "deep.arch" and e.value.path.startswith("line 65, future.future.")
    assert ArchFile(b"future {\n" * 64 + b"}" * 64).unknown[0].line == 1


def test_binary_arch_is_refused() -> None:
    with pytest.raises(FormatError, match="an .arch file is text"):
        ArchFile(b"k_vector: 16\n\xff\xfe")


# -- the declaration and its generated descriptor -----------------------------------------------------------------------
def test_generated_descriptor_is_in_step_with_the_proto() -> None:
    assert hashlib.sha256((REPO / "schemas/intel_dla/arch.proto").read_bytes()).hexdigest() == SOURCE_SHA256
    if importlib.util.find_spec("grpc_tools") is None:
        pytest.skip("grpcio-tools (the generator's protoc) not installed: only the .proto's hash was checked")
    done = subprocess.run([sys.executable, str(REPO / "tools/gen_arch_descriptor.py"), "--check"], capture_output=True)
    assert done.returncode == 0, done.stderr.decode()
