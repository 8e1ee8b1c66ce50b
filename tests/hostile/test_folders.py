"""Hostile folders: links out of the folder, FIFOs, sockets, dangling links, Git-LFS pointers and
permission denied, under `doctor`, `doctor -r` and `traces` (docs/contracts.md, "Hostile folders").

The links out point at a FIFO: following one would open it and hang until the time limit, so a
run that ends in time proves it was not followed.
"""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import REPO, Result, run, run_cli, within

FIX = REPO / "fixtures"
IO_DIR = FIX / "tidl" / "io_08x"
LFS = b"version https://git-lfs.github.com/spec/v1\noid sha256:" + b"0" * 64 + b"\nsize 37256\n"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder beside the one checked, holding a FIFO named like an artifact."""
    out = tmp_path / "outside"
    out.mkdir()
    os.mkfifo(out / "trap_tidl_net.bin")
    return out


def hostile_folder(folder: Path, outside: Path) -> Path:
    folder.mkdir()
    for f in IO_DIR.glob("*.bin"):
        shutil.copy(f, folder / f.name)
    os.mkfifo(folder / "fifo_tidl_net.bin")
    s = socket.socket(socket.AF_UNIX)
    s.bind(str(folder / "sock_tidl_io_1.bin"))
    s.close()
    os.symlink(folder / "nowhere", folder / "dangling_tidl_net.bin")
    os.symlink(outside / "trap_tidl_net.bin", folder / "out_tidl_net.bin")
    os.symlink(outside, folder / "linked_folder")
    (folder / "lfs_tidl_net.bin").write_bytes(LFS)
    return folder


def test_doctor_names_what_it_skips_and_never_says_ok(tmp_path: Path, outside: Path) -> None:
    folder = hostile_folder(tmp_path / "models", outside)
    r = run_cli("doctor", folder, timeout=30)
    assert not r.killed and r.returncode == 2, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == (f"binparse doctor {folder}: NOT VERIFIED: 5 files (dangling_tidl_net.bin, fifo_tidl_net.bin, "
                        "out_tidl_net.bin, sock_tidl_io_1.bin, lfs_tidl_net.bin: read only in part, with a layout no "
                        "vendor file confirms, or not read); no problems in the other 1")
    skipped = [line for line in lines if line.startswith("  skipped: ")]
    assert skipped == [
        "  skipped: dangling_tidl_net.bin: a dangling link (its target does not exist)",
        "  skipped: fifo_tidl_net.bin: a FIFO (named pipe): never opened",
        f"  skipped: linked_folder: a link to {outside}, outside the folder given: not followed",
        f"  skipped: out_tidl_net.bin: a link to {outside / 'trap_tidl_net.bin'}, outside the folder given: not followed",
        "  skipped: sock_tidl_io_1.bin: a socket: never opened"]
    assert "  [note] not verified: lfs_tidl_net.bin is a Git-LFS pointer: the file itself was not fetched " \
           "(`git lfs pull`)" in lines
    assert ("  [note] not verified: fifo_tidl_net.bin (named like a tidl net.bin) was skipped: a FIFO (named pipe): "
            "never opened") in lines
    assert "  900_tidl_io_1.bin: tidl io_1.bin J7 TIDL 08.x (08_00 … 08_06) (size 37,256 bytes)" in lines
    assert within(r, 37256)


def test_doctor_tree_walks_no_link_and_ends_with_a_tally(tmp_path: Path, outside: Path) -> None:
    top = tmp_path / "tree"
    top.mkdir()
    hostile_folder(top / "a", outside)
    shutil.copytree(IO_DIR, top / "b")
    os.symlink(outside, top / "b" / "escape")
    r = run_cli("doctor", "-r", top, timeout=60)
    assert not r.killed and r.returncode == 2, r.stderr
    heads = [line for line in r.stdout.splitlines() if line.startswith("binparse doctor ")]
    assert [h.split(":")[0] for h in heads] == [f"binparse doctor {top / 'a'}", f"binparse doctor {top / 'b'}"]
    assert heads[1].endswith(": no problems found")
    assert str(outside) not in "\n".join(heads)  # the folder outside was never walked
    # files read: a's six .bin files and everything of b; notes: a's five not verified, two padding notes each
    files = 6 + sum(p.is_file() for p in IO_DIR.iterdir())
    assert r.stdout.splitlines()[-1] == f"in all ({top}): 3 folders, {files} files, 0 problems, 9 notes, 5 not verified"


def test_traces_lists_no_link_out(tmp_path: Path, outside: Path) -> None:
    run_dir = tmp_path / "run"
    shutil.copytree(FIX / "tidl" / "traces_10_01", run_dir)
    os.symlink(outside / "trap_tidl_net.bin", run_dir / "tidl_trace_subgraph_0_0009_0001_0001_00001_00003_00005x00004.y")
    os.mkfifo(run_dir / "tidl_trace_subgraph_0_0010_0001_0001_00001_00003_00005x00004.y")
    r = run_cli("traces", run_dir, timeout=30)
    assert not r.killed and r.returncode == 2, r.stderr  # listed without the net: not read whole (exit 2)
    assert r.stdout.startswith(f"TIDL layer traces in {run_dir}: 8 files (current names)")
    assert "_0009_" not in r.stdout and "_0010_" not in r.stdout


@pytest.fixture
def shared_tmp() -> Iterator[Path]:
    """A folder another user can enter (pytest's own is 0700 to root)."""
    d = Path(tempfile.mkdtemp(prefix="binparse-hostile-"))
    d.chmod(0o755)
    try:
        yield d
    finally:
        for p in d.rglob("*"):
            if p.is_dir() and not p.is_symlink():
                p.chmod(0o755)
        shutil.rmtree(d)


def run_unprivileged(*args: str | Path, cache: Path) -> Result:
    """The CLI as a user whom permissions apply to (root reads everything: then as nobody)."""
    argv = [sys.executable, "-m", "binparse", *map(str, args)]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: permission denied cannot be shown")
        argv = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *argv]
    return run(argv, timeout=60, cwd="/", env={"BINPARSE_CACHE_DIR": str(cache)})


def test_permission_denied_is_a_finding_and_the_rest_is_reported(shared_tmp: Path) -> None:
    top = shared_tmp / "models"
    shutil.copytree(IO_DIR, top)
    shutil.copy(FIX / "tidl" / "net_08_06" / "910_tidl_net.bin", top / "locked_tidl_net.bin")
    (top / "locked_tidl_net.bin").chmod(0o000)
    (top / "closed").mkdir()
    shutil.copy(IO_DIR / "900_tidl_io_1.bin", top / "closed" / "x_tidl_io_1.bin")
    (top / "closed").chmod(0o000)
    for p in [top, *top.iterdir()]:
        if p.name not in ("locked_tidl_net.bin", "closed"):
            p.chmod(0o755 if p.is_dir() else 0o644)
    cache = shared_tmp / "cache"
    r = run_unprivileged("doctor", "-r", top, cache=cache)
    assert not r.killed and r.returncode == 2, r.stderr
    out = r.stdout.splitlines()
    assert out[0].startswith(f"binparse doctor {top}: NOT VERIFIED: 1 file (locked_tidl_net.bin: ")
    assert "  900_tidl_io_1.bin: tidl io_1.bin J7 TIDL 08.x (08_00 … 08_06) (size 37,256 bytes)" in out
    assert "  [note] not verified: locked_tidl_net.bin (named like a tidl net.bin) was skipped: permission denied" in out
    assert f"binparse doctor {top / 'closed'}: NOT VERIFIED: 1 file (closed/: read only in part, with a layout no " \
           "vendor file confirms, or not read); nothing else checked" in out
    files = sum(p.is_file() for p in IO_DIR.iterdir())  # the copied folder's; the locked one is not read
    assert out[-1] == f"in all ({top}): 2 folders, {files} files, 0 problems, 4 notes, 2 not verified"
    r = run_unprivileged("inspect", top / "locked_tidl_net.bin", cache=cache)
    assert r.returncode == 3 and r.stderr == f"binparse: error: {top / 'locked_tidl_net.bin'}: cannot read it " \
                                             "(permission denied)\n"
