"""The messages a user of their own schemas reads, one kind at a time, by their exact text: schema
errors (file:line:column, the field path, the line and a caret), YAML errors, "did you mean", the
Python API's terms and the command line's, the input checked before the schema, `schema diff` of
types."""

from __future__ import annotations

from pathlib import Path

import pytest

import binparse
from binparse.cli import exit_code, main
from binparse.core.errors import PathError, SchemaError

from . import roundtrip as rt

REPO = Path(__file__).resolve().parents[1]
REFUSED = exit_code(SchemaError("refused", file="s.ksy"))  # the contract's code of a refused schema (3)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "cache"))


def refused(tmp_path: Path, text: str) -> str:
    p = tmp_path / "s.ksy"
    p.write_text(text)
    with pytest.raises(SchemaError) as e:
        binparse.compile(p)
    return str(e.value).replace(str(p.resolve()), "s.ksy")


# (the schema, what binparse.compile raises: the message, the line, a caret under the column)
KINDS = {
    "yaml": ("meta:\n  id: y\nseq:\n  - id: a\n    type: [u1, \n",
             "s.ksy:5:16: not valid YAML: while parsing a flow node: expected the node content, but found "
             "'<stream end>'\n        type: [u1, \n                   ^"),
    "yaml_indent": ("meta:\n  id: y\nseq:\n  - id: a\n     type: u1\n",
                    "s.ksy:5:10: not valid YAML: mapping values are not allowed here\n"
                    "         type: u1\n             ^"),
    "key": ("meta:\n  id: k\nseq:\n  - id: a\n    type: u1\n    repeat-exp: 2\n",
            "s.ksy:6:5: key 'repeat-exp' (k.a): 'repeat-exp' is not a key of a seq item in Kaitai Struct 0.11; did "
            "you mean 'repeat-expr'? (allowed: consume, contents, doc, doc-ref, encoding, enum, eos-error, id, if, "
            "include, pad-right, parent, process, repeat, repeat-expr, repeat-until, size, size-eos, terminator, "
            "type, valid, and keys starting with '-')\n        repeat-exp: 2\n        ^"),
    "expression": ("meta:\n  id: e\nseq:\n  - id: n\n    type: u1\n  - id: body\n    size: n * (2 +\n",
                   "s.ksy:7:19: key 'size' (e.body): expression 'n * (2 +': unexpected 'end of expression'\n"
                   "        size: n * (2 +\n                      ^"),
    "type": ("meta:\n  id: t\n  endian: le\nseq:\n  - id: hdr\n    type: haeder\ntypes:\n  header:\n    seq:\n"
             "      - id: length\n        type: u4\n",
             "s.ksy:6:11: key 'type' (t.hdr): unknown type 'haeder'; did you mean 'header'?\n"
             "        type: haeder\n              ^"),
    "enum": ("meta:\n  id: en\nseq:\n  - id: k\n    type: u1\n    enum: animl\nenums:\n  animal:\n    1: cat\n",
             "s.ksy:6:11: key 'enum' (en.k): unknown enum 'animl'; did you mean 'animal'?\n"
             "        enum: animl\n              ^"),
    "enum_member": ("meta:\n  id: m\nseq:\n  - id: k\n    type: u1\n    enum: animal\n  - id: x\n    type: u1\n"
                    "    if: k == animal::kat\nenums:\n  animal:\n    1: cat\n",
                    "s.ksy:9:22: key 'if' (m.x): enum 'animal' has no member 'kat'; did you mean 'cat'?\n"
                    "        if: k == animal::kat\n                         ^"),
    "field_of_a_type": ("meta:\n  id: c\n  endian: le\nseq:\n  - id: hdr\n    type: header\n  - id: body\n"
                        "    size: hdr.lenght\ntypes:\n  header:\n    seq:\n      - id: length\n        type: u4\n",
                        "s.ksy:8:15: key 'size' (c.body): type 'c::header' has no field, instance or param 'lenght'; "
                        "did you mean 'length'?\n        size: hdr.lenght\n                  ^"),
    "name": ("meta:\n  id: n\nseq:\n  - id: count\n    type: u1\n  - id: items\n    type: u1\n    repeat: expr\n"
             "    repeat-expr: cuont\n",
             "s.ksy:9:18: key 'repeat-expr' (n.items): expression names 'cuont', which is not a field, param or "
             "instance of 'n'; did you mean 'count'?\n        repeat-expr: cuont\n                     ^"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_schema_error_says_where_and_shows_the_line(tmp_path: Path, kind: str) -> None:
    text, message = KINDS[kind]
    assert refused(tmp_path, text) == message


def test_the_command_line_prints_the_line_and_caret_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.ksy"
    p.write_text("meta:\n  id: t\nseq:\n  - id: b\n    type:\thdr\n")
    data = tmp_path / "d.bin"
    data.write_bytes(b"\0")
    assert main(["inspect", str(data), "--schema", str(p)]) == REFUSED
    assert capsys.readouterr().err == (  # the tab written as \t, the caret under it
        f"binparse: error: {p.resolve()}:5:10: not valid YAML: while scanning for the next token: found character "
        "'\\t' that cannot start any token\n        type:\\thdr\n             ^\n")


def test_the_api_and_the_command_line_each_say_their_own_terms(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "s.ksy"
    p.write_text("meta:\n  id: i\n  imports:\n    - /common/nothing_here\nseq:\n  - id: a\n    type: u1\n")
    searched = REPO / "schemas" / "common" / "nothing_here.ksy"
    with pytest.raises(SchemaError) as e:
        binparse.compile(p)
    head = (f"{p.resolve()}:4:7: key 'imports': imported schema '/common/nothing_here' not found; expected "
            f"{searched}. Give the folder that holds it as an import path: ")
    assert str(e.value) == head + "import_path=[DIR]\n        - /common/nothing_here\n          ^"
    data = tmp_path / "d.bin"
    data.write_bytes(b"\0")
    assert main(["inspect", str(data), "--schema", str(p)]) == REFUSED
    assert capsys.readouterr().err == ("binparse: error: " + head + "--import-path DIR\n"
                                       "        - /common/nothing_here\n          ^\n")


def test_a_missing_input_is_said_before_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.ksy"
    bad.write_text("meta: {id: bad}\nseq:\n  - {id: a, type: nope}\n")
    missing = tmp_path / "missing.bin"
    for argv in (["inspect", str(missing), "--schema", str(bad)],
                 ["view", str(missing), "--schema", str(bad), "--tensor", "a", "--npy", str(tmp_path / "a.npy")],
                 ["fixture", "--schema", str(bad), "--from", str(missing), "-o", str(tmp_path / "o.bin")]):
        assert main(argv) == 3
        assert capsys.readouterr().err == f"binparse: error: {missing}: no such file or folder\n"
    with pytest.raises(PathError) as e:
        binparse.open(missing, schema=bad)
    assert str(e.value) == f"{missing}: no such file or folder"


def test_schema_diff_sees_a_field_whose_type_changed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    old, new = tmp_path / "v1.ksy", tmp_path / "v2.ksy"
    head = "meta: {id: rec, endian: le}\nseq:\n  - {id: len, type: u4}\n  - {id: body, size: len, type: blob}\n"
    old.write_text(head + "types:\n  blob:\n    seq:\n      - {id: tag, type: u2}\n      - {id: data, size-eos: true}\n")
    new.write_text(head + "types:\n  blob:\n    seq:\n      - {id: tag, type: u4, enum: tags}\n      - {id: data, "
                   "type: chunk, size-eos: true}\n  chunk:\n    seq:\n      - {id: x, type: u1}\n"
                   "enums:\n  tags: {1: one}\n")
    assert main(["schema", "diff", str(old), str(new)]) == 0
    assert capsys.readouterr().out == (
        f"{old} → {new}: 3 change(s) (the places of fields after a data-dependent one not compared)\n"
        "  retyped  blob.tag                         u2le → u4le enum tags\n"
        "  retyped  blob.data                        bytes → chunk\n"
        "  added    type chunk                       (1 field(s))\n")


@pytest.mark.skipif(not rt.GALLERY.is_dir(), reason="../shared/conformance is absent")
def test_schema_diff_of_gif_from_2021_to_today(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """gif.ksy of January 2021 (kaitai_struct_formats 3058838) read the application id of an application
    extension as a sub-block; today it is a type of its own (190d2c6): the 2021 text, made back from today's."""
    today = (rt.GALLERY / "image" / "gif.ksy").read_text()
    block = today[today.index("  application_id:\n"):today.index("enums:")]
    then = today.replace("        type: application_id\n", "        type: subblock\n").replace(block, "")
    old = tmp_path / "gif_2021.ksy"
    old.write_text(then)
    assert main(["schema", "diff", str(old), str(rt.GALLERY / "image" / "gif.ksy")]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "  retyped  ext_application.application_id   subblock → application_id",
        "  added    type application_id              (3 field(s))"]
