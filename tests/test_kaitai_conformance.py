"""Kaitai Struct's own language test suite run against binparse: every spec passes, or is listed in
tests/kaitai_conformance_known.yaml with its reason (and then is refused at load, never read wrong).

The suite (`.kst` specs over `formats/*.ksy` and `src/*`) is read from ../shared/conformance; the
test is skipped only when that folder is absent. Each spec's schema goes through
`binparse.compile` (import path `formats/` and `formats/ks_path/`, as Kaitai's runners use), is
read as eagerly as Kaitai's generated code reads (`validate()`), and every assert's `actual` and
`expected` are evaluated by binparse's own expression interpreter (tests/kst.py). With the Kaitai
compiler present, the same specs also run against the Python it generates, and every spec that
passes there must pass in binparse.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from binparse.engine import kaitai_ref

from . import kst
from .conftest import need

KNOWN: dict[str, str] = yaml.safe_load((Path(__file__).parent / "kaitai_conformance_known.yaml").read_text())
pytestmark = pytest.mark.skipif(not kst.SUITE.is_dir(), reason="../shared/conformance/kaitai_struct_tests is absent")


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, kst.Outcome]:
    mp = pytest.MonkeyPatch()
    mp.setenv("BINPARSE_CACHE", str(tmp_path_factory.mktemp("ksy-cache")))
    try:
        return kst.run_all(kst.Binparse())
    finally:
        mp.undo()


def test_every_spec_passes_or_is_listed_with_its_reason(outcomes: dict[str, kst.Outcome]) -> None:
    failing = {k: o.detail for k, o in outcomes.items() if not o.passed}
    unlisted = {k: d for k, d in failing.items() if k not in KNOWN}
    assert unlisted == {}
    assert set(KNOWN) - set(failing) == set(), "these pass now: take them out of kaitai_conformance_known.yaml"
    assert len(outcomes) == 320 and len(failing) == len(KNOWN)


def test_what_binparse_does_not_pass_it_refuses(outcomes: dict[str, kst.Outcome]) -> None:
    """A listed spec is refused when its schema is loaded (a SchemaError naming the feature), or is
    one that cannot be checked as a parse (the debug-mode spec): never a value read wrong."""
    for spec_id, why in KNOWN.items():
        detail = outcomes[spec_id].detail
        if why.startswith("refused"):
            assert detail.startswith("parse raised SchemaError"), (spec_id, detail)
        else:
            assert "EndOfStreamError" in why and "(EndOfStreamError)" in detail, (spec_id, detail)


def test_refusals_name_the_file_line_and_feature(outcomes: dict[str, kst.Outcome]) -> None:
    detail = outcomes["process_custom"].detail
    assert "process_custom.ksy:6:14: key 'process' (process_custom.buf1): process 'my_custom_fx' is a custom " \
           "routine" in detail
    assert detail.endswith("\n        process: my_custom_fx(7, true, [0x20, 0x30, 0x40])\n                 ^")


def test_every_spec_kaitais_python_passes_passes_in_binparse(outcomes: dict[str, kst.Outcome],
                                                            tmp_path: Path) -> None:
    need("kaitai", kaitai_ref.available())
    formats = kst.SUITE / "formats"
    kaitai_ref.compile_schemas(sorted(formats.glob("*.ksy")), tmp_path, import_path=[formats, formats / "ks_path"],
                               check=False)
    theirs = kst.run_all(kst.KaitaiPython(tmp_path))
    reference = {k for k, o in theirs.items() if o.passed}
    ours = {k for k, o in outcomes.items() if o.passed}
    assert len(reference) >= 300
    assert reference - ours == set()

