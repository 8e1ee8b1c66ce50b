"""Confined writes (docs/contracts.md, "Writes"): every writing command, pointed at a symbolic link,
a FIFO or a folder, refuses (exit 3) and leaves it as it was; a regular file it replaces keeps its
mode; `fixture` writes only inside -o; `generate` never writes through a planted `.tmp` link."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from .harness import REPO, run_cli, run_python

FIX = REPO / "fixtures"
IO_DIR = FIX / "tidl" / "io_08x"
IO = IO_DIR / "900_tidl_io_1.bin"
IMAGES = IO_DIR / "input_0_images.buffer.bin"


def _images_npy(tmp: Path) -> Path:
    npy = tmp / "images.npy"
    if not npy.exists():
        assert run_cli("view", IO, IMAGES, "--input", "images", "--npy", npy, timeout=30).returncode == 0
    return npy


WRITERS: dict[str, Callable[[Path, Path], list[str | Path]]] = {
    "draw --svg": lambda out, tmp: ["draw", "--dlhdl", "conv", "--thread-number", "9", "--shape", "3,3,4", "--svg", out],
    "view --npy": lambda out, tmp: ["view", IO, IMAGES, "--input", "images", "--npy", out],
    "pack --out": lambda out, tmp: ["pack", IO, _images_npy(tmp), "--input", "images", "--out", out],
    "compare --svg": lambda out, tmp: ["compare", FIX / "tidl" / "traces_10_01", FIX / "tidl" / "traces_10_01_old",
                                       "--net", FIX / "tidl" / "net_10_01_traces" / "915_tidl_net.bin", "--svg", out],
    "repair -o": lambda out, tmp: ["repair", FIX / "espdl" / "int32_defect" / "narrow_all.espdl", "-o", out],
    "schema from-header --out": lambda out, tmp: ["schema", "from-header", REPO / "tests" / "data" / "headers" /
                                                  "itidl_io_08_06.h", "--struct", "sTIDL_IOBufDesc_t", "--out", out],
}


@pytest.mark.parametrize("writer", list(WRITERS))
def test_writers_refuse_links_fifos_and_folders_and_keep_modes(writer: str, tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"not yours\n")
    link = tmp_path / "link.out"
    link.symlink_to(victim)
    fifo = tmp_path / "fifo.out"
    os.mkfifo(fifo)
    folder = tmp_path / "folder.out"
    folder.mkdir()
    targets = [(link, "a symbolic link"), (fifo, "a FIFO (named pipe)"), (folder, "a folder")]
    device = tmp_path / "null.out"
    if os.geteuid() == 0:  # a device node of its own (as /dev/null is): root may make one, and would replace it
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        targets.append((device, "a character device"))
    for target, what in targets:
        r = run_cli(*WRITERS[writer](target, tmp_path), timeout=30)
        assert not r.killed and r.returncode == 3, (writer, target, r.stderr)
        assert r.stderr == (f"binparse: error: {target}: is {what}: binparse replaces only regular files, nothing "
                            "written. Give the path of a new or regular file\n"), r.stderr
    assert victim.read_bytes() == b"not yours\n" and link.is_symlink() and os.readlink(link) == str(victim)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and list(folder.iterdir()) == []
    assert os.geteuid() != 0 or stat.S_ISCHR(os.lstat(device).st_mode)
    private = tmp_path / "private.out"
    private.write_bytes(b"old")
    private.chmod(0o600)
    done = 1 if writer == "compare --svg" else 0  # the two fixture runs diverge: compare's 1, picture written
    r = run_cli(*WRITERS[writer](private, tmp_path), timeout=60)
    assert r.returncode == done, r.stderr
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and private.read_bytes() != b"old"
    new = tmp_path / "new.out"
    r = run_cli(*WRITERS[writer](new, tmp_path), timeout=60)
    umask = os.umask(0o022)
    os.umask(umask)
    assert r.returncode == done and stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary file left


SPEC = """family: tidl
kind: io
version: "08.x"
output: {output}
inputs: [{{name: x, dtype: uint8, shape: [3, 8, 8], data_id: 0}}]
outputs: [{{name: y, dtype: int8, shape: [4, 8, 9], data_id: 1}}]
"""


def test_fixture_writes_only_inside_its_output_folder(tmp_path: Path) -> None:
    out = tmp_path / "out"
    for escape in (str(tmp_path / "abs_tidl_io_1.bin"), "../up_tidl_io_1.bin", "sub/../../up2_tidl_io_1.bin"):
        spec = tmp_path / "spec.yaml"
        spec.write_text(SPEC.format(output=escape))
        r = run_cli("fixture", spec, "-o", out, timeout=60)
        target = out / escape
        assert r.returncode == 3, r.stderr
        assert r.stderr.startswith(f"binparse: error: {target}: is outside the output folder: fixture writes only "
                                   f"inside -o; expected a path inside {out}"), r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "spec.yaml"]
    assert [p.name for p in out.iterdir()] == []
    os.symlink(tmp_path, out / "back")  # a folder link inside -o that leads out of it
    spec.write_text(SPEC.format(output="back/via_link_tidl_io_1.bin"))
    r = run_cli("fixture", spec, "-o", out, timeout=60)
    assert r.returncode == 3
    assert r.stderr == f"binparse: error: {out / 'back'}: is a symbolic link: binparse does not write through links here\n"
    assert not (tmp_path / "via_link_tidl_io_1.bin").exists()
    spec.write_text(SPEC.format(output="m_tidl_io_1.bin"))
    (out / "m_tidl_io_1.bin").mkdir()  # an existing folder where the file goes: a clear error, no traceback
    r = run_cli("fixture", spec, "-o", out, timeout=60)
    assert r.returncode == 3 and r.stderr.startswith(f"binparse: error: {out / 'm_tidl_io_1.bin'}: is a folder: ")
    (out / "m_tidl_io_1.bin").rmdir()
    r = run_cli("fixture", spec, "-o", out, timeout=60)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == str(out / "m_tidl_io_1.bin")
    assert (out / "m_tidl_io_1.bin").stat().st_size == 37256  # a J7 08.x io descriptor


def test_generate_never_writes_through_a_planted_tmp_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("not yours\n")
    out = tmp_path / "accessors"
    code = f"""
from pathlib import Path
from binparse.engine.codegen import write_all
out = Path({str(out)!r})
first = write_all(out_root=out)
target = sorted(p for p in first if p.name != "__init__.py")[0]
target.write_text("stale")
tmp = target.with_suffix(".tmp")
tmp.symlink_to({str(victim)!r})
again = write_all(out_root=out)
print(again == [target], target.read_text() != "stale", tmp.is_symlink())
"""
    r = run_python(code, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "True", "True"]
    assert victim.read_text() == "not yours\n"


def _copies(tmp: Path) -> dict[str, Path]:
    """Copies of the inputs the writing commands read (never the repository's own files)."""
    import shutil
    src = {"io": IO, "images": IMAGES, "net": FIX / "tidl" / "net_10_01_traces" / "915_tidl_net.bin",
           "model": FIX / "espdl" / "int32_defect" / "narrow_all.espdl",
           "header": REPO / "tests" / "data" / "headers" / "itidl_io_08_06.h"}
    out = {k: tmp / f"in_{v.name}" for k, v in src.items()}
    for k, v in src.items():
        shutil.copy(v, out[k])
    for run in ("traces_10_01", "traces_10_01_old"):
        shutil.copytree(FIX / "tidl" / run, tmp / run)
    out["a"], out["b"] = tmp / "traces_10_01", tmp / "traces_10_01_old"
    out["trace"] = next(iter(sorted(out["a"].glob("*.y"))))
    assert run_cli("view", out["io"], out["images"], "--input", "images", "--npy", tmp / "in_images.npy",
                   timeout=60).returncode == 0
    out["npy"] = tmp / "in_images.npy"
    return out


# each writing command: (its command line writing to OUT, the inputs OUT is set to in turn)
OVER_INPUTS: dict[str, tuple[Callable[[dict[str, Path], Path], list[str | Path]], tuple[str, ...]]] = {
    "view --npy": (lambda i, out: ["view", i["io"], i["images"], "--input", "images", "--npy", out], ("io", "images")),
    "draw --svg": (lambda i, out: ["draw", i["io"], "--input", "images", "--svg", out], ("io",)),
    "pack --out": (lambda i, out: ["pack", i["io"], i["npy"], "--input", "images", "--out", out], ("io", "npy")),
    "compare --svg": (lambda i, out: ["compare", i["a"], i["b"], "--net", i["net"], "--svg", out], ("net", "trace")),
    "export -o": (lambda i, out: ["export", i["model"], "-o", out], ("model",)),
    "repair -o": (lambda i, out: ["repair", i["model"], "-o", out], ("model",)),
    "schema from-header --out": (lambda i, out: ["schema", "from-header", i["header"], "--struct", "sTIDL_IOBufDesc_t",
                                                 "--out", out], ("header",)),
}


@pytest.mark.parametrize("writer", list(OVER_INPUTS))
def test_no_writing_command_writes_over_any_of_its_inputs(writer: str, tmp_path: Path) -> None:
    """Issue 37: the destination is each input of the command in turn, by its own path and through a hard
    link; every one is refused (exit 3) and no input changes."""
    if writer == "export -o":
        pytest.importorskip("onnx")
    i = _copies(tmp_path)
    argv, targets = OVER_INPUTS[writer]
    before = {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    for name in targets:
        hard = tmp_path / f"hard_{i[name].name}"
        os.link(i[name], hard)
        for out in (i[name], hard):
            r = run_cli(*argv(i, out), timeout=60)
            assert r.returncode == 3, (writer, out, r.stderr)
            assert r.stderr.startswith(f"binparse: error: {out}: is an input of this command"), r.stderr
            assert r.stderr.rstrip().endswith("binparse never writes over what it reads, nothing written. Give the "
                                              "path of a new file"), r.stderr
        hard.unlink()
    assert {p: p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()} == before
    assert [p.name for p in tmp_path.rglob(".*")] == []  # no temporary file left


def test_a_fixture_spec_whose_output_names_the_spec_itself_is_refused(tmp_path: Path) -> None:
    spec = tmp_path / "m_tidl_io_1.bin"  # a spec named like what it writes, writing itself
    spec.write_text(SPEC.format(output="m_tidl_io_1.bin"))
    before = spec.read_bytes()
    r = run_cli("fixture", spec, timeout=60)
    assert r.returncode == 3, r.stderr
    assert r.stderr.startswith(f"binparse: error: {spec}: is an input of this command"), r.stderr
    assert spec.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["m_tidl_io_1.bin"]
    linked = tmp_path / "linked"  # -o a folder where the output's name is a hard link to the spec
    linked.mkdir()
    os.link(spec, linked / "m_tidl_io_1.bin")
    r = run_cli("fixture", spec, "-o", linked, timeout=60)
    assert r.returncode == 3, r.stderr
    assert r.stderr.startswith(f"binparse: error: {linked / 'm_tidl_io_1.bin'}: is an input of this command"), r.stderr
    assert spec.read_bytes() == before and [p.name for p in linked.iterdir()] == ["m_tidl_io_1.bin"]
    (linked / "m_tidl_io_1.bin").unlink()
    other = tmp_path / "out"
    r = run_cli("fixture", spec, "-o", other, timeout=60)  # the same spec into another folder: written
    assert r.returncode == 0 and (other / "m_tidl_io_1.bin").stat().st_size == 37256


def test_generate_never_writes_over_a_schema_it_reads(tmp_path: Path) -> None:
    """`generate` reads the schemas through binparse.core.paths (inputs of the command): an accessor path that
    is a hard link to a schema is refused, the schema unchanged."""
    code = f"""
import os, shutil
from pathlib import Path
from binparse.core import inputs
from binparse.engine.codegen import generate_all, write_all
from binparse.core.errors import WriteError
from binparse.engine.schema import SCHEMAS_DIR
schemas, out = Path({str(tmp_path / 'schemas')!r}), Path({str(tmp_path / 'accessors')!r})
shutil.copytree(SCHEMAS_DIR, schemas)
ksy = sorted(schemas.rglob("*.ksy"))[0]
target = next(p for p in generate_all(schemas, out) if p.stem == ksy.stem)
target.parent.mkdir(parents=True, exist_ok=True)
os.link(ksy, target)
before = ksy.read_bytes()
with inputs.command():
    try:
        write_all(schemas_root=schemas, out_root=out)
        print("written")
    except WriteError as exc:
        print(str(exc).split(": ", 1)[1][:36])
print(ksy.read_bytes() == before)
"""
    r = run_python(code, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[:2] == ["is an input of this command (read as", "True"]


def test_generate_o_never_writes_over_a_schema_it_reads(tmp_path: Path) -> None:
    """`binparse generate S.ksy -o PACKAGE_DIR` (a user's package): a module path that is a hard link to
    the schema named on the command line is refused (exit 3), the schema unchanged, nothing written."""
    schemas, pkg = tmp_path / "s", tmp_path / "pkg"
    schemas.mkdir()
    pkg.mkdir()
    for name in ("wav.ksy", "riff_chunk.ksy"):
        shutil.copy(REPO / "docs" / "ksy" / name, schemas / name)
    os.link(schemas / "wav.ksy", pkg / "wav.py")
    before = (schemas / "wav.ksy").read_bytes()
    r = run_cli("generate", schemas / "wav.ksy", "-o", pkg, timeout=120)
    assert r.returncode == 3, r.stderr
    assert r.stderr.startswith(f"binparse: error: {pkg / 'wav.py'}: is an input of this command"), r.stderr
    assert (schemas / "wav.ksy").read_bytes() == before and sorted(p.name for p in pkg.iterdir()) == ["wav.py"]
