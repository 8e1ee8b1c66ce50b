"""Help that teaches: the overview, `--version`, a description for every argument, options grouped
by family, and an `Examples:` section in every command's help whose lines run as written."""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from binparse.cli import main
from binparse.cli.parsing import COMMANDS, parser

from .conftest import REPO

HELPS = [[c] for c in COMMANDS if c != "schema"] + [["schema"], ["schema", "diff"], ["schema", "from-header"]]


def help_of(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    assert exc.value.code == 0
    return capsys.readouterr().out


def command_parser(argv: list[str]) -> argparse.ArgumentParser:
    """The parser of `binparse ARGV...` (a command, or a sub-command of `schema`)."""
    p: argparse.ArgumentParser = parser(argv[0])
    for name in argv:
        sub = next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
        p = sub.choices[name]
    return p


def run(*argv: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "binparse", *argv], capture_output=True, text=True, cwd=cwd)


def test_bare_binparse_prints_the_overview_and_exits_3() -> None:
    r = run()
    assert r.returncode == 3 and r.stderr == ""
    out = r.stdout.splitlines()
    assert out[0] == "usage: binparse COMMAND [options]   (binparse COMMAND --help: its options and examples)"
    commands = [line.split()[0] for line in out[out.index("commands:") + 1:out.index("options:") - 1]]
    assert commands == list(COMMANDS)
    assert "  view      write a tensor of a device buffer (or of an artifact) as .npy, in logical order" in out
    codes = [line for line in out[out.index("exit codes (every command):") + 1:] if line.startswith("  ")]
    assert [line.split()[0] for line in codes] == ["0", "1", "2", "3", "a"]  # 3's line goes on
    assert codes[0] == "  0  everything named was read, verified and agrees"
    assert codes[3].startswith("  3  usage or I/O error")
    assert "Espressif ESP-DL, Intel/Altera FPGA AI Suite, MATLAB Deep Learning HDL, TI TIDL" in r.stdout
    assert run("--help").stdout == r.stdout and run("--help").returncode == 0


def test_version_is_the_installed_distributions() -> None:
    from importlib.metadata import version
    r = run("--version")
    assert r.returncode == 0 and r.stdout == f"binparse {version('binparse')}\n"


@pytest.mark.parametrize("argv", HELPS, ids=" ".join)
def test_every_argument_has_a_description_and_a_readable_metavar(argv: list[str]) -> None:
    p = command_parser(argv)
    for action in p._actions:
        if isinstance(action, argparse._SubParsersAction):
            assert all(choice.description for choice in action.choices.values())
            continue
        name = action.option_strings[0] if action.option_strings else action.dest
        assert action.help and len(action.help) > 10, f"{argv} {name}: no description"
        shown = action.metavar or action.dest
        if not action.option_strings:  # positionals are named in capitals (PATH, FOLDER, RUN ...)
            assert isinstance(shown, str) and shown.split(".")[0].isupper() and len(shown) > 1, (argv, shown)
        elif action.nargs != 0 and not action.choices:  # OUT.npy, H,W,C, NAME=INT,...: capitals, a suffix
            assert isinstance(action.metavar, str) and action.metavar.split(".")[0].isupper(), (argv, name)


@pytest.mark.parametrize("argv", HELPS, ids=" ".join)
def test_every_help_has_examples_and_a_short_usage(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(argv, capsys)
    usage = text[:text.index("\n\n")]
    assert usage.startswith(f"usage: binparse {' '.join(argv)}")
    assert all(len(line) <= 110 for line in usage.splitlines()), usage
    examples = text.split("\nExamples (from the repository root, on the bundled fixtures):\n")[1].splitlines()
    lines = [line.strip() for line in examples if not line.strip().startswith("#")]
    assert lines and all(line.startswith(f"binparse {argv[-1] if argv[0] != 'schema' else 'schema'}") for line in lines)


def test_view_groups_options_by_family(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_of(["view"], capsys)
    groups = {block.splitlines()[0]: block for block in text.split("\n\n")}
    assert "  --output NAME         with an io descriptor SOURCE: the output tensor, by" in groups["TI TIDL options:"]
    assert "  --espdl               ESP-DL padded HWC tensor (old dl::Tensor)" in groups["Espressif ESP-DL options:"]
    assert "--dlhdl {conv,fc}" in groups["MATLAB Deep Learning HDL options:"]
    assert "--intel-dla" in groups["Intel/Altera FPGA AI Suite options:"]
    # a flag three families declare is parsed once and shown in each family's group with its own help
    shapes = re.findall(r"--shape (\S+)\s+with (--\w+)", text)
    assert sorted(shapes) == [("H,W,C", "--espdl"), ("N,C,H,W", "--arch"), ("X,Y,Z", "--dlhdl")]
    assert "--output" not in groups["options:"] and "--npy OUT.npy" in groups["options:"]
    core = command_parser(["view"])
    assert [a.option_strings for a in core._actions].count(["--shape"]) == 1


def test_layout_flags_of_two_families_exclude_each_other(tmp_path: Path) -> None:
    r = run("view", "--espdl", "--dlhdl", "conv", "x.bin", "--npy", str(tmp_path / "x.npy"))
    assert r.returncode == 3 and "argument --dlhdl: not allowed with argument --espdl" in r.stderr
    r = run("view", "a", "b", "--input", "x", "--output", "y", "--npy", str(tmp_path / "x.npy"))
    assert r.returncode == 3 and "argument --output: not allowed with argument --input" in r.stderr


def _examples(capsys: pytest.CaptureFixture[str]) -> list[str]:
    lines = []
    for argv in HELPS:
        text = help_of(argv, capsys)
        lines += [line.strip().removeprefix("binparse ") for line in text.split("\nExamples")[1].splitlines()
                  if line.strip().startswith("binparse ")]
    return list(dict.fromkeys(lines))


def test_every_example_runs_as_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """From a folder that holds the repository's fixtures as the repository root does: every example
    command reads what it names, exits without a usage or I/O error (a `compare` example of two runs that
    diverge exits 1: the divergence it shows is its point), and writes what it says."""
    for name in ("fixtures", "tests", "docs"):
        os.symlink(REPO / name, tmp_path / name)
    (tmp_path / "out").mkdir()  # as in the repository: out/ is where examples write, and git ignores it
    examples = _examples(capsys)
    assert len(examples) >= 25
    for line in examples:
        argv = shlex.split(line)
        r = run(*argv, cwd=tmp_path)
        assert r.returncode in ((0, 1, 2) if argv[0] == "compare" else (0, 2)), (line, r.stderr)
        assert "Traceback" not in r.stderr, (line, r.stderr)
        assert r.stdout.strip(), line
        for flag in ("--npy", "--svg", "--out", "-o"):
            if flag in argv:
                assert argv[argv.index(flag) + 1].startswith("out/"), line  # run from the root, it leaves it clean
                written = tmp_path / argv[argv.index(flag) + 1]
                assert written.exists() and written.stat().st_size > 0, line
    import numpy as np
    assert np.array_equal(np.load(tmp_path / "out" / "seg_map.npy"),
                          np.load(REPO / "fixtures" / "tidl" / "io_08x" / "output_1_seg_map.expected.npy"))
    import binparse
    images = binparse.open(REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin").tensor("images", "input")
    packed = (tmp_path / "out" / "images.buffer.bin").read_bytes()
    assert len(packed) == 153228 and packed[:227] == bytes(227)  # the top padding row and the first left pad: zero
    assert np.array_equal(images.view(packed),
                          np.load(REPO / "fixtures" / "tidl" / "io_08x" / "input_0_images.expected.npy"))


def test_compare_help_says_both_forms_and_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    """The ESP-DL form `compare MODEL.espdl DUMPS/` is in the usage, and --model / --rounding say what
    they do for compare (not for export), as `view`'s and `pack`'s positionals say what they are."""
    text = help_of(["compare"], capsys)
    usage = text[:text.index("\n\n")].splitlines()
    assert usage == ["usage: binparse compare RUN REFERENCE [--net NET] [--min-snr DB] [--svg OUT.svg] [--json]",
                     "       binparse compare MODEL.espdl DUMPS/ [--model NAME] [--rounding {auto,half-even,half-up}] "
                     "[--min-snr DB]"]
    flat = " ".join(text.split())
    assert "--model NAME with MODEL.espdl DUMPS/: the model of a pack (PDL1/PDL2/PDL3) whose layers were dumped" in flat
    assert "--rounding {auto,half-even,half-up} with MODEL.espdl DUMPS/: the rounding the chip computes with" in flat
    assert "export" not in flat.split("Espressif ESP-DL options:")[1].split("TI TIDL options:")[0]
    export = " ".join(help_of(["export"], capsys).split())
    assert "--model NAME the model of a pack (PDL1/PDL2/PDL3) to export" in export
    for command, names in (("view", ["SOURCE", "BUFFER"]), ("pack", ["SOURCE", "ARRAY.npy"]), ("draw", ["SOURCE"])):
        positionals = [a.metavar for a in command_parser([command])._actions if not a.option_strings]
        assert positionals == names, command
