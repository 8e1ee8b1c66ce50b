"""The `binparse` command: output, JSON, exit codes 0/2/3."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from binparse.cli import main

from .conftest import FIXTURES, REPO

FIXTURE = FIXTURES / "tidl" / "900_tidl_io_1.bin"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "binparse.cli", *args], capture_output=True, text=True, cwd=REPO)


def test_inspect_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(FIXTURE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{FIXTURE}: tidl.io.j7_08, J7 TIDL 08.x (08_00 … 08_06), 37,256 bytes"
    rows = {line.split()[0]: line for line in out[2:]}
    assert rows["num_input_buf"].split()[1:] == ["0", "i4", "2"]
    assert rows["in_width"].split(None, 3)[1:] == ["520", "i4", "×32                           [224, 3, 0 ×30]"]
    assert "['images', 'im_info', '' ×30]" in rows["in_data_name"]
    assert "[32.0, 4.0, 1.0, 0.0 ×29]" in rows["out_tensor_scale"]
    assert rows["out_layout"].split()[1] == "37128"


def test_inspect_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(FIXTURE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["format"] == "tidl.io.j7_08" and doc["size"] == 37256
    f = doc["fields"]
    assert f["num_output_buf"] == 3 and f["out_pad_ch"][:3] == [0, 1, 1]
    assert f["out_data_name"][:3] == ["logits", "seg_map", "detections"] and len(f["out_data_name"]) == 32


def test_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad_tidl_io_1.bin"
    bad.write_bytes(bytes(100))
    r = run("inspect", str(bad))
    assert r.returncode == 3 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"binparse: error: {bad}: no known format")
    assert "37,256 bytes = tidl.io.j7_08" in r.stderr
    r = run("inspect", str(tmp_path))
    assert r.returncode == 3 and "is a directory" in r.stderr
    r = run("inspect")
    assert r.returncode == 2 and "usage" in r.stderr
    r = run("frobnicate")
    assert r.returncode == 2


def test_schemas_and_generate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["format", "version", "identified", "by", "schema"]
    assert lines[1].split()[0] == "tidl.io.j7_08" and "37,256 bytes" in lines[1] and lines[1].endswith("tidl/tidl_io_buf_desc_j7_08")
    assert main(["generate", "--check"]) == 0
    assert capsys.readouterr().out.strip() == "generated accessors are up to date"
    r = subprocess.run([sys.executable, "-m", "binparse.codegen", "--check"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0 and "up to date" in r.stdout
