"""The one resource budget (binparse.core.budget) and the inputs a command never writes over
(binparse.core.inputs, binparse.core.writes): docs/contracts.md, "Resources" and "Writes"."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from binparse.core import budget, inputs
from binparse.core.budget import BudgetError
from binparse.cli import main
from binparse.core.errors import WriteError
from binparse.core.paths import open_regular
from binparse.core.writes import write_bytes

from .conftest import FIXTURES

IO = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
BUF = FIXTURES / "tidl" / "io_08x" / "output_1_seg_map.buffer.bin"


def test_sizes_as_users_write_them() -> None:
    assert budget.parse_size("1000000") == 1_000_000
    assert budget.parse_size("512MiB") == 512 * 2**20
    assert budget.parse_size("4GiB") == 4 * 2**30
    assert budget.parse_size("2.5GB") == 2_500_000_000
    assert budget.parse_size("64k") == 65536
    for bad in ("", "10Q", "-5", "1e9", "4 GiB GiB", "9" * 16):
        with pytest.raises(ValueError):
            budget.parse_size(bad)


def test_the_budget_grows_with_every_input_and_claims_add_up_in_a_command() -> None:
    with inputs.command() as run:
        assert budget.limit() == budget.ALLOWANCE
        os.close(open_regular(IO))
        os.close(open_regular(IO))  # the same file twice counts once
        assert run.input_bytes == 37_256
        assert budget.limit() == 8 * 37_256 + 256 * 2**20
        budget.ask(budget.limit() - 10, "a table")
        budget.ask(10, "a name")
        with pytest.raises(BudgetError) as e:
            budget.ask(1, "tensor 'x'", file="x.bin")
    assert str(e.value) == (
        "x.bin: tensor 'x' needs 1 bytes after 268,733,504 bytes already asked, over the budget of 268,733,504 "
        "bytes (8 × 37,256 bytes of input + 256 MiB): refused before it was made. If the file really is that "
        "large, raise the budget: pass --budget SIZE (e.g. 4GiB) or set BINPARSE_BUDGET")


def test_outside_a_command_each_claim_stands_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(inputs, "_PROCESS", inputs.Run())
    for _ in range(3):  # a long-running program frees what it read: claims do not add up
        budget.ask(budget.ALLOWANCE, "a buffer")
    with pytest.raises(BudgetError):
        budget.ask(budget.ALLOWANCE + 1, "a buffer")
    monkeypatch.setenv(budget.ENV, "1GiB")
    budget.ask(2**30, "a buffer")
    assert budget.describe() == "set by BINPARSE_BUDGET"


def test_a_command_refuses_to_write_over_any_of_its_inputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    io, buf = tmp_path / "io.bin", tmp_path / "buf.bin"
    shutil.copy(IO, io)
    shutil.copy(BUF, buf)
    os.link(buf, tmp_path / "hard.bin")
    os.symlink(io, tmp_path / "link.npy")
    before = {p.name: p.read_bytes() for p in (io, buf)}
    for out in (io, buf, tmp_path / "hard.bin"):
        assert main(["view", str(io), str(buf), "--output", "seg_map", "--npy", str(out)]) == 3
    err = capsys.readouterr().err
    assert f"{tmp_path / 'hard.bin'}: is an input of this command (read as {buf})" in err
    assert f"{io}: is an input of this command: binparse never writes over what it reads, nothing written" in err
    assert main(["view", str(io), str(buf), "--output", "seg_map", "--npy", str(tmp_path / "link.npy")]) == 3
    assert {p.name: p.read_bytes() for p in (io, buf)} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["buf.bin", "hard.bin", "io.bin", "link.npy"]  # no temp left


def test_what_a_command_writes_asks_its_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "seg.npy"
    assert main(["view", str(IO), str(BUF), "--output", "seg_map", "--npy", str(out), "--budget", "1000"]) == 2
    assert "over the budget of 1,000 bytes (set by --budget)" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing written, no temporary file left
    assert main(["view", str(IO), str(BUF), "--output", "seg_map", "--npy", str(out), "--budget", "1MiB"]) == 0
    assert out.stat().st_size == 128 + 21 * 64 * 64
    with pytest.raises(SystemExit) as e:
        main(["view", str(IO), str(BUF), "--output", "seg_map", "--npy", str(out), "--budget", "10Q"])
    assert e.value.code == 3


def test_writes_outside_a_command_refuse_nothing_they_were_not_told(tmp_path: Path) -> None:
    with inputs.command():
        target = tmp_path / "a.bin"
        write_bytes(target, b"abc")
        os.close(open_regular(target))  # now read: an input
        with pytest.raises(WriteError, match="is an input of this command"):
            write_bytes(target, b"xyz")
    assert target.read_bytes() == b"abc"
    write_bytes(target, b"xyz")  # the next command has not read it
    assert target.read_bytes() == b"xyz"
