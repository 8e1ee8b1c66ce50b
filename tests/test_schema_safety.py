"""Schemas are data (issue 44, docs/contracts.md "Schemas are data"): the known escape routes, each tried
and each refused at load (a SchemaError naming file, line and key: exit 3) or read as plain data.
The generated suite (`tests/hostile/test_schemas.py`) pushes every class further, through every entry point."""

from __future__ import annotations

import ast
import json
import marshal
import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import binparse
from binparse.cli import main
from binparse.core.errors import BinparseError, FormatError, SchemaError

ESCAPE = "_root.as<any>.validate.__func__.__globals__"


def ksy(tmp_path: Path, name: str, body: str) -> Path:
    p = tmp_path / f"{name}.ksy"
    p.write_text(f"meta:\n  id: {name}\n  endian: le\n" + body)
    return p


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "cache" / "ksy"))
    return tmp_path / "cache" / "ksy"


ROUTES = {  # value instance -> (line 5, key 'value'): the message
    ESCAPE: ".as<any>: a cast names a declared type",
    "_root.validate": "type 'e' has no field, instance or param 'validate'",
    "_root.__class__": "a record has no member '__class__' (of Kaitai's: _parent, _root, _io, _sizeof)",
    "_root._mv": "a record has no member '_mv' (of Kaitai's: _parent, _root, _io, _sizeof)",
    "_io.__class__": "a stream has no method or field '__class__'",
    "_io.read_bytes(4)": "a stream has no method read_bytes()",
    "_root.to_dict()": "a record of type 'e' has no method to_dict()",
    "a.__class__": "an integer has no method or field '__class__'",
    "a.to_s.__self__": "a string has no method or field '__self__'",
    "f\"{_root.__class__}\"": "a record has no member '__class__'",
    "[1, 2].__len__": "a byte array has no method or field '__len__'",
    "(a == 1 ? _root : _root).__dict__": "a record has no member '__dict__'",
    "_root.nope": "type 'e' has no field, instance or param 'nope'",
    "_root.as<struct>.a": ".as<struct>: a cast names a declared type",
    "a.as<io>": ".as<io>: a cast names a declared type",
}


@pytest.mark.parametrize("value", sorted(ROUTES))
def test_an_expression_names_only_what_the_schema_declares(tmp_path: Path, value: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    p = ksy(tmp_path, "e", f"seq:\n  - {{id: a, type: u1}}\ninstances:\n  x:\n    value: {json.dumps(value)}\n")
    with pytest.raises(SchemaError) as e:
        binparse.compile(p)
    assert (e.value.line, e.value.key, e.value.path) == (8, "value", "e.x") and ROUTES[value] in e.value.message
    data = tmp_path / "d.bin"
    data.write_bytes(b"\x01")
    for argv in (["inspect", str(data), "--schema", str(p)], ["generate", str(p), "-o", str(tmp_path / "pkg")],
                 ["view", str(data), "--schema", str(p), "--tensor", "a", "--npy", str(tmp_path / "x.npy")],
                 ["fixture", str(data), "--schema", str(p), "-o", str(tmp_path / "o.bin")]):
        assert main(argv) == 3
        err = capsys.readouterr().err  # one message, then the schema's line and a caret under the place
        assert err.count("\n") == 3 and err.startswith(f"binparse: error: {p}:8:"), err
        assert f" key 'value' (e.x): {ROUTES[value]}" in err.splitlines()[0], err
    assert not (tmp_path / "pkg").exists() and not (tmp_path / "o.bin").exists()


UNIONS = """seq:
  - {id: k, type: u1}
  - {id: one, type: holder}
  - {id: two, type: other}
  - id: s
    type:
      switch-on: k
      cases:
        0: holder
        1: other
  - {id: p, type: takes(_root)}
types:
  holder:
    seq:
      - {id: c, type: child}
  other:
    seq:
      - {id: validate, type: u1}
      - {id: c, type: child}
  child:
    seq:
      - {id: b, type: u1}
    instances:
      up:
        value: _parent.%s
  takes:
    params:
      - {id: q, type: any}
    instances:
      down:
        value: q.%s
instances:
  sw:
    value: s.%s
"""


@pytest.mark.parametrize("name", ["__class__", "from_buffer", "_cache", "to_dict", "nbytes"])
def test_unions_and_any_do_not_turn_the_check_off(tmp_path: Path, name: str) -> None:
    """`_parent` with two possible parents, an `any` param and a switch over two types: a name is
    one some type of the union declares, or the schema is refused."""
    for where in range(3):
        names = ["c", "k", "c"]
        names[where] = name
        p = ksy(tmp_path, "u", UNIONS % tuple(names))
        with pytest.raises(SchemaError, match=f"'{name}'"):
            binparse.compile(p)


def test_a_name_of_the_union_reads_as_data(tmp_path: Path) -> None:
    """`validate` is a field of one parent: through the union it is that field's value, or, in a record of
    the other type, a FormatError (never the accessor's method)."""
    p = ksy(tmp_path, "u", UNIONS % ("validate", "k", "validate"))
    r = binparse.compile(p).parse(bytes([1, 5, 9, 6, 7, 8]))  # k=1: s is an `other`
    assert r.two.c.up == 9 and r.sw == 7 and r.p.down == 1
    with pytest.raises(FormatError, match="'u::holder' has no field, instance or param 'validate'"):
        r.one.c.up  # noqa: B018
    r0 = binparse.compile(p).parse(bytes([0, 5, 9, 6, 7, 8]))  # k=0: s is a holder, which has no validate
    with pytest.raises(FormatError, match="has no field, instance or param 'validate'"):
        r0.sw  # noqa: B018


def test_a_field_named_as_the_accessors_methods_is_a_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    names = ("validate", "from_buffer", "to_dict", "field_names", "nbytes", "offset", "path")
    p = ksy(tmp_path, "m", "seq:\n" + "".join(f"  - {{id: {n}, type: u1}}\n" for n in names))
    data = tmp_path / "m.bin"
    data.write_bytes(bytes(range(1, 8)))
    r = binparse.compile(p).parse(data)
    assert [getattr(r, n) for n in names] == [1, 2, 3, 4, 5, 6, 7]
    assert main(["inspect", str(data), "--schema", str(p), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == dict(zip(names, range(1, 8)))


def test_generated_source_holds_schema_text_only_as_literals(tmp_path: Path) -> None:
    nasty = 'x"""\\\\ \x00 \x7f \r "'
    p = tmp_path / 'we"ird\nname.ksy'
    p.write_text("meta:\n  id: class\n  title: " + json.dumps(nasty) + "\ndoc: " + json.dumps(nasty) +
                 "\nseq:\n  - {id: import, type: u1, doc: " + json.dumps(nasty) + "}\n  - {id: t, type: field_spec}\n"
                 "  - {id: e, type: u1, enum: int_enum}\ntypes:\n  field_spec:\n    seq:\n      - {id: none, type: u1}\n"
                 "enums:\n  int_enum:\n    1: mro\n    2: doc\n    3: def\n", encoding="utf-8", errors="surrogatepass")
    out = tmp_path / "pkg"
    assert main(["generate", str(p), "-o", str(out)]) == 0
    text = (out / "class_.py").read_text()
    tree = ast.parse(text)  # it compiles; every name the module binds at its top is checked
    top = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    assert top == {"Class", "FieldSpec_"}  # `FieldSpec` is a name the module imports: the type's class is renamed
    assert "\n".join(text.splitlines()[:1]) == "# GENERATED by `binparse generate` from 'we\"ird\\nname.ksy'. Do not " \
                                               "edit: edit the schema and regenerate."
    import sys
    sys.path.insert(0, str(tmp_path))
    try:
        mod = __import__("pkg.class_", fromlist=["Class"])  # the module of the id `class` (a keyword): class_.py
        r = mod.Class._open(memoryview(b"\x07\x08\x01"), None, {})
        assert (r.import_, r.t.none, r.e) == (7, 8, mod.Class.IntEnum_.mro_)
        assert mod.Class.__doc__ == 'x"""\\\\ \\x00 \\x7f \\r "'  # the doc, its unprintable characters as their escapes
    finally:
        sys.path.remove(str(tmp_path))
        for m in [m for m in sys.modules if m == "pkg" or m.startswith("pkg.")]:
            del sys.modules[m]


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_literals_and_docstrings_read_back_as_the_text(text: str) -> None:
    from binparse.engine.expr.idents import doc_body, literal
    assert ast.literal_eval(literal(text)) == text
    assert literal(text).isascii() or literal(text).encode("utf-8")
    body = doc_body(text)
    back = ast.literal_eval('"""' + body + '"""')
    back.encode("utf-8")  # no lone surrogate: a class's doc is encoded when the class is made
    assert back == "".join(c if c.isprintable() or c in "\n\t" else repr(c)[1:-1] for c in text)


def test_a_planted_cache_entry_never_runs(tmp_path: Path, cache: Path) -> None:
    p = ksy(tmp_path, "c", "seq:\n  - {id: a, type: u1}\n")
    assert binparse.compile(p).parse(b"\x05").a == 5
    (folder,) = cache.iterdir()
    marker = tmp_path / "MARKER"
    evil = marshal.dumps(compile(f"open({str(marker)!r}, 'w').write('ran')", "c.py", "exec"))
    from binparse.engine import compiler, ksycache

    def again() -> int:
        compiler._MEMO.clear()
        return int(binparse.compile(p).parse(b"\x06").a)

    (folder / "c.code").write_bytes(evil)  # the digest in the manifest no longer matches: built anew
    assert again() == 6 and not marker.exists()
    manifest = json.loads((folder / "manifest.json").read_text())
    (folder / "c.code").write_bytes(evil)  # ... and with the digest planted too, but the folder open to all
    manifest["modules"]["c"] = __import__("hashlib").sha256(evil).hexdigest()
    (folder / "manifest.json").write_text(json.dumps(manifest))
    os.chmod(folder, 0o777)
    assert again() == 6 and not marker.exists()
    os.chmod(folder, 0o700)
    os.chmod(folder / "c.code", 0o666)  # an entry others may write
    assert again() == 6 and not marker.exists()
    os.chmod(folder / "c.code", 0o644)
    (folder / "c.code").unlink()  # an entry that is a link
    (tmp_path / "elsewhere.code").write_bytes(evil)
    (folder / "c.code").symlink_to(tmp_path / "elsewhere.code")
    assert again() == 6 and not marker.exists()
    assert ksycache.read_trusted(folder / "c.code") is None
    os.chmod(cache, 0o757)  # the cache folder itself open to others: not used, nothing written into it
    assert again() == 6 and not marker.exists() and not ksycache.trusted_folder(cache)


def test_a_cache_folder_that_is_a_link_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    (tmp_path / "link").symlink_to(real)
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "link"))
    p = ksy(tmp_path, "l", "seq:\n  - {id: a, type: u1}\n")
    assert binparse.compile(p).parse(b"\x05").a == 5
    assert list(real.iterdir()) == []  # compiled in memory: nothing written through the link


def test_the_cache_folder_is_made_for_this_user_alone(tmp_path: Path, cache: Path) -> None:
    p = ksy(tmp_path, "m", "seq:\n  - {id: a, type: u1}\n")
    binparse.compile(p)
    assert (cache.stat().st_mode & 0o777, next(cache.iterdir()).stat().st_mode & 0o777) == (0o700, 0o700)


def test_imports_stay_inside_the_schemas_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lib, out = tmp_path / "lib", tmp_path / "out"
    lib.mkdir()
    out.mkdir()
    (out / "secret.ksy").write_text("meta: {id: secret}\nseq: [{id: s, type: u1}]\n")
    (lib / "pw.ksy").symlink_to("/etc/passwd")
    (lib / "up.ksy").symlink_to(out / "secret.ksy")
    data = tmp_path / "d.bin"
    data.write_bytes(b"\x01")
    for imp in ("../out/secret", "/../out/secret", "pw", "up", "/pw"):
        p = lib / "a.ksy"
        p.write_text(f"meta:\n  id: a\n  imports: [{imp}]\nseq: [{{id: x, type: u1}}]\n")
        with pytest.raises(SchemaError) as e:
            binparse.compile(p, import_path=[lib])
        assert (e.value.line, e.value.key) == (3, "imports") and "leads outside" in e.value.message
        assert main(["inspect", str(data), "--schema", str(p), "--import-path", str(lib)]) == 3
        err = capsys.readouterr().err  # the import's own line quoted, never what it points at
        assert err.count("\n") == 3 and "root:" not in err and f"imports: [{imp}]" in err, err
    (lib / "sub").mkdir()  # inside the import path, `..` is fine (Kaitai's own tests import `../imported_root`)
    (lib / "b.ksy").write_text("meta: {id: b}\nseq: [{id: y, type: u1}]\n")
    (lib / "sub" / "a.ksy").write_text("meta:\n  id: a\n  imports: [../b]\nseq: [{id: x, type: b}]\n")
    assert binparse.compile(lib / "sub" / "a.ksy", import_path=[lib]).parse(b"\x09").x.y == 9


def test_generate_looks_at_its_target_before_reading_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = ksy(tmp_path, "g", "seq:\n  - {id: a, type: u1}\n")
    out = tmp_path / "pkg"
    out.mkdir()
    (out / "g.py").symlink_to("/dev/zero")  # read first, this would never end
    assert main(["generate", str(p), "-o", str(out)]) == 3
    assert "g.py: is a symbolic link: binparse replaces only regular files" in capsys.readouterr().err


def test_fixture_building_shares_the_evaluator(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`fixture --schema` builds with construct, whose expressions go through the same whitelist: its
    context's `_io` is a stream with Kaitai's pos, size and eof, a record a mapping of declared fields."""
    values = tmp_path / "v.yaml"
    values.write_text("n: 2\nitems: [7, 8]\n")
    ok = ksy(tmp_path, "f", "seq:\n  - {id: n, type: u1}\n  - {id: items, type: u1, repeat: expr, repeat-expr: n}\n"
             "  - {id: pad, size: _io.pos}\n")
    values.write_text("n: 2\nitems: [7, 8]\npad: !!binary AAAA\n")
    assert main(["fixture", str(values), "--schema", str(ok), "-o", str(tmp_path / "o.bin")]) == 0
    assert (tmp_path / "o.bin").read_bytes() == b"\x02\x07\x08\x00\x00\x00"
    from binparse.engine.backends.construct_backend import _CtxScope
    from binparse.engine.expr import evaluate, parse
    import construct as c
    scope = _CtxScope(c.Container(a=1, _=c.Container(b=2), _io=None))
    assert evaluate(parse("_parent.b + a"), scope) == 3
    for bad in ("_io.__class__", "_parent.__class__", "_params", "_building"):
        with pytest.raises(Exception) as e:
            evaluate(parse(bad), scope)
        assert type(e.value).__name__ == "KaitaiTypeError"


def test_the_api_raises_binparse_errors_only(tmp_path: Path) -> None:
    p = ksy(tmp_path, "n", "seq:\n  - {id: n, type: u1}\n  - {id: b, size: n - 10}\ninstances:\n"
            "  big:\n    value: 1 << (n * 1000000)\n")
    r = binparse.compile(p).parse(b"\x05" + bytes(9))
    with pytest.raises(FormatError, match="negative size; expected a size >= 0, found -5"):
        r.b  # noqa: B018
    with pytest.raises(FormatError, match="would make an integer of about 5,000,001 bits"):
        r.big  # noqa: B018
    deep = ksy(tmp_path, "d", "seq:\n  - {id: n, type: node}\ntypes:\n  node:\n    seq:\n"
               "      - {id: child, type: node}\n")
    with pytest.raises(FormatError, match="records nest deeper than 200 levels"):
        x = binparse.compile(deep).parse(b"\x01").n
        for _ in range(300):
            x = x.child


def test_malformed_budgets_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    p = ksy(tmp_path, "b", "seq:\n  - {id: a, type: u1}\n")
    data = tmp_path / "d.bin"
    data.write_bytes(b"\x01")
    with pytest.raises(SystemExit) as e:  # argparse's own usage error
        main(["inspect", str(data), "--schema", str(p), "--budget", "lots"])
    assert e.value.code == 3 and "argument --budget: not a size: 'lots'" in capsys.readouterr().err
    monkeypatch.setenv("BINPARSE_BUDGET", "lots")
    assert main(["inspect", str(data), "--schema", str(p)]) == 3
    assert capsys.readouterr().err.startswith("binparse: error: $BINPARSE_BUDGET: not a size: 'lots'")
    from binparse.core import budget
    with pytest.raises(BinparseError, match="BINPARSE_BUDGET: not a size"):
        budget.limit()


def test_the_names_a_generated_module_binds_are_known(tmp_path: Path) -> None:
    """Every name the head of a generated module binds that is no class of the schema and does not start
    with `_` is in `idents.MODULE_NAMES` (the names a class of the schema is kept away from)."""
    from binparse.engine.codegen.write import package_files
    from binparse.engine.expr.idents import MODULE_NAMES
    p = ksy(tmp_path, "n", "params:\n  - {id: k, type: u1}\nseq:\n  - {id: a, type: u1}\n  - {id: b, size: a}\n"
            "  - {id: c, type: t, repeat: expr, repeat-expr: k}\n  - {id: e, type: u1, enum: x}\n"
            "instances:\n  v:\n    value: a * 2\n  property:\n    value: a\n"
            "types:\n  t:\n    seq:\n      - {id: d, type: u2}\n      - {id: s, type: str, size: d, encoding: ASCII}\n"
            "enums:\n  x:\n    1:\n      id: one\n      doc: the one\n")
    for path, text in package_files([p], tmp_path / "pkg").items():
        tree = ast.parse(text)
        bound: set[str] = set()
        for node in tree.body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                bound |= {(a.asname or a.name).split(".")[0] for a in node.names}
            elif isinstance(node, ast.Assign):
                bound |= {t.id for t in node.targets if isinstance(t, ast.Name)}
            elif isinstance(node, (ast.FunctionDef, ast.AnnAssign)):
                bound.add(node.name if isinstance(node, ast.FunctionDef) else getattr(node.target, "id", ""))
        classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        assert {b for b in bound - classes if not b.startswith("_")} - {"__all__"} <= MODULE_NAMES, path


def test_a_webide_representation_names_only_declared_members(tmp_path: Path) -> None:
    """`-webide-representation` placeholders go through the records' one dispatch: a dunder or a runtime
    attribute is no member (an empty placeholder), never a Python attribute read."""
    from binparse.engine.dump.webide import representation
    p = ksy(tmp_path, "w", '-webide-representation: "{a}|{__class__.__init__.__globals__}|{_mv}|{_cache}|{b.__class__}|'
            '{_parent}|{b}"\nseq:\n  - {id: a, type: u1}\n  - {id: b, type: u1}\n')
    assert representation(binparse.compile(p).parse(b"AB")) == "0x41||||||0x42"
