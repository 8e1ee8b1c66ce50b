"""`doctor -r` prints each folder's report as soon as it is made, with a progress line on a terminal (on
stderr, taken away before each report and at the end) and nothing on stderr when piped (issue 39)."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest

import binparse.cli.doctor as doctor_module
from binparse.cli import main

from .conftest import FIXTURES


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _tree(tmp_path: Path) -> Path:
    """Twelve folders below one, each a copy of the TIDL io fixture (ten or more: the progress line shows)."""
    top = tmp_path / "runs"
    for k in range(12):
        shutil.copytree(FIXTURES / "tidl" / "io_08x", top / f"run_{k:02d}")
    return top


class _Log(io.StringIO):
    """stdout that notes, in the shared log, the first line of each report printed."""

    def __init__(self, log: list[str]) -> None:
        super().__init__()
        self.log = log

    def write(self, text: str) -> int:
        if text.startswith("binparse doctor "):
            self.log.append("printed " + Path(text.split(":", 1)[0].split()[-1]).name)
        return super().write(text)


def test_reports_stream_folder_by_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    top = _tree(tmp_path)
    log: list[str] = []
    real = doctor_module.doctor

    def noted(path: object, *args: object, **kwargs: object) -> dict[str, object]:
        log.append("checked " + Path(str(path)).name)
        return real(path, *args, **kwargs)  # type: ignore[arg-type]
    monkeypatch.setattr(doctor_module, "doctor", noted)
    out = _Log(log)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # piped: no progress
    assert main(["doctor", "-r", str(top)]) == 0
    # each folder's report comes before the next folder is checked (the root holds no file: not reported)
    assert log[:5] == ["checked runs", "checked run_00", "printed run_00", "checked run_01", "printed run_01"]
    assert log[-1] == "printed run_11" and len(log) == 25
    text = out.getvalue()
    assert text.endswith(f"\n\nin all ({top}): 13 folders, 156 files, 0 problems, 24 notes, 0 not verified\n")
    assert sys.stderr.getvalue() == ""


def test_a_progress_line_on_a_terminal_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    top = _tree(tmp_path)
    assert main(["doctor", "-r", str(top)]) == 0
    piped = capsys.readouterr()
    assert piped.err == ""
    err = _Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["doctor", "-r", str(top)]) == 0
    shown = err.getvalue()
    assert shown.startswith(f"\rdoctor: 0/13 ({top})")
    assert f"\rdoctor: 12/13 ({top / 'run_11'})" in shown
    assert shown.endswith("\r" + " " * len(f"doctor: 12/13 ({top / 'run_11'})") + "\r")  # taken away at the end
    assert capsys.readouterr().out == piped.out  # the same reports, whatever stderr is
