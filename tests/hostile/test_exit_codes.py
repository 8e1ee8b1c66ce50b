"""The exit-code contract (docs/contracts.md), command by command, each in a capped subprocess:
0 read, verified and agreeing; 1 a problem proven; 2 something not read or not verified; 3 usage or I/O."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .harness import REPO, run_cli, within

FIX = REPO / "fixtures"
IO = FIX / "tidl" / "io_08x" / "900_tidl_io_1.bin"
SECRET = FIX / "espdl" / "models" / "edl1_secret.espdl"


def test_usage_errors_exit_3() -> None:
    for args, said in ((["inspect"], "the following arguments are required: PATH"),
                       (["frobnicate"], "invalid choice: 'frobnicate'"),
                       (["inspect", str(IO), "--no-such-option"], "unrecognized arguments: --no-such-option"),
                       (["view", str(IO)], "the following arguments are required: --npy")):
        r = run_cli(*args, timeout=30)
        assert r.returncode == 3 and r.stdout == "", (args, r.stderr)
        assert r.stderr.startswith("usage: binparse") and said in r.stderr, r.stderr


def test_io_errors_exit_3_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe_tidl_io_1.bin"
    os.mkfifo(fifo)
    cases = [(["inspect", str(tmp_path / "missing.bin")], f"{tmp_path / 'missing.bin'}: no such file or folder"),
             (["inspect", str(tmp_path)], f"{tmp_path}: is a directory, not a file"),
             (["inspect", str(fifo)], f"{fifo}: is a FIFO (named pipe), not a regular file: never read"),
             (["inspect", "/dev/zero"], "/dev/zero: is a character device, not a regular file: never read"),
             (["view", str(IO), str(fifo), "--input", "x", "--npy", str(tmp_path / "x.npy")], "is a FIFO"),
             (["pack", str(IO), str(fifo), "--input", "images", "--out", str(tmp_path / "o.bin")], "is a FIFO"),
             (["doctor", str(fifo)], "is a FIFO"),
             (["fixture", str(fifo), "-o", str(tmp_path / "o")], "is a FIFO"),
             (["schema", "diff", str(fifo), "tidl.io.j7_08"], "is a FIFO"),
             (["schema", "from-header", str(fifo), "--struct", "x", "--out", str(tmp_path / "x.ksy")], "is a FIFO"),
             (["traces", str(FIX / "tidl" / "traces_10_01"), "--net", str(fifo)], "is a FIFO"),
             (["doctor", str(tmp_path / "missing")], "no such file or folder")]
    for args, said in cases:
        r = run_cli(*args, timeout=20)
        assert not r.killed and r.returncode == 3, (args, r.stderr)
        assert r.stderr.startswith("binparse: error: ") and said in r.stderr and r.stderr.count("\n") == 1, r.stderr
        assert within(r, 0)


def test_content_that_cannot_be_read_exits_2(tmp_path: Path) -> None:
    cut = tmp_path / "cut_tidl_io_1.bin"
    cut.write_bytes(IO.read_bytes()[:100])
    r = run_cli("inspect", cut, timeout=30)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.startswith(f"binparse: error: {cut}: no known format") and r.stderr.count("\n") == 1
    lfs = tmp_path / "m_tidl_net.bin"
    lfs.write_text("version https://git-lfs.github.com/spec/v1\noid sha256:" + "0" * 64 + "\nsize 5760\n")
    r = run_cli("inspect", lfs, timeout=30)
    assert r.returncode == 2 and r.stderr == (f"binparse: error: {lfs}: is a Git-LFS pointer, not the file itself (it "
                                              "was not fetched). Run `git lfs pull` in its repository\n")


def test_inspect_of_something_read_but_not_verified_exits_2() -> None:
    r = run_cli("inspect", SECRET, timeout=30)  # an encrypted model without its key: the header only
    assert r.returncode == 2, r.stderr
    assert "encrypted: header only (pass --key HEX to decode)" in r.stdout
    r = run_cli("inspect", IO, timeout=30)
    assert r.returncode == 0 and r.stdout.startswith(f"{IO}: tidl.io.j7_08,")


def test_a_net_read_with_the_nearest_layout_is_not_verified(tmp_path: Path) -> None:
    data = bytearray((FIX / "tidl" / "net_10_01" / "914_tidl_net.bin").read_bytes())
    data[:4] = (0x20991231).to_bytes(4, "little")  # a netVersion no SDK has written
    folder = tmp_path / "m"
    folder.mkdir()
    (folder / "m_tidl_net.bin").write_bytes(bytes(data))
    r = run_cli("inspect", folder / "m_tidl_net.bin", timeout=30)
    assert r.returncode == 2 and r.stdout.splitlines()[2].startswith("UNVERIFIED: netVersion 0x20991231 ")
    r = run_cli("doctor", folder, timeout=30)
    assert r.returncode == 2 and r.stdout.startswith(f"binparse doctor {folder}: NOT VERIFIED: 1 file (m_tidl_net.bin: ")


def test_doctor_exits_by_its_findings(tmp_path: Path) -> None:
    r = run_cli("doctor", FIX / "tidl" / "io_08x", timeout=60)
    assert r.returncode == 0 and r.stdout.startswith(f"binparse doctor {FIX / 'tidl' / 'io_08x'}: no problems found")
    r = run_cli("doctor", FIX / "espdl" / "models", timeout=60)  # two encrypted models, no key
    head = r.stdout.splitlines()[0]
    assert r.returncode == 2 and head.startswith(f"binparse doctor {FIX / 'espdl' / 'models'}: NOT VERIFIED: ")
    assert "edl1_secret.espdl" in head and "no problems" not in head.split(";")[0]
    r = run_cli("doctor", tmp_path, timeout=30)  # nothing binparse knows: never "no problems", never 0
    assert r.returncode == 2 and "NOTHING CHECKED" in r.stdout
    bad = tmp_path / "bad"
    bad.mkdir()
    shutil.copy(IO, bad / "m_tidl_io_1.bin")
    (bad / "m_tidl_net.bin").write_bytes(b"\x01\x12\x21\x20" + bytes(60))  # a netVersion, then nothing
    r = run_cli("doctor", bad, timeout=60)  # a file no layout reads: not verified, as `inspect` of it says (2)
    assert r.returncode == 2 and r.stdout.startswith(f"binparse doctor {bad}: NOT VERIFIED: 1 file (m_tidl_net.bin: "), \
        r.stdout
    assert run_cli("inspect", bad / "m_tidl_net.bin", timeout=60).returncode == 2
    r = run_cli("doctor", FIX / "espdl" / "int32_defect", timeout=60)  # a problem proven: 1
    assert r.returncode == 1 and r.stdout.startswith(f"binparse doctor {FIX / 'espdl' / 'int32_defect'}: "
                                                     "PROBLEMS FOUND"), r.stdout


def test_the_contract_is_in_help() -> None:
    r = run_cli("--help", timeout=30)
    text = " ".join(r.stdout.split())
    assert r.returncode == 0
    assert ("exit codes (every command): 0 everything named was read, verified and agrees 1 a problem "
            "was proven") in text
    assert "3 usage or I/O error" in text and "docs/contracts.md" in text
