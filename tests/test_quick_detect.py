"""`binparse.open(bytes)` first asks `registry.quick_detect`, a short cut for nameless binary
buffers. It must give the answer of the full path (`sniff`, then `detect`) or none at all, for
every file binparse has, whichever families are imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from binparse.family import plugins
from binparse.core.errors import FormatError
from binparse.family.registry import detect, quick_detect, sniff

from .conftest import FIXTURES, REAL, REPO


def _files() -> list[Path]:
    roots = [FIXTURES] + ([REAL] if REAL.is_dir() else [])
    return sorted(p for root in roots for p in root.rglob("*") if p.is_file())


def _full(data: bytes) -> str:
    """What the full path answers for a nameless buffer: a sniffer's opener, a format, or an error."""
    head = data[:4096]
    if sniff(None, head) is not None:
        return "sniffed"
    try:
        return detect(len(data), head, buf=memoryview(data)).name
    except FormatError as exc:
        return f"error: {exc.message}"


def test_quick_detect_gives_the_full_answer_or_none_for_every_file() -> None:
    plugins.load_all()
    quick = {}
    for path in _files():
        data = path.read_bytes()
        fmt = quick_detect(len(data), data[:4096])
        if fmt is not None:
            assert _full(data) == fmt.name, path
            key = path.relative_to(REPO) if FIXTURES in path.parents else Path("real", path.relative_to(REAL))
            quick[key.as_posix()] = fmt.name
    # the io descriptors of every listed size and the ESP-DL models of every magic are answered quickly
    io = {k.split("/")[2]: v for k, v in quick.items() if k.startswith("fixtures/tidl/io_")}
    assert io == {"io_08x": "tidl.io.j7_08", "io_09_00": "tidl.io.j7_09_00", "io_09_02_c1": "tidl.io.j7_09_02.c1",
                  "io_09_02_c2": "tidl.io.j7_09_02.c2", "io_09_02_c4": "tidl.io.j7_09_02.c4",
                  "io_10_c1": "tidl.io.j7_10.c1", "io_10_c2": "tidl.io.j7_10.c2", "io_10_c4": "tidl.io.j7_10.c4",
                  "io_10_large_output": "tidl.io.j7_10.c1",
                  "io_11_02_am62a": "tidl.io.j7_10.c4",
                  "io_tda2": "tidl.io.tda2"}
    # a J7 net starts with its netVersion: a listed one is its format's magic (the nearest-net sniffer
    # is asked only about the others); TDA2/AM57x nets are known by their size alone
    assert quick["fixtures/tidl/net_10_01/914_tidl_net.bin"] == "tidl.net.j7_10_01"
    assert quick["fixtures/tidl/net_08_06/910_tidl_net.bin"] == "tidl.net.j7_08_06"
    assert quick["fixtures/tidl/net_tidl_api_1_2/912_tidl_net.bin"] == "tidl.net.tda2"
    assert {v for k, v in quick.items() if k.endswith(".espdl")} >= {"espdl.edl1", "espdl.edl2", "espdl.pdl1"}


def test_solved_io_size_and_net_are_left_to_the_full_path() -> None:
    plugins.load_all()
    solved = (FIXTURES / "tidl" / "io_09_01_am68a" / "912_tidl_io_1.bin").read_bytes()  # 37,912 bytes: no listed size
    assert len(solved) == 37912 and quick_detect(len(solved), solved[:4096]) is None
    net = bytearray(next((FIXTURES / "tidl" / "net_10_01").glob("*_tidl_net.bin")).read_bytes())
    net[:4] = (0x20260101).to_bytes(4, "little")  # a netVersion no format lists: the nearest-net sniffer's
    assert net[3] == 0x20 and quick_detect(len(net), bytes(net[:4096])) is None


_PENDING_SCRIPT = """
import json, sys
import binparse.formats.tidl.register  # a user who imports TIDL's module directly: the others stay unimported
import binparse
from binparse.family import plugins, registry
io = open(sys.argv[1], "rb").read()
model = open(sys.argv[2], "rb").read()
out = {"pending": sorted(f.name for f in plugins._pending())}
out["quick_io"] = registry.quick_detect(len(io), io[:4096]).name
out["io"] = type(binparse.open(io)).__name__
out["pending_after_io"] = sorted(f.name for f in plugins._pending())
out["quick_model"] = registry.quick_detect(len(model), model[:4096])
out["model"] = type(binparse.open(model)).__name__
out["pending_after_model"] = sorted(f.name for f in plugins._pending())
print(json.dumps(out))
"""


def test_a_family_not_imported_yet_is_asked_through_its_signs() -> None:
    """With ESP-DL not imported, an io buffer is answered quickly (ESP-DL's model sign does not
    show) and imports nothing; an .espdl model's bytes show ESP-DL's sign, so the full path
    imports the family and reads the model."""
    io = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
    model = FIXTURES / "espdl" / "tensors_and_models" / "model_edl2.espdl"
    r = subprocess.run([sys.executable, "-c", _PENDING_SCRIPT, str(io), str(model)], capture_output=True, text=True,
                       cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {
        "pending": ["dlhdl", "espdl", "intel_dla"], "quick_io": "tidl.io.j7_08", "io": "IoBufDesc",
        "pending_after_io": ["dlhdl", "espdl", "intel_dla"], "quick_model": None, "model": "EspdlFile",
        "pending_after_model": ["dlhdl", "intel_dla"]}


@pytest.mark.parametrize("text", [b"numInputBuf = 1\n" * 40, b'{"a": 1}'])
def test_text_is_never_answered_quickly(text: bytes) -> None:
    plugins.load_all()
    assert quick_detect(len(text), text[:4096]) is None
