"""Every command binparse suggests runs as printed (issue 39).

Each case below makes the CLI print a hint or a report line that suggests a command (an error's hint, a
usage error, a report's pointer), on a fixture or a real file; the test takes every `binparse ...` command
in backticks from what was printed and runs it as a shell would split it, from a fresh folder. Every
place in binparse that makes such a command (`binparse.family.hints`) must be reached by a case, and no
string in binparse may spell a suggested command by hand.
"""

from __future__ import annotations

import ast
import re
import shlex
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

from binparse.family import hints
from binparse.cli import main

from .conftest import FIXTURES, REAL, REPO

TIDL, ESPDL, INTEL = FIXTURES / "tidl", FIXTURES / "espdl", FIXTURES / "intel_dla"
IO = TIDL / "io_08x" / "900_tidl_io_1.bin"
SUGGESTED = re.compile(r"`(binparse [^`]+)`")
HINT_FUNCTIONS = {"command", "again", "doctor_of_folder"}


@dataclass
class Case:
    """A command line that prints suggestions, what it exits with, and what the suggestions exit with."""

    argv: list[str]
    code: int | None = None  # the first command's exit code (None: not checked)
    said: str = ""  # a text the output must hold
    runs: tuple[int, ...] = (0,)  # the exit codes the suggested commands may end with
    setup: Callable[[Path, pytest.MonkeyPatch], list[str]] | None = None  # makes files; gives the argv then
    real: bool = False  # needs ../shared/real
    check: Callable[[Path], None] | None = None  # what the suggested command wrote, checked
    suggested: list[str] = field(default_factory=list)


def _float_array(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    arr = np.load(TIDL / "io_08x" / "input_0_images.expected.npy").astype(np.float32)
    np.save(tmp / "floats.npy", arr)
    return ["pack", str(IO), str(tmp / "floats.npy"), "--input", "images", "--out", str(tmp / "o.bin")]


def _wrong_shape(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    np.save(tmp / "wrong.npy", np.zeros((2, 5), np.uint8))
    return ["pack", str(IO), str(tmp / "wrong.npy"), "--input", "images", "--out", str(tmp / "o.bin")]


def _absurd_arch(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    arch = tmp / "absurd.arch"
    arch.write_text((INTEL / "placement" / "SmallNet.arch").read_text().replace("k_vector : 32", "k_vector : 99999"))
    return ["draw", "--intel-dla", "--arch", str(arch), "--shape", "1,3,4,4", "--svg", str(tmp / "x.svg")]


def _stale(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    import binparse.engine.codegen
    mp.setattr(binparse.engine.codegen, "write_all", lambda check=False: [REPO / "binparse" / "engine" / "accessors" / "x.py"])
    return ["generate", "--check"]


def _net_no_layout_reads(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    net = bytearray((TIDL / "net_08_06" / "910_tidl_net.bin").read_bytes())
    net[:4] = struct.pack("<I", 0x20250429)  # TIDL 11.00.04: no verified layout
    struct.pack_into("<i", net, 136 + 1792 + 1560, 999)  # and a corrupt layer type: no layout holds
    (tmp / "x_tidl_net.bin").write_bytes(net)
    return ["inspect", str(tmp / "x_tidl_net.bin")]


def _io_two_layouts(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    from binparse.formats.tidl.io import solve as io_solve
    from binparse.formats.tidl.io.solve import GENERATIONS, Candidate

    from .test_tidl_io_sizes import build
    gen = next(g for g in GENERATIONS if g.io_version == 100)
    (tmp / "x_tidl_io_1.bin").write_bytes(build(Candidate(gen, 16, 128, 1)))  # also the 09.00 layout, IN 128, OUT 16
    mp.setattr(io_solve, "problems", lambda acc, gen: [])  # were the content checks to pass under both
    return ["inspect", str(tmp / "x_tidl_io_1.bin")]


def _wrong_size(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "short.bin").write_bytes(IO.read_bytes()[:-8])
    return ["inspect", "--format", "tidl.io.j7_08", str(tmp / "short.bin")]


def _unknown_magic(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    (tmp / "model.bin").write_bytes(b"EDL9" + bytes(60))
    return ["inspect", str(tmp / "model.bin")]


def _pads_no_window(tmp: Path, mp: pytest.MonkeyPatch) -> list[str]:
    """A MaxPool whose pads (int64, as stored) hold a negative pad: no window esp-dl pools with."""
    from binparse.formats.espdl.writers.fixtures import espdl_file
    x = {"name": "x", "dims": [1, 4, 6, 3], "dtype": "int8", "exponents": [0]}
    graph = {"name": "pool", "inputs": [x], "outputs": [{"name": "y", "dims": [1, 2, 3, 3], "dtype": "int8",
                                                        "exponents": [0]}],
             "nodes": [{"name": "pool_0", "op_type": "MaxPool", "inputs": ["x"], "outputs": ["y"],
                        "attributes": {"quant_type": "S8", "kernel_shape": [2, 2], "strides": [2, 2],
                                       "pads": [0, 0, -1, 0]}}],
             "initializers": [], "test_inputs": [], "test_outputs": []}
    (tmp / "pool.espdl").write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    pytest.importorskip("onnx")
    return ["export", str(tmp / "pool.espdl"), "-o", str(tmp / "pool.onnx")]


def _same(expected: Path, name: str) -> Callable[[Path], None]:
    def check(tmp: Path) -> None:
        assert np.array_equal(np.load(tmp / name), np.load(expected))
    return check


CASES: dict[str, Case] = {
    # retries: the command as typed with an option added or taken away (errors.Retry, hints.again)
    "pack floats: --quantize": Case([], 3, "give integers, or quantise the floats with the family's rule",
                                    setup=_float_array),
    "stored exponents: drop --stored": Case(
        ["view", str(ESPDL / "models" / "conv_s8_blocks.espdl"), "--tensor", "w_conv32", "--stored", "--dequantize",
         "--npy", "w.npy"], 2, "dequantize the logical form"),
    "a trace holds one tensor: drop --tensor": Case(
        ["view", str(TIDL / "traces_10_01" / "tidl_trace_subgraph_0_0002_0001_0001_00001_00003_00005x00004.y"),
         "--net", str(TIDL / "net_10_01_traces" / "915_tidl_net.bin"), "--tensor", "x", "--npy", "t.npy"], 2,
        "name no tensor"),
    "a pack of models: --model": Case(
        ["export", str(REAL / "espdl" / "pdl1-face-detect" / "human_face_detect.espdl"), "-o", "face.onnx"], 3,
        "name one, e.g. the first", real=True),
    # errors naming a command
    "AM57x net: its param file, 3.weights": Case(
        ["view", str(REAL / "tidl" / "am57x" / "tidl_net_jdetNet_ssd.bin"), "--tensor", "3", "--npy", "x.npy"], 2,
        "--tensor 3.weights --npy 3_weights.npy", real=True),
    "absurd arch: doctor it": Case([], 3, "lists the architecture's problems", runs=(1,), setup=_absurd_arch),
    "pooling pads that are no window: doctor it": Case([], 2, "[0, 0, -1, 0] are not pads of a pooling window",
                                                        runs=(0,), setup=_pads_no_window),
    "model without --tensor: inspect -v": Case(
        ["view", str(ESPDL / "models" / "conv_c.espdl"), "--npy", "x.npy"], 2, "lists the tensors"),
    "nothing to repair: doctor the folder": Case(
        ["repair", str(ESPDL / "models" / "conv_c.espdl"), "-o", "fixed.espdl"], 3, "checks the rest", runs=(0, 1, 2)),
    "compare a model with no dumps: compare --help": Case(
        ["compare", str(ESPDL / "models" / "conv_c.espdl"), str(ESPDL / "models" / "conv_c.espdl")], 3, "REFERENCE"),
    "no repair for this kind: doctor it": Case(["repair", str(IO), "-o", "x.bin"], 2, "says what is wrong"),
    "no layout reads the net: schemas": Case([], 2, "lists the verified layouts", setup=_net_no_layout_reads),
    "several io layouts: schemas": Case([], 2, "pass --format NAME (`binparse schemas`)", setup=_io_two_layouts),
    "wrong size for the format: schemas": Case([], 2, "lists the sizes each version writes", setup=_wrong_size),
    "unknown format name: schemas": Case(["inspect", "--format", "tidl.io.nothing", str(IO)], 3, "lists the formats"),
    "a text file of no format: schemas": Case(["inspect", str(TIDL / "io_08x" / "spec.yaml")], 2,
                                              "binary artifacts are never read from text"),
    "a binary file of no format: schemas, view --help": Case(
        ["inspect", str(FIXTURES / "dlhdl" / "conv_and_fc" / "t9_3x3x4.buffer.bin")], 2, "a layout flag reads it"),
    "an unknown version of a magic: schemas": Case([], 2, "closest known version", setup=_unknown_magic),
    "a raw TIDL buffer: view it with its io": Case(
        ["inspect", str(TIDL / "io_08x" / "output_1_seg_map.buffer.bin")], 2, "describes an output buffer of its size",
        check=_same(TIDL / "io_08x" / "output_1_seg_map.expected.npy", "output_1_seg_map.buffer.npy")),
    "a raw IP buffer: view it with its compile folder": Case(
        ["inspect", str(INTEL / "testnet_2025" / "output_ip.buffer.bin")], 2, "describes an IP output buffer",
        check=_same(INTEL / "testnet_2025" / "output_ip.expected.npy", "output_ip.buffer.npy")),
    "wrong array shape: inspect the io": Case([], 2, "lists the shapes", setup=_wrong_shape),
    "stale accessors: generate": Case([], 1, "generated accessors are stale", runs=(0,), setup=_stale),
    "pack with one file: pack --help": Case(["pack", str(IO), "--out", "x.bin"], 3, "lists them"),
    "view --tensor of a folder: view --help": Case(
        ["view", str(INTEL / "testnet_2025"), "--tensor", "x", "--npy", "x.npy"], 3, "describe a buffer by themselves"),
    # reports that point to a command
    "io report: draw a padded tensor": Case(["inspect", str(IO)], 0, "pictures where it lies"),
    "doctor of an io: draw each padded tensor": Case(["doctor", str(TIDL / "io_08x")], 0, "shows it"),
    "combined net: inspect a subgraph": Case(["inspect", str(TIDL / "combined_11_02_am62a" / "424_tidl_net.bin")], 0,
                                             "reads one of them"),
    "compile folder: draw, inspect --fields": Case(["inspect", str(INTEL / "testnet_2025")], 0, "pictures them"),
    "arch with notes: doctor, inspect --fields": Case(
        ["inspect", str(INTEL / "arch_variants" / "layout_transform.arch")], 0, "lists them", runs=(0, 1, 2)),
    "narrow model: doctor, repair, inspect -v": Case(
        ["inspect", str(ESPDL / "int32_defect" / "narrow_dims.espdl")], 2, "fixes them", runs=(0, 1, 2)),
    "doctor of narrow models: repair, and the unverified note": Case(
        ["doctor", str(ESPDL / "int32_defect")], 1, "Fix: re-export", runs=(0, 1, 2)),
    "model folder: doctor, inspect one": Case(["inspect", str(REAL / "espdl" / "model-properties-info")], 0,
                                              "checks that they agree", runs=(0, 1, 2), real=True),
    "info printout: doctor its folder": Case(["inspect", str(REAL / "espdl" / "edl1-house-price" / "house_price.info")],
                                             0, "compares it with the .espdl", runs=(0, 1, 2), real=True),
    "quantization record: doctor its folder": Case(
        ["inspect", str(REAL / "espdl" / "model-properties-info" / "pruned_keep14_v2.json")], 0, "compares them",
        runs=(0, 1, 2), real=True),
    "TI record: doctor its folder": Case(
        ["inspect", str(REAL / "tidl" / "j7-edgeai-benchmark" / "fastdepth" / "artifacts" / "onnxrtMetaData.txt")], 0,
        "checks it against the io and net", runs=(0, 1, 2), real=True),
    "TI folder: doctor, inspect one": Case(["inspect", str(REAL / "tidl" / "j7-edgeai-benchmark" / "fastdepth")], 0,
                                           "checks them against each other", runs=(0, 1, 2), real=True),
    "TI printout: doctor the folder its tempDir/ belongs to": Case(
        ["inspect", str(REAL / "tidl" / "j7-edgeai-benchmark" / "fastdepth" / "artifacts" / "tempDir" /
                        "424_tidl_net.bin_netLog.txt")], 0, "compares it with the net", runs=(0, 1, 2), real=True),
    "doctor of a folder with subfolders: doctor -r": Case(["doctor", str(INTEL)], None, "checks each", runs=(0, 1, 2)),
    "a printout of another export: doctor -v": Case(["doctor", str(ESPDL / "other_export")], 1, "lists all 5",
                                                    runs=(1,)),
}


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # --help, and argparse's own usage errors
        code = int(exc.code or 0)
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("name", list(CASES))
def test_every_suggested_command_runs_as_printed(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    case = CASES[name]
    if case.real and not REAL.is_dir():
        pytest.skip(f"{REAL} is absent")
    monkeypatch.chdir(tmp_path)
    argv = case.setup(tmp_path, monkeypatch) if case.setup else case.argv
    code, said = _run(argv, capsys)
    assert case.code is None or code == case.code, said
    assert case.said.lower() in said.lower(), said
    suggested = SUGGESTED.findall(said)
    assert suggested, f"{name}: no command suggested in:\n{said}"
    monkeypatch.undo()  # the suggestion runs as a user would run it: nothing patched
    monkeypatch.chdir(tmp_path)
    for line in dict.fromkeys(suggested):
        words = shlex.split(line)
        assert words[0] == "binparse"
        ran, out = _run(words[1:], capsys)
        assert ran in case.runs, f"{name}: `{line}` exited {ran}:\n{out}"
        assert "error: unrecognized arguments" not in out and "the following arguments are required" not in out, out
    if case.check:
        case.check(tmp_path)


def _suggesting_calls() -> dict[tuple[str, int, int], str]:
    """(file, first line, last line) of every call in binparse of a function of `binparse.family.hints` that makes
    a suggested command, with the call's text."""
    calls = {}
    for path in sorted((REPO / "binparse").rglob("*.py")):
        if path.name == "hints.py" or "accessors" in path.parts:
            continue
        text = path.read_text()
        if "hints import" not in text:
            continue
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in HINT_FUNCTIONS:
                calls[(str(path), node.lineno, node.end_lineno or node.lineno)] = ast.get_source_segment(text, node) or ""
    return calls


def test_every_place_that_suggests_a_command_is_reached_by_a_case(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Runs the cases again (here, so that this test stands alone) and holds that each call of the hints'
    functions in binparse printed something in one of them."""
    hints.CALLED.clear()
    for name, case in CASES.items():
        if case.real and not REAL.is_dir():
            continue
        with monkeypatch.context() as mp:
            folder = tmp_path / re.sub(r"\W+", "_", name)
            folder.mkdir()
            mp.chdir(folder)
            _run(case.setup(folder, mp) if case.setup else case.argv, capsys)
    if not REAL.is_dir():
        pytest.skip(f"{REAL} is absent: the cases on real files did not run")
    called = hints.CALLED
    missed = [f"{Path(f).relative_to(REPO)}:{first}: {src}" for (f, first, last), src in _suggesting_calls().items()
              if not any(cf == f and first <= cl <= last for cf, cl in called)]
    assert not missed, "calls no case reaches (add a case to CASES):\n" + "\n".join(missed)
    assert len(_suggesting_calls()) >= 30


def test_no_string_spells_a_suggested_command_by_hand() -> None:
    """A command in backticks is made by `binparse.family.hints` (so that it names real paths and is tested), never
    written into a message by hand; docstrings, comments and the commands' help texts aside."""
    found = []
    for path in sorted((REPO / "binparse").rglob("*.py")):
        if path.name in ("hints.py", "parsing.py", "to_ksy.py") or {"accessors", "codegen"} & set(path.parts):
            continue
        tree = ast.parse(path.read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and n.body
                      and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
                    and "`binparse " in node.value):
                found.append(f"{path.relative_to(REPO)}:{node.lineno}: {node.value[:80]}")
    assert not found, found


def test_the_descriptors_a_buffer_hint_opens_get_no_hint_of_their_own(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The buffer hint opens the io descriptors beside a file no format matches; one of them no format
    matches gets no hint of its own (the hostile sweep's folder of 57 mutated ios took minutes, each
    hint opening 16 others that opened 16 others...): hints made for the file named only, the error the
    plain one, and an empty file is no buffer (no hint looked for)."""
    from binparse.formats.tidl.io import buffer_hint
    data = (TIDL / "io_08x" / "900_tidl_io_1.bin").read_bytes()
    for k in range(3):
        (tmp_path / f"{k}_tidl_io_1.bin").write_bytes(data[:-1 - k])  # no size of any version
    made: list[str] = []
    real = buffer_hint.hint
    monkeypatch.setattr(buffer_hint, "hint", lambda path, size: made.append(Path(path).name) or real(path, size))
    from binparse.family import registry
    monkeypatch.setattr(registry, "_BUFFER_HINTS", [buffer_hint.hint])
    assert main(["inspect", str(tmp_path / "0_tidl_io_1.bin")]) == 2
    assert set(made) == {"0_tidl_io_1.bin"}
    err = capsys.readouterr().err
    assert "no known format matches this file" in err and "37,255 bytes starting" in err
    (tmp_path / "empty_tidl_io_1.bin").write_bytes(b"")
    assert main(["inspect", str(tmp_path / "empty_tidl_io_1.bin")]) == 2
    assert set(made) == {"0_tidl_io_1.bin"} and "0 bytes starting (empty)" in capsys.readouterr().err
