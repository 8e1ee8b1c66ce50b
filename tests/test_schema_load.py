"""The .ksy loader: what the subset accepts, and SchemaErrors that name file, line and key."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from binparse import SchemaError, load_schema
from binparse.engine.schema import Schema, load_all


def write(tmp_path: Path, text: str, name: str = "s.ksy") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return p


def err(tmp_path: Path, text: str) -> SchemaError:
    with pytest.raises(SchemaError) as e:
        load_schema(write(tmp_path, text), tmp_path)
    return e.value


def test_feature_schema_model(features_schema: Schema) -> None:
    root = features_schema.root
    assert features_schema.id == "features" and features_schema.endian == "le"
    assert [a.id for a in root.seq][:5] == ["magic", "version", "kind", "num_items", "items"]
    kinds = {a.id: a.kind for a in root.seq}
    assert kinds["magic"] == "contents" and kinds["label"] == "str" and kinds["body"] == "switch"
    assert kinds["table"] == "user" and kinds["blob"] == "bytes"
    per_core = next(a for a in root.seq if a.id == "per_core")
    assert per_core.prim is not None and per_core.prim.endian == "be" and per_core.prim.numpy == ">u2"
    assert root.params[0].id == "n_cores"
    assert root.enums["kind"].members == {1: "scalar", 2: "pair"}
    assert root.types["table"].params[0].id == "rows"
    assert next(a for a in root.seq if a.id == "version").line == 13


def test_every_shipped_schema_loads() -> None:
    names = [s.name for s in load_all()]
    assert {"tidl/tidl_io_buf_desc", "tidl/tidl_io_buf_desc_tda2", "tidl/tidl_enums"} <= set(names)


def test_unknown_key_names_file_line_and_key(tmp_path: Path) -> None:
    e = err(tmp_path, """
        meta:
          id: x
          endian: le
        seq:
          - id: a
            type: u4
          - id: b
            type: u4
            colour: red
        """)
    assert e.line == 9 and e.key == "colour"
    assert str(e).startswith(f"{(tmp_path / 's.ksy').resolve()}:9:5: key 'colour' (x.b)")
    assert str(e).endswith("\n        colour: red\n        ^")  # the line, a caret under the key
    assert "is not a key of a seq item in Kaitai Struct 0.11" in str(e)


@pytest.mark.parametrize("body,line,key,words", [
    ("seq:\n  - id: a\n    type: u4\n    repeat: often\n", 7, "repeat", "repeat is expr, eos or until"),
    ("seq:\n  - id: a\n    type: u4\n    repeat: expr\n", 7, "repeat", "needs repeat-expr"),
    ("seq:\n  - id: a\n    type: nosuch\n", 6, "type", "unknown type 'nosuch'"),
    ("seq:\n  - id: a\n    type: u4\n    repeat: expr\n    repeat-expr: later\n  - id: later\n    type: u4\n",
     8, "repeat-expr", "'later'"),
    ("seq:\n  - id: a\n    type: str\n    size: 4\n", 6, "type", "needs an encoding"),
    ("seq:\n  - id: a\n    type: str\n    encoding: ASCII\n", 6, "type", "needs size, size-eos or terminator"),
    ("seq:\n  - id: a\n    type: u4\n    size: 4\n", 7, "size", "takes no size"),
    ("seq:\n  - id: a\n    type: u4\n    enum: nope\n", 7, "enum", "unknown enum 'nope'"),
    ("seq:\n  - id: a\n    type: u4\n    valid:\n      max: limit\n", 7, "valid", "names 'limit'"),
    ("seq:\n  - id: A\n    type: u4\n", 5, "id", "lower_snake_case"),
    ("seq:\n  - id: a\n    type: u4\n    valid:\n      in-range: 3\n", 8, "in-range", "is not a key of valid"),
    ("seq:\n  - id: a\n    type: u4\n    repeat: expr\n    repeat-expr: 3 +\n", 8, "repeat-expr", "unexpected 'end of expression'"),
    ("types:\n  t:\n    params:\n      - id: p\n        type: u4\n    seq: []\nseq:\n  - id: a\n    type: t\n",
     12, "type", "takes 1 argument"),
])
def test_rejections(tmp_path: Path, body: str, line: int, key: str, words: str) -> None:
    e = err(tmp_path, "meta:\n  id: x\n  endian: le\n" + body)
    assert words in str(e)
    assert e.key == key
    assert e.line == line
    assert e.file == str((tmp_path / "s.ksy").resolve())


def test_number_type_without_byte_order(tmp_path: Path) -> None:
    e = err(tmp_path, "meta:\n  id: x\nseq:\n  - id: a\n    type: u4\n")
    assert "needs a byte order" in str(e) and e.line == 5
    s = load_schema(write(tmp_path, "meta:\n  id: x\nseq:\n  - id: a\n    type: u4be\n  - id: b\n    type: u1\n"), tmp_path)
    assert [a.prim.numpy for a in s.root.seq if a.prim] == [">u4", "|u1"]


def test_bad_yaml_and_missing_meta(tmp_path: Path) -> None:
    e = err(tmp_path, "meta:\n  id: x\nseq: [\n")
    assert "not valid YAML" in str(e)
    e = err(tmp_path, "seq: []\n")
    assert "meta" in str(e)
    e = err(tmp_path, "meta:\n  id: Bad-Id\n")
    assert e.key == "id"


def test_a_yaml_escape_of_a_lone_surrogate_is_refused_where_it_is(tmp_path: Path) -> None:
    """YAML's `"\\ud800"` names no character (PyYAML's own scanner lets it through): refused at its line, as a
    key too; a character beyond U+FFFF written as YAML's `\\U` escape reads."""
    e = err(tmp_path, 'meta:\n  id: x\nseq:\n  - id: a\n    type: u1\n    doc: "a \\ud800 b"\n')
    assert str(e).splitlines()[0].endswith("s.ksy:6:5: not valid YAML: a lone surrogate (an escape \\uD800 to "
                                           "\\uDFFF alone) is no Unicode character") and e.line == 6
    assert err(tmp_path, 'meta:\n  id: x\n"\\udc00": 1\n').line == 3
    s = load_schema(write(tmp_path, 'meta:\n  id: x\nseq:\n  - id: a\n    type: u1\n    doc: "\\U0001F600"\n'),
                    tmp_path)
    assert s.root.seq[0].doc == "\U0001F600"


def test_enum_literal_must_exist(tmp_path: Path) -> None:
    e = err(tmp_path, """
        meta: {id: x, endian: le}
        seq:
          - id: k
            type: u1
          - id: v
            size: 'k == kinds::zz ? 1 : 2'
        enums:
          kinds: {1: aa}
        """)
    assert "no member 'zz'" in str(e) and e.key == "size"


def test_imports_resolve_types(tmp_path: Path) -> None:
    write(tmp_path, "meta: {id: point, endian: le}\nseq:\n  - id: x\n    type: s4\n", "point.ksy")
    s = load_schema(write(tmp_path, "meta:\n  id: shape\n  endian: le\n  imports: [point]\nseq:\n  - id: p\n    type: point\n"), tmp_path)
    assert s.imports[0].id == "point"
    assert s.root.resolve_type("point").seq[0].id == "x"
    e = err(tmp_path, "meta:\n  id: y\n  imports: [missing]\n")
    assert "imported schema 'missing' not found" in str(e) and e.line == 3
