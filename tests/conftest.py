"""Shared test fixtures: paths to real vendor files, the engine's feature schema, the Kaitai oracle."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import pytest

from binparse.engine import kaitai_ref
from binparse.engine.codegen import generate
from binparse.engine.schema import Schema, load_schema

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
REAL = Path(os.environ.get("BINPARSE_REAL", REPO.parent / "shared" / "real"))
REAL_TIDL_08 = REAL / "tidl" / "j7-08.2"
FIXTURES = REPO / "fixtures"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# Tools some tests need beyond pip; without one they skip (fail in CI) and the run ends with the
# list of what was skipped and the command that installs the tools.
INSTALL_TOOLS = "bash tools/install-test-tools.sh"
TOOLS = {"kaitai": "the Kaitai Struct compiler (npm, in .kaitai/)", "browser": "a headless browser (chromium)",
         "flatc": "the FlatBuffers compiler flatc (Debian's flatbuffers-compiler)"}


# The whole of the slow runs (every hostile case, every conformance spec, the full-size cases): opt-in, so
# that CI's default run stays well under its 10 minutes (CONTRIBUTING.md, "Slow tests").
FULL = os.environ.get("BINPARSE_FULL", "").lower() in ("1", "true", "yes", "all")
full = pytest.mark.full  # a test that runs only in the whole run (BINPARSE_FULL=1)
T = TypeVar("T")


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "full: a slow whole run, deselected unless BINPARSE_FULL=1 (CONTRIBUTING.md)")


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    """Tests marked `full` are deselected (not skipped: nothing is missing) in the default run."""
    if FULL:
        return
    drop = [it for it in items if it.get_closest_marker("full") is not None]
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = [it for it in items if it.get_closest_marker("full") is None]


def sample(cases: list[T], n: int, seed: str = "binparse") -> list[T]:
    """`n` of `cases`, the same ones every run (chosen by `seed`, spread over the list), or all of them in
    the whole run (BINPARSE_FULL=1)."""
    if FULL or len(cases) <= n:
        return list(cases)
    import random
    picked = sorted(random.Random(seed).sample(range(len(cases)), n))
    return [cases[k] for k in picked]


def need(tool: str, present: bool) -> None:
    """Skip the test when `tool` is missing; in CI (CI=true) fail instead: CI runs every test."""
    if present:
        return
    if IN_CI:
        pytest.fail(f"{TOOLS[tool]} is not installed, and CI must run every test ({INSTALL_TOOLS})")
    pytest.skip(f"[needs {tool}] {TOOLS[tool]} is not installed")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """After the run: the tests skipped for want of a tool, and the one command that enables them."""
    skipped = []
    for report in terminalreporter.stats.get("skipped", []):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        if reason.startswith("Skipped: [needs ") or reason.startswith("[needs "):
            skipped.append((report.nodeid, reason.split("] ", 1)[0].split("[needs ", 1)[1]))
    if skipped:
        tr = terminalreporter
        tr.section("tests skipped for want of a tool")
        for tool in sorted({t for _, t in skipped}):
            tr.write_line(f"{TOOLS[tool]} is not installed: {sum(t == tool for _, t in skipped)} tests skipped")
            for nodeid, t in sorted(skipped):
                if t == tool:
                    tr.write_line(f"  {nodeid}")
        tr.write_line(f"run `{INSTALL_TOOLS}` (npm and apt-get; Debian), then the tests again")


def real(path: str) -> Path:
    """A file under ../shared/real; the test is skipped only when that folder is absent."""
    if not REAL.is_dir():
        pytest.skip(f"real vendor files not present at {REAL}")
    p = REAL / path
    assert p.exists(), f"{p} missing although {REAL} exists"
    return p


def real_tidl_io_files() -> list[Path]:
    return sorted(REAL_TIDL_08.glob("*/*_tidl_io_1.bin")) if REAL_TIDL_08.is_dir() else []


def import_from(folder: Path, name: str) -> ModuleType:
    """Module `name` of the Python the Kaitai compiler wrote into `folder`, with the modules it imports
    from there too: its compilers' outputs share module names (`png`, a debug build and a plain one),
    so a module of the same name another test imported from another folder is dropped first."""
    for py in folder.glob("*.py"):
        held = sys.modules.get(py.stem)
        if held is not None and Path(getattr(held, "__file__", None) or "").parent != folder:
            del sys.modules[py.stem]
    if str(folder) in sys.path:
        sys.path.remove(str(folder))
    sys.path.insert(0, str(folder))
    importlib.invalidate_caches()
    return importlib.import_module(name)


def import_generated(schema: Schema, where: Path, name: str) -> ModuleType:
    path = where / f"{name}.py"
    path.write_text(generate(schema), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="session")
def features_schema() -> Schema:
    return load_schema(DATA / "features.ksy", DATA)


@pytest.fixture(scope="session")
def features(features_schema: Schema, tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The accessor module generated from tests/data/features.ksy."""
    return import_generated(features_schema, tmp_path_factory.mktemp("gen"), "features_accessors")


FEATURE_VALUES: dict[str, Any] = {
    "version": 2, "kind": 2, "num_items": 3, "items": [-1, 7, 1 << 30], "per_core": [1, 2, 3, 65535],
    "label": "abc", "raw": "xyz", "blob": b"\x01\x02\x03\x04",
    "points": [{"x": 1.5, "y": -2, "tag": 1}, {"x": -0.25, "y": 300, "tag": 2}],
    "body": {"a": -5, "b": 6}, "table": {"cells": [1, 2, 3, 4, 5, 6]}, "ratio": 0.125,
}

# The bytes FEATURE_VALUES must build to with n_cores=2, written out by hand from features.ksy.
FEATURE_BYTES = bytes.fromhex(
    "4250"            # magic "BP"
    "0200"            # version 2 (u2le)
    "02"              # kind pair
    "03"              # num_items 3
    "ffffffff" "07000000" "00000040"   # items -1, 7, 2**30
    "0001" "0002" "0003" "ffff"        # per_core (u2be) 1, 2, 3, 65535
    "616263000000"    # label strz[6] "abc"
    "78797a"          # raw str[3] "xyz"
    "01020304"        # blob: num_items + 1 bytes
    "0000c03f" "feff" "01"             # points[0]: 1.5, -2, scalar
    "000080be" "2c01" "02"             # points[1]: -0.25, 300, pair
    "fbff" "0600" "00000000"           # body (8 bytes): pair a=-5 b=6, then 4 bytes of slack
    "010203040506"    # table(3): 6 cells
    "000000000000c03f"  # ratio 0.125 (f8le)
)


@pytest.fixture(scope="session")
def kaitai_out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Python parsers compiled by the official Kaitai compiler from every schema (and features.ksy)."""
    need("kaitai", kaitai_ref.available())
    out = tmp_path_factory.mktemp("kaitai")
    kaitai_ref.compile_all(out)
    kaitai_ref.compile_schemas([DATA / "features.ksy"], out)
    return out


@pytest.fixture(scope="session")
def browser() -> str:
    """The headless browser that renders the README's pictures."""
    found = next((b for b in ("chromium", "chromium-browser", "google-chrome", "chrome") if shutil.which(b)), None)
    need("browser", found is not None)
    assert found is not None
    return found
