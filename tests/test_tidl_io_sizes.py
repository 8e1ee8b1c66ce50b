"""The TIDL io size as a rule: every (generation, IN, OUT, cores) is computed from the field lists,
fixture-built io files of each round-trip and are detected, an unseen size is solved with a
warning, and real files hold under the content checks."""

from __future__ import annotations

import functools
import shutil
from pathlib import Path
import warnings
from typing import Any

import numpy as np
import pytest

import binparse
from binparse.engine.backends import construct_backend
from binparse.core.errors import BinparseWarning, FormatError
from binparse.engine.build import defaults
from binparse.formats.tidl.fixtures import io_values
from binparse.formats.tidl.io import solve as io_solve
from binparse.formats.tidl.io.solve import BUFS, GENERATIONS, Candidate, candidates, problems
from binparse.family.registry import format_of
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import REAL

VERSION = {0: "tda2", 80: "08.x", 90: "09.00-09.01", 92: "09.02", 100: "10.x-11.x"}
# Bytes per entry from the field lists of facts/tidl.md 1.2 (4-byte scalars, 512-byte names) and the header ints.
PER_ENTRY = {0: (8, 9 * 4, 9 * 4), 80: (8, 20 * 4 + 512, 15 * 4 + 512), 90: (24, 20 * 4 + 512, 15 * 4 + 512),
             92: (24, 22 * 4 + 512, 18 * 4 + 512), 100: (24, 23 * 4 + 512, 19 * 4 + 512)}
ALL = [Candidate(g, i, o, c) for g in GENERATIONS for i in BUFS for o in BUFS for c in g.cores]


@functools.lru_cache(maxsize=None)
def _schema(name: str) -> Any:
    return load_schema(SCHEMAS_DIR / f"{name}.ksy")


def build(c: Candidate, *, cores_field: int | None = None) -> bytes:
    """An io file of candidate `c` written by the fixture builder (construct backend, not the reader)."""
    j7 = c.gen.io_version > 0
    spec: dict[str, Any] = {
        "version": VERSION[c.gen.io_version], "cores": c.cores, "in_bufs": c.ins, "out_bufs": c.outs,
        "inputs": [{"name": "image", "dtype": "uint8", "shape": [3, 8, 8], "data_id": 0},
                   {"name": "mask", "dtype": "int16", "shape": [1, 2, 4, 4], "pad": [1, 1, 1, 1, 0], "data_id": 1}],
        "outputs": [{"name": "dets", "dtype": "float32" if j7 else "int8", "shape": [1, 10, 5],
                     "pad": [0, 0, 0, 0, 1], "data_id": 7},
                    {"name": "labels", "dtype": "int8", "shape": [4, 2, 2], "data_id": 9}]}
    if cores_field is not None:
        spec["fields"] = {"num_cores": cores_field}
    schema, params, values, _, _ = io_values(spec)
    s = _schema(schema)
    return bytes(construct_backend.build(s, defaults(s.root, params, values), **params))


def test_sizes_follow_the_field_lists() -> None:
    for c in ALL:
        head, per_in, per_out = PER_ENTRY[c.gen.io_version]
        assert c.size == head + c.cores * (c.ins * per_in + c.outs * per_out), c
    # the sizes facts/tidl.md documents (headers, real files, the bbappend)
    known = {(0, 16, 16, 1): 1160, (80, 32, 32, 1): 37256, (90, 32, 32, 1): 37272, (92, 32, 128, 1): 93976,
             (92, 32, 128, 2): 187928, (92, 32, 128, 4): 375832, (100, 32, 128, 1): 94616,
             (100, 32, 128, 2): 189208, (100, 32, 128, 4): 378392, (92, 32, 32, 1): 37912}
    for (v, i, o, k), size in known.items():
        gen = next(g for g in GENERATIONS if g.io_version == v)
        assert Candidate(gen, i, o, k).size == size
    assert len(ALL) == 176 and len({c.size for c in ALL}) == 113


@pytest.mark.parametrize("gen", GENERATIONS, ids=lambda g: g.label)
def test_every_generation_in_out_cores_round_trips_and_is_detected(gen: Any) -> None:
    for c in (x for x in ALL if x.gen is gen):
        data = build(c)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            io = binparse.open(data)
        fmt = format_of(io)
        p = io._params
        got = Candidate(gen, int(p["max_alg_in_bufs"]), int(p["max_alg_out_bufs"]), int(p.get("max_num_cores", 1)))
        assert got.layout_key == c.layout_key, (c, fmt.name)
        solved = fmt.name.startswith("tidl.io.solved.")
        assert solved == (fmt.size is None) == (fmt.size != c.size)  # a listed size keeps its format and evidence
        if solved:
            assert got.cores >= c.cores  # numCores (= the cores built) rules out fewer cores
        assert [(t.name, t.shape, t.data_id) for t in io.inputs] == [
            ("image" if gen.io_version else "", (1, 1, 1, 3, 8, 8), 0),
            ("mask" if gen.io_version else "", (1, 1, 1, 2, 4, 4), 1)]
        assert [(t.name, t.shape, t.pad.channel) for t in io.outputs] == [
            ("dets" if gen.io_version else "", (1, 1, 1, 1, 10, 5), 1 if gen.io_version else 0),
            ("labels" if gen.io_version else "", (1, 1, 1, 4, 2, 2), 0)]
        assert io.outputs[0].dtype == np.dtype("<f4" if gen.io_version else "i1")
        if solved:
            msgs = [str(w.message) for w in caught if issubclass(w.category, BinparseWarning)]
            assert len(msgs) == 1 and f"{c.size:,} bytes is no io size binparse has seen" in msgs[0]
            assert f"{gen.label} layout with IN {got.ins}, OUT {got.outs}" in msgs[0]
            assert io.unverified and io.summary()["unverified"] == io.unverified
            assert io.report().startswith("UNVERIFIED: ")
        else:
            assert not caught and getattr(io, "unverified", None) is None


def test_the_37912_byte_am68a_io_is_solved_as_9_x_with_dims() -> None:
    gen = next(g for g in GENERATIONS if g.io_version == 92)
    data = build(Candidate(gen, 32, 32, 1))
    assert len(data) == 37912 and [c.describe() for c in candidates(37912)] == [
        "09.02 layout with IN 16, OUT 16, 2 cores", "09.02 layout with IN 32, OUT 32, 1 core"]
    with pytest.warns(BinparseWarning, match=r"37,912 bytes is no io size .* read as the 09\.02 layout with IN 32, "
                                             r"OUT 32, 1 core \(the same bytes as 09\.02 layout with IN 16, OUT 16, "
                                             r"2 cores\)"):
        io = binparse.open(data)
    assert format_of(io).name == "tidl.io.solved.92_in32_out32_c1"
    assert io.summary()["max_alg_out_bufs"] == 32 and io.cores == 1
    # the same bytes claiming 2 cores: only the 2-core reading holds
    with pytest.warns(BinparseWarning, match="IN 16, OUT 16, 2 cores"):
        two = binparse.open(build(Candidate(gen, 16, 16, 2)))
    assert two.cores == 2 and two.num_cores == 2


def test_a_solved_io_is_viewed_packed_and_doctored(tmp_path: Any) -> None:
    from binparse.cli import main
    gen = next(g for g in GENERATIONS if g.io_version == 92)
    path = tmp_path / "7_tidl_io_1.bin"
    path.write_bytes(build(Candidate(gen, 32, 32, 1)))
    buf = tmp_path / "dets.bin"
    logical = np.arange(50, dtype="<f4").reshape(1, 1, 1, 1, 10, 5)
    with pytest.warns(BinparseWarning):
        assert main(["pack", str(path), str(_npy(tmp_path, logical)), "--output", "dets", "--out", str(buf)]) == 0
        assert main(["view", str(path), str(buf), "--output", "dets", "--npy", str(tmp_path / "v.npy")]) == 0
    raw = np.fromfile(buf, dtype="<f4")
    assert raw.size == 100 and raw[:50].tolist() == list(range(50))  # C 1 + padCh 1: the padding channel after
    assert np.load(tmp_path / "v.npy").tolist() == logical.tolist()
    from binparse.cli.doctor import doctor
    with pytest.warns(BinparseWarning):
        doc = doctor(tmp_path)
    rep = {f["file"]: f for f in doc["files"]}["7_tidl_io_1.bin"]
    assert rep["format_version"] == ("J7 io solved from its size: the 09.02 layout with IN 32, OUT 32, 1 core "
                                     "(unverified; a field list names no SDK)")
    assert rep["version"] == "09.02"  # the artifact's own, as `inspect --json` says it
    assert [f for f in doc["findings"] if f["level"] == "problem"] == []
    assert doc["not_verified"] == ["7_tidl_io_1.bin"]
    assert [f["text"][:60] for f in doc["findings"] if f["text"].startswith("not verified")] == [
        "not verified: 7_tidl_io_1.bin was read only in part or with "]


def _npy(tmp_path: Any, arr: np.ndarray[Any, Any]) -> Any:
    p = tmp_path / "a.npy"
    np.save(p, arr)
    return p


def test_an_unseen_size_where_nothing_holds_or_several_hold() -> None:
    noise = np.random.default_rng(7).integers(1, 255, 37912, dtype=np.uint8).tobytes()
    with pytest.raises(FormatError) as e:
        binparse.open(noise)
    assert e.value.message == "no TIDL io layout holds for this size (37,912 bytes)"
    assert str(e.value.found).startswith("09.02 layout with IN 16, OUT 16, 2 cores: numInputBuf -253474166 / "
                                         "numOutputBuf ")
    gen = next(g for g in GENERATIONS if g.io_version == 100)
    data = build(Candidate(gen, 16, 128, 1))  # 84,952 bytes: also the 09.00 layout with IN 128, OUT 16
    assert [c.describe() for c in candidates(len(data))] == ["09.00-09.01 layout with IN 128, OUT 16, 1 core",
                                                             "10.x-11.x layout with IN 16, OUT 128, 1 core"]
    with pytest.warns(BinparseWarning, match="10.x-11.x layout with IN 16, OUT 128, 1 core"):
        assert binparse.open(data).outputs[1].name == "labels"  # the 09.00 reading does not hold
    mp = pytest.MonkeyPatch()
    mp.setattr(io_solve, "problems", lambda acc, gen: [])  # were the content checks to pass under both
    try:
        with pytest.raises(FormatError) as e:
            binparse.open(data)
    finally:
        mp.undo()
    assert e.value.message == "several TIDL io layouts hold for this size (84,952 bytes)"
    assert e.value.found == ("09.00-09.01 layout with IN 128, OUT 16, 1 core; "
                             "10.x-11.x layout with IN 16, OUT 128, 1 core")


def test_text_of_a_candidate_size_is_answered_as_text() -> None:
    text = b'{\n  "build": "' + b"x" * (37912 - 17) + b'"}\n'
    assert len(text) == 37912 and int.from_bytes(text[:4], "little") == 0x20200A7B
    with pytest.raises(FormatError) as e:
        binparse.open(text)
    assert "a JSON text file, 37,912 bytes" in str(e.value.found) and "netVersion" not in str(e.value)


def test_real_io_files_hold_under_the_content_checks() -> None:
    files = sorted(p for p in (REAL / "tidl").rglob("*io*.bin")) if REAL.is_dir() else []
    if not files:
        pytest.skip("../shared/real is absent")
    for path in files:
        io = binparse.open(path)
        gen = next(g for g in GENERATIONS if g.io_version == io.io_version)
        assert problems(io, gen) == [], path
    assert len(files) == 11  # with the midas demo's 983_tidl_io_1.bin (09.00-09.01, 37,272 bytes)


def test_a_solved_io_beside_a_net_of_another_sdk_is_a_note_and_its_tensors_are_compared(tmp_path: Any) -> None:
    """The fcnn-cnn5 9.0/9.1 net with its io re-laid as the 37,912-byte 09.02-style layout (what a 9.1
    AM68A compile writes): the SDK pairing cannot be proven, the tensors can."""
    from binparse.cli.doctor import doctor
    from .conftest import real
    net = real("tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin")
    spec = {"version": "09.02", "cores": 1, "in_bufs": 32, "out_bufs": 32,
            "inputs": [{"name": "input", "dtype": "float32", "shape": [1, 32, 100], "data_id": 0}],
            "outputs": [{"name": "/cnn/cnn.5/relu/Relu_output_0", "dtype": "float32", "shape": [256, 8, 25],
                         "pad": [0, 0, 0, 0, 774], "data_id": 8}]}
    schema, params, values, _, _ = io_values(spec)
    s = _schema(schema)
    data = bytes(construct_backend.build(s, defaults(s.root, params, values), **params))
    assert len(data) == 37912
    shutil.copy(net, tmp_path / net.name)  # a copy: the doctor follows no link out of the folder it is given
    (tmp_path / "_cnn_cnn.5_relu_Relu_output_0_tidl_io_1.bin").write_bytes(data)
    with pytest.warns(BinparseWarning):
        doc = doctor(tmp_path)
    texts = [(f["level"], f["text"]) for f in doc["findings"] if not f["text"].startswith("not verified")]
    io_name = "_cnn_cnn.5_relu_Relu_output_0_tidl_io_1.bin"
    assert texts == [
        ("note", f"{io_name} was solved as the TIDL 09.02 io layout, {net.name} is a TIDL 9.0/9.1 network: whether "
                 "their SDKs pair is not verified; their tensors are compared below"),
        ("ok", f"{io_name} and {net.name} agree: TIDL 09.02 / 9.0/9.1, 1 input(s) and 1 output(s) match the net's "
               "data layers by dataId and dims")]


def test_no_tidl_sign_claims_a_text_file(tmp_path: Path) -> None:
    """A CSV or JSON text is answered as text, never with TIDL io sizes or a netVersion, even at an io size."""
    from binparse.family.lookalike import looks_like_artifact
    csv = tmp_path / "layer_device.csv"
    csv.write_bytes(b"layer,device,type\n" + b"conv_1,FPGA,Convolution\n" * 1552 + b"x,y,z\n")
    assert csv.stat().st_size == 37272  # the 09.00 io size
    with pytest.raises(FormatError) as e:
        binparse.open(csv)
    assert str(e.value.found) == "a CSV text file with the header 'layer,device,type', 37,272 bytes"
    json_head = b'{\n  "model": {"layers": []}\n}\n'
    assert looks_like_artifact(Path("report.json"), json_head) is None  # 0x20200A7B: no netVersion sign
    assert io_solve.solve(memoryview(json_head.ljust(37912, b" ")), "x.json") is None
