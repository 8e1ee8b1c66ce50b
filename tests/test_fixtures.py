"""Every bundled fixture: its spec regenerates every file byte for byte; artifacts open as their
version and hold the spec's values; device buffers hold the expected logical arrays where the
layouts say and the sentinel in every padding byte."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

import binparse
from binparse.engine.backends import construct_backend as cb
from binparse.family.fixtures import SENTINEL, defaults, generate
from binparse.family.fixtures.common import safe_name
from binparse.formats.tidl.fixtures import io_values
from binparse.family.registry import format_of
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import FIXTURES

SPECS = sorted(FIXTURES.rglob("spec.yaml"))


def test_fixtures_cover_every_schema_and_version() -> None:
    made = set()
    for spec in SPECS:
        manifest = json.loads((spec.parent / "manifest.json").read_text())
        for f in manifest["files"]:
            if f["role"] == "artifact" and f["path"].endswith((".bin", ".espdl")) and "param" not in f["path"]:
                obj = binparse.open(spec.parent / f["path"])
                parts = [obj.subgraph(i) for i in range(obj.num_subgraphs)] if hasattr(obj, "subgraphs") else [obj]
                made.update(format_of(x).name for x in parts)  # a combined TIDL file: its subgraphs' formats
    unverified = {"tidl.net.j7_10_00", "tidl.net.j7_11_00_04", "tidl.net.j7_11_00", "tidl.net.j7_11_01",
                  "tidl.net.j7_other"}  # no layout of their own: real nets restamped, in test_tidl_net_versions
    assert {f.name for f in binparse.family.registry.registered()} - made - unverified == {"tidl.net.j7_08_2", "tidl.net.am57x"}
    # ... those two are read from real files (../shared/real)


@pytest.mark.parametrize("spec", SPECS, ids=[s.parent.name for s in SPECS])
def test_regenerates_byte_for_byte(spec: Path, tmp_path: Path) -> None:
    written = generate(spec, tmp_path)
    names = sorted(p.name for p in written)
    committed = sorted(p.name for p in spec.parent.iterdir() if p.name != "spec.yaml")
    assert names == committed
    for p in written:
        assert p.read_bytes() == (spec.parent / p.name).read_bytes(), f"{spec.parent.name}/{p.name} is stale"


@pytest.mark.parametrize("spec", [s for s in SPECS if "tidl" in s.relative_to(FIXTURES).parts and yaml.safe_load(s.read_text())["kind"] == "io"],
                         ids=lambda s: s.parent.name)
def test_tidl_io_fixtures(spec: Path) -> None:
    doc = yaml.safe_load(spec.read_text())
    schema_name, params, values, inputs, outputs = io_values(doc)
    schema = load_schema(SCHEMAS_DIR / f"{schema_name}.ksy")
    expected = defaults(schema.root, params, values)
    data = (spec.parent / doc["output"]).read_bytes()
    io = binparse.open(data)
    assert io._params == params and io.to_dict() == expected
    assert cb.to_plain(cb.parse(schema, data, **params), schema.root) == expected
    if not doc.get("buffers", True):  # the descriptor alone: no tensor file beside it
        assert sorted(p.name for p in spec.parent.iterdir()) == sorted([doc["output"], "manifest.json", "spec.yaml"])
        return
    for named, t in zip(inputs + outputs, io.inputs + io.outputs):  # TDA2 stores no names: take the spec's
        base = f"{t.direction}_{t.index}_{safe_name(named.name or str(t.index))}"
        buf = (spec.parent / f"{base}.buffer.bin").read_bytes()
        want = np.load(spec.parent / f"{base}.expected.npy")
        assert np.array_equal(t.view(buf), want)
        mask = np.ones(len(buf), bool)  # every byte outside the logical elements is the sentinel
        lay = t.layout_desc
        idx = np.ravel_multi_index(np.indices(t.shape).reshape(6, -1), t.shape)
        starts = (lay.offset + np.tensordot(np.array(lay.strides), np.indices(t.shape).reshape(6, -1), 1)) * t.dtype.itemsize
        for k in range(t.dtype.itemsize):
            mask[starts + k] = False
        assert idx.size == want.size and set(np.frombuffer(buf, np.uint8)[mask].tolist()) <= {SENTINEL}


def test_device_fixtures_hold_pattern_and_sentinel() -> None:
    from binparse.formats.dlhdl import ConvLayout
    from binparse.formats.espdl import DlTensor, concat
    d = FIXTURES / "dlhdl" / "conv_and_fc"
    lay = ConvLayout(9, (3, 3, 4))
    buf = (d / "t9_3x3x4.buffer.bin").read_bytes()
    assert np.array_equal(lay.to_logical(buf), np.load(d / "t9_3x3x4.expected.npy"))
    lanes = np.frombuffer(buf, np.uint8).reshape(2, 3, 3, 4, 4)
    assert (lanes[:, :, :, 3] == SENTINEL).all() and (lanes[1, :, :, 1:3] == SENTINEL).all()
    e = FIXTURES / "espdl" / "tensors_and_models"
    t = DlTensor((5, 3, 4), (1, 2, 2, 1), "int8", -3)
    b = (e / "feature_s8.buffer.bin").read_bytes()
    assert np.array_equal(t.view(b), np.load(e / "feature_s8.expected.npy"))
    assert np.frombuffer(b, np.uint8).reshape(8, 6, 4)[0].tolist() == [[SENTINEL] * 4] * 6
    members = concat((2, 3), [2, 3, 1], (1, 0, 0, 1))
    shared = (e / "concat_abc.buffer.bin").read_bytes()
    for k, m in enumerate(members):
        assert np.array_equal(m.view(shared), np.load(e / f"concat_abc.member{k}.expected.npy"))
    pack = binparse.open(e / "pack_pdl2.espdl")
    assert [m.name for m in pack.models] == ["plain", "secret"] and pack.models[1].encrypted
    assert len(pack.models[0].payload) == 16


def test_intel_fixture_buffers() -> None:
    d = FIXTURES / "intel_dla" / "testnet_2025"
    folder = binparse.open(d)
    out = folder.output_configuration()
    buf = (d / "output_ip.buffer.bin").read_bytes()
    assert np.array_equal(out.to_logical(buf), np.load(d / "output_ip.expected.npy"))
    used = np.zeros(out.ip_size, bool)
    used[out.ip_offsets] = True
    assert (np.frombuffer(buf, "<u2")[~used] == SENTINEL * 257).all()
    inp = folder.input_configuration()
    assert np.array_equal(inp.to_logical((d / "input_ip.buffer.bin").read_bytes()), np.load(d / "input_ip.expected.npy"))


def test_fixture_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from binparse.cli import main
    spec = FIXTURES / "tidl" / "io_tda2" / "spec.yaml"
    assert main(["fixture", str(spec), "-o", str(tmp_path)]) == 0
    printed = capsys.readouterr().out.split()
    assert sorted(Path(p).name for p in printed) == sorted(p.name for p in spec.parent.iterdir() if p.name != "spec.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("family: nope\n")
    assert main(["fixture", str(bad)]) == 2  # a spec that cannot be read (its content)
