"""Ways out of the contract that are not a file's claims (issue 37): a mapped file cut short while it
is read (SIGBUS), standard output closed or gone, strict JSON whatever the values and names, and what
the Python API is handed (a path with a NUL, a buffer that is not contiguous)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.core.errors import BinparseError

from .harness import REPO, run_cli, run_python

FIX = REPO / "fixtures"
IO = FIX / "tidl" / "io_08x" / "900_tidl_io_1.bin"
BUF = FIX / "tidl" / "io_08x" / "output_1_seg_map.buffer.bin"


def test_a_mapped_file_cut_short_while_view_reads_it_is_one_line_and_exit_3(tmp_path: Path) -> None:
    """The buffer is mapped, then truncated by "another program" before `view` reads it: the process
    would die of SIGBUS (exit 135, no message); it says which file and exits 3 (an I/O error)."""
    buf = tmp_path / "seg.bin"
    shutil.copy(BUF, buf)
    code = f"""
import os, sys
import binparse.core.filemap as fm
real = fm.map_fd
def map_then_cut(fd, path, st=None):
    m = real(fd, path, st)
    if path.endswith("seg.bin"):
        os.truncate(path, 100)  # another program cuts the file short under the mapping
    return m
fm.map_fd, fm.READ_WHOLE = map_then_cut, 0  # every file mapped, as a large one is
from binparse.cli import main
sys.exit(main(["view", {str(IO)!r}, {str(buf)!r}, "--output", "seg_map", "--npy", {str(tmp_path / 'o.npy')!r}]))
"""
    r = run_python(code, timeout=60)
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert r.stderr == (f"binparse: error: {buf}: the file was cut short while binparse read it (another program "
                        "truncated or rewrote it): nothing was verified. Read it again once it is complete\n")
    assert not (tmp_path / "o.npy").exists()


def test_a_closed_or_gone_standard_output_is_an_io_error() -> None:
    cmd = [sys.executable, "-m", "binparse", "inspect", str(IO)]
    closed = subprocess.run(" ".join(cmd) + " >&-", shell=True, capture_output=True, text=True, timeout=60)
    assert closed.returncode == 3, closed.stderr
    assert closed.stderr == ("binparse: error: standard output is closed: nothing can be shown. Give the command an "
                             "output (a file or a pipe)\n")
    both = subprocess.run(" ".join(cmd) + " >&- 2>&-", shell=True, capture_output=True, text=True, timeout=60)
    assert both.returncode == 3  # stderr closed too: the exit code still says it (it was 1)
    full = subprocess.run(" ".join(cmd) + " > /dev/full", shell=True, capture_output=True, text=True, timeout=60)
    assert full.returncode == 3 and full.stderr == "binparse: error: No space left on device\n"
    gone = subprocess.run(f"{' '.join(cmd[:-2])} doctor -r {FIX} | head -c 10; exit ${{PIPESTATUS[0]}}", shell=True,
                          executable="/bin/bash", capture_output=True, text=True, timeout=120)
    assert gone.returncode == 3 and gone.stderr == "" and len(gone.stdout) == 10  # `| head`: quiet, but not 0


def test_json_is_strict_for_nan_infinity_and_names_that_are_not_utf8(tmp_path: Path) -> None:
    """A NaN tensor scale and a file name with a byte that is not UTF-8: `--json` stays strict JSON."""
    from binparse.core.render import json_text
    assert json_text({"scale": float("nan"), "max": float("inf"), "min": -float("inf"), "f": 0.1}) == \
        '{\n "scale": "NaN",\n "max": "Infinity",\n "min": "-Infinity",\n "f": 0.1\n}'
    io = bytearray(IO.read_bytes())
    words = np.frombuffer(io, np.float32, count=len(io) // 4)
    (at,) = np.flatnonzero(words == 32.0)  # the logits' scale, the one float32 32.0 of the descriptor
    io[4 * at:4 * at + 4] = np.float32("nan").tobytes()
    name = os.fsencode(str(tmp_path)) + b"/caf\xe9_tidl_io_1.bin"  # Latin-1, not UTF-8
    with open(name, "wb") as f:
        f.write(bytes(io))
    for args in (["inspect", "--json", os.fsdecode(name)], ["doctor", "--json", str(tmp_path)]):
        r = subprocess.run([sys.executable, "-m", "binparse", *args], capture_output=True, timeout=60)
        assert r.returncode in (0, 1, 2), r.stderr
        text = r.stdout.decode("utf-8")  # strict UTF-8: no lone surrogate was written
        doc = json.loads(text, parse_constant=lambda c: pytest.fail(f"not JSON: {c}"))
        named = doc["file"] if args[0] == "inspect" else doc["files"][0]["file"]
        assert named.endswith("caf\\xe9_tidl_io_1.bin")  # the byte as the text `\xe9`, as text output shows it
    assert '"NaN"' in subprocess.run([sys.executable, "-m", "binparse", "inspect", "--json", os.fsdecode(name)],
                                     capture_output=True, text=True, timeout=60).stdout


def test_the_api_refuses_a_nul_in_a_path_and_a_buffer_that_is_not_contiguous() -> None:
    with pytest.raises(BinparseError, match="holds a NUL character, which no file name can"):
        binparse.open(str(IO) + "\0.bin")
    with pytest.raises(BinparseError, match="memoryview is not C-contiguous"):
        binparse.open(memoryview(IO.read_bytes() * 2)[::2])
    with pytest.raises(BinparseError, match="not C-contiguous"):
        binparse.open(np.frombuffer(IO.read_bytes() * 2, np.uint8).reshape(2, -1)[:, :37256].T)
    assert binparse.open(memoryview(IO.read_bytes())).version == "08.x"
