"""A family installed as a package of its own (tests/data/toyfam, registered only through the
`binparse.families` entry point) is served by every command: inspect, view, pack, draw, doctor."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

TOYFAM = Path(__file__).parent / "data" / "toyfam"


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """pip installs the toy family into a folder of its own; the environment that puts it on the path."""
    target = tmp_path_factory.mktemp("site")
    build = tmp_path_factory.mktemp("build")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(TOYFAM)], check=True, cwd=build, env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
    assert (target / "toyfam" / "plugin.py").is_file()
    return {**os.environ, "PYTHONPATH": str(target), "BINPARSE_CACHE_DIR": str(tmp_path_factory.mktemp("cache"))}


def binparse(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "binparse", *argv], capture_output=True, text=True, env=env)


@pytest.fixture
def toy_file(tmp_path: Path) -> Path:
    """a.toy: 3 rows x 2 cols of int16 (magic TOY1, rows and cols as u16)."""
    values = np.array([[1, -2], [3, 4], [5, 6]], "<i2")
    (tmp_path / "a.toy").write_bytes(b"TOY1" + (3).to_bytes(2, "little") + (2).to_bytes(2, "little") + values.tobytes())
    return tmp_path / "a.toy"


def test_installed_family_serves_inspect_view_and_doctor(installed: dict[str, str], toy_file: Path) -> None:
    r = binparse(installed, "inspect", "--json", str(toy_file))
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == {"file": str(toy_file), "family": "toy", "kind": "toy file", "rows": 3, "cols": 2}
    assert binparse(installed, "inspect", str(toy_file)).stdout == "toy file 3x2\n"
    out = toy_file.parent / "t.npy"
    r = binparse(installed, "view", str(toy_file), "--dequantize", "--npy", str(out))
    assert r.returncode == 0, r.stderr
    assert np.load(out).tolist() == [[0.25, -0.5], [0.75, 1.0], [1.25, 1.5]]
    r = binparse(installed, "doctor", "--json", str(toy_file.parent))
    doc = json.loads(r.stdout)
    assert r.returncode == 1 and doc["status"] == "problem"
    assert [(f["file"], f["family"], f["kind"]) for f in doc["files"]] == [("a.toy", "toy", "toy file")]
    assert [f["text"] for f in doc["findings"]] == ["a.toy has an odd number of rows"]


def test_installed_family_layout_serves_pack_view_and_draw(installed: dict[str, str], tmp_path: Path) -> None:
    layout = ["--toy", "--shape", "3,2", "--toy-pitch", "4"]
    np.save(tmp_path / "a.npy", np.array([[1, -2], [3, 4], [5, 6]], "<i2"))
    r = binparse(installed, "pack", *layout, str(tmp_path / "a.npy"), "--out", str(tmp_path / "buf"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "buf").read_bytes() == np.array([[1, -2, 0, 0], [3, 4, 0, 0], [5, 6, 0, 0]], "<i2").tobytes()
    r = binparse(installed, "view", *layout, str(tmp_path / "buf"), "--npy", str(tmp_path / "v.npy"))
    assert r.returncode == 0, r.stderr
    assert np.load(tmp_path / "v.npy").tolist() == [[1, -2], [3, 4], [5, 6]]
    r = binparse(installed, "draw", *layout, "--svg", str(tmp_path / "b.svg"))
    assert r.returncode == 0, r.stderr
    svg = (tmp_path / "b.svg").read_text()
    assert "toy buffer 3x2, pitch 4" in svg and svg.count('class="data"') == 6 and svg.count('class="zero-lane"') == 6
    help_text = binparse(installed, "view", "--help").stdout
    assert "--toy " in help_text and "--toy-pitch" in help_text and "toy ROWS,COLS" in help_text


def test_the_family_is_there_only_when_installed(tmp_path: Path) -> None:
    env = {**os.environ, "BINPARSE_CACHE_DIR": str(tmp_path)}
    r = binparse(env, "view", "--toy", "x", "--npy", str(tmp_path / "v.npy"))
    assert r.returncode == 3 and "unrecognized arguments: --toy" in r.stderr  # a usage error: 3


# What `binparse inspect` of each kind of file may import beyond the core: its own family's modules.
# Every other family, the generated accessors of other kinds, the .ksy loader, PyYAML, construct,
# Kaitai's runtime, pyarrow, cryptography and importlib.metadata (the entry points are cached) are not.
NEVER = ("yaml", "construct", "kaitaistruct", "pyarrow", "cryptography", "importlib.metadata",
         "binparse.engine.schema.load", "binparse.engine.schema.model", "binparse.family.fixtures", "binparse.engine.codegen")
FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def _imported_by_inspect(path: Path, tmp_path: Path) -> set[str]:
    env = {**os.environ, "BINPARSE_CACHE_DIR": str(tmp_path)}
    binparse(env, "inspect", str(path))  # fills the entry-point cache, as the user's first call does
    r = subprocess.run([sys.executable, "-X", "importtime", "-m", "binparse", "inspect", str(path)],
                       capture_output=True, text=True, env=env)
    # model_edl2.espdl's payload is filler, not a FlatBuffer Model: shown, not decoded, so exit 2
    assert r.returncode == (2 if path.suffix == ".espdl" else 0), r.stderr
    return {line.rpartition("|")[2].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}


@pytest.mark.parametrize("path, own, not_others", [
    (FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin", "binparse.formats.tidl.io.desc",
     ("binparse.formats.espdl.", "binparse.formats.intel_dla.", "binparse.formats.tidl.net.model",
      "binparse.formats.tidl.doctor", "binparse.engine.accessors.tidl.tidl_net_j7", "binparse.engine.accessors.tidl.tidl_net_tda2")),
    (FIXTURES / "espdl" / "tensors_and_models" / "model_edl2.espdl", "binparse.formats.espdl.model.container",
     ("binparse.formats.tidl.", "binparse.formats.intel_dla.", "binparse.engine.accessors.tidl.")),
])
def test_inspect_imports_only_the_family_of_the_file(path: Path, own: str, not_others: tuple[str, ...],
                                                      tmp_path: Path) -> None:
    modules = _imported_by_inspect(path, tmp_path)
    assert own in modules
    assert sorted(m for m in modules if m in NEVER or m.startswith(not_others)) == []


def test_name_matches_answers_as_fnmatch() -> None:
    import fnmatch

    from binparse.family.plugins import families
    from binparse.core.text import name_matches
    patterns = sorted({p for f in families() for s in f.signs for p in s.names}) + [
        "a*b*c", "*", "**", "x", "*.bin", "abc*", "*[0-9].bin", "tidl_?o*"]
    names = ["201_tidl_io_1.bin", "tidl_net_x.bin", "abc", "abxbc", "a*b", "ab", "", ".espdl", "m.espdl",
             "x", "tidl_io_buff1.bin", "7_tidl_io_1.bin", "q_netLog.txt", "a.layer_info.txt", "c_transform_x.csv",
             "tidl_trace0001_00001_00003_00005x00004.y", "AGX3.arch", "ab_c.bin", "9.bin"]
    assert len(patterns) > 20
    got = {(n, p): name_matches(n, p) for n in names for p in patterns}
    assert got == {(n, p): fnmatch.fnmatchcase(n, p) for n in names for p in patterns}
    assert sum(got.values()) > 20  # names that match something, not only misses
