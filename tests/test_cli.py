"""The `binparse` command: output, JSON, exit codes 0/1/2/3 (docs/contracts.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from binparse.cli import main

from .conftest import FIXTURES, REPO, real

FIXTURE = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "binparse.cli", *args], capture_output=True, text=True, cwd=REPO)


def test_inspect_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(FIXTURE)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"{FIXTURE}: tidl.io.j7_08, J7 TIDL 08.x (08_00 … 08_06), 37,256 bytes"
    assert out[1] == "TIDL io descriptor 08.x, 1 core"
    assert out[2] == "inputs: 2 (pitches in elements)"
    assert out[4].split() == ["0", "images", "uint8", "1,1,1,3,224,224", "1,1,1,1,0", "51076", "226", "1", "0",
                              "NCHW", "153,228", "(computed)", "153,228"]
    assert out[6] == "outputs: 3 (pitches in elements)"
    assert out[9].split()[:8] == ["1", "seg_map", "uint8", "1,1,1,21,64,64", "1,1,2,1,1", "4422", "67", "4"]
    assert out[-2].startswith("padded in the device buffer: input images, output seg_map, output detections")
    assert out[-1] == f"  `binparse draw {FIXTURE} --output detections --svg output_detections.svg` pictures where it lies"


def test_inspect_fields(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--fields", str(FIXTURE)]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0]: line for line in out[2:]}
    assert rows["num_input_buf"].split()[1:] == ["0", "i4", "2"]
    assert rows["in_width"].split() == ["in_width", "520", "i4", "×32", "[224,", "3,", "0", "×30]"]
    assert "in_dim1" not in rows and "num_cores" not in rows  # not in the 08.x struct
    assert "['images', 'im_info', '' ×30]" in rows["in_data_name"]
    assert "[32.0, 4.0, 1.0, 0.0 ×29]" in rows["out_tensor_scale"]
    assert rows["out_layout"].split()[1] == "37128"
    assert main(["inspect", "--fields", "--json", str(FIXTURE)]) == 0
    f = json.loads(capsys.readouterr().out)["fields"]
    assert f["num_output_buf"] == 3 and f["out_pad_ch"][:3] == [0, 1, 1] and f["in_buf_size"] is None
    assert f["out_data_name"][:3] == ["logits", "seg_map", "detections"] and len(f["out_data_name"]) == 32


def test_inspect_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(FIXTURE)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["family"], doc["kind"], doc["version"], doc["cores"]) == ("tidl", "io_bufdesc", "08.x", 1)
    assert doc["format"] == "tidl.io.j7_08" and doc["size"] == 37256
    assert [t["name"] for t in doc["inputs"]] == ["images", "im_info"]
    seg = doc["outputs"][1]
    assert seg == {"name": "seg_map", "index": 1, "data_id": 61, "dtype": "uint8", "shape": [1, 1, 1, 21, 64, 64],
                   "pad": {"left": 1, "top": 1, "right": 2, "bottom": 1, "channel": 1},
                   "channel_pitch": 4422, "line_pitch": 67, "scale": 4.0, "zero_point": 3, "layout": "NCHW",
                   "buf_size": 97284, "buf_size_source": "computed"}
    assert doc["outputs"][0]["dtype"] == "int8" and doc["outputs"][2]["dtype"] == "float32"


def test_view_writes_the_logical_tensor(tmp_path: Path) -> None:
    import numpy as np

    from binparse import open as bopen
    seg = bopen(FIXTURE).tensor("seg_map")
    logical = (np.arange(21 * 64 * 64) % 200).astype(np.uint8).reshape(1, 1, 1, 21, 64, 64)
    buf = tmp_path / "seg.bin"
    buf.write_bytes(bytes(seg.pack(logical)))
    out = tmp_path / "seg.npy"
    r = run("view", str(FIXTURE), str(buf), "--output", "seg_map", "--npy", str(out))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"{out}: output seg_map, uint8, shape (1, 1, 1, 21, 64, 64)"
    assert np.array_equal(np.load(out), logical)
    r = run("view", str(FIXTURE), str(buf), "--output", "1", "--npy", str(out), "--dequantize")
    assert r.returncode == 0, r.stderr
    got = np.load(out)
    assert got.dtype == np.float32 and got[0, 0, 0, 2, 5, 7] == (logical[0, 0, 0, 2, 5, 7] - 3) / 4.0
    short = tmp_path / "short.bin"
    short.write_bytes(buf.read_bytes()[:1000])
    r = run("view", str(FIXTURE), str(short), "--output", "seg_map", "--npy", str(out))
    assert r.returncode == 2 and "outside the buffer" in r.stderr  # the buffer could not be read
    r = run("view", str(FIXTURE), str(buf), "--input", "nope", "--npy", str(out))
    assert r.returncode == 2 and "no input 'nope'" in r.stderr


def test_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad_tidl_io_1.bin"
    bad.write_bytes(bytes(100))
    r = run("inspect", str(bad))
    assert r.returncode == 2 and r.stdout == ""  # read, but no layout reads it
    assert r.stderr.count("\n") == 1 and r.stderr.startswith(f"binparse: error: {bad}: no known format")
    assert "37,256 bytes = tidl.io.j7_08" in r.stderr
    # the command line names its option; the Python API (tests/test_errors.py) its argument, format=NAME
    assert r.stderr.endswith("Pass --format NAME if you know what it is (`binparse schemas` lists them)"
                             "; a device buffer has no format of its own: its descriptor or a layout flag reads it (`binparse view --help`)\n")
    r = run("inspect", str(tmp_path))  # a folder with a TIDL io in it: listed, the io said unreadable
    assert f"{bad.name}: unreadable: not read: no known format" in r.stdout
    (tmp_path / "empty").mkdir()
    r = run("inspect", str(tmp_path / "empty"))
    assert r.returncode == 3 and "is a directory" in r.stderr  # I/O: not a file
    r = run("inspect", str(tmp_path / "missing.bin"))
    assert r.returncode == 3 and r.stderr == f"binparse: error: {tmp_path / 'missing.bin'}: no such file or folder\n"
    r = run("inspect")
    assert r.returncode == 3 and r.stderr.startswith("usage: binparse inspect PATH")  # argparse's usage errors: 3, not argparse's 2
    r = run("frobnicate")
    assert r.returncode == 3 and "invalid choice: 'frobnicate'" in r.stderr


def test_schemas_and_generate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schemas"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Espressif ESP-DL (espdl): ")
    rows = {line.split()[0]: line for line in lines if line.startswith("    tidl.")}
    assert "37,256 bytes" in rows["tidl.io.j7_08"] and rows["tidl.io.j7_08"].endswith("tidl/tidl_io_buf_desc")
    assert "378,392 bytes" in rows["tidl.io.j7_10.c4"] and "1,160 bytes" in rows["tidl.io.tda2"]
    assert main(["generate", "--check"]) == 0
    assert capsys.readouterr().out.strip() == "generated accessors are up to date"
    r = subprocess.run([sys.executable, "-m", "binparse", "generate", "--check"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0 and "up to date" in r.stdout


def test_warnings_are_one_plain_line(tmp_path: Path) -> None:
    """A net of an unknown netVersion: the warning is one `binparse: warning:` line, no Python source line."""
    data = bytearray(real("tidl/j7-10.01/ow-tiny/ow_tiny_net.bin").read_bytes())
    data[:4] = (0x20260101).to_bytes(4, "little")
    net = tmp_path / "new_tidl_net.bin"
    net.write_bytes(bytes(data))
    r = run("inspect", "--fields", str(net))  # the fields table does not say it: the warning does, once
    assert r.returncode == 2  # read with the nearest layout: not verified
    err = r.stderr.splitlines()
    assert len(err) == 1 and err[0].startswith(f"binparse: warning: {net}: netVersion 0x20260101 ")
    assert "read with the 10.01 layout (netVersion 0x20241120)" in err[0]
    assert r.stdout.splitlines()[2].split() == ["net_version", "0", "u4", "0x20260101"]
    r = run("inspect", str(net))  # the report says it (UNVERIFIED): not printed again on stderr
    assert r.returncode == 2 and r.stderr == ""  # not verified: exit 2
    assert "TIDL network unknown, netVersion 0x20260101, 3 layers" in r.stdout
    assert r.stdout.count("netVersion 0x20260101 (a version binparse does not know) has no verified layout") == 1
    r = run("inspect", "--json", str(net))
    assert r.returncode == 2 and r.stderr == "" and json.loads(r.stdout)["unverified"].startswith("netVersion")


def test_python_dash_m_binparse_is_the_command() -> None:
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "binparse", "inspect", "--json",
                          str(FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin")],
                         capture_output=True, text=True, check=True).stdout
    doc = json.loads(out)
    assert (doc["family"], doc["version"]) == ("tidl", "08.x")
    assert [t["name"] for t in doc["outputs"]] == ["logits", "seg_map", "detections"]


def test_reading_a_file_imports_no_yaml_parser() -> None:
    # Schemas are compiled into accessors ahead of time: opening and inspecting a file must not
    # import the .ksy loader or PyYAML (a start-up cost on every CLI call).
    code = ("import sys, binparse, binparse.cli; binparse.open(sys.argv[1]).summary(); "
            "print(sorted(m for m in sys.modules if m == 'yaml' or m == 'binparse.engine.schema.load'))")
    out = subprocess.run([sys.executable, "-c", code, str(FIXTURE)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
