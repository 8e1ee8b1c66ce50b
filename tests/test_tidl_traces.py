"""TIDL layer traces: names (both styles, every prefix), folders of traces written from the real 8.2, 9.x and
10.01 nets read against them (checked with TI's own netLog/layer_info printouts), views and TI's float rule."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.core.errors import BinparseError, FormatError
from binparse.formats.tidl.traces.fixtures import trace_name, write_traces
from binparse.formats.tidl.printouts.parse import read_layer_info, read_netlog
from binparse.formats.tidl.traces.names import parse
from binparse.formats.tidl.traces.reference import ReferenceFolder
from binparse.formats.tidl.traces.read import TraceFile, TraceFolder

from .conftest import FIXTURES, real

NETS = {  # the real nets, and a buffer to perturb in the comparison tests
    "8.2": "tidl/j7-08.2/deeplabv3-ade20k/201_tidl_net.bin",
    "9.x-east": "tidl/j7-09.x/east-mobilenet/625_tidl_net.bin",
    "9.x-fcnn": "tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin",
    "10.01": "tidl/j7-10.01/ow-tiny/ow_tiny_net.bin",
}
STYLES = {"current": "tidl_trace_subgraph_0_", "old": "tidl_trace"}
TRACES = FIXTURES / "tidl" / "traces_10_01"
OLD_TRACES = FIXTURES / "tidl" / "traces_10_01_old"
NET_915 = FIXTURES / "tidl" / "net_10_01_traces" / "915_tidl_net.bin"


def fixture_trace(data_id: int, end: str = ".y") -> Path:
    return TRACES / f"tidl_trace_subgraph_0_{data_id:04d}_0001_0001_00001_00003_00005x00004{end}"


# -- names ---------------------------------------------------------------------------------------------
def test_old_name_from_the_issue() -> None:
    t = parse("tidl_trace0072_00001_00256_00010x00014.y")
    assert t is not None
    assert (t.prefix, t.data_id, t.shape, t.is_float, t.style) == ("tidl_trace", 72, (1, 1, 1, 256, 14, 10), False, "old")


@pytest.mark.parametrize("name, prefix, data_id, shape, is_float, subgraph, core", [
    ("tidl_trace0005_0002_0003_00004_00016_00032x00008.y", "tidl_trace", 5, (2, 3, 4, 16, 8, 32), False, None, None),
    ("tidl_trace_subgraph_0_0123_0001_0001_00001_00064_00100x00032_float.bin", "tidl_trace_subgraph_0_", 123,
     (1, 1, 1, 64, 32, 100), True, 0, None),
    ("C7x_2_tidl_trace_subgraph_11_12345_0001_0001_00001_00003_00005x00004.y", "C7x_2_tidl_trace_subgraph_11_", 12345,
     (1, 1, 1, 3, 4, 5), False, 11, 2),
    ("tidl_trace_subgraph_3_0007_00001_00256_00010x00014_float.bin", "tidl_trace_subgraph_3_", 7,
     (1, 1, 1, 256, 14, 10), True, 3, None),
])
def test_names(name: str, prefix: str, data_id: int, shape: tuple[int, ...], is_float: bool,
               subgraph: int | None, core: int | None) -> None:
    t = parse(name)
    assert t is not None
    assert (t.prefix, t.data_id, t.shape, t.is_float, t.subgraph, t.core) == (prefix, data_id, shape, is_float,
                                                                              subgraph, core)


@pytest.mark.parametrize("name", ["tidl_net.bin", "tidl_trace0072_00001_00256_00010x00014.txt", "a_float.bin",
                                  "tidl_trace72_1_256_10x14.y", "tidl_trace0072_00001_00256_00010.y"])
def test_not_trace_names(name: str) -> None:
    assert parse(name) is None


def test_writer_names_parse_back() -> None:
    for style, prefix in STYLES.items():
        name = trace_name(prefix, 42, (1, 1, 1, 7, 9, 11), is_float=True, style=style)
        t = parse(name)
        assert t is not None and (t.prefix, t.data_id, t.shape, t.is_float, t.style) == (
            prefix, 42, (1, 1, 1, 7, 9, 11), True, style)
    with pytest.raises(FormatError, match="no D1/D2"):
        trace_name("tidl_trace", 1, (1, 2, 1, 3, 4, 5), is_float=False, style="old")


# -- folders written from the real nets ----------------------------------------------------------------
@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    """A clean run of each real net in each naming style (.y for fixed-point buffers)."""
    out = {}
    for key, rel in NETS.items():
        net = real(rel)
        for style, prefix in STYLES.items():
            d = tmp_path_factory.mktemp(f"{key}-{style}")
            write_traces(net, d, style=style, prefix=prefix, seed=7)
            out[key, style] = d
    return out


def _printouts(rel: str) -> dict[int, tuple[int, str, str, tuple[int, ...]]]:
    """traced dataId → (layer, name) from TI's layer_info (the net's final layer order) and (type, out NCHW)
    from TI's netLog (printed before TI's last reordering of the layers: matched by the buffer written)."""
    net = real(rel)
    log = {r.out_id: (r.layer_type, r.out_nchw) for r in read_netlog(f"{net}_netLog.txt") if r.num_out > 0}
    info: dict[int, tuple[int, str]] = {}
    for r in read_layer_info(f"{net}.layer_info.txt"):
        info.setdefault(r.data_id, (r.index, r.name))  # the output data layer repeats dataId 0: it writes nothing
    assert set(log) <= set(info)
    return {did: (info[did][0], info[did][1], *log[did]) for did in log}


@pytest.mark.parametrize("key", ["8.2", "9.x-east", "9.x-fcnn"])
@pytest.mark.parametrize("style", STYLES)
def test_traces_match_ti_printouts(runs: dict[tuple[str, str], Path], key: str, style: str) -> None:
    """Every trace listed with its layer, type, dims and name as TI's own netLog and layer_info print them."""
    folder = binparse.open(runs[key, style])
    assert isinstance(folder, TraceFolder)
    listed = folder.described_by(binparse.open(real(NETS[key]))).summary()
    assert listed["family"] == "tidl" and listed["kind"] == "traces"
    oracle = _printouts(NETS[key])
    entries = listed["traces"]
    assert sorted(e["data_id"] for e in entries) == sorted(oracle)
    for e in entries:
        layer, name, layer_type, (n, c, h, w) = oracle[e["data_id"]]
        assert (e["layer"], e["name"], e["layer_type"], e["shape"]) == (layer, name, layer_type, [n, 1, 1, c, h, w])
        assert e["file"].startswith(STYLES[style]) and e["float"] == (e["dtype"] == "float32")


def test_deeplab_82_types_and_scales(runs: dict[tuple[str, str], Path]) -> None:
    """8.2 data params have no zero point (0); element types and scales as the net stores them."""
    listed = {e["data_id"]: e for e in binparse.open(runs["8.2", "old"]).described_by(
        binparse.open(real(NETS["8.2"]))).summary()["traces"]}
    assert len(listed) == 81
    assert [(listed[i]["dtype"], listed[i]["scale"], listed[i]["zero_point"]) for i in (0, 2, 4, 7, 11)] == [
        ("uint8", 1.0, 0), ("uint8", 42.66666793823242, 0), ("int8", 2.0, 0), ("int8", 4.0, 0), ("int8", 2.0, 0)]
    assert listed[4]["file"] == "tidl_trace0004_00001_00016_00256x00256.y"


def test_ow_tiny_1001(runs: dict[tuple[str, str], Path]) -> None:
    """10.01 (no printouts published): the input data layer and the convolution, as the net stores them."""
    listed = binparse.open(runs["10.01", "current"]).described_by(binparse.open(real(NETS["10.01"]))).summary()
    assert listed["traces"] == [
        {"file": "tidl_trace_subgraph_0_0000_0001_0001_00001_00016_00001x00001.y", "data_id": 0,
         "shape": [1, 1, 1, 16, 1, 1], "dtype": "int8", "float": False, "layer": 0, "layer_type": "TIDL_DataLayer",
         "name": None, "scale": 128.0, "zero_point": 0},
        {"file": "tidl_trace_subgraph_0_0001_0001_0001_00001_00008_00001x00001.y", "data_id": 1,
         "shape": [1, 1, 1, 8, 1, 1], "dtype": "uint8", "float": False, "layer": 1,
         "layer_type": "TIDL_ConvolutionLayer", "name": None, "scale": 334.2486267089844, "zero_point": 0}]


def test_without_a_net_the_names_only(runs: dict[tuple[str, str], Path]) -> None:
    entries = binparse.open(runs["9.x-east", "current"]).summary()["traces"]
    assert [(e["data_id"], e["shape"], e["dtype"], e["float"], e["layer"]) for e in entries] == [
        (0, [1, 1, 1, 4, 176, 320], "float32", True, None), (1, [1, 1, 1, 1, 176, 320], "float32", True, None),
        (2, [1, 1, 1, 4, 176, 320], None, False, None), (3, [1, 1, 1, 1, 176, 320], None, False, None),
        (4, [1, 1, 1, 5, 176, 320], None, False, None), (5, [1, 1, 1, 5, 176, 320], "float32", True, None)]


@pytest.mark.parametrize("key", list(NETS))
def test_dequantize_is_ti_float_rule(runs: dict[tuple[str, str], Path], key: str, tmp_path: Path) -> None:
    """`view --dequantize` of every .y equals TIDL's float trace of the same run (mode float, same seed)."""
    net = binparse.open(real(NETS[key]))
    a = binparse.open(runs[key, "current"]).described_by(net)
    ys = [f for f in a.files if not f.trace.is_float][:12]  # 8.2: the first 12 (each file is up to 6 MB)
    write_traces(net, tmp_path, style="old", mode="float", seed=7, data_ids={f.trace.data_id for f in ys})
    floats = {t.data_id: t for t in map(parse, tmp_path.iterdir()) if t is not None}
    assert ys and all(floats[f.trace.data_id].is_float for f in ys)
    for f in ys:
        got, what = f.tensor_array(dequantize=True)
        ti = np.fromfile(floats[f.trace.data_id].file, dtype="<f4").reshape(f.trace.shape)
        assert got.dtype == np.float32 and got.shape == f.trace.shape and "dequantized" in what
        np.testing.assert_array_equal(got, ti)


def test_dequantize_with_zero_points() -> None:
    """(q - zeroPoint) / scale with the fixture net's asymmetric buffers (int8 -3 / 32, uint8 7 / 16)."""
    folder = binparse.open(TRACES).described_by(binparse.open(NET_915))
    by_name = {f.trace.file.name: f for f in folder.files}
    for did, zp, scale, dtype in ((1, -3, 32.0, np.int8), (2, 7, 16.0, np.uint8), (3, 0, 512.0, np.int16)):
        f = next(f for f in folder.files if f.trace.data_id == did and not f.trace.is_float)
        q = np.fromfile(f.trace.file, dtype=dtype)
        got, _ = f.tensor_array(dequantize=True)
        assert got.reshape(-1)[:4].tolist() == [(int(v) - zp) / scale for v in q[:4]]
        flt = by_name[f.trace.file.name[:-2] + "_float.bin"]
        np.testing.assert_array_equal(got, flt.tensor_array()[0])


def test_view_is_a_read_only_map() -> None:
    f = binparse.open(fixture_trace(2)).described_by(binparse.open(NET_915))
    assert isinstance(f, TraceFile)
    arr, what = f.tensor_array()
    raw = np.fromfile(f.trace.file, dtype=np.uint8)
    assert isinstance(arr, np.memmap) and not arr.flags.writeable and not arr.flags.owndata
    assert arr.shape == (1, 1, 1, 3, 4, 5) and arr.dtype == np.uint8 and "as stored" in what
    assert arr.reshape(-1).tolist() == raw.tolist()
    assert f.tensor_array(stored=True)[0].tolist() == arr.tolist()  # dense: stored = logical


def test_folder_tensor_by_name_or_data_id() -> None:
    folder = binparse.open(TRACES).described_by(binparse.open(NET_915))
    name = "tidl_trace_subgraph_0_0003_0001_0001_00001_00003_00005x00004.y"
    arr, _ = folder.tensor_array(name)
    assert arr.dtype == np.int16 and arr.reshape(-1)[:3].tolist() == np.fromfile(TRACES / name, "<i2")[:3].tolist()
    assert folder.tensor_array("4")[0].dtype == np.float32  # dataId 4: its one (float) trace
    with pytest.raises(BinparseError, match="several traces match"):
        folder.tensor_array("2")  # a .y and a _float.bin


# -- bad input -------------------------------------------------------------------------------------------
def test_y_without_net_cannot_be_read() -> None:
    f = binparse.open(fixture_trace(1))
    assert f.entry()["dtype"] is None
    for dequantize in (False, True):
        with pytest.raises(BinparseError, match="without its net has no known element type.*1 byte"):
            f.tensor_array(dequantize=dequantize)


def test_truncated_trace(tmp_path: Path) -> None:
    src = fixture_trace(3)
    (tmp_path / src.name).write_bytes(src.read_bytes()[:-1])
    f = binparse.open(tmp_path / src.name).described_by(binparse.open(NET_915))
    with pytest.raises(FormatError, match=r"does not match its name's dims; expected 60 elements x 2 B = 120 bytes"):
        f.tensor_array()
    assert src.stat().st_size == 120


def test_trace_of_another_net(tmp_path: Path) -> None:
    p = tmp_path / "tidl_trace0009_00001_00003_00005x00004.y"
    p.write_bytes(bytes(60))
    with pytest.raises(FormatError, match="writes no buffer of this trace's dataId; found 9"):
        binparse.open(p).described_by(binparse.open(NET_915))


def test_tda2_net_is_refused() -> None:
    with pytest.raises(FormatError, match="read with a J7 TIDL net"):
        binparse.open(TRACES).described_by(binparse.open(real("tidl/am57x/tidl_net_mnist_lenet.bin")))


def test_several_prefixes_are_said(tmp_path: Path) -> None:
    for p in TRACES.glob("*.y"):
        (tmp_path / p.name).write_bytes(p.read_bytes())
        (tmp_path / ("C7x_2_" + p.name)).write_bytes(p.read_bytes())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        folder = binparse.open(tmp_path).described_by(binparse.open(NET_915))
    assert len(folder.files) == 6 and "2 prefixes" in str(caught[0].message)
    with pytest.raises(FormatError, match="different prefixes"):
        folder.by_data_id()


def test_open_finds_folders_and_files(tmp_path: Path) -> None:
    assert isinstance(binparse.open(TRACES), TraceFolder)
    assert isinstance(binparse.open(fixture_trace(0, "_float.bin")), TraceFile)
    np.save(tmp_path / "x.npy", np.zeros(3, np.float32))
    assert isinstance(binparse.open(tmp_path), ReferenceFolder)


# -- hostile input and the doctor -------------------------------------------------------------------------
@pytest.mark.parametrize("cut", [0, 1, 59, 119, 121, 240])
def test_hostile_sizes(tmp_path: Path, cut: int) -> None:
    """A trace of any size, under its own name: read, or a BinparseError naming the file; the input unchanged."""
    src = fixture_trace(3)
    data = (src.read_bytes() * 2)[:cut]
    p = tmp_path / src.name
    p.write_bytes(data)
    net = binparse.open(NET_915)
    for obj in (binparse.open(p), binparse.open(p).described_by(net), binparse.open(tmp_path).described_by(net)):
        obj.summary()
        with pytest.raises(BinparseError, match=str(p.name)):
            obj.tensor_array(None if isinstance(obj, TraceFile) else p.name, dequantize=True)
    assert p.read_bytes() == data


def test_doctor_checks_trace_sizes_and_data_ids(tmp_path: Path) -> None:
    from binparse.cli.doctor import doctor
    for p in TRACES.glob("*.y"):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    (tmp_path / NET_915.name).write_bytes(NET_915.read_bytes())
    ok = [f for f in doctor(tmp_path)["findings"] if "layer trace" in f["text"]]
    assert [(f["level"], f["text"]) for f in ok] == [
        ("ok", "3 layer trace(s): sizes agree with the dims their names give and the element types 915_tidl_net.bin gives")]
    (tmp_path / "tidl_trace0003_00001_00003_00005x00004.y").write_bytes(bytes(60))  # int16: 120 bytes
    (tmp_path / "tidl_trace0009_00001_00003_00005x00004.y").write_bytes(bytes(60))
    texts = [(f["level"], f["text"]) for f in doctor(tmp_path)["findings"] if f["level"] == "problem"]
    assert texts == [("problem", "tidl_trace0003_00001_00003_00005x00004.y: 60 bytes, but its name's dims 1x1x1x3x4x5 "
                                 "make 120"),
                     ("problem", "1 trace(s) of dataIds no layer of 915_tidl_net.bin writes: "
                                 "tidl_trace0009_00001_00003_00005x00004.y")]


def test_a_folder_with_arrays_and_other_files_is_not_a_reference_folder(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.zeros(3, np.float32))
    (tmp_path / "notes.txt").write_text("ONNX Runtime outputs")
    assert isinstance(binparse.open(tmp_path), ReferenceFolder)
    (tmp_path / "model.onnx").write_bytes(b"\x08\x07")
    with pytest.raises(BinparseError, match="is a directory"):
        binparse.open(tmp_path)


def test_plugin_signs_name_every_trace() -> None:
    """The plug-in declaration (which may not import the reader) names traces as the reader does."""
    from fnmatch import fnmatch

    from binparse.formats.tidl.plugin import FAMILY
    from binparse.formats.tidl.traces.names import NAME_PATTERNS
    patterns = next(s.names for s in FAMILY.signs if s.kind == "layer trace")
    assert patterns == NAME_PATTERNS
    for p in [*TRACES.iterdir(), *(FIXTURES / "tidl" / "traces_10_01_old").iterdir()]:
        assert any(fnmatch(p.name, pat) for pat in patterns) == (parse(p) is not None), p.name


def test_report_says_what_does_not_fit(tmp_path: Path) -> None:
    (tmp_path / "tidl_trace0003_00001_00003_00005x00004.y").write_bytes(bytes(60))
    (tmp_path / "tidl_trace0002_00001_00003_00005x00004.y").write_bytes(bytes(60))
    text = binparse.open(tmp_path).described_by(binparse.open(NET_915)).report().splitlines()
    assert text[1] == "SIZE DOES NOT MATCH the dims in the name (1): tidl_trace0003_00001_00003_00005x00004.y"
    assert "SIZE" not in binparse.open(tmp_path).report()  # without the net, 1 byte per element may be right


def test_dims_that_differ_from_the_net(tmp_path: Path) -> None:
    """H and W swapped in a name (the names give W before H): the sizes agree, the net's dims do not."""
    from binparse.cli.doctor import doctor
    src = fixture_trace(3)
    (tmp_path / "tidl_trace0003_00001_00003_00004x00005.y").write_bytes(src.read_bytes())
    (tmp_path / NET_915.name).write_bytes(NET_915.read_bytes())
    text = binparse.open(tmp_path).described_by(binparse.open(NET_915)).report().splitlines()
    assert text[1] == "DIMS DIFFER from the net's (1): tidl_trace0003_00001_00003_00004x00005.y (net: 1x1x1x3x4x5)"
    problems = [f["text"] for f in doctor(tmp_path)["findings"] if f["level"] == "problem"]
    assert problems == ["tidl_trace0003_00001_00003_00004x00005.y: dims 1x1x1x3x5x4 in the name, 1x1x1x3x4x5 in "
                        "915_tidl_net.bin (dataId 3, layer 3)"]


def test_one_trace_against_its_float_trace() -> None:
    y = binparse.open(fixture_trace(2)).described_by(binparse.open(NET_915))
    doc = y.compare(binparse.open(fixture_trace(2, "_float.bin"))).summary()
    assert doc["layers"] == [{"data_id": 2, "layer": 2, "layer_type": "TIDL_PoolingLayer", "shape": [1, 1, 1, 3, 4, 5],
                              "snr_db": None, "max_abs_diff": 0.0, "mean_abs_diff": 0.0}]
    assert doc["first_divergence"] is None


def test_names_from_a_layer_info_in_tempdir(tmp_path: Path) -> None:
    """OSRT compiles leave TI's printouts in tempDir/ beside the net: the names are found there too."""
    net = real(NETS["9.x-fcnn"])
    (tmp_path / "tempDir").mkdir()
    (tmp_path / net.name).write_bytes(net.read_bytes())
    (tmp_path / "tempDir" / f"{net.name}.layer_info.txt").write_bytes(Path(f"{net}.layer_info.txt").read_bytes())
    runs = tmp_path / "run"
    write_traces(net, runs, data_ids={2})
    entry = binparse.open(runs).described_by(binparse.open(tmp_path / net.name)).summary()["traces"][0]
    assert (entry["data_id"], entry["name"]) == (2, "/cnn/cnn.0/relu/Relu_output_0")


def test_protocols() -> None:
    from binparse.family import Artifact, Comparable, Described, TensorSource
    folder, one = binparse.open(TRACES), binparse.open(fixture_trace(1))
    for obj in (folder, one):
        assert all(isinstance(obj, p) for p in (Artifact, Comparable, Described, TensorSource))
    assert isinstance(folder.compare(binparse.open(OLD_TRACES).described_by(binparse.open(NET_915))), Artifact)
