"""Every bundled fixture: its spec rebuilds it byte for byte, binparse detects its format and
reads back exactly the spec's values, and the construct backend agrees."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import binparse
from binparse.backends import construct_backend as cb
from binparse.fixtures import build_spec, defaults
from binparse.registry import format_of
from binparse.schema import SCHEMAS_DIR, load_schema

from .conftest import FIXTURES

SPECS = sorted(p for p in FIXTURES.rglob("*.yaml") if "schema" in yaml.safe_load(p.read_text()))  # struct value specs


def test_there_is_a_fixture_for_every_tidl_io_version() -> None:
    names = {format_of(binparse.open(build_spec(s)[0])).name for s in SPECS}
    assert {"tidl.io.tda2", "tidl.io.j7_08", "tidl.io.j7_09_02.c1", "tidl.io.j7_09_02.c2", "tidl.io.j7_09_02.c4",
            "tidl.io.j7_10.c1", "tidl.io.j7_10.c2", "tidl.io.j7_10.c4"} <= names


@pytest.mark.parametrize("spec", SPECS, ids=[s.stem for s in SPECS])
def test_fixture(spec: Path) -> None:
    out, data = build_spec(spec)
    assert out.read_bytes() == data, f"{out} is stale: rebuild it from {spec}"
    doc = yaml.safe_load(spec.read_text())
    params = doc.get("params", {})
    schema = load_schema(SCHEMAS_DIR / f"{doc['schema']}.ksy")
    expected = defaults(schema.root, params, doc["values"])
    acc = binparse.open(out)
    assert acc._params == params  # detected as the version the spec was written for
    acc.validate()
    assert acc.to_dict() == expected
    assert cb.to_plain(cb.parse(schema, data, **params), schema.root) == expected
