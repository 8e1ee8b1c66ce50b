"""`binparse draw`: cells counted by role against each layout's arithmetic, sizes, determinism, pictures."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import pytest

from binparse.cli import main
from binparse.family.fixtures import generate

from .conftest import FIXTURES, REPO

SVG = "{http://www.w3.org/2000/svg}"
sys.path.insert(0, str(REPO / "docs"))
from pictures import PICTURES, draw_all  # noqa: E402


def draw(tmp_path: Path, *argv: str) -> tuple[Path, ElementTree.Element]:
    out = tmp_path / "out.svg"
    assert main(["draw", *argv, "--svg", str(out)]) == 0
    return out, ElementTree.parse(out).getroot()


def memory_cells(root: ElementTree.Element) -> dict[tuple[int, int], ElementTree.Element]:
    """The memory panel's cells by (row, column) in cell units."""
    group = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "memory")
    rects = list(group.iter(f"{SVG}rect"))
    x0, y0 = min(int(r.get("x", 0)) for r in rects), min(int(r.get("y", 0)) for r in rects)
    return {((int(r.get("y", 0)) - y0) // 10, (int(r.get("x", 0)) - x0) // 10): r for r in rects}


def count(cells: dict[tuple[int, int], ElementTree.Element], role: str) -> int:
    return sum(r.get("class") == role for r in cells.values())


def tip(cell: ElementTree.Element) -> str:
    title = cell.find(f"{SVG}title")
    return "" if title is None else title.text or ""


def test_dlhdl_seed_003_example(tmp_path: Path) -> None:
    # Seed 003: ConvThreadNumber 9 → C = 3 lanes of data in blocks of N = 4; Z = 4 channels need
    # 2 blocks of 3 × 3 × 4 values: 36 data cells, 36 zero lanes (9 in block 1, 27 in block 2).
    _, root = draw(tmp_path, "--dlhdl", "conv", "--thread-number", "9", "--shape", "3,3,4")
    cells = memory_cells(root)
    assert len(cells) == 72 and count(cells, "data") == 36 and count(cells, "zero-lane") == 36
    assert [cells[(0, x)].get("class") for x in range(4)] == ["data", "data", "data", "zero-lane"]
    assert tip(cells[(0, 1)]) == "logical (0,0,1)"  # x 0, y 0, lane 1 → z 1
    assert tip(cells[(1, 4)]) == "logical (1,1,0)"  # block 1, y 1, x 1, lane 0
    assert tip(cells[(3, 0)]) == "logical (0,0,3)"  # block 2 starts with z = C = 3
    assert [cells[(3, x)].get("class") for x in range(4)] == ["data", "zero-lane", "zero-lane", "zero-lane"]
    offsets = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "offset"]
    assert offsets == ["+0", "+36"]  # block 2 starts N·X·Y = 36 values in


def test_tidl_output_padding_per_line(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("family: tidl\nkind: io\nversion: '08.x'\noutput: t_tidl_io_1.bin\n"
                    "inputs:\n  - {name: x, dtype: uint8, shape: [1, 1, 4]}\n"
                    "outputs:\n  - {name: y, dtype: int8, shape: [2, 3, 5], pad: [1, 1, 2, 1, 0]}\n")
    generate(spec, tmp_path)
    _, root = draw(tmp_path, str(tmp_path / "t_tidl_io_1.bin"), "--output", "y")
    cells = memory_cells(root)
    # line pitch padL 1 + W 5 + padR 2 = 8; channel pitch (padT 1 + H 3 + padB 1) · 8 = 40; 2 channels
    assert max(cells)[0] == 9 and max(x for _, x in cells) == 7
    spatial = [sum(cells[(y, x)].get("class") == "spatial-pad" for x in range(8)) for y in range(10)]
    assert spatial == [8, 3, 3, 3, 8, 8, 3, 3, 3, 8]
    assert [cells[(1, x)].get("class") for x in range(8)] == ["spatial-pad", *["data"] * 5, "spatial-pad", "spatial-pad"]
    assert tip(cells[(1, 1)]) == "logical (0,0,0,0,0,0)"
    assert tip(cells[(8, 5)]) == "logical (0,0,0,1,2,4)"
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "offset"] == ["+0", "+40"]
    logical = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "logical")
    assert len(list(logical)) == 2 * 3 * 5


def test_espdl_padding_box_and_concat_member(tmp_path: Path) -> None:
    _, root = draw(tmp_path, "--espdl", "--shape", "5,6,3", "--padding", "1,1,2,1")
    cells = memory_cells(root)
    # padded 7 rows × 9 pixels × 3 channels; the 5 × 6 box holds the data
    assert max(cells) == (6, 26) and count(cells, "data") == 90 and count(cells, "spatial-pad") == 189 - 90
    assert cells[(1, 6)].get("class") == "data" and tip(cells[(1, 8)]) == "logical (0,0,2)"
    assert cells[(1, 5)].get("class") == "spatial-pad"


def test_espdl_concat_member_shows_other_channels() -> None:
    from binparse.family import draw as d
    from binparse.formats import espdl
    from binparse.formats.espdl.buffers.drawing import espdl_map
    members = espdl.concat((2, 2), [3, 5])
    svg = d.render(espdl_map(members[1]))
    root = ElementTree.fromstring(svg)
    cells = memory_cells(root)
    # 2 × 2 pixels × 8 channels: member 1 holds channels 3..7, channels 0..2 belong to member 0
    assert count(cells, "data") == 20 and count(cells, "other") == 12
    assert [cells[(0, x)].get("class") for x in range(8)] == ["other"] * 3 + ["data"] * 5


def test_intel_slices(tmp_path: Path) -> None:
    _, root = draw(tmp_path, str(FIXTURES / "intel_dla" / "testnet_2025"), "--intel-dla")
    cells = memory_cells(root)
    # 40 channels in slices of 24 and 16, 2 × 3 positions, KVEC 16: slice 1 takes 2 vectors per position
    # (16 + 8 lanes used), slice 2 one: 6·(2 + 1) = 18 vectors, 240 data lanes and 6·8 = 48 padding lanes
    assert len(cells) == 18 * 16 and count(cells, "data") == 240 and count(cells, "zero-lane") == 48
    assert [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "offset"] == ["+0", "+192"]
    assert len([ln for ln in root.iter(f"{SVG}line") if ln.get("class") == "separator"]) == 2  # boundary + legend


def test_large_input_stays_small_and_deterministic(tmp_path: Path) -> None:
    io = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
    out, root = draw(tmp_path, str(io), "--input", "images")  # 3 × 224 × 224, padded 1 all round
    first = out.read_bytes()
    assert len(first) < 1_000_000
    cells = memory_cells(root)
    assert len(cells) <= 2048
    # the first cell row and column hold the top / left padding, the data inside
    assert cells[(0, 0)].get("class") == cells[(5, 0)].get("class") == "spatial-pad"
    assert cells[(5, 5)].get("class") == "data"
    out2 = tmp_path / "again.svg"
    assert main(["draw", str(io), "--input", "images", "--svg", str(out2)]) == 0
    assert out2.read_bytes() == first


def test_bad_draw_arguments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["draw", "--dlhdl", "fc", "--size", "10", "--svg", str(tmp_path / "x.svg")]) == 3
    assert "FC output" in capsys.readouterr().err
    assert main(["draw", "--svg", str(tmp_path / "x.svg")]) == 3
    assert not (tmp_path / "x.svg").exists()


def test_readme_pictures_are_current(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    for path in draw_all(tmp_path):
        assert path.read_bytes() == (REPO / "docs" / path.name).read_bytes(), f"run python docs/pictures.py ({path.name})"
    readme = (REPO / "README.md").read_text()
    assert all(f"docs/{name}" in readme for name in PICTURES)


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_browser_renders_picture(name: str, tmp_path: Path, browser: str) -> None:
    svg = REPO / "docs" / name
    root = ElementTree.parse(svg).getroot()
    png = tmp_path / "shot.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    "--force-device-scale-factor=1", f"--screenshot={png}",
                    f"--window-size={root.get('width')},{root.get('height')}", svg.as_uri()],
                   capture_output=True, timeout=120, check=False)
    from PIL import Image
    pixels = np.asarray(Image.open(png).convert("RGB"))
    # the browser painted each memory cell's centre in the colour the SVG gives its role / channel
    style = {r.split("{")[0].lstrip("."): r.split("fill:")[1].rstrip("}") for r in
             (root.find(f"{SVG}style").text or "").split("}") if "fill:" in r for r in [r + "}"]}
    checked = 0
    for cell in list(memory_cells(root).values())[:: max(1, len(memory_cells(root)) // 50)]:
        fill = cell.get("fill") or style[cell.get("class", "")]
        x, y = int(cell.get("x", 0)) + 5, int(cell.get("y", 0)) + 5
        assert pixels[y, x].tolist() == [int(fill[k:k + 2], 16) for k in (1, 3, 5)], (name, x, y)
        checked += 1
    assert checked >= 20


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("terminal", [True, False])
def test_progress_only_on_a_terminal(terminal: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from binparse.core import progress
    err = _Terminal() if terminal else io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    paths = generate(FIXTURES / "espdl" / "tensors_and_models" / "spec.yaml", tmp_path)  # 13 files
    with progress.task("reading big.csv (2,000,000 rows)", long=True):
        pass
    with progress.task("reading small.csv (10 rows)", long=False):
        pass
    text = err.getvalue()
    if not terminal:
        assert text == ""
        return
    lines = text.split("\n")
    assert lines[0].endswith(f"writing {tmp_path}: {len(paths)}/{len(paths)}") and len(paths) == 13
    assert f"\rwriting {tmp_path}: 1/13" in lines[0]
    assert lines[1].startswith("\rreading big.csv (2,000,000 rows)…\rreading big.csv (2,000,000 rows): ")
    assert lines[1].endswith(" s") and "small" not in text


def test_inspect_points_to_draw(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin")]) == 0
    io_file = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
    assert capsys.readouterr().out.splitlines()[-1].endswith(
        f"`binparse draw {io_file} --output detections --svg output_detections.svg` pictures where it lies")
    assert main(["inspect", str(FIXTURES / "intel_dla" / "testnet_2025")]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "the output buffer holds 48 padding lanes: view --intel-dla with this folder reads an IP output buffer without "
        f"them, `binparse draw --intel-dla {FIXTURES / 'intel_dla' / 'testnet_2025'} --svg output.svg` pictures them")


def test_a_real_size_output_draws_one_cell_per_block(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The shape of a real TIDL output (1×129×480×640 int16, padded all round: 39,918,276 elements) draws
    within a budget far below its 80 MB buffer: two channels of it, one cell per 32 × 16 block (issue 39)."""
    io_file = str(FIXTURES / "tidl" / "io_10_large_output" / "930_tidl_io_1.bin")
    out, root = draw(tmp_path, io_file, "--output", "cost_volume", "--budget", "96MiB")
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    assert texts[1] == ("memory, in address order: rows are lines of line pitch 642 = padL 1 + W 640 + padR 1; showing "
                        "the first 2 of 129 segments (964 of 62,178 rows), the rest repeat the pattern")
    assert texts[2] == "each cell is a block of 32 row(s) × 16 element(s): padding if any of it is, else its most common role"
    cells = memory_cells(root)
    assert len(cells) == 31 * 41  # 964 rows / 32, 642 columns / 16, rounded up
    assert {cells[(r, 0)].get("class") for r in range(31)} == {"spatial-pad"}  # column 0: the left padding
    assert cells[(1, 1)].get("class") == "data" and tip(cells[(1, 1)]) == "first logical (0,0,0,0,31,15)"
    assert cells[(15, 1)].get("class") == "spatial-pad"  # rows 480..511: the bottom pad of channel 0 and top of 1
    logical = [tip(r) for r in next(g for g in root.iter(f"{SVG}g") if g.get("id") == "logical")]
    # cells of 2048 logical rows × 32 columns; an element lands past its channels' pitches, its top pad row and left pad
    assert logical[0] == "logical (0,0,0,0,0,0) → memory +643"
    row1 = logical[-(-640 // 32)]  # logical row 2048 = channel 4, row 128
    assert row1 == f"logical (0,0,0,4,128,0) → memory +{4 * 482 * 642 + 129 * 642 + 1:,}"
    assert out.stat().st_size < 300_000
    capsys.readouterr()
    # below what one band of the map takes, the draw is refused before anything is made, naming the budget
    assert main(["draw", io_file, "--output", "cost_volume", "--svg", str(tmp_path / "x.svg"), "--budget", "16MiB"]) == 2
    err = capsys.readouterr().err
    assert "drawing TIDL output 'cost_volume'" in err and "over the budget of 16,777,216 bytes" in err
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.parametrize("argv", [
    ["--dlhdl", "conv", "--thread-number", "9", "--shape", "5,4,7"],
    ["--espdl", "--shape", "2,3,3", "--padding", "1,0,0,1", "--concat", "2,3,1", "--member", "1"],
    [str(FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"), "--output", "seg_map"]], ids=["dlhdl", "espdl", "tidl"])
def test_where_the_layout_says_elements_land_is_where_the_map_has_them(argv: list[str]) -> None:
    """A map's `lands` (the layout's own arithmetic, for the logical panel) agrees with the map itself."""
    import argparse
    from binparse.cli import buffers
    from binparse.cli.parsing import parser
    from binparse.family.draw.render import _landing
    args: argparse.Namespace = parser("draw").parse_args(["draw", *argv, "--svg", "x.svg"])
    m = buffers._layout(args, buffers._files(args, "none"), "draw").memory_map()
    assert m.lands is not None
    every = np.arange(int(np.prod(m.logical_shape)), dtype=np.int64)
    assert np.array_equal(m.lands(every), _landing(m, every))


def test_pitches_too_small_to_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text("family: tidl\nkind: io\nversion: '08.x'\noutput: t_tidl_io_1.bin\n"
                    "inputs:\n  - {name: x, dtype: uint8, shape: [2, 3, 5], pad: [1, 1, 2, 1, 0], channel_pitch: 29}\n"
                    "outputs:\n  - {name: y, dtype: int8, shape: [1, 1, 4]}\n")
    generate(spec, tmp_path)
    assert main(["draw", str(tmp_path / "t_tidl_io_1.bin"), "--input", "x", "--svg", str(tmp_path / "x.svg")]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)
    err = capsys.readouterr().err
    assert "pitches cannot hold the tensor" in err and "line pitch 8, channel pitch 29" in err  # data ends at 29
    assert "t_tidl_io_1.bin, tidl_io_buf_desc.inputs[0] 'x'" in err


def test_logical_panel_says_where_each_element_lands(tmp_path: Path) -> None:
    _, root = draw(tmp_path, "--dlhdl", "conv", "--thread-number", "9", "--shape", "3,3,4")
    logical = next(g for g in root.iter(f"{SVG}g") if g.get("id") == "logical")
    tips = [tip(r) for r in logical]
    # logical (x, y, z) row-major; memory: block z // 3, then y, x, lane z % 3 (N = 4): 36·b + 12·y + 4·x + lane
    assert tips[0] == "logical (0,0,0) → memory +0"
    assert tips[3] == "logical (0,0,3) → memory +36"
    assert tips[4 * 4 + 2] == "logical (1,1,2) → memory +18"  # flat 18 = (x 1, y 1, z 2): 12 + 4 + 2
    assert len(tips) == 36


def test_espdl_concat_member_from_the_cli(tmp_path: Path) -> None:
    folder = FIXTURES / "espdl" / "tensors_and_models"  # concat_abc: 2 × 3 pixels, channels 2 + 3 + 1, padding T 1, R 1
    opts = ["--espdl", "--shape", "2,3,3", "--padding", "1,0,0,1", "--concat", "2,3,1", "--member", "1"]
    _, root = draw(tmp_path, *opts)
    cells = memory_cells(root)
    # padded 3 rows × 4 pixels × 6 channels = 72; B's 2·3·3 = 18 data, A's and C's 18 "other", 36 padding
    assert len(cells) == 72 and count(cells, "data") == 18 and count(cells, "other") == 18
    assert count(cells, "spatial-pad") == 36
    assert [cells[(1, x)].get("class") for x in range(6)] == ["other", "other", "data", "data", "data", "other"]
    assert main(["view", str(folder / "concat_abc.buffer.bin"), *opts, "--npy", str(tmp_path / "b.npy")]) == 0
    assert np.array_equal(np.load(tmp_path / "b.npy"), np.load(folder / "concat_abc.member1.expected.npy"))


def test_mapping_over_a_million_rows_shows_progress(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from binparse.formats.intel_dla import read_table
    header, row = (FIXTURES / "intel_dla" / "testnet_2025" / "output_transform_mapping_TestNet_0.csv").read_bytes() \
        .split(b"\n")[:2]
    path = tmp_path / "output_transform_mapping_big.csv"
    path.write_bytes(header + b"\n" + (row + b"\n") * 1_000_001)
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    table = read_table(path)
    assert len(table.columns["ip_offset"]) == 1_000_001  # type: ignore[union-attr]
    assert err.getvalue().startswith(f"\rreading {path} (1,000,001 rows)…\rreading {path} (1,000,001 rows): ")
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    read_table(path)
    assert sys.stderr.getvalue() == ""


def test_concat_member_mistakes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = ["draw", "--espdl", "--padding", "1,0,0,1", "--concat", "2,3,1", "--svg", str(tmp_path / "x.svg")]
    assert main([*base, "--shape", "2,3,3", "--member", "3"]) == 3
    assert "--member K names one of the --concat tensors; expected 0..2, found 3" in capsys.readouterr().err
    assert main([*base, "--shape", "2,3,2", "--member", "1"]) == 3
    assert "channel count of the --member tensor; expected 3, found 2" in capsys.readouterr().err
