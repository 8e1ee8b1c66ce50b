"""Kaitai's gallery on its own sample files: every sample of ../shared/conformance/kaitai_struct_samples
that the Python the official Kaitai compiler writes reads is read by binparse to the same value tree
(the same keys, the same values: seq fields, then instances, records reached through instances two
deep; `binparse.engine.valuewalk`).

A sample's schema is the gallery's file of the same path (`image/png/x.png` is read with
`kaitai_struct_formats/image/png.ksy`). Where Kaitai's Python stops at an error, binparse must fail
there too (it may read the values of that record that come before the error: it reads lazily).
Every sample is read (about 40 small files: some seconds, most of them the two compilers').
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Any

import pytest

import binparse
from binparse.engine import kaitai_ref, valuewalk
from binparse.engine.backends.numpy_backend import camel

from .conftest import import_from, need

CONFORMANCE = Path(__file__).resolve().parents[2] / "shared" / "conformance"
SAMPLES, FORMATS = CONFORMANCE / "kaitai_struct_samples", CONFORMANCE / "kaitai_struct_formats"
NOT_SAMPLES = {".license", ".md", ".py", ".json", ".txt", ".java", ".dts", ".yml", ".lock"}
pytestmark = pytest.mark.skipif(not SAMPLES.is_dir() or not FORMATS.is_dir(),
                                reason="../shared/conformance (the Kaitai gallery and its samples) is absent")


def samples() -> list[tuple[Path, Path]]:
    """(schema, sample file) of every sample whose format the gallery has."""
    out = []
    for folder in sorted(SAMPLES.glob("*/*")):
        ksy = FORMATS / f"{folder.relative_to(SAMPLES)}.ksy"
        if folder.is_dir() and ksy.exists():
            out += [(ksy, f) for f in sorted(folder.iterdir()) if f.is_file() and f.suffix not in NOT_SAMPLES]
    return out


@pytest.fixture(scope="module")
def kaitai(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Python the Kaitai compiler writes for every gallery schema the samples need (one run)."""
    need("kaitai", kaitai_ref.available())
    out = tmp_path_factory.mktemp("kaitai-gallery")
    kaitai_ref.compile_schemas(sorted({k for k, _ in samples()}), out, import_path=[FORMATS], check=False)
    return out


@pytest.fixture(scope="module", autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory) -> Any:
    mp = pytest.MonkeyPatch()
    mp.setenv("BINPARSE_CACHE", str(tmp_path_factory.mktemp("ksy-cache")))
    yield
    mp.undo()


def trees(ksy: Path, data: bytes, kaitai_dir: Path) -> tuple[Any, Any]:
    """(Kaitai's value tree, binparse's), or (None, None) when Kaitai's Python cannot read the file."""
    compiled = binparse.compile(ksy, import_path=[FORMATS])
    package = compiled.module.__name__.rpartition(".")[0]
    names = valuewalk.binparse_names(valuewalk.generated_classes(
        [m for n, m in list(sys.modules.items()) if n.startswith(package + ".")]))
    root_cls = getattr(import_from(kaitai_dir, ksy.stem), camel(ksy.stem))  # and the modules it imports
    kmods = [m for m in list(sys.modules.values()) if "kaitai-gallery" in (getattr(m, "__file__", None) or "")]
    try:
        theirs = valuewalk.tree(root_cls(kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(data))),
                                valuewalk.kaitai_names(kmods, names))
    except Exception:  # noqa: BLE001 - a file Kaitai's Python does not read is not compared
        return None, None
    return theirs, valuewalk.tree(compiled.parse(data), names)


@pytest.mark.parametrize("ksy,sample", samples() if SAMPLES.is_dir() else [], ids=lambda p: str(p.relative_to(CONFORMANCE)).split("/", 1)[1])
def test_a_gallery_sample_reads_as_kaitais_python_reads_it(kaitai: Path, ksy: Path, sample: Path) -> None:
    theirs, ours = trees(ksy, sample.read_bytes(), kaitai)
    if theirs is None:
        pytest.skip("Kaitai's Python does not read this file")
    assert valuewalk.difference(theirs, ours) is None
