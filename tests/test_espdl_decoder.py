"""binparse's FlatBuffers decoder against the classes flatc generates (docs/espdl-decoder.md): the same
graph, field for field, on every model of ../shared/real/espdl and on every fuzz case (bit flips of
real payloads); where they differ binparse refuses (a BinparseError) what flatc's classes misread or
crash on, never the other way round.

flatc reads a .fbs written from binparse's own table description (model/fbs.py), generated into a temp
dir: esp-dl's espdl.fbs text is not in the repository."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import binparse
from binparse.core.errors import BinparseError
from binparse.formats.espdl.model.graph import Graph
from binparse.formats.espdl.model.weights import layout_name

from .conftest import need, real

KEY = bytes.fromhex("8a7fc961e4e6ff0ad26436952875ae4a")


@pytest.fixture(scope="module")
def flatc(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The generated modules by generation: {"edl2": namespace espdl, "edl1": namespace espdl_edl1}."""
    from binparse.formats.espdl.model.fbs import flatc_classes
    need("flatc", shutil.which("flatc") is not None)  # CI fails without it (tools/install-test-tools.sh)
    out = tmp_path_factory.mktemp("flatc")
    try:
        return {g: importlib.import_module(f"{flatc_classes(out, g).__name__}") for g in ("edl2", "edl1")}
    except BinparseError as exc:
        pytest.skip(exc.message)


def _vec(v: Any) -> tuple[Any, ...]:
    return () if isinstance(v, int) else tuple(v.tolist())


def _s(b: bytes | None) -> str:
    return "" if b is None else b.decode("utf-8")


def flatc_graph(pkg: Any, data: bytes) -> dict[str, Any]:
    """What flatc's classes read of a payload, in the shape `binparse_graph` gives."""
    Model = importlib.import_module(f"{pkg.__name__}.Model").Model
    TTS = importlib.import_module(f"{pkg.__name__}.TensorTypeAndShape").TensorTypeAndShape
    model = Model.GetRootAs(data, 0)
    g = model.Graph()

    def attr(a: Any) -> Any:
        kind = a.AttrType()
        if kind == 1:
            return None if a.F() is None else float(np.float32(a.F().F()))
        if kind == 2:
            return None if a.I() is None else a.I().I()
        if kind == 3:
            return bytes(_vec(a.SAsNumpy())).decode("utf-8", "replace")
        if kind == 6:
            return [float(x) for x in _vec(a.FloatsAsNumpy())]
        if kind == 7:
            return list(_vec(a.IntsAsNumpy()))
        if kind == 8:
            return [_s(a.Strings(i)) for i in range(a.StringsLength())]
        return None

    def tensor(t: Any) -> tuple[Any, ...]:
        return (_s(t.Name()), _vec(t.DimsAsNumpy()), t.DataType(), _vec(t.ExponentsAsNumpy()),
                layout_name(_s(t.DocString()) or None), t.RawDataLength())

    def value(v: Any) -> tuple[Any, ...]:
        dims = None
        ti = v.ValueInfoType()
        if ti is not None and ti.ValueType() == 1 and ti.Value() is not None:
            tt = TTS()
            tt.Init(ti.Value().Bytes, ti.Value().Pos)
            shape = tt.Shape()
            if shape is not None:
                dims = tuple(None if d.Value() is None or d.Value().DimType() == 2 else d.Value().DimValue()
                             for d in (shape.Dim(i) for i in range(shape.DimLength())))
        return _s(v.Name()), dims, _vec(v.ExponentsAsNumpy())

    return {"name": _s(g.Name()), "ir_version": model.IrVersion(),
            "nodes": [(_s(n.Name()), _s(n.OpType()), tuple(_s(n.Input(i)) for i in range(n.InputLength())),
                       tuple(_s(n.Output(i)) for i in range(n.OutputLength())),
                       {_s(n.Attribute(i).Name()): attr(n.Attribute(i)) for i in range(n.AttributeLength())})
                      for n in (g.Node(k) for k in range(g.NodeLength()))],
            "initializers": [tensor(g.Initializer(i)) for i in range(g.InitializerLength())],
            "test_inputs": [tensor(g.TestInputsValue(i)) for i in range(g.TestInputsValueLength())],
            "test_outputs": [tensor(g.TestOutputsValue(i)) for i in range(g.TestOutputsValueLength())],
            "inputs": [value(g.Input(i)) for i in range(g.InputLength())],
            "outputs": [value(g.Output(i)) for i in range(g.OutputLength())],
            "value_info": [value(g.ValueInfo(i)) for i in range(g.ValueInfoLength())]}


def binparse_graph(g: Graph, generation: str) -> dict[str, Any]:
    from binparse.formats.espdl.model.weights import DTYPES
    codes = {v: k for k, v in DTYPES.items()}

    def tensor(t: Any) -> tuple[Any, ...]:
        blocks = t.data_nbytes // 16 if generation == "edl2" and t.data_field == "raw_data" else t.data_nbytes
        code = int(t.dtype.split()[1]) if t.dtype.startswith("code ") else codes[t.dtype]
        return (t.name, t.dims, code, t.exponents, t.layout,
                blocks if t.data_field == "raw_data" else 0)

    return {"name": g.name, "ir_version": g.ir_version,
            "nodes": [(n.name, n.op_type, n.inputs, n.outputs, n.attributes) for n in g.nodes],
            "initializers": [tensor(t) for t in g.initializers], "test_inputs": [tensor(t) for t in g.test_inputs],
            "test_outputs": [tensor(t) for t in g.test_outputs],
            "inputs": [(v.name, v.dims, v.exponents) for v in g.inputs],
            "outputs": [(v.name, v.dims, v.exponents) for v in g.outputs],
            "value_info": [(v.name, v.dims, v.exponents) for v in g.value_info]}


def _payloads() -> list[tuple[str, str, bytes]]:
    out = []
    for p in sorted(real("espdl").rglob("*.espdl")):
        for m in binparse.open(p).with_key(KEY).models:
            out.append((f"{p.parent.name}/{p.name}/{m.name}", m.generation, bytes(m.payload)))
    return out


def test_every_real_model_reads_the_same_as_flatcs_classes(flatc: dict[str, Any]) -> None:
    """Field for field as flatc's classes read it; the one model with int32 values in int64 vectors
    (int32-maxpool-pads) as flatc's classes read it once `repair` wrote those vectors as int64."""
    from binparse.formats.espdl.writers.repair import repaired_payload
    cases = _payloads()
    assert len(cases) == 17  # sixteen files, the PDL1 pack holds two models
    nodes = 0
    for name, generation, data in cases:
        g = Graph.read(data, generation=generation)
        if name == "int32-maxpool-pads/mnist.espdl/":
            assert len(g.narrow) == 56  # 12 dims, 23 exponents, 21 attribute ints (the MaxPool pads among them)
            m = binparse.open(real("espdl/int32-maxpool-pads/mnist.espdl")).models[0]
            fixed = repaired_payload(m)
            assert fixed is not None and binparse_graph(g, generation) == flatc_graph(flatc[generation], fixed)
        else:
            assert g.narrow == [], name
            assert binparse_graph(g, generation) == flatc_graph(flatc[generation], data), name
        nodes += len(g.nodes)
    assert nodes == 498


def _fuzz(data: bytes, seed: int, n: int) -> list[bytes]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        bad = bytearray(data)
        for at in rng.integers(0, len(data), 3):
            bad[at] ^= 1 << int(rng.integers(8))
        out.append(bytes(bad))
    return out


def test_every_fuzz_case_reads_the_same_or_binparse_refuses(flatc: dict[str, Any]) -> None:
    """Bit flips of four real payloads (EDL1 and EDL2): where both read a case, they read the same graph;
    where binparse refuses one, flatc's classes crash on it or read something no model is."""
    cases = {name: (gen, data) for name, gen, data in _payloads()}
    tally = {"same": 0, "binparse refuses": 0, "both refuse": 0, "narrow": 0}
    for k, name in enumerate(["gemm-16x16-relu/esp32s3.espdl/", "edl1-house-price/house_price.espdl/",
                              "info-td3/act_net_QuaidSIM-v4_TD3_+225.827_750000.espdl/",
                              "pdl1-face-detect/human_face_detect.espdl/mnp01.espdl"]):
        gen, data = cases[name]
        for bad in _fuzz(data, k, 150):
            try:
                mine: dict[str, Any] | None = None
                g = Graph.read(bad, generation=gen)
                if g.narrow:  # a bit flip is never taken for esp-ppq's int32 defect (narrow.evident)
                    tally["narrow"] += 1
                    continue
                mine = binparse_graph(g, gen)
            except BinparseError:
                pass
            try:
                theirs: dict[str, Any] | None = flatc_graph(flatc[gen], bad)
            except Exception:  # noqa: BLE001  (flatc's classes check nothing: any error is theirs)
                theirs = None
            if mine is None:
                tally["both refuse" if theirs is None else "binparse refuses"] += 1
                continue
            assert theirs == mine, (name, k)
            tally["same"] += 1
    assert sum(tally.values()) == 600 and tally["same"] > 300 and tally["narrow"] == 0, tally
