"""binparse is typed for its users: `py.typed` ships, and a package `binparse generate` writes passes
`mypy --strict` with its values typed (pos instances, switches, repeats) by what the getters return."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import binparse
from binparse.cli import main

from . import roundtrip as rt

REPO = Path(__file__).resolve().parents[1]
# gallery schemas that show each kind of annotation: pos instances of records and of switches (elf),
# switches with and without a default (gif), an enum named as its class (fasttracker_xm_module), a field
# called `offset` (nt_mdt), an enum member called `name` (rtcp_payload)
GALLERY = ("executable/elf", "image/gif", "media/tracker_modules/fasttracker_xm_module", "scientific/nt_mdt/nt_mdt",
           "network/rtcp_payload")

USE = '''"""A user's code over the generated package: what mypy --strict checks with binparse's types."""
from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from typedpkg.elf import Elf
from typedpkg.gif import Gif
from typedpkg.wav import Samples, Wav


def widths(data: bytes) -> tuple[int, int]:
    gif = Gif.from_buffer(data)
    return gif.logical_screen_descriptor.screen_width, gif.logical_screen_descriptor.screen_height


def section_names(data: bytes) -> list[str]:
    elf = Elf.from_buffer(data)
    return [h.name for h in elf.header.section_headers]


def samples(data: bytes) -> NDArray[np.int16] | None:
    body = Wav.from_buffer(data).chunks[1].body
    return body.values if isinstance(body, Samples) else None
'''


def test_py_typed_ships_with_the_package() -> None:
    assert (Path(binparse.__file__).parent / "py.typed").is_file()
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert "py.typed" in config["tool"]["setuptools"]["package-data"]["binparse"]


@pytest.mark.skipif(not rt.GALLERY.is_dir(), reason="../shared/conformance is absent")
def test_a_generated_package_passes_mypy_strict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    schemas = [str(rt.GALLERY / f"{name}.ksy") for name in GALLERY]
    pkg = tmp_path / "typedpkg"
    assert main(["generate", *schemas, str(REPO / "docs" / "ksy" / "wav.ksy"), "-o", str(pkg),
                 "--import-path", str(rt.GALLERY)]) == 0
    capsys.readouterr()
    elf, gif = (pkg / "elf.py").read_text(), (pkg / "gif.py").read_text()
    assert "    def section_headers(self) -> RecordArray[SectionHeader]:\n" in elf  # a pos instance of records
    assert ("    def body(self) -> DynamicSection | StringsStruct | DynsymSection | NoteSection | RelocationSection | "
            "NDArray[np.uint8] | None:\n") in elf  # a pos instance switched: its cases, raw bytes, or `if` false
    assert "    def entries(self) -> Sequence[str]:\n" in elf  # strz to the end of a stream
    assert "    def body(self) -> Extension | LocalImageDescriptor | None:\n" in gif  # no default case: None
    assert "_LoopType_LoopType = LoopType.LoopType\n" in (pkg / "fasttracker_xm_module.py").read_text()
    (tmp_path / "use.py").write_text(USE)
    env = {**os.environ, "MYPYPATH": str(REPO)}  # binparse from this checkout (an editable install hides it)
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "typedpkg", "use.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.stdout.splitlines()[-1].startswith("Success: no issues found in"), run.stdout[-3000:]
