"""`--json` on every command: each prints one JSON document of what it says in text (what it read, or
what it wrote: `{"written": [{file, bytes, what, ...}]}`), through the core's one JSON writer (issue 39)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from binparse.cli import main
from binparse.cli.parsing import COMMANDS, parser

from .conftest import FIXTURES, REPO, real

IO = FIXTURES / "tidl" / "io_08x"


def _doc(argv: list[str], capsys: pytest.CaptureFixture[str], code: int = 0) -> dict:
    assert main(argv) == code, capsys.readouterr().err
    out = capsys.readouterr().out
    doc: dict = json.loads(out)  # the whole of stdout is the document
    return doc


def _commands() -> list[list[str]]:
    out = [[c] for c in COMMANDS if c != "schema"]
    sub = next(a for a in parser("schema")._actions if isinstance(a, argparse._SubParsersAction))
    schema = sub.choices["schema"]
    subs = next(a for a in schema._actions if isinstance(a, argparse._SubParsersAction))
    return out + [["schema", name] for name in subs.choices]


@pytest.mark.parametrize("argv", _commands(), ids=" ".join)
def test_every_command_takes_json(argv: list[str]) -> None:
    p: argparse.ArgumentParser = parser(argv[0])
    for name in argv:
        sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
        p = sub.choices[name]
    assert any(a.option_strings == ["--json"] for a in p._actions), argv


def test_view_pack_draw_say_what_they_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    npy, buf, svg = tmp_path / "s.npy", tmp_path / "images.bin", tmp_path / "s.svg"
    doc = _doc(["view", str(IO / "900_tidl_io_1.bin"), str(IO / "output_1_seg_map.buffer.bin"), "--output", "seg_map",
                "--npy", str(npy), "--json"], capsys)
    assert doc == {"written": [{"file": str(npy), "bytes": npy.stat().st_size, "what": "output seg_map",
                                "dtype": "uint8", "shape": [1, 1, 1, 21, 64, 64]}]}
    assert npy.stat().st_size == (IO / "output_1_seg_map.expected.npy").stat().st_size == 86144
    doc = _doc(["pack", str(IO / "900_tidl_io_1.bin"), str(IO / "input_0_images.expected.npy"), "--input", "images",
                "--out", str(buf), "--json"], capsys)
    assert doc["written"][0]["file"] == str(buf) and doc["written"][0]["bytes"] == 153228 == buf.stat().st_size
    doc = _doc(["draw", str(IO / "900_tidl_io_1.bin"), "--output", "seg_map", "--svg", str(svg), "--json"], capsys)
    assert doc == {"written": [{"file": str(svg), "bytes": svg.stat().st_size,
                                "what": "TIDL output 'seg_map' (uint8): 1×1×1×21×64×64 (N, DIM1, DIM2, C, H, W)"}]}


def test_repair_fixture_generate_and_from_header_say_what_they_wrote(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    fixed = tmp_path / "fixed.espdl"
    doc = _doc(["repair", str(FIXTURES / "espdl" / "int32_defect" / "narrow_dims.espdl"), "-o", str(fixed), "--json"],
               capsys)
    assert doc == {"written": [{"file": str(fixed), "bytes": 8368,
                                "what": "model: 5 int64 vectors rewritten with their int32 values"}]}
    doc = _doc(["fixture", str(FIXTURES / "dlhdl" / "conv_and_fc" / "spec.yaml"), "-o", str(tmp_path / "fx"), "--json"],
               capsys)
    files = {Path(w["file"]).name: w["bytes"] for w in doc["written"]}
    assert files["t16_3x3x4.buffer.bin"] == 144 and "manifest.json" in files and len(files) == 13
    assert _doc(["generate", "--check", "--json"], capsys) == {"stale": [], "up_to_date": True}
    ksy = tmp_path / "io.ksy"
    doc = _doc(["schema", "from-header", str(REPO / "tests/data/headers/itidl_io_08_06.h"), "--struct",
                "sTIDL_IOBufDesc_t", "--out", str(ksy), "--json"], capsys)
    assert doc == {"written": [{"file": str(ksy), "bytes": ksy.stat().st_size,
                                "what": "sTIDL_IOBufDesc_t, 37,256 bytes, 39 fields", "struct": "sTIDL_IOBufDesc_t",
                                "struct_bytes": 37256, "fields": 39}]}


def test_export_json_is_the_check_and_what_was_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = real("espdl/gemm-16x16-relu/esp32s3.espdl")
    onnx = tmp_path / "g.onnx"
    doc = _doc(["export", str(model), "-o", str(onnx), "--json"], capsys)
    assert doc == {"written": [{"file": str(onnx), "bytes": onnx.stat().st_size,
                                "what": "ONNX opset 21, 19 nodes, 1 input(s), 1 output(s), rounding half-even "
                                        "(chosen from: test values alike, default)"}]}
    doc = _doc(["export", str(model), "-o", str(onnx), "--check", "--json"], capsys)
    assert (doc["kind"], doc["status"], doc["models"][0]["outputs"][0]["exact"]) == ("export_check", "ok", 16)
    assert doc["written"][0]["file"] == str(onnx)


def test_compare_json_with_a_plot_stays_one_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tidl = FIXTURES / "tidl"
    svg = tmp_path / "snr.svg"
    doc = _doc(["compare", str(tidl / "traces_10_01"), str(tidl / "traces_10_01_old"), "--net",
                str(tidl / "net_10_01_traces" / "915_tidl_net.bin"), "--svg", str(svg), "--json"], capsys, code=1)
    assert doc["kind"] == "trace_comparison" and doc["written"] == [
        {"file": str(svg), "bytes": svg.stat().st_size, "what": "SNR by layer (SVG)"}]


def test_schemas_and_schema_diff_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert len(_doc(["schemas", "--json"], capsys)["families"]) == 4
    doc = _doc(["schema", "diff", "tidl.io.j7_08", "tidl.io.j7_10.c1", "--json"], capsys)
    assert (doc["a"], doc["b"], len(doc["changes"])) == ("tidl.io.j7_08", "tidl.io.j7_10.c1", 48)


def test_an_option_a_command_does_not_take_is_refused_with_its_own_usage(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["generate", "--check", "--bogus"])
    assert exc.value.code == 3
    err = capsys.readouterr().err
    assert err.startswith("usage: binparse generate [--check] [--json] | SCHEMA.ksy... -o PACKAGE_DIR "
                          "[--import-path DIR]...\n")
    assert err.endswith("binparse generate: error: unrecognized arguments: --bogus\n")
