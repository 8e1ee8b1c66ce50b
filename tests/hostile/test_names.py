"""Names are data (docs/contracts.md, "Names"): file, tensor and layer names holding newlines,
carriage returns, ANSI/OSC escapes, C1 controls and XML's specials are shown escaped in text,
stay valid in SVG and JSON, and cannot forge a doctor line or headline."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from xml.etree import ElementTree

from binparse.core.text import shown, xml_text

from .harness import REPO, run_cli

IO = REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin"
IN_NAME = "in\x1b]0;pwned\x07\x1b[31mred"
OUT_NAME = "out\nfake line\r\x9b2J<&>\x01"
SPEC = """family: tidl
kind: io
version: "08.x"
output: m_tidl_io_1.bin
inputs: [{name: "in\\e]0;pwned\\a\\e[31mred", dtype: uint8, shape: [3, 8, 8], data_id: 0}]
outputs: [{name: "out\\nfake line\\r\\x9b2J<&>\\x01", dtype: int8, shape: [4, 8, 9], data_id: 1}]
"""


def test_shown_and_xml_text() -> None:
    assert shown(IN_NAME) == "in\\x1b]0;pwned\\x07\\x1b[31mred"
    assert shown(OUT_NAME) == "out\\nfake line\\r\\x9b2J<&>\\x01"
    assert shown("naïve\u202egnp.exe\udcff") == "naïve\\u202egnp.exe\\xff"  # bidi override; a byte not UTF-8
    assert xml_text(OUT_NAME) == "out\\nfake line\\r\\x9b2J&lt;&amp;&gt;\\x01"


def test_a_file_name_cannot_forge_doctor_lines(tmp_path: Path) -> None:
    forged = "x\n  [ok] all verified\nbinparse doctor x: no problems found\n_tidl_net.bin"
    (tmp_path / forged).write_bytes(b"\x01\x12\x21\x20" + bytes(60))  # named like a net; no layout reads it
    shutil.copy(IO, tmp_path / "\x1b]0;title\x07\x1b[2J_tidl_io_1.bin")
    r = run_cli("doctor", tmp_path, timeout=60)
    assert r.returncode == 2 and "\x1b" not in r.stdout and "\x07" not in r.stdout  # the net cannot be read: 2
    lines = r.stdout.splitlines()
    assert [line for line in lines if line.startswith("binparse doctor")] == [
        f"binparse doctor {tmp_path}: NOT VERIFIED: 1 file (x\\n  [ok] all verified\\nbinparse doctor x: no problems "
        "found\\n_tidl_net.bin: read only in part, with a layout no vendor file confirms, or not read); no problems in "
        "the other 1"]
    assert not any(line.startswith("  [ok] all verified") for line in lines)
    assert lines[1] == "  \\x1b]0;title\\x07\\x1b[2J_tidl_io_1.bin: tidl io_1.bin J7 TIDL 08.x (08_00 … 08_06) " \
                       "(size 37,256 bytes)"
    assert any(line.startswith("  [note] not verified: x\\n  [ok] all verified\\nbinparse doctor x: no problems found\\n"
                               "_tidl_net.bin looks like a tidl net.bin") for line in lines)
    doc = json.loads(run_cli("doctor", "--json", tmp_path, timeout=60).stdout)  # JSON keeps the names as they are
    assert doc["files"][0]["file"] == "\x1b]0;title\x07\x1b[2J_tidl_io_1.bin"


def test_tensor_names_in_inspect_draw_json_and_errors(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    assert run_cli("fixture", spec, "-o", tmp_path / "o", timeout=60).returncode == 0
    io = tmp_path / "o" / "m_tidl_io_1.bin"
    r = run_cli("inspect", io, timeout=30)
    assert r.returncode == 0 and "\x1b" not in r.stdout and "\r" not in r.stdout and "\x9b" not in r.stdout
    assert "  0  in\\x1b]0;pwned\\x07\\x1b[31mred  uint8  1,1,1,3,8,8" in r.stdout
    assert "  0  out\\nfake line\\r\\x9b2J<&>\\x01  int8   1,1,1,4,8,9" in r.stdout
    doc = json.loads(run_cli("inspect", "--json", io, timeout=30).stdout)
    assert [t["name"] for t in doc["inputs"] + doc["outputs"]] == [IN_NAME, OUT_NAME]
    svg = tmp_path / "o.svg"
    r = run_cli("draw", io, "--output", "0", "--svg", svg, timeout=30)
    assert r.returncode == 0 and r.stdout.startswith(f"{svg}: TIDL output 'out\\nfake line\\r\\x9b2J<&>\\x01' (int8)")
    title = ElementTree.parse(svg).getroot().find("{http://www.w3.org/2000/svg}text")
    assert title is not None and title.text is not None and "out\\nfake line\\r\\x9b2J<&>\\x01" in title.text
    r = run_cli("view", io, tmp_path / "missing\x1b[31m.bin", "--output", "0", "--npy", tmp_path / "x.npy", timeout=30)
    assert r.returncode == 3 and r.stderr == f"binparse: error: {tmp_path}/missing\\x1b[31m.bin: no such file or folder\n"


def test_trace_file_names_in_traces(tmp_path: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(REPO / "fixtures" / "tidl" / "traces_10_01", run_dir)
    for f in run_dir.glob("tidl_trace_subgraph_0_0001_*"):
        f.rename(run_dir / ("e\x1b]0;t\x07" + f.name))
    r = run_cli("traces", run_dir, timeout=30)
    assert r.returncode == 2 and "\x1b" not in r.stdout and "\x07" not in r.stdout  # 2: no --net
    ends = [line.rsplit("  ", 1)[-1] for line in r.stdout.splitlines()[2:]]
    assert "e\\x1b]0;t\\x07tidl_trace_subgraph_0_0001_0001_0001_00001_00003_00005x00004.y" in ends
