"""int32 values in int64 vectors (esp-ppq's defect): found by rule in every affected field, named by the
doctor with cause and fix, read as meant (inspect, view, the .info beside it), and repaired into a model
that the classes flatc generates read as meant (fixtures/espdl/int32_defect, written the way esp-ppq's
builder writes an int32 numpy array)."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import binparse
import binparse.espdl
from binparse.cli import main
from binparse.core.errors import BinparseError, FormatError, UsageError

from .conftest import need

HERE = Path(__file__).resolve().parents[1] / "fixtures" / "espdl" / "int32_defect"
MEANT = {"w_conv": (3, 3, 3, 32), "b_conv": (32,), "w_gemm": (1, 1, 288, 16), "x": (1, 5, 5, 3), "y": (1, 1, 1, 16)}


def pairs(*vals: int) -> list[int]:
    """What an int64 reader makes of int32 values: each two of them one 8-byte number (low word first)."""
    return [(a & 0xFFFFFFFF) | (b << 32) for a, b in zip(vals[::2], vals[1::2])]


@pytest.fixture(scope="module")
def flatc(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """flatc's Python classes of the schema binparse declares (model/fbs.py), generated in a temp dir."""
    from binparse.formats.espdl.model.fbs import flatc_classes
    need("flatc", shutil.which("flatc") is not None)  # CI fails without it (tools/install-test-tools.sh)
    try:
        flatc_classes(tmp_path_factory.mktemp("flatc"))
    except BinparseError as exc:
        pytest.skip(exc.message)
    return importlib.import_module("espdl.Model").Model


def _flatc_graph(Model: Any, data: bytes, at: int) -> Any:
    return Model.GetRootAs(data[at:], 0).Graph()


def _flatc_dims(g: Any) -> dict[str, list[int]]:
    out = {}
    for get, n in ((g.Initializer, g.InitializerLength()), (g.TestInputsValue, g.TestInputsValueLength()),
                   (g.TestOutputsValue, g.TestOutputsValueLength())):
        for i in range(n):
            t = get(i)
            out[t.Name().decode()] = t.DimsAsNumpy().tolist()
    return out


# -- found by rule, in every field ----------------------------------------------------------------

@pytest.mark.parametrize("name, kinds", [("all", {"dims": 5, "exponents": 7, "ints": 4}), ("dims", {"dims": 5}),
                                         ("exponents", {"exponents": 5}), ("ints", {"ints": 4}),
                                         ("edl1", {"dims": 5, "exponents": 7, "ints": 4})])
def test_every_affected_field_is_found_and_read_as_meant(name: str, kinds: dict[str, int]) -> None:
    m = binparse.open(HERE / f"narrow_{name}.espdl").models[0]
    g = m.graph
    found: dict[str, int] = {}
    for n in g.narrow:
        found[n.kind] = found.get(n.kind, 0) + 1
    assert found == kinds
    assert {t.name: t.dims for t in g.tensors} == MEANT  # read as meant whatever the field
    assert {t.name: t.exponents for t in g.initializers} == {"w_conv": (-5,), "b_conv": (-12,), "w_gemm": (-7,)}
    conv = g.nodes[0].attributes
    assert (conv["pads"], conv["strides"], conv["dilations"], conv["kernel_shape"], conv["group"]) == \
        ([1, 1, 1, 1], [2, 2], [1, 1], [3, 3], 1)


def test_what_the_chip_reads_is_the_int32_values_paired() -> None:
    g = binparse.open(HERE / "narrow_dims.espdl").models[0].graph
    gemm = next(n for n in g.narrow if n.path.endswith("initializer[2].dims"))
    assert gemm.meant == (1, 1, 288, 16)
    assert gemm.read is not None and list(gemm.read[:2]) == pairs(1, 1, 288, 16) == [4294967297, 68719477024]
    strides = next(n for n in binparse.open(HERE / "narrow_ints.espdl").models[0].graph.narrow
                   if n.path.endswith("attribute[5].ints"))
    assert strides.meant == (2, 2) and strides.read is not None and strides.read[0] == pairs(2, 2)[0] == 8589934594


def test_a_pack_names_the_defective_model_only() -> None:
    f = binparse.open(HERE / "narrow_pack.espdl")
    assert [(m.name, len(m.graph.narrow)) for m in f.models] == [("narrow", 16), ("sound", 0)]
    assert {t.name: t.dims for t in f.models[1].graph.tensors} == MEANT


# -- the doctor: cause and fix, no false channel alarm; the .info compared as meant ------------------

def test_doctor_names_cause_and_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["doctor", str(HERE), "--json"]) == 1
    doc = json.loads(capsys.readouterr().out)
    problems = [f["text"] for f in doc["findings"] if f["level"] == "problem"]
    assert len(problems) == 6 and all("int64 vectors hold int32 values" in p for p in problems)
    dims = next(p for p in problems if p.startswith("narrow_dims.espdl"))
    assert "initializer[0].dims [3, 3, 3, 32] reads as [12884901891, 137438953475, " in dims
    assert "numpy's default integer is 32-bit on Windows before numpy 2" in dims
    assert f"`binparse repair {HERE}/narrow_dims.espdl -o narrow_dims.fixed.espdl`" in dims and "numpy 2, or np.int64" in dims
    assert not any("multiple of 16" in f["text"] for f in doc["findings"])
    agree = [f["text"] for f in doc["findings"] if f["level"] == "ok" and ".info agrees with" in f["text"]]
    assert len(agree) == 2  # esp-ppq printed the values it meant: they agree with the model read as meant
    assert doc["files"] and any("read as meant" in f["text"] for f in doc["findings"] if f["level"] == "note")


def test_inspect_warns_and_view_gives_the_meant_test_input(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    main(["inspect", str(HERE / "narrow_all.espdl")])
    out = capsys.readouterr().out
    assert "warning: 16 int64 vectors hold int32 values (ints of 4 attributes, dims of 5 tensors, exponents of 7 " \
           "tensors or values), read as meant" in out
    npy = tmp_path / "x.npy"
    assert main(["view", str(HERE / "narrow_all.espdl"), "--tensor", "x", "--npy", str(npy)]) == 0
    assert capsys.readouterr().out == (f"{npy}: ESP-DL test_input 'x', dims as stored, dims and exponents read as meant "
                                       "(int32 values in int64 vectors: not verified, the chip reads them otherwise), "
                                       "int8, shape (1, 5, 5, 3)\n")
    assert np.array_equal(np.load(npy), np.load(HERE / "narrow_all.test_input.x.expected.npy"))
    assert np.load(npy).shape == (1, 5, 5, 3)


# -- repair -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, at", [("all", 16), ("dims", 16), ("exponents", 16), ("ints", 16), ("edl1", 12)])
def test_repair_is_read_as_meant_by_flatc(name: str, at: int, flatc: Any, tmp_path: Path) -> None:
    src = HERE / f"narrow_{name}.espdl"
    before = _flatc_dims(_flatc_graph(flatc, src.read_bytes(), at))
    if name in ("all", "dims", "edl1"):
        assert before["w_gemm"][:2] == pairs(1, 1, 288, 16)  # flatc reads the defect as the chip does
    out = tmp_path / "fixed.espdl"
    data = binparse.espdl.repair(src, out)
    assert out.read_bytes() == data and data[:4] == src.read_bytes()[:4]  # same generation (magic) and mode
    g = _flatc_graph(flatc, data, at)
    assert {k: tuple(v) for k, v in _flatc_dims(g).items()} == MEANT
    assert [g.Initializer(i).ExponentsAsNumpy().tolist() for i in range(3)] == [[-5], [-12], [-7]]
    conv = g.Node(0)
    ints = {conv.Attribute(i).Name().decode(): conv.Attribute(i).IntsAsNumpy() for i in range(conv.AttributeLength())}
    assert ints["pads"].tolist() == [1, 1, 1, 1] and ints["strides"].tolist() == [2, 2]
    assert g.Input(0).ExponentsAsNumpy().tolist() == [-7] and g.Output(0).ExponentsAsNumpy().tolist() == [-5]
    fixed, orig = binparse.open(data), binparse.open(src)
    assert fixed.models[0].graph.narrow == [] and fixed.unverified is None
    for t in orig.models[0].graph.tensors:  # names, weights and test values: the same bytes
        assert fixed.tensor(t.name).stored().tobytes() == orig.tensor(t.name).stored().tobytes()
    assert [n.name for n in fixed.models[0].graph.nodes] == ["conv0", "gemm"]


def test_repair_keeps_every_other_byte(tmp_path: Path) -> None:
    src = (HERE / "narrow_dims.espdl").read_bytes()
    m = binparse.open(src).models[0]
    fixed = binparse.espdl.repair(src)
    old, new = src[16:], fixed[16:]
    assert len(new) > len(old) and struct.unpack_from("<I", fixed, 8)[0] == len(new)
    ats = {n.at for n in m.graph.narrow}
    changed = {i for i in range(len(old)) if old[i] != new[i]}
    assert changed and all(any(a <= i < a + 4 for a in ats) for i in changed)  # only the five uoffsets moved


def test_repair_of_a_pack_and_of_a_pdl3_and_an_encrypted_model(flatc: Any, tmp_path: Path) -> None:
    import yaml

    from binparse.formats.espdl.writers.fixtures import espdl_file
    spec = yaml.safe_load((HERE / "spec.yaml").read_text())["files"]
    graph = spec[0]["graph"]
    fixed = binparse.open(binparse.espdl.repair(HERE / "narrow_pack.espdl"))
    assert [(m.name, m.graph.narrow, {t.name: t.dims for t in m.graph.tensors}) for m in fixed.models] == \
        [("narrow", [], MEANT), ("sound", [], MEANT)]
    sound = binparse.open(HERE / "narrow_pack.espdl").models[1]
    assert bytes(fixed.models[1].payload) == bytes(sound.payload)
    pdl3 = espdl_file({"format": "PDL3", "models": [{"name": "a", "graph": graph}, {"name": "b", "graph": graph}]})
    f3 = binparse.open(binparse.espdl.repair(pdl3))
    digests = f3.sha256()
    assert digests is not None and digests[0] == digests[1] and f3.problems() == []
    assert [m.graph.narrow for m in f3.models] == [[], []]
    pdl1 = espdl_file({"format": "PDL1", "models": [{"name": "a", "graph": graph}, {"name": "b", "graph": graph}]})
    assert [len(m.graph.narrow) for m in binparse.open(pdl1).models] == [16, 16]  # EDL1 records, unpadded
    f1 = binparse.open(binparse.espdl.repair(pdl1))
    assert [(m.magic, m.graph.narrow, {t.name: t.dims for t in m.graph.tensors}) for m in f1.models] == \
        [("EDL1", [], MEANT), ("EDL1", [], MEANT)]
    key = "8a7fc961e4e6ff0ad26436952875ae4a"
    enc = espdl_file({"format": "EDL2", "graph": graph, "key": key})
    with pytest.raises(UsageError, match="give its key"):
        binparse.espdl.repair(enc)
    out = binparse.espdl.repair(enc, key=key)
    assert struct.unpack_from("<I", out, 4)[0] == 1  # still encrypted (mode 1)
    from binparse.formats.espdl.model.crypto import decrypt
    plain = decrypt(out[16:], bytes.fromhex(key))
    assert {k: tuple(v) for k, v in _flatc_dims(flatc.GetRootAs(plain, 0).Graph()).items()} == MEANT


def test_repair_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sound = Path(__file__).resolve().parents[1] / "fixtures" / "espdl" / "models" / "conv_c.espdl"
    assert main(["repair", str(sound), "-o", str(tmp_path / "x.espdl")]) == 3
    assert "nothing to repair" in capsys.readouterr().err and not (tmp_path / "x.espdl").exists()
    copy = tmp_path / "m.espdl"
    copy.write_bytes((HERE / "narrow_all.espdl").read_bytes())
    assert main(["repair", str(copy), "-o", str(copy)]) == 3
    assert "is an input of this command" in capsys.readouterr().err
    assert main(["repair", str(copy), "-o", str(tmp_path)]) == 3  # a folder
    capsys.readouterr()
    link = tmp_path / "link.espdl"
    os.symlink(tmp_path / "elsewhere.espdl", link)
    assert main(["repair", str(copy), "-o", str(link)]) == 3
    assert "link" in capsys.readouterr().err and not (tmp_path / "elsewhere.espdl").exists()
    assert copy.read_bytes() == (HERE / "narrow_all.espdl").read_bytes()
    # a meant reading that does not fit the model: w_conv's int32 dims [3, 3, 3, 32] made [3, 3, 3, 31]
    data = bytearray(copy.read_bytes())
    n = next(n for n in binparse.open(bytes(data)).models[0].graph.narrow if n.path.endswith("initializer[0].dims"))
    struct.pack_into("<i", data, 16 + n.start + 12, 31)
    with pytest.raises(FormatError) as exc:
        binparse.espdl.repair(bytes(data))
    assert exc.value.path == "Model.graph.initializer[0].dims" and exc.value.message == (
        "corrupt FlatBuffer: dims fit neither as int64 ([12884901891, 133143986179, 8026363925610102790, "
        "94489310830]: out of range) nor as int32 ([3, 3, 3, 31]: w_conv: dims [3, 3, 3, 31] of 1-byte elements "
        "need 837 bytes, its raw_data holds 864)")
    assert main(["repair", str(copy), "-o", str(tmp_path / "fixed.espdl")]) == 0
    assert capsys.readouterr().out.startswith(f"{tmp_path / 'fixed.espdl'}: 8,480 bytes; model: 16 int64 vectors")


def test_a_vector_whose_first_values_read_as_int64_is_still_sized_by_all_its_elements(tmp_path: Path) -> None:
    """The P4 mnist (YanKE01/esp_dl_demos): each MaxPool's `pads` is [0, 0, 0, 0] in 4-byte values. Its first
    16 bytes read as int64 give [0, 0]: plausible, so a rule looking at the first values took the vector as
    int64, [0, 0, 8314877945697009668, ...], and repair left it. The 8-byte reading runs into the attribute's
    own name string ("pads", length 4: 0x73646170_00000004), which FlatBuffers never overlaps: int32."""
    from .conftest import real
    src = real("espdl/int32-maxpool-pads/mnist.espdl")
    g = binparse.open(src).models[0].graph
    pools = [n for n in g.nodes if n.op_type == "MaxPool"]
    assert [n.attributes["pads"] for n in pools] == [[0, 0, 0, 0], [0, 0, 0, 0]]
    pads = [n for n in g.narrow if n.path.endswith((".attribute[4].ints", ".attribute[3].ints"))
            and n.meant == (0, 0, 0, 0)]
    assert [n.read[2] for n in pads if n.read is not None] == [8314877945697009668] * 2
    assert (8314877945697009668).to_bytes(8, "little") == b"\x04\x00\x00\x00pads"
    fixed = tmp_path / "mnist.espdl"
    assert main(["repair", str(src), "-o", str(fixed)]) == 0
    f = binparse.open(fixed)
    assert f.models[0].graph.narrow == [] and f.unverified is None
    assert [n.attributes["pads"] for n in f.models[0].graph.nodes if n.op_type == "MaxPool"] == [[0, 0, 0, 0]] * 2
    from binparse.cli.doctor import doctor
    doc = doctor(tmp_path)  # the repaired model alone: nothing left to say against it
    assert [x["text"] for x in doc["findings"] if x["level"] == "problem"] == [] and doc["not_verified"] == []
