"""Every .espdl container generation (EDL1, EDL2, PDL1, PDL2, PDL3; plain and AES-128-CTR): the real
EDL1 models and PDL1 pack, the EDL1 payload rule (raw_data a byte vector), errors that say what was
checked (wrong key, truncated file, corrupt FlatBuffer, not an ESP-DL file), the fixtures of every
generation built and read back."""

from __future__ import annotations

import argparse
import json
import struct
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.core.errors import FormatError
from binparse.formats.espdl.writers.fixtures import espdl_file

from .conftest import FIXTURES, real

MODELS = FIXTURES / "espdl" / "models"
KEY = bytes(range(16))
REAL_KEY = "8a7fc961e4e6ff0ad26436952875ae4a"  # published in esp-dl's test_apps/esp-dl/main/test_dl_api.cpp


def test_edl1_raw_data_is_a_byte_vector_at_4_byte_alignment() -> None:
    f = binparse.open(real("espdl/edl1-house-price/house_price.espdl"))
    (m,) = f.models
    assert (f.magic, m.generation, m.payload_offset, int(m.record.size)) == ("EDL1", "edl1", 12, 17016)
    b = m.tensor("network.0.bias")
    # count 512 = 128 int32 (the vector's u32 count just before the elements), elements at file offset 14728
    assert b.info.data_nbytes == 512 and b.info.data_offset + 12 == 14728
    assert int.from_bytes(real("espdl/edl1-house-price/house_price.espdl").read_bytes()[14724:14728], "little") == 512
    assert (14728 - 12) % 16 == 12  # not 16-byte aligned in the payload
    # the values esp-ppq printed beside the model (house_price.info, line 23)
    assert b.stored()[:9].tolist() == [-750, 860, 1981, -2139, -1172, -221, -1132, 1878, 1220]
    assert b.info.exponents == (-13,)
    w = m.tensor("network.8.weight")  # N16HWC16_UNALIGNED (the older name of (N/16)HWC16_UNALIGNED), 32 x 1
    assert w.layout.canonical == "(N/16)HWC16_UNALIGNED" and w.to_logical().shape == (1, 1, 1, 32)
    assert w.stored().reshape(-1)[:6].tolist() == [-3, 46, 42, 32, -12, -3]  # .info line 241
    x = m.tensor("onnx::Gemm_0")
    assert x.info.role == "test_input" and x.stored().tolist() == [[0, 0, 31, 0, 22, 70, 100, 45, 6, 13, 71, 127, 26]]


def test_pdl1_pack_of_edl1_models_lists_each_by_name() -> None:
    f = binparse.open(real("espdl/pdl1-face-detect/human_face_detect.espdl"))
    assert f.magic == "PDL1"
    assert [(m.name, m.magic, m.payload_offset, int(m.record.size), len(m.graph.nodes)) for m in f.models] == \
        [("msr01.espdl", "EDL1", 66, 127480, 41), ("mnp01.espdl", "EDL1", 127558, 137112, 23)]
    assert f.tensor("mnp01.espdl/input").info.dims == (48, 48, 3)
    with pytest.raises(FormatError, match="name a tensor of this pack as MODEL/TENSOR"):
        f.tensor("input")  # both models have one


def test_encrypted_edl1_with_its_key_and_a_wrong_one() -> None:
    path = real("espdl/edl1-encrypted/quantized_320_encry.espdl")
    f = binparse.open(path).with_key(bytes.fromhex(REAL_KEY))
    g = f.models[0].graph
    assert (g.name, len(g.nodes), len(g.initializers)) == ("Extracted from {torch-jit-export}", 135, 198)
    assert g.nodes[0].inputs == ("input", "796", "797") and g.nodes[0].attributes["strides"] == [2, 2]
    t = f.tensor("796")
    assert t.info.dims == (3, 3, 3, 16) and t.info.data_nbytes == 432
    bad = binparse.open(path).with_key(KEY)
    with pytest.raises(FormatError) as e:
        bad.models[0].graph
    assert str(e.value) == (
        f"{path}, Model, offset 12 (0xc): the decrypted payload's FlatBuffer root is not a Model (offset points past "
        "the payload); expected a position inside the 513512-byte payload, found 1410531671. Checked the root offset, "
        "the root table's vtable, Model.graph and the Graph table's vtable; AES-128-CTR with a wrong key gives random "
        "bytes, which fail these checks: check the key")


def test_truncated_and_corrupt_are_told_apart(tmp_path: Path) -> None:
    data = real("espdl/edl1-house-price/house_price.espdl").read_bytes()
    cut = tmp_path / "cut.espdl"
    cut.write_bytes(data[:10000])
    with pytest.raises(FormatError) as e:
        binparse.open(cut).models[0].payload
    assert str(e.value).startswith(f"{cut}, espdl_container.model.payload, offset 12 (0xc): field runs past the end "
                                   "of the data; expected 17016 bytes (1 x 17016), found 9988 bytes left. The file is "
                                   "truncated")
    bad = bytearray(data)
    bad[14724:14728] = (100000).to_bytes(4, "little")  # the count of network.0.bias's raw_data
    with pytest.raises(FormatError) as e:
        binparse.open(bytes(bad)).models[0].graph
    assert str(e.value) == (
        "Model.graph.initializer[0].raw_data, offset 14724 (0x3984): corrupt FlatBuffer: vector runs past the payload; "
        "expected 100000 x 1 bytes inside 2300, found 100000 bytes. The root is a Model and the file holds all 17,016 "
        "payload bytes its EDL1 header announces; this field of the FlatBuffer is damaged: re-export the model")


def test_an_espdl_name_with_another_magic_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "custom.espdl"
    p.write_bytes(b"ESPDL\x01\x00\x00" + bytes(range(40)))
    with pytest.raises(FormatError) as e:
        binparse.open(p)
    assert str(e.value) == (
        f"{p}, espdl_container.magic, offset 0 (0x0): not an ESP-DL model file: its magic is none of the container "
        "formats ESP-DL writes; expected EDL1 / EDL2 / PDL1 / PDL2 / PDL3, found b'ESPD' (45 53 50 44). The name says "
        ".espdl but the bytes are another format (e.g. a custom header); binparse reads the files esp-ppq and esp-dl's "
        "pack_espdl_models.py write")
    assert main(["inspect", str(p)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)
    err = capsys.readouterr().err
    assert "EDL1 / EDL2 / PDL1 / PDL2 / PDL3" in err and "tidl" not in err
    assert main(["doctor", str(tmp_path)]) == 2  # not read, as inspect says: nothing proven (docs/contracts.md)
    out = capsys.readouterr().out
    assert "[note] not verified: custom.espdl looks like an espdl .espdl" in out and "found b'ESPD'" in out


@pytest.mark.parametrize("name, fmt, models", [
    ("edl1_gemm", "EDL1", [("", "edl1", False)]),
    ("edl1_secret", "EDL1", [("", "edl1", True)]),
    ("edl1_unnamed", "EDL1", [("", "edl1", False)]),
    ("edl2_secret", "EDL2", [("", "edl2", True)]),
    ("pack_pdl1", "PDL1", [("det.espdl", "edl1", False), ("secret.espdl", "edl1", True)]),
    ("pack_pdl2", "PDL2", [("first", "edl2", False), ("second", "edl2", True)]),
    ("pack_pdl3", "PDL3", [("gemm", "edl2", False), ("secret", "edl2", True)]),
])
def test_fixtures_of_every_generation_round_trip(name: str, fmt: str, models: list[tuple[str, str, bool]]) -> None:
    import yaml
    spec = {f["output"]: f for f in yaml.safe_load((MODELS / "spec.yaml").read_text())["files"]}[name + ".espdl"]
    data = (MODELS / f"{name}.espdl").read_bytes()
    assert espdl_file(spec) == data  # build -> the committed bytes
    f = binparse.open(data).with_key(KEY)
    assert f.magic == fmt and [(m.name, m.generation, m.encrypted) for m in f.models] == models
    for m in f.models:
        stem = f"{name}.{m.name}" if m.name else name
        for t in m.graph.tensors:
            expected = np.load(MODELS / f"{stem}.{t.role}.{t.name}.expected.npy")
            mt = m.tensor(t.name)
            assert np.array_equal(mt.to_logical(), expected), (name, m.name, t.name)
            nbytes = expected.size * expected.itemsize
            # EDL1: a byte vector, exactly the tensor; EDL2: whole 16-byte blocks
            assert t.data_nbytes == (nbytes if m.generation == "edl1" else -(-nbytes // 16) * 16)


def test_pdl1_records_follow_the_names_unpadded() -> None:
    data = (MODELS / "pack_pdl1.espdl").read_bytes()
    (n,) = struct.unpack_from("<I", data, 4)
    entries = [struct.unpack_from("<3I", data, 8 + 12 * i) for i in range(n)]
    names_end = 8 + 12 * n + sum(e[2] for e in entries)
    assert entries[0][0] == names_end == 53  # 8 + 24 + len("det.espdl") + len("secret.espdl")
    first_size = struct.unpack_from("<I", data, entries[0][0] + 8)[0]
    assert entries[1][0] == entries[0][0] + 12 + first_size


def test_view_tensor_of_every_generation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "t.npy"
    assert main(["view", str(real("espdl/pdl1-face-detect/human_face_detect.espdl")), "--tensor",
                 "msr01.espdl/input", "--npy", str(out)]) == 0
    assert np.load(out).shape == (120, 160, 3)
    assert main(["view", str(real("espdl/edl1-encrypted/quantized_320_encry.espdl")), "--key", REAL_KEY, "--tensor",
                 "796", "--npy", str(out), "--stored"]) == 0
    assert np.load(out).reshape(-1)[:5].tolist() == [0, -18, 0, 1, 1]
    assert main(["view", str(MODELS / "pack_pdl1.espdl"), "--key", KEY.hex(), "--tensor", "secret.espdl/w",
                 "--npy", str(out)]) == 0
    assert np.array_equal(np.load(out), np.load(MODELS / "pack_pdl1.secret.espdl.initializer.w.expected.npy"))
    assert main(["inspect", str(MODELS / "pack_pdl2.espdl"), "--json", "--key", KEY.hex()]) == 0
    capsys.readouterr()
    assert main(["inspect", str(MODELS / "edl1_gemm.espdl"), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["family"], doc["kind"], doc["format"], doc["format_version"]) == (
        "espdl", "model_file", "espdl.edl1", "ESP-DL v3 EDL1")  # `format`: the registered name in every JSON
    assert [t["layout"] for t in doc["models"][0]["graph"]["initializers"]] == \
        ["UNK", "N16HWC16", "N16HWC16_UNALIGNED", "UNK"]


def test_doctor_with_the_key(capsys: pytest.CaptureFixture[str]) -> None:
    folder = real("espdl/edl1-encrypted")
    assert main(["doctor", str(folder), "--key", REAL_KEY]) == 0
    out = capsys.readouterr().out
    assert ("[ok] quantized_320_encry.espdl: unknown (no weight layout names); 135 nodes (Add x1, Concat x4, Conv x98, "
            "GlobalAveragePool x6, Mul x10, Resize x2, Sigmoid x14), 391,912 parameters") in out
    assert main(["doctor", str(folder), "--key", KEY.hex()]) == 2  # a wrong key: the model is not read
    out = capsys.readouterr().out
    assert "[note] not verified: quantized_320_encry.espdl could not be read: " in out
    assert "the decrypted payload's FlatBuffer root is not a Model" in out and "check the key" in out


def test_doctor_pdl1_test_outputs_in_hwc_of_the_nchw_graph() -> None:
    from binparse.cli.doctor import doctor
    doc = doctor(real("espdl/pdl1-face-detect"))
    texts = [f["text"] for f in doc["findings"]]
    assert doc["status"] == "ok"
    assert ("human_face_detect.espdl/msr01.espdl: test output 'score0' [13, 18, 2] holds the graph's [1, 2, 13, 18] in "
            "ESP-DL's H, W, C order (the graph keeps ONNX's N, C, H, W dims, N = 1)") in texts
    assert ("human_face_detect.espdl/mnp01.espdl: 29 of 31 initializers name no layout (doc_string empty or "
            "'layout ==> '); 14 Conv/Gemm weights among them read as (N/16)HWC16, (N/16)HWC16_UNALIGNED, the rule of "
            "the block width the model's named weights use (esp-ppq's blocking); 15 in their stored dims") in texts
    assert "human_face_detect.espdl/mnp01.espdl: test input 'input' [48, 48, 3] matches the graph" in texts


def test_edl1_views_are_zero_copy_and_write_through() -> None:
    path = real("espdl/edl1-house-price/house_price.espdl")
    f = binparse.open(path)
    v = f.tensor("network.0.bias").stored()
    assert not v.flags.owndata and not v.flags.writeable
    assert np.shares_memory(v, np.frombuffer(f._mv, np.uint8))
    data = bytearray(path.read_bytes())
    w = binparse.open(data).tensor("network.0.bias").stored()
    w[0] = 7
    assert data[14728:14732] == (7).to_bytes(4, "little")
    vec = binparse.open(data).tensor("network.8.bias").vector()  # the whole vector: one int32, no padding
    assert vec.tolist() == [1791] and np.shares_memory(vec, np.frombuffer(data, np.uint8))


def test_the_edl1_rule_and_its_evidence_as_the_schema_states_it() -> None:
    """espdl_model.yaml `generations.edl1.evidence`: 320 EDL1 raw_data vectors are byte vectors (51 of them
    16-byte aligned by chance), 502 EDL2 vectors whole aligned 16-byte blocks."""
    from binparse.engine.accessors.espdl.espdl_model import SCHEMA
    assert "320 raw_data vectors" in SCHEMA["generations"]["edl1"]["evidence"]
    counts = {"edl1": [0, 0], "edl2": [0, 0]}  # vectors, 16-byte aligned
    for p in sorted(real("espdl").rglob("*.espdl")):
        f = binparse.open(p).with_key(bytes.fromhex(REAL_KEY))
        for m in f.models:
            for t in m.graph.tensors:
                if t.data_field != "raw_data":
                    continue
                nbytes = int(np.prod(t.dims)) * np.dtype(t.dtype).itemsize
                assert t.data_nbytes == (nbytes if m.generation == "edl1" else -(-nbytes // 16) * 16), (p, t.name)
                assert t.data_offset % (4 if m.generation == "edl1" else 16) == 0
                counts[m.generation][0] += 1
                counts[m.generation][1] += t.data_offset % 16 == 0
    assert counts == {"edl1": [320, 51], "edl2": [502, 502]}


# what the real folders hold that is not "ok": the P4 mnist's int32 values in int64 vectors (a proven
# defect: the chip reads them as espdl.fbs declares)
NOT_OK = {"int32-maxpool-pads": "problem"}


def test_doctor_every_real_espdl_folder_with_the_key() -> None:
    from binparse.cli.doctor import doctor
    key = argparse.Namespace(key=REAL_KEY)
    folders = sorted(p for p in real("espdl").iterdir() if p.is_dir())
    assert [p.name for p in folders] == [
        "blocked-2d-matmul", "edl1-conv-nhwc", "edl1-encrypted", "edl1-house-price", "face-detect-msr",
        "gemm-16x16-relu", "info-td3", "int32-maxpool-pads", "model-properties-info", "pdl1-face-detect",
        "s3-mobilenet-v2-record", "tutorial-model"]
    for folder in folders:
        doc = doctor(folder, key)
        assert doc["status"] == NOT_OK.get(folder.name, "ok") and doc["unknown_files"] == [], folder.name
        assert not [f for f in doc["findings"] if "cannot" in f["text"] or "not compared" in f["text"]], folder.name
        problems = [f["text"] for f in doc["findings"] if f["level"] == "problem"]
        assert len(problems) == (folder.name == "int32-maxpool-pads"), folder.name
    assert problems_of("int32-maxpool-pads")[0].startswith("mnist.espdl: 56 int64 vectors hold int32 values (ints of "
                                                           "21 attributes, dims of 12 tensors, exponents of 23 tensors "
                                                           "or values)")


def problems_of(name: str) -> list[str]:
    from binparse.cli.doctor import doctor
    return [f["text"] for f in doctor(real(f"espdl/{name}"))["findings"] if f["level"] == "problem"]


def test_unnamed_pdl1_weights_read_as_the_edl2_build_of_the_same_model_names_them() -> None:
    """msr01 of the PDL1 pack names 2 of 62 layouts; face-detect-msr (EDL2) is the same model with every
    layout named and byte-identical weights: the inferred names and logical arrays equal its."""
    from binparse.formats.espdl.model.weights import ALIASES
    old = binparse.open(real("espdl/pdl1-face-detect/human_face_detect.espdl")).model_named("msr01.espdl")
    new = binparse.open(real("espdl/face-detect-msr/esp32s3.espdl")).models[0]
    named = {t.name: ALIASES.get(t.layout or "", t.layout) for t in new.graph.initializers}
    inferred = old.inferred_layouts
    assert len(inferred) == 38 and all(named[k] == v for k, v in inferred.items())
    assert sorted(set(inferred.values())) == ["(N/16)HWC16", "(N/16)HWC16_UNALIGNED"]
    for k in inferred:
        a, b = old.tensor(k), new.tensor(k)
        assert a.inferred and not b.inferred
        assert np.array_equal(a.stored(), b.stored()) and np.array_equal(a.to_logical(), b.to_logical()), k
    w = old.tensor("b_2_depth.weight")  # depthwise, 16 channels
    assert (w.layout.canonical, w.layout.depthwise, w.to_logical().shape) == ("(N/16)HWC16", True, (1, 3, 3, 16))
    assert w.describe() == ("ESP-DL initializer 'b_2_depth.weight', logical (N, H, W, C), layout (N/16)HWC16 inferred "
                            "from the model's named weights")
    bias = old.tensor("b_0.bias")
    assert not bias.inferred and bias.layout.rank == 0  # not a Conv/Gemm weight: stored dims
    enc = binparse.open(real("espdl/edl1-encrypted/quantized_320_encry.espdl")).with_key(bytes.fromhex(REAL_KEY))
    assert enc.models[0].inferred_layouts == {}  # no weight names a layout: nothing to infer from


def test_doctor_never_says_a_plain_no_problems_about_a_model_it_could_not_decrypt() -> None:
    from binparse.cli.doctor import doctor
    folder = real("espdl/edl1-encrypted")
    doc = doctor(folder)  # no key: only the header was read
    assert doc["status"] == "not verified" and doc["not_verified"] == ["quantized_320_encry.espdl"]
    assert [f["text"] for f in doc["findings"]] == [
        "not verified: quantized_320_encry.espdl was read only in part or with a layout no vendor file confirms: "
        "the model: encrypted (AES-128-CTR) and no key given, so only the header was read (pass --key HEX to read the "
        "model)"]
    keyed = doctor(folder, argparse.Namespace(key=REAL_KEY))
    assert keyed["status"] == "ok" and keyed["not_verified"] == []


def test_an_edl1_with_edl2s_header_and_payload_is_read_as_esp_dl_6d78289e_read_it(tmp_path: Path) -> None:
    """esp-dl 6d78289e ("align model parameters", 2024-12-20) read an EDL1 record with a 16-byte header and an
    aligned payload (its fbs_loader.cpp: `model_buf += 16`), and Espressif's models of that commit are so: 12
    files, each exactly 16 + size bytes with 4 zero bytes after size. Built here from the shape: the EDL2
    gemm model with the magic EDL1."""
    src = real("espdl/gemm-16x16-relu/esp32s3.espdl")
    data = bytearray(src.read_bytes())
    data[:4] = b"EDL1"
    (tmp_path / "padded.espdl").write_bytes(bytes(data))
    f, edl2 = binparse.open(tmp_path / "padded.espdl"), binparse.open(src)
    (m,) = f.models
    assert (str(f.magic), m.generation, m.payload_offset) == ("EDL1", "edl2", 16)
    assert np.array_equal(f.tensor("ops.0.weight").to_logical(), edl2.tensor("ops.0.weight").to_logical())
    assert f.tensor("ops.0.weight").info.data_offset == edl2.tensor("ops.0.weight").info.data_offset
    from binparse.cli.doctor import doctor
    doc = doctor(tmp_path)
    assert doc["status"] == "ok" and [x["text"] for x in doc["findings"]][0].startswith(
        "padded.espdl: esp32s3 / esp32p4 (blocked weights: 16 lanes); 1 nodes (Gemm x1)")
    old = binparse.open(real("espdl/edl1-house-price/house_price.espdl")).models[0]  # 12 + size bytes: as before
    assert (old.generation, old.payload_offset, old.padded) == ("edl1", 12, None)


def test_a_model_binparse_cannot_read_whole_is_named_never_passed_over(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A weight whose named layout binparse cannot apply to its dims (built from the gemm model: its weight's
    doc_string made `layout ==> (N/16)WC16`, a 1-D Conv layout, on 4 dims). The doctor used to pass such a
    model over (`except BinparseError: continue`: PP-OCRv6's 2-D MatMul weights and four RL actors said "no
    problems found", exit 0): now the model has its lines, the tensor is named with why, and the headline
    and the exit code of doctor and inspect say not verified."""
    from binparse.cli.doctor import doctor
    data = bytearray(real("espdl/gemm-16x16-relu/esp32s3.espdl").read_bytes())
    at = data.find(b"layout ==> (N/16)HWC16")
    assert at > 0 and int.from_bytes(data[at - 4:at], "little") == 22
    data[at - 4:at] = (21).to_bytes(4, "little")
    data[at:at + 23] = b"layout ==> (N/16)WC16\0\0"
    (tmp_path / "m.espdl").write_bytes(bytes(data))
    doc = doctor(tmp_path)
    assert doc["status"] == "not verified" and doc["not_verified"] == ["m.espdl"]
    assert [f["text"] for f in doc["findings"] if f["text"].startswith("not verified: ")][0] == (
        "not verified: m.espdl: 1 of 2 initializers could not be read in their layout: ops.0.weight ((N/16)WC16, "
        "dims [1, 1, 16, 16]: weight 'ops.0.weight': layout (N/16)WC16 needs 3 dims (or 2 or 2 for a MatMul/Gemm "
        "matrix [..., C, N]), the tensor has 4)")
    assert doc["findings"][0]["text"].startswith("m.espdl: esp32s3 / esp32p4 (blocked weights: 16 lanes); 1 nodes")
    assert main(["doctor", str(tmp_path)]) == 2
    assert capsys.readouterr().out.splitlines()[0] == (
        f"binparse doctor {tmp_path}: NOT VERIFIED: 1 file (m.espdl: read only in part, with a layout no vendor file "
        "confirms, or not read); nothing else checked")
    assert main(["inspect", str(tmp_path / "m.espdl")]) == 2
    assert "not verified: the model: 1 of 2 initializers could not be read in their layout: ops.0.weight" in \
        capsys.readouterr().out
