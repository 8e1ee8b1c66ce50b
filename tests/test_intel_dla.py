"""FPGA AI Suite: the real 2025.1 reports, the manual's mapping example, fixtures in both dialects,
buffers both ways, hostile CSVs, CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

import binparse
from binparse import FormatError, LayoutError
from binparse.cli import main
from binparse.formats.intel_dla.fixtures import configurations, write_compile
from binparse.formats.intel_dla import (CompileFolder, DumpTable, InputConfiguration, MappingTable,
                                        OutputConfiguration, find_roles, read_table)

from .conftest import FIXTURES, REPO, real

COMPILE = "intel_dla/2025.1-resnet50-tf"
GRAPH = "TensorFlow_Frontend_IR_0"

# The IP Reference Manual's mapping example (1x3x1x2x2 input, CVEC = 2), written out from its table:
# logical offset, C, D, H, W -> IP offset, "Transformed Channel (C)", D, H, W, "Transformed C-vector (Cvec)".
MANUAL_EXAMPLE = """Logical Tensor Offset,Input Channel (C),Input Depth (D),Input Height (H),Input Width (W),→,Input Tensor Offset,Transformed Channel (C),Transformed Depth (D),Transformed Height (H),Transformed Width (W),Transformed C-vector (Cvec)
0,0,0,0,0,→,0,0,0,0,0,0
1,0,0,0,1,→,2,0,0,0,1,0
2,0,0,1,0,→,4,0,0,1,0,0
3,0,0,1,1,→,6,0,0,1,1,0
4,1,0,0,0,→,1,1,0,0,0,0
5,1,0,0,1,→,3,1,0,0,1,0
6,1,0,1,0,→,5,1,0,1,0,0
7,1,0,1,1,→,7,1,0,1,1,0
8,2,0,0,0,→,8,0,0,0,0,1
9,2,0,0,1,→,10,0,0,0,1,1
10,2,0,1,0,→,12,0,0,1,0,1
11,2,0,1,1,→,14,0,0,1,1,1
"""


def test_real_2025_1_reports() -> None:
    out_map = read_table(real(f"{COMPILE}/output_transform_mapping_{GRAPH}.csv"))
    assert isinstance(out_map, MappingTable) and out_map.dialect.name == "v2025_1" and len(out_map) == 1001
    assert out_map.columns["ip_offset"][[0, 32, 996]].tolist() == [0, 32, 996]
    assert out_map.columns["ip_c"][[32, 996]].tolist() == [1, 31] and out_map.columns["ip_cvec"][996] == 4
    roles = find_roles(out_map.columns)
    assert (roles.lane, roles.group, roles.vector) == ("ip_cvec", "ip_c", 32)  # the reverse of the manual
    out_dump = read_table(real(f"{COMPILE}/output_transform_dump_{GRAPH}.csv"))
    assert isinstance(out_dump, DumpTable) and out_dump.rows == [{
        "name": "output 0 tensor 0", "batch": 1, "channels": 1024, "height": 1, "width": 1, "depth": 1,
        "offset_batch": 0, "offset_channel": 0, "offset_height": 0, "offset_width": 0, "offset_depth": 0}]
    in_dump = read_table(real(f"{COMPILE}/input_transform_dump_{GRAPH}.csv"))
    assert isinstance(in_dump, DumpTable)
    row = in_dump.rows[0]
    assert (row["channels"], row["height"], row["stride_h"], row["pad_top"], row["pad_bottom"], row["out_channels"],
            row["out_height"]) == (3, 224, 2, 3, 2, 32, 115)


def test_real_output_configuration_equals_the_layout_rule() -> None:
    folder = CompileFolder(real(COMPILE))
    cfg = folder.output_configuration()
    assert cfg.logical_shape == (1, 1001, 1, 1, 1) and cfg.vector_width == 32
    assert (cfg.ip_size, cfg.padding) == (1024, 23)
    derived = OutputConfiguration.from_layout((1, 1001, 1, 1, 1), 32)
    assert np.array_equal(derived.ip_offsets, cfg.ip_offsets)
    assert np.array_equal(derived.logical_offsets, cfg.logical_offsets)
    scores = np.linspace(-1, 1, 1001, dtype=np.float32).reshape(1, 1001, 1, 1, 1)
    buf = cfg.to_ip(scores)
    assert len(buf) == 2048 and bytes(buf)[2002:] == bytes(46)  # 23 padding lanes, zero
    back = cfg.to_logical(buf)
    assert back.dtype == np.float32 and np.array_equal(back, scores.astype(np.float16).astype(np.float32))
    v = cfg.ip_view(buf)
    assert v.shape == (1, 32, 1, 1, 1, 32) and np.shares_memory(v, np.frombuffer(buf, np.uint8))
    assert v[0, 31, 0, 0, 0, 8] == np.float16(scores.reshape(-1)[1000])


def test_real_input_folding() -> None:
    inp = CompileFolder(real(COMPILE)).input_configuration()
    assert inp.cvec == 32 and inp.ip_size == 32 * 115 * 115 and inp.logical_shape == (1, 3, 1, 224, 224)
    x = np.zeros((1, 3, 224, 224), np.float32)
    x[0, 1, 0, 0] = 5.0
    ip = np.frombuffer(inp.to_ip(x), "<f2")
    # c=1, h=0, w=0, stride 2, pads top 3 / left 3: out_d = 1*4 + (3 % 2)*2 + 3 % 2 = 7,
    # out_h = out_w = 3 // 2 = 1 -> (7 // 32)*115*115*32 + 1*115*32 + 1*32 + 7 % 32 = 3719
    assert np.flatnonzero(ip).tolist() == [3719] and ip[3719] == 5.0
    buf = inp.to_ip(x)
    v = inp.ip_view(buf)
    assert v.shape == (1, 1, 1, 115, 115, 32) and v[0, 0, 0, 1, 1, 7] == 5.0
    assert np.shares_memory(v, np.frombuffer(buf, np.uint8))


def test_the_manuals_example(tmp_path: Path) -> None:
    p = tmp_path / "input_transform_mapping_example.csv"
    p.write_text(MANUAL_EXAMPLE, encoding="utf-8")
    t = read_table(p)
    assert isinstance(t, MappingTable) and t.dialect.name == "manual_2023"
    roles = find_roles(t.columns)
    assert (roles.lane, roles.group, roles.vector) == ("ip_c", "ip_cvec", 2)
    derived = InputConfiguration.from_params((1, 3, 1, 2, 2), 2)
    assert derived.ip_offsets.tolist() == [0, 2, 4, 6, 1, 3, 5, 7, 8, 10, 12, 14] == t.columns["ip_offset"].tolist()
    assert t.summary()["roles"] == {"lane": "Transformed Channel (C)", "group": "Transformed C-vector (Cvec)",
                                    "vector_width": 2}


@pytest.mark.parametrize("name", ["testnet_2025", "testnet_manual"])
def test_fixture_compiles_round_trip(name: str, tmp_path: Path) -> None:
    spec = FIXTURES / "intel_dla" / name / "spec.yaml"
    copy = tmp_path / "spec.yaml"
    copy.write_text(spec.read_text())
    for f in write_compile(copy):
        assert f.read_bytes() == (spec.parent / f.name).read_bytes(), f"{f.name} is stale"
    doc = yaml.safe_load(spec.read_text())
    want_in, want_out = configurations(doc)
    folder = binparse.open(spec.parent)
    assert isinstance(folder, CompileFolder)
    assert {t.dialect.name for t in folder.tables.values()} == {doc["dialect"]}
    out = folder.output_configuration()
    assert np.array_equal(np.sort(out.ip_offsets), np.sort(want_out.ip_offsets))
    assert out.vector_width == doc["output"]["kvec"] and out.logical_shape == tuple(doc["output"]["logical_shape"])
    inp = folder.input_configuration()  # checked against the input mapping inside
    assert np.array_equal(inp.ip_offsets, want_in.ip_offsets) and inp.cvec == doc["input"]["cvec"]
    rng = np.random.default_rng(7)
    y = rng.standard_normal(out.logical_shape).astype(np.float16).astype(np.float32)
    assert np.array_equal(out.to_logical(out.to_ip(y)), y)
    x = rng.standard_normal(inp.logical_shape).astype(np.float16).astype(np.float32)
    assert np.array_equal(inp.to_logical(inp.to_ip(x)), x)


def test_slices_put_padding_inside_the_tensor() -> None:
    out = CompileFolder(FIXTURES / "intel_dla" / "testnet_2025").output_configuration()
    assert [(s.channels, s.offset_channel) for s in out.slices] == [(32, 0), (16, 24)]
    y = np.arange(40 * 6, dtype=np.float32).reshape(1, 40, 1, 2, 3)
    ip = np.frombuffer(out.to_ip(y), "<f2")
    # slice 0: channels 0..23 in 2 groups of 16 (lanes 8..15 of group 1 are padding); slice 1 starts at 32*6
    assert ip[(1 * 6 + 0) * 16 + 7] == y[0, 23, 0, 0, 0] and ip[(1 * 6 + 0) * 16 + 8] == 0
    assert ip[32 * 6 + 0] == y[0, 24, 0, 0, 0]
    with pytest.raises(LayoutError, match="sliced output"):
        out.ip_view(bytes(out.ip_size * 2))


def test_save_and_load(tmp_path: Path) -> None:
    cfg = CompileFolder(FIXTURES / "intel_dla" / "testnet_2025").output_configuration()
    p = cfg.save(tmp_path / "cfg")
    doc = json.loads(p.read_text())
    assert doc["note"].startswith("binparse's model") and doc["vector_width"] == 16
    again = OutputConfiguration.load(p)
    assert np.array_equal(again.ip_offsets, cfg.ip_offsets) and again.slices == cfg.slices
    with pytest.raises(FormatError, match="not a saved output configuration"):
        (tmp_path / "x.json").write_text('{"format": "other"}')
        OutputConfiguration.load(tmp_path / "x.json")


def test_bad_csvs(tmp_path: Path) -> None:
    good = (FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_mapping_TestNet_0.csv").read_text()
    lines = good.splitlines()
    p = tmp_path / "output_transform_mapping_bad.csv"
    p.write_text("\n".join([lines[0].replace(";output depth (d)", "")] + lines[1:]) + "\n")
    with pytest.raises(FormatError) as e:
        read_table(p)
    assert "unknown CSV header" in str(e.value) and "11 columns" in str(e.value) and "output depth (d)" in str(e.value)
    bad = list(lines)
    bad[5] = bad[5].replace(";->;", ";->;x", 1)
    p.write_text("\n".join(bad) + "\n")
    with pytest.raises(FormatError) as e:
        read_table(p)
    assert e.value.path == "row 6, column 'logical output tensor offset'" and "cell is not an integer" in str(e.value)
    bad = list(lines)
    cells = bad[3].split(";")
    cells[0] = "999999"
    bad[3] = ";".join(cells)
    p.write_text("\n".join(bad) + "\n")
    dump = read_table(FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_dump_TestNet_0.csv")
    with pytest.raises(FormatError) as e:
        OutputConfiguration.from_csvs(dump, read_table(p))  # type: ignore[arg-type]
    assert "row 4" in str(e.value)
    dup = list(lines)
    dup[4] = dup[3].split(";->;")[0] + ";->;" + dup[2].split(";->;")[1]  # row 5 writes row 3's logical element
    p.write_text("\n".join(dup) + "\n")
    t = read_table(p)
    with pytest.raises(FormatError) as e:
        OutputConfiguration.from_csvs(dump, t)  # type: ignore[arg-type]
    assert "row" in (e.value.path or "") and ("same logical element" in str(e.value) or "no lane/group" in str(e.value))
    short = tmp_path / "output_transform_mapping_short.csv"
    short.write_text(lines[0] + "\n1;2;3\n")
    with pytest.raises(FormatError, match="wrong number of cells") as e:
        read_table(short)
    assert e.value.path == "row 2"


@pytest.mark.parametrize("newline", ["\n", ""])
def test_mapping_surplus_cell_is_not_ignored(tmp_path: Path, newline: str) -> None:
    # numpy is told how many numbers to read; a surplus cell on the last row (with or without a final
    # line end), or one row long and another short, must still be found and named
    lines = (FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_mapping_TestNet_0.csv").read_text().splitlines()
    p = tmp_path / "output_transform_mapping_x.csv"
    p.write_text("\n".join([*lines[:-1], lines[-1] + ";7"]) + newline)
    with pytest.raises(FormatError, match="wrong number of cells") as e:
        read_table(p)
    assert e.value.path == f"row {len(lines)}"
    swapped = list(lines)
    swapped[2] += ";7"
    swapped[3] = swapped[3].rsplit(";", 1)[0]
    p.write_text("\n".join(swapped) + newline)
    with pytest.raises(FormatError, match="wrong number of cells") as e:
        read_table(p)
    assert e.value.path == "row 3"


def test_buffer_too_short() -> None:
    cfg = CompileFolder(FIXTURES / "intel_dla" / "testnet_manual").output_configuration()
    with pytest.raises(LayoutError, match="outside the buffer"):
        cfg.to_logical(bytes(cfg.ip_size * 2 - 2))


def test_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(real(f"{COMPILE}/output_transform_mapping_{GRAPH}.csv"))]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["family"], doc["kind"], doc["dialect"], doc["rows"]) == ("intel_dla", "output_transform_mapping", "v2025_1", 1001)
    assert doc["logical_dims"] == [1001, 1, 1, 1] and doc["ip_dims"] == [1024, 1, 1, 1] and doc["padding"] == 23
    assert main(["inspect", "--json", str(real(COMPILE))]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["kind"] == "compile_folder" and doc["output"]["logical_shape"] == [1, 1001, 1, 1, 1]
    assert doc["other_files"] == []  # the layer placement table is read: doc["placement"]
    assert doc["placement"]["file"] == "TensorFlow_Frontend_IR_dla_layer_device.csv"
    cfg = CompileFolder(real(COMPILE)).output_configuration()
    buf = tmp_path / "out.bin"
    buf.write_bytes(bytes(cfg.to_ip(np.arange(1001, dtype=np.float32).reshape(1, 1001, 1, 1, 1))))
    npy = tmp_path / "out.npy"
    r = subprocess.run([sys.executable, "-m", "binparse.cli", "view", "--intel-dla", str(real(COMPILE)), str(buf),
                        "--npy", str(npy)], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    got = np.load(npy)
    assert got.shape == (1, 1001, 1, 1, 1) and got[0, 1000, 0, 0, 0] == 1000.0
    x = np.zeros((1, 3, 224, 224), np.float32)
    x[0, 1, 0, 0] = 5.0
    np.save(tmp_path / "in.npy", x)
    assert main(["pack", "--intel-dla", str(real(COMPILE)), str(tmp_path / "in.npy"), "--out", str(tmp_path / "in.bin")]) == 0
    ip = np.frombuffer((tmp_path / "in.bin").read_bytes(), "<f2")
    assert ip.size == 32 * 115 * 115 and np.flatnonzero(ip).tolist() == [3719]


def test_multiple_inputs_are_stored_input_after_input(tmp_path: Path) -> None:
    from binparse.formats.intel_dla import offsets_of, pack_inputs, write_dump
    rows = [{"name": "a", "channels": 3, "height": 2, "width": 2, "depth": 1, "stride_h": 1, "stride_w": 1,
             "stride_d": 1, "out_channels": 4, "out_height": 2, "out_width": 2, "out_depth": 1},
            {"name": "b", "channels": 5, "height": 1, "width": 3, "depth": 1, "stride_h": 1, "stride_w": 1,
             "stride_d": 1, "out_channels": 8, "out_height": 1, "out_width": 3, "out_depth": 1}]
    write_dump(tmp_path / "input_transform_dump_g.csv", "input_transform_dump", "v2025_1", rows)
    cfgs = CompileFolder(tmp_path).input_configurations(cvec=4)
    assert [c.ip_size for c in cfgs] == [4 * 2 * 2, 8 * 1 * 3] and offsets_of(cfgs) == [0, 32]
    a = np.arange(12, dtype=np.float32).reshape(1, 3, 2, 2)
    b = np.full((1, 5, 1, 3), 7, np.float32)
    buf = np.frombuffer(pack_inputs(cfgs, [a, b]), "<f2")
    assert buf.size == 16 + 24 and buf[:16].reshape(2, 2, 4)[1, 0, 2] == a[0, 2, 1, 0] and buf[16 + 4] == 7


def test_mapping_refuses_what_the_compiler_never_writes(tmp_path: Path) -> None:
    # Arrow's integer cells would take hex and (signed) signs; the reader refuses them and the
    # careful path says where. Blanks and CRLF line ends are read as int() and csv read them.
    lines = (FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_mapping_TestNet_0.csv").read_text().splitlines()
    p = tmp_path / "output_transform_mapping_x.csv"

    def write_row3(cell0: str, newline: str = "\n", tail: str = "") -> None:
        rows = list(lines)
        rows[2] = cell0 + rows[2][rows[2].index(";"):]
        p.write_bytes(newline.join(rows).encode() + newline.encode() + tail.encode())

    def with_row3(cell0: str) -> FormatError:
        write_row3(cell0)
        with pytest.raises(FormatError) as e:
            read_table(p)
        return e.value

    e = with_row3("0x20")
    assert e.path == "row 3, column 'ai suite output tensor offset'" and e.found == "0x20"
    assert "cell is not an integer" in str(e)
    e = with_row3("+32")
    assert e.path == "row 3, column 'ai suite output tensor offset'" and e.found == "+32"
    e = with_row3("-32")
    assert e.path == "row 3, column 'ai suite output tensor offset'" and e.found == "-32"
    assert "negative offset or index" in str(e) and e.expected == ">= 0"
    e = with_row3("9223372036854775808")  # 2**63: fits Arrow's uint64, not an int64 offset
    assert e.path == "row 3, column 'ai suite output tensor offset'" and "too large" in str(e)
    for big in ("4294967296", "9223372036854775807"):  # past uint32 (Arrow's first parse), up to int64's end
        write_row3(big)
        assert read_table(p).columns["ip_offset"][1] == int(big)  # type: ignore[union-attr]
    write_row3("32")
    plain = read_table(p).columns  # type: ignore[union-attr]
    assert plain["ip_offset"][1] == 32 and plain["ip_offset"].dtype == np.int64
    assert not plain["ip_offset"].flags.writeable  # the table read from the file is read-only
    for cell, newline, tail in ((" 32 ", "\n", ""), ("32", "\r\n", "\r\n\r\n")):
        write_row3(cell, newline, tail)
        got = read_table(p).columns  # type: ignore[union-attr]
        assert all(np.array_equal(got[k], plain[k]) for k in plain)
    rows = list(lines)
    rows[4] = rows[4].replace(";->;", ";7;", 1)  # a number where the arrow belongs
    p.write_text("\n".join(rows) + "\n")
    with pytest.raises(FormatError) as e2:
        read_table(p)
    assert e2.value.path == "row 5, column '->'" and "arrow column missing" in str(e2.value)
    p.write_text("\n".join(lines) + "\n\n\n")  # trailing blank lines are no rows
    assert len(read_table(p)) == len(lines) - 1  # type: ignore[arg-type]
    p.write_text("\n".join(lines[:3] + [""] + lines[3:]) + "\n")  # nor a blank line between rows (as in the dumps)
    assert np.array_equal(read_table(p).columns["ip_c"], plain["ip_c"])  # type: ignore[union-attr]
    p.write_text(lines[0] + "\n")
    assert read_table(p).columns["ip_offset"].tolist() == []  # type: ignore[union-attr]
