"""binparse is typed for its users: `py.typed` ships, and a package `binparse generate` writes passes
`mypy --strict` with its values typed (pos instances, switches, repeats) by what the getters return."""

from __future__ import annotations

import collections.abc as cabc
import os
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Any

import numpy as np
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
    config = (REPO / "pyproject.toml").read_text()
    assert '[tool.setuptools.package-data]\nbinparse = ["py.typed"]' in config


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
    assert "    entries: Sequence[str]\n" in elf  # strz to the end of a stream (a seq field: a slot its reader sets)
    assert "    body: Extension | LocalImageDescriptor | None\n" in gif  # no default case: None
    assert "_LoopType_LoopType = LoopType.LoopType\n" in (pkg / "fasttracker_xm_module.py").read_text()
    (tmp_path / "use.py").write_text(USE)
    env = {**os.environ, "MYPYPATH": str(REPO)}  # binparse from this checkout (an editable install hides it)
    run = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "typedpkg", "use.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert run.stdout.splitlines()[-1].startswith("Success: no issues found in"), run.stdout[-3000:]


# suite specs whose values show each kind of annotation: pos instances, switches, repeats of every
# kind, value instances of bytes and of fields that may be null
HOLD = ("suite/instance_std", "suite/position_abs", "suite/switch_manual_int", "suite/switch_bytearray",
        "suite/repeat_until_s4", "suite/repeat_n_strz", "suite/repeat_eos_bits_b4", "suite/repeat_n_bytes",
        "suite/combine_bytes", "suite/type_ternary_2nd_falsy", "suite/nav_parent_switch", "suite/bits_enum",
        "suite/process_coerce_switch", "suite/str_encodings", "suite/expr_bytes_cmp", "suite/params_pass_array_int",
        "gallery/executable/elf/hello_world.o", "gallery/image/png/atch-plain.png")


def _holds(v: Any, hint: Any) -> bool:
    """Whether a value is of an annotation (numpy arrays by class, sequences by their first elements)."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_holds(v, h) for h in typing.get_args(hint))
    if hint is type(None):
        return v is None
    if origin is np.ndarray:
        return isinstance(v, np.ndarray)
    if origin in (list, cabc.Sequence):
        return isinstance(v, origin) and all(_holds(x, typing.get_args(hint)[0]) for x in list(v[:3]))
    if origin is not None:
        return isinstance(v, origin)
    return isinstance(v, (int, float)) if hint is float else isinstance(v, hint)


@pytest.mark.skipif(not rt.SUITE.is_dir(), reason="../shared/conformance is absent")
def test_every_value_is_of_its_annotation(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What each property of each record read returns is of the type its annotation says (the whole
    suite and gallery with BINPARSE_ROUNDTRIP_ALL=1: 5,419 values)."""
    from binparse.core.errors import BinparseError
    from binparse.engine.runtime import Accessor
    from binparse.engine.runtime.compiled import kept
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "cache"))
    cases = rt.every_case()
    wrong, checked = [], 0
    for case in cases if rt.whole_run() else rt.sample(cases, HOLD):
        try:
            root = binparse.compile(case.schema, import_path=list(case.import_path)).parse(case.data.read_bytes())
            root.validate()
        except BinparseError:
            continue
        todo: list[Any] = [root]
        for _ in range(300):
            if not todo:
                break
            acc = todo.pop()
            cls = type(acc)
            cls = getattr(cls, "_FAST", None) or cls  # a record of a lazy twin: its generated class's members
            module = vars(sys.modules[cls.__module__])
            slots = vars(cls).get("__annotations__", {}) if "_READ" in vars(cls) else {}  # seq fields a reader sets
            for name, prop in [*vars(cls).items(), *((n, None) for n in getattr(cls, "__slots__", ()))]:
                if name.startswith("_") or prop is not None and not isinstance(prop, (property, kept)):
                    continue
                if prop is None:
                    if name not in slots:
                        continue
                    hint = eval(slots[name], dict(module))  # noqa: S307 - an annotation the generator wrote
                else:
                    fn = prop.fget if isinstance(prop, property) else prop.fn
                    hint = typing.get_type_hints(fn, module)["return"]
                try:
                    v = getattr(acc, name)
                except BinparseError:
                    continue
                checked += 1
                if not _holds(v, hint):
                    wrong.append(f"{case.name}: {cls.__name__}.{name} is {type(v).__name__}, annotated {hint}")
                todo.extend([v] if isinstance(v, Accessor) else [x for x in list(v[:2]) if isinstance(x, Accessor)]
                            if isinstance(v, cabc.Sequence) and not isinstance(v, str) else [])
    assert wrong == [] and checked > (5000 if rt.whole_run() else 150), (checked, wrong[:10])
