"""Property tests: for every schema, parse(build(x)) == x with the accessors and the construct
backend (and the Kaitai-generated parser); for every layout, unpack(pack(t)) == t, views share
memory, reads leave padding untouched and packs zero it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import binparse
from binparse.engine import kaitai_ref
from binparse import testing
from binparse.engine.backends import construct_backend as cb
from binparse.family.fixtures import SENTINEL
from binparse.family.registry import registered
from binparse.engine.schema import SCHEMAS_DIR, load_schema

from .conftest import FULL

EXAMPLES = int(os.environ.get("BINPARSE_PROPERTY_EXAMPLES", "8"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))

# Every binary format whose type is laid out by params alone (all but the J7 nets and .espdl files,
# whose layouts depend on counts in the data; those are covered by their fixtures and fuzzing).
STATIC = [f for f in registered() if f.size is not None]


LARGE = 100_000  # bytes: a struct this large (the AM57x and TDA2 nets, 256 layer slots) takes seconds an example
LARGE_EXAMPLES = 2  # in the default run: every field gets random values in each example (BINPARSE_FULL=1: EXAMPLES)


@pytest.mark.parametrize("fmt", STATIC, ids=[f.name for f in STATIC])
def test_parse_build_roundtrip(fmt: binparse.Format) -> None:
    schema = load_schema(SCHEMAS_DIR / f"{fmt.accessor_class._SCHEMA}.ksy")
    examples = EXAMPLES if FULL or (fmt.size or 0) < LARGE else min(EXAMPLES, LARGE_EXAMPLES)

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(x=testing.values(schema.root, fmt.params))
    def check(x: dict[str, Any]) -> None:
        data = cb.build(schema, x, **fmt.params)
        assert len(data) == fmt.size
        acc = binparse.open(data, format=fmt.name)
        assert acc.to_dict() == x
        assert cb.to_plain(cb.parse(schema, data, **fmt.params), schema.root) == x
        assert cb.build(schema, acc.to_dict(), **fmt.params) == data

    check()


def test_three_parsers_agree_on_generated_io(kaitai_out: Path) -> None:
    schema = load_schema(SCHEMAS_DIR / "tidl" / "tidl_io_buf_desc.ksy")
    params = {"max_num_cores": 2, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 100}

    @SETTINGS
    @given(x=testing.values(schema.root, params))
    def check(x: dict[str, Any]) -> None:
        data = cb.build(schema, x, **params)
        theirs = kaitai_ref.to_plain(kaitai_ref.parse(kaitai_out, schema, data, params), schema.root)
        assert theirs == binparse.open(data).to_dict() == x

    check()


def _untouched(buf: bytearray, fn: Any) -> None:
    before = bytes(buf)
    fn()
    assert bytes(buf) == before


@SETTINGS
@given(case=testing.tidl_tensors())
def test_tidl_layout(case: tuple[Any, Any]) -> None:
    t, arr = case
    buf = bytearray(bytes([SENTINEL]) * t.layout_desc.nbytes)
    v = t.view(buf)
    assert np.shares_memory(v, np.frombuffer(buf, np.uint8)) and not v.flags.owndata
    v[...] = arr
    _untouched(buf, lambda: t.view(buf).sum())
    assert np.array_equal(t.view(buf), arr)
    packed = bytearray(bytes([SENTINEL]) * len(buf))
    t.pack(arr, into=packed)
    back = np.frombuffer(packed, np.uint8).copy()
    assert np.array_equal(t.view(packed), arr)
    t.view(back)[...] = 0  # clear the logical bytes: what remains is padding, which pack zeroed
    assert not back[: t.layout_desc.nbytes].any()


@SETTINGS
@given(case=testing.espdl_tensors())
def test_espdl_layout(case: tuple[Any, Any]) -> None:
    t, arr = case
    buf = bytearray(bytes([SENTINEL]) * len(t.new_buffer()))
    t.pack(arr, into=buf)
    v = t.view(buf)
    assert np.array_equal(v, arr) and np.shares_memory(v, np.frombuffer(buf, np.uint8))
    rest = np.frombuffer(buf, np.uint8).copy()
    t.view(rest)[...] = 0
    assert not rest.any()


@SETTINGS
@given(case=testing.dlhdl_layouts())
def test_dlhdl_layout(case: tuple[Any, Any]) -> None:
    lay, arr = case
    buf = bytearray(lay.pack(arr))
    assert len(buf) == lay.size * np.dtype(arr.dtype).itemsize
    _untouched(buf, lambda: lay.to_logical(buf))
    assert np.array_equal(lay.unpack(buf), arr)
    v = lay.buffer_view(buf)
    assert np.shares_memory(v, np.frombuffer(buf, np.uint8))
    padded = v.copy()
    padded[..., : lay.c].reshape(-1)[:0] = 0
    assert not v[..., lay.c:].any()  # zero lanes


@SETTINGS
@given(case=testing.intel_outputs())
def test_intel_layout(case: tuple[Any, Any]) -> None:
    cfg, arr = case
    buf = cfg.to_ip(arr)
    _untouched(buf, lambda: cfg.to_logical(buf))
    assert np.array_equal(cfg.to_logical(buf), arr)
    used = np.zeros(cfg.ip_size, bool)
    used[cfg.ip_offsets] = True
    assert not np.frombuffer(buf, "<u2")[~used].any()
    assert np.unique(cfg.ip_offsets).size == cfg.ip_offsets.size


@settings(max_examples=EXAMPLES, deadline=None)
@given(st.data())
def test_strategies_respect_valid_rules(data: st.DataObject) -> None:
    schema = load_schema(SCHEMAS_DIR / "espdl" / "espdl_container.ksy")
    x = data.draw(testing.values(schema.root.types["model_record"], {"header_size": 16}))
    assert x["mode"] in (0, 1) and len(x["reserved"]) == 4 and len(x["payload"]) == x["size"]


@st.composite
def espdl_models(draw: st.DrawFn) -> dict[str, Any]:
    """A Gemm model description: random sizes (byte counts not multiples of 16), dtypes, exponents."""
    k, n = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    dt = draw(st.sampled_from(["int8", "int16"]))
    e = draw(st.integers(-15, 0))
    lay = draw(st.sampled_from(["N16HWC16_UNALIGNED", "(N/16)HWC16_UNALIGNED", "NHWC", "UNK"]))
    return {"name": "g", "inputs": [{"name": "x", "dims": [1, k], "dtype": dt, "exponents": [e]}],
            "outputs": [{"name": "y", "dims": [1, n], "dtype": dt, "exponents": [e]}],
            "nodes": [{"name": "gemm", "op_type": "Gemm", "inputs": ["x", "w", "b"], "outputs": ["y"],
                       "attributes": {"quant_type": "S8" if dt == "int8" else "S16"}}],
            "initializers": [{"name": "w", "dims": [1, 1, k, n], "dtype": dt, "layout": lay, "exponents": [e]},
                             {"name": "b", "dims": [n], "dtype": draw(st.sampled_from(["int32", "int64"])),
                              "layout": "UNK", "exponents": [e]}],
            "test_inputs": [{"name": "x", "dims": [1, k], "dtype": dt, "exponents": [e]}]}


@SETTINGS
@given(graph=espdl_models(), fmt=st.sampled_from(["EDL1", "EDL2", "PDL1", "PDL2", "PDL3"]), keyed=st.booleans())
def test_espdl_every_generation_round_trip(graph: dict[str, Any], fmt: str, keyed: bool) -> None:
    """build (any container generation, plain or AES-128-CTR) -> read -> the same logical values."""
    from binparse.formats.espdl.writers.fixtures import espdl_file
    from binparse.formats.espdl.writers.write import tensor_values
    key = "000102030405060708090a0b0c0d0e0f"
    model = {"graph": graph, **({"key": key} if keyed else {})}
    spec = {"format": fmt, **model} if fmt.startswith("EDL") else {"format": fmt, "models": [{"name": "m", **model}]}
    f = binparse.open(espdl_file(spec)).with_key(bytes.fromhex(key))
    (m,) = f.models
    assert m.encrypted == keyed and m.generation == ("edl1" if fmt in ("EDL1", "PDL1") else "edl2")
    for t in graph["initializers"] + graph["test_inputs"]:
        expected, stored = tensor_values(t, False)
        got = m.tensor(t["name"])
        assert np.array_equal(got.to_logical(), expected) and got.stored().tobytes() == stored
