"""Generated accessors over every construct of the subset, checked against hand-written bytes
and against the construct backend; zero-copy proofs; errors for hostile data."""

from __future__ import annotations

import struct
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from binparse import FormatError, ValidationError
from binparse.engine.backends import construct_backend as cb
from binparse.engine.backends import numpy_backend as nb
from binparse.family.fixtures import defaults
from binparse.engine.runtime import RecordArray, StrArray
from binparse.engine.schema import Schema

from .conftest import FEATURE_BYTES, FEATURE_VALUES


def build(schema: Schema, values: dict[str, Any], n_cores: int = 2) -> bytes:
    return cb.build(schema, defaults(schema.root, {"n_cores": n_cores}, values), n_cores=n_cores)


def test_construct_builds_the_hand_written_bytes(features_schema: Schema) -> None:
    assert build(features_schema, FEATURE_VALUES) == FEATURE_BYTES


def test_accessor_reads_every_field(features: ModuleType) -> None:
    a = features.Features.from_buffer(FEATURE_BYTES, n_cores=2)
    assert a.magic.tobytes() == b"BP"
    assert a.version == 2
    assert a.kind is features.Features.Kind.pair
    assert a.num_items == 3
    assert a.items.tolist() == [-1, 7, 1 << 30] and a.items.dtype == np.dtype("<i4")
    assert a.per_core.tolist() == [1, 2, 3, 65535] and a.per_core.dtype == np.dtype(">u2")
    assert a.label == "abc" and a.raw == "xyz"
    assert a.blob.tobytes() == b"\x01\x02\x03\x04"
    assert isinstance(a.points, RecordArray) and len(a.points) == 2
    assert (a.points[1].x, a.points[1].y, a.points[1].tag) == (-0.25, 300, features.Features.Kind.pair)
    assert a.points.array["y"].tolist() == [-2, 300]
    assert isinstance(a.body, features.BodyPair) and (a.body.a, a.body.b) == (-5, 6)
    assert a.table.rows == 3 and a.table.cells.tolist() == [1, 2, 3, 4, 5, 6]
    assert a.ratio == 0.125
    assert a.double_items == 6
    assert a.first_byte == 0x42
    assert a.tail_words.tolist() == [2, 0x0302]
    assert a.nbytes == len(FEATURE_BYTES) == 75
    assert a.field_info("table") == (61, None, 6)


def test_if_fields(features: ModuleType, features_schema: Schema) -> None:
    a = features.Features.from_buffer(FEATURE_BYTES, n_cores=2)
    assert a.tail_v3 is None and a.cores_tag is None and a.nbytes == len(FEATURE_BYTES)
    data = build(features_schema, {**FEATURE_VALUES, "version": 3, "tail_v3": 7})
    assert data == FEATURE_BYTES[:2] + b"\x03" + FEATURE_BYTES[3:] + b"\x07"
    b = features.Features.from_buffer(data, n_cores=2)
    assert b.tail_v3 == 7 and b.to_dict()["tail_v3"] == 7 and b.to_dict()["cores_tag"] is None
    assert b.to_dict() == cb.to_plain(cb.parse(features_schema, data, n_cores=2), features_schema.root)


def test_switch_picks_the_other_case(features: ModuleType, features_schema: Schema) -> None:
    data = build(features_schema, {**FEATURE_VALUES, "kind": 1, "body": {"value": 0xDEADBEEF}})
    a = features.Features.from_buffer(data, n_cores=2)
    assert isinstance(a.body, features.BodyScalar) and a.body.value == 0xDEADBEEF
    assert data[53:57] == b"\xde\xad\xbe\xef"  # u4be inside the 8-byte switch slot


def test_params_change_the_layout(features: ModuleType, features_schema: Schema) -> None:
    data = build(features_schema, {**FEATURE_VALUES, "per_core": [9] * 6, "cores_tag": 0xAB}, n_cores=3)
    assert len(data) == len(FEATURE_BYTES) + 4 + 1 and data[-1] == 0xAB
    a = features.Features.from_buffer(data, n_cores=3)
    assert a.per_core.tolist() == [9] * 6 and a.ratio == 0.125
    assert a.cores_tag == 0xAB and a.tail_v3 is None
    with pytest.raises(Exception, match="takes params"):
        features.Features.from_buffer(data)


def test_numpy_backend_dtypes(features_schema: Schema) -> None:
    point = features_schema.root.types["point"]
    dt = nb.type_dtype(point)
    assert dt is not None and dt.itemsize == 7
    assert [dt.fields[n][1] for n in ("x", "y", "tag")] == [0, 4, 6]  # type: ignore[index]
    assert nb.type_layout(features_schema.root, {"n_cores": 2}) is None  # counts depend on data
    table = nb.type_layout(features_schema.root.types["table"], {"rows": 4})
    assert table is not None and table.size == 8
    buf = bytearray(FEATURE_BYTES)
    rec = nb.read_record(point, buf, 39)  # points[0]: after 2+2+1+1 + 12 + 8 + 6 + 3 + 4 bytes
    assert (float(rec["x"]), int(rec["y"]), int(rec["tag"])) == (1.5, -2, 1)
    assert np.shares_memory(rec, np.frombuffer(buf, np.uint8))
    rec["y"] = 7
    assert buf[43:45] == b"\x07\x00"


def test_accessor_equals_construct_backend(features: ModuleType, features_schema: Schema) -> None:
    a = features.Features.from_buffer(FEATURE_BYTES, n_cores=2)
    parsed = cb.parse(features_schema, FEATURE_BYTES, n_cores=2)
    assert a.to_dict() == cb.to_plain(parsed, features_schema.root)
    assert parsed.double_items == 6 and parsed.first_byte == 0x42 and list(parsed.tail_words) == [2, 0x0302]


values = st.fixed_dictionaries({
    "version": st.integers(1, 3), "kind": st.sampled_from([1, 2]),
    "items": st.lists(st.integers(-2**31, 2**31 - 1), max_size=6),
    "per_core": st.lists(st.integers(0, 65535), min_size=4, max_size=4),
    "label": st.text(st.characters(min_codepoint=1, max_codepoint=127), max_size=6),
    "raw": st.text(st.characters(min_codepoint=0, max_codepoint=127), min_size=3, max_size=3),
    "ratio": st.floats(allow_nan=False), "pair": st.tuples(st.integers(-2**15, 2**15 - 1), st.integers(-2**15, 2**15 - 1)),
})


@settings(max_examples=60, deadline=None)
@given(v=values)
def test_roundtrip_property(features: ModuleType, features_schema: Schema, v: dict[str, Any]) -> None:
    n = len(v["items"])
    body = {"a": v["pair"][0], "b": v["pair"][1]} if v["kind"] == 2 else {"value": v["pair"][0] & 0xFFFF}
    vals = {"version": v["version"], "kind": v["kind"], "num_items": n, "items": v["items"],
            "per_core": v["per_core"], "label": v["label"], "raw": v["raw"], "blob": bytes(range(n + 1)),
            "body": body, "table": {"cells": list(range(2 * n))}, "ratio": v["ratio"]}
    data = build(features_schema, vals)
    a = features.Features.from_buffer(data, n_cores=2)
    plain = cb.to_plain(cb.parse(features_schema, data, n_cores=2), features_schema.root)
    assert a.to_dict() == plain
    assert a.items.tolist() == v["items"] and a.label == v["label"] and a.ratio == v["ratio"]
    assert cb.build(features_schema, plain, n_cores=2) == data


def test_views_share_memory_and_write_through(features: ModuleType) -> None:
    buf = bytearray(FEATURE_BYTES)
    a = features.Features.from_buffer(buf, n_cores=2)
    items = a.items
    assert not items.flags.owndata and items.flags.writeable
    assert np.shares_memory(items, np.frombuffer(buf, np.uint8))
    struct.pack_into("<i", buf, 6, 123)
    assert items[0] == 123
    items[1] = -9
    assert struct.unpack_from("<i", buf, 10)[0] == -9
    copied = a.to_dict()["items"]
    buf[6] = 0
    assert copied[0] == 123  # to_dict is a copy


def test_read_only_source_gives_read_only_views(features: ModuleType) -> None:
    a = features.Features.from_buffer(FEATURE_BYTES, n_cores=2)
    assert not a.items.flags.writeable and not a.points.array.flags.writeable
    arr = np.frombuffer(bytearray(FEATURE_BYTES), np.uint8)
    b = features.Features.from_buffer(arr, n_cores=2)
    assert np.shares_memory(b.table.cells, arr)


def test_strz_array_decodes_lazily() -> None:
    arr = np.frombuffer(b"ab\0zz" + b"cd\0\0\0", dtype="S5")
    s = StrArray(arr, "ascii", True)
    assert list(s) == ["ab", "cd"] and s[-1] == "cd" and s[0:1] == ["ab"]
    assert np.shares_memory(s.array, arr)
    raw = StrArray(np.frombuffer(b"a\0b", dtype="S3"), "ascii", False)
    assert raw[0] == "a\0b"  # str (not strz) keeps everything


# -- hostile data ---------------------------------------------------------------------------------

def test_truncation_at_every_field_boundary(features: ModuleType) -> None:
    """Every prefix of the file: reading all fields gives a FormatError, never another exception."""
    for cut in range(len(FEATURE_BYTES)):
        a = features.Features.from_buffer(FEATURE_BYTES[:cut], n_cores=2)
        with pytest.raises(FormatError):
            a.validate()
            a.ratio  # the last field


def test_count_larger_than_the_data(features: ModuleType) -> None:
    bad = bytearray(FEATURE_BYTES)
    bad[5] = 200  # num_items: 200 * 4 bytes of items cannot fit
    a = features.Features.from_buffer(bad, n_cores=2)
    with pytest.raises(FormatError) as e:
        a.items
    msg = str(e.value)
    assert "features.items" in msg and "offset 6" in msg and "800 bytes (200 x 4)" in msg and "69 bytes left" in msg


def test_valid_rules(features: ModuleType) -> None:
    bad = bytearray(FEATURE_BYTES)
    bad[2] = 7  # version 7 > max 3
    with pytest.raises(ValidationError) as e:
        features.Features.from_buffer(bad, n_cores=2).version
    assert e.value.path == "features.version" and e.value.offset == 2 and e.value.found == 7
    assert e.value.expected == "1..3"
    bad = bytearray(FEATURE_BYTES)
    bad[4] = 9  # kind 9 is not in enum kind
    with pytest.raises(ValidationError) as e:
        features.Features.from_buffer(bad, n_cores=2).kind
    assert "enum kind [1, 2]" in str(e.value) and e.value.found == 9
    with pytest.raises(ValidationError):
        features.Features.from_buffer(bad, n_cores=2).validate()


def test_magic_and_construct_errors(features: ModuleType, features_schema: Schema) -> None:
    bad = b"XX" + FEATURE_BYTES[2:]
    with pytest.raises(ValidationError) as e:
        features.Features.from_buffer(bad, n_cores=2).magic
    assert e.value.expected == b"BP" and e.value.found == b"XX"
    with pytest.raises(FormatError):
        cb.parse(features_schema, bad, n_cores=2)
    with pytest.raises(FormatError):
        cb.parse(features_schema, FEATURE_BYTES[:30], n_cores=2)


def test_offset_outside_buffer(features: ModuleType) -> None:
    with pytest.raises(FormatError):
        features.Features.from_buffer(FEATURE_BYTES, offset=len(FEATURE_BYTES) + 1, n_cores=2)
    with pytest.raises(FormatError):
        features.Features.from_buffer(FEATURE_BYTES, offset=-1, n_cores=2)


def test_zero_size_records_with_a_huge_count(tmp_path: Any) -> None:
    from binparse.engine.schema import load_schema

    from .conftest import import_generated
    p = tmp_path / "empties.ksy"
    p.write_text("meta: {id: empties, endian: le}\nseq:\n  - id: n\n    type: u4\n"
                 "  - id: items\n    type: empty\n    repeat: expr\n    repeat-expr: n\ntypes:\n  empty: {}\n")
    schema = load_schema(p, tmp_path)
    mod = import_generated(schema, tmp_path, "empties_accessors")
    ok = mod.Empties.from_buffer(struct.pack("<I", 3))
    assert len(ok.items) == 3 and ok.items[2].offset == 4
    huge = struct.pack("<I", 0xFFFFFFFF)
    with pytest.raises(FormatError, match="larger than the data could describe"):
        mod.Empties.from_buffer(huge).items
    with pytest.raises(FormatError, match="exceeds the 4 bytes"):
        cb.parse(schema, huge)


FUZZ_CASES = int(__import__("os").environ.get("BINPARSE_FUZZ_CASES", "300"))


def test_bit_flips_give_only_binparse_errors(features: ModuleType, features_schema: Schema) -> None:
    """Random bit flips and byte smashes: every field read either succeeds or raises a
    BinparseError; no IndexError, struct.error, MemoryError or reads outside the buffer."""
    from binparse import BinparseError
    rng = np.random.default_rng(20261121)
    raised = 0
    for _ in range(FUZZ_CASES):
        data = bytearray(FEATURE_BYTES)
        for pos in rng.integers(0, len(data), size=int(rng.integers(1, 4))):
            data[pos] = int(rng.integers(0, 256)) if rng.random() < 0.5 else data[pos] ^ (1 << int(rng.integers(0, 8)))
        cut = len(data) if rng.random() < 0.7 else int(rng.integers(0, len(data)))
        blob = bytes(data[:cut])
        try:
            a = features.Features.from_buffer(blob, n_cores=2)
            a.validate()
            a.to_dict()
        except BinparseError:
            raised += 1
        try:
            cb.parse(features_schema, blob, n_cores=2)
        except BinparseError:
            pass
    assert 0 < raised < FUZZ_CASES  # both outcomes happen, so the cases are not all trivial
