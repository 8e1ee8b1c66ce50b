"""A user's own .ksy: binparse.compile, open(schema=), inspect/view/fixture --schema, generate -o,
the cache, refusals, and the compiled readers of linear records (their values, views and errors)."""

from __future__ import annotations

import json
import math
import os
import struct
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.core.errors import FormatError, SchemaError

REPO = Path(__file__).resolve().parents[1]
WAV = REPO / "docs" / "ksy" / "wav.ksy"
SAMPLES = [0, 5657, 8000, 5657, 0, -5657, -8000, -5657]


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


@pytest.fixture
def tone(tmp_path: Path) -> Path:
    p = tmp_path / "tone.wav"
    with wave.open(str(p), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(8000)
        w.writeframes(struct.pack("<8h", *SAMPLES))
    return p


def schema(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / f"{name}.ksy"
    p.write_text(text)
    return p


def test_compile_reads_a_wav_with_imported_types_and_zero_copy(tone: Path) -> None:
    wav = binparse.compile(WAV)
    t = wav.parse(tone)
    fmt, data = t.chunks[0].body, t.chunks[1].body
    assert (t.riff_size, len(t.chunks), t.chunks[0].header.tag, t.chunks[1].header.size) == (52, 2, "fmt ", 16)
    assert (fmt.codec.name, int(fmt.codec), fmt.channels, fmt.sample_rate, fmt.byte_rate) == ("pcm", 1, 1, 8000, 16000)
    assert type(t.chunks[0].header).__name__ == "RiffChunk" and t.chunks[0].header.padded_size == 16
    assert t.chunks[0].header._parent is None  # a type of another schema: no parent, as in Kaitai
    assert data.values.tolist() == SAMPLES and data.values.dtype == np.int16
    buf = bytearray(tone.read_bytes())
    values = wav.parse(buf).chunks[1].body.values
    assert np.shares_memory(values, np.frombuffer(buf, np.uint8))
    buf[44:46] = struct.pack("<h", 1234)  # a write through the buffer shows in the view
    assert values[0] == 1234
    assert binparse.open(tone, schema=WAV).chunks[1].body.values.tolist() == SAMPLES


def test_a_second_process_only_imports_the_compiled_schema(tone: Path, cache: Path) -> None:
    binparse.compile(WAV)  # fills the cache
    code = (f"import sys, binparse; r = binparse.compile({str(WAV)!r}).parse({str(tone)!r}); "
            "print(r.chunks[0].body.sample_rate, 'yaml' in sys.modules, 'binparse.engine.schema.load' in sys.modules)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "BINPARSE_CACHE": str(cache), "PYTHONPATH": str(REPO)}, check=True)
    assert run.stdout.split() == ["8000", "False", "False"]  # no schema read: the generated module imported
    assert "manifest.json" in [p.name for p in next(cache.iterdir()).iterdir()]


def test_the_cache_follows_the_schemas_content(tmp_path: Path) -> None:
    p = schema(tmp_path, "one", "meta: {id: one}\nseq:\n  - {id: a, type: u1}\n")
    assert binparse.compile(p).parse(b"\x07\x09").a == 7
    p.write_text("meta: {id: one}\nseq:\n  - {id: z, type: u1}\n  - {id: a, type: u1}\n")
    assert binparse.compile(p).parse(b"\x07\x09").a == 9


def test_generate_writes_a_package_whose_modules_import_each_other(tmp_path: Path, tone: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "wavpkg"
    assert main(["generate", str(WAV), "-o", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["__init__.py", "riff_chunk.py", "wav.py"]
    assert "from .riff_chunk import RiffChunk" in (out / "wav.py").read_text()
    code = (f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import wavpkg.wav as w; "
            f"print(w.Wav.from_buffer(open({str(tone)!r}, 'rb').read()).chunks[1].body.values.tolist())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(REPO)}, check=True)
    assert json.loads(run.stdout) == SAMPLES
    assert main(["generate", str(WAV), "-o", str(out)]) == 0
    assert capsys.readouterr().out.endswith("is up to date\n")


JSON_SCHEMA = """meta: {id: shapes, endian: le, encoding: UTF-8}
params:
  - {id: extra, type: u1}
seq:
  - {id: kind, type: u1, enum: kind}
  - {id: other, type: u1, enum: kind}
  - {id: scale, type: f4}
  - {id: name, type: strz}
  - {id: raw, size: 2}
  - {id: flags, type: b3}
  - {id: on, type: b1}
  - {id: missing, type: u2, if: kind == kind::circle}
  - {id: items, type: item, repeat: expr, repeat-expr: 2}
instances:
  bad:
    pos: 1000
    type: u4
  doubled:
    value: items[1].v * 2
  raw_again:
    value: raw
  raws:
    value: '[raw, raw]'
types:
  item:
    seq:
      - {id: v, type: u2}
enums:
  kind:
    1: square
    2: circle
"""


def test_inspect_json_is_the_whole_tree_as_the_issue_says(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = schema(tmp_path, "shapes", JSON_SCHEMA)
    data = tmp_path / "shapes.bin"
    data.write_bytes(bytes([1, 9]) + struct.pack("<f", math.nan) + b"hi\0" + b"\xab\xcd" + bytes([0b10110000])
                     + struct.pack("<HH", 7, 21))
    # the root takes a param: the Python API passes it as a keyword, inspect as --param NAME=VALUE
    with pytest.raises(binparse.BinparseError, match="takes params"):
        binparse.open(data, schema=p)
    assert main(["inspect", str(data), "--schema", str(p), "--json"]) == 3
    assert "shapes's root type takes params ['extra']: give each as --param NAME=VALUE; found []" \
        in capsys.readouterr().err
    assert main(["inspect", str(data), "--schema", str(p), "--param", "extra=0x10", "--json"]) == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"kind": "square", "other": 9, "scale": "NaN", "name": "hi", "raw": "abcd",
                               "flags": 5, "on": True, "missing": None, "items": [{"v": 7}, {"v": 21}],
                               "doubled": 42, "raw_again": "abcd", "raws": ["abcd", "abcd"]}
    assert err == "binparse: not read: bad: instance position outside the data (offset 1000 (0x3e8)); expected 0..16\n"
    assert main(["inspect", str(data), "--schema", str(p), "--param", "extra=ten"]) == 3
    assert "--param extra: the value is no Kaitai literal" in capsys.readouterr().err
    assert main(["inspect", str(data), "--param", "extra=1"]) == 3
    assert "give --schema too" in capsys.readouterr().err


def test_inspect_json_leaves_out_a_stream_as_it_leaves_out_io(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An instance whose value is a stream (`value: _io`) is no value of the file: not printed, as `_io` is
    (it printed `null`, the JSON of a field whose `if` is false)."""
    p = schema(tmp_path, "streams", "meta: {id: streams}\nseq:\n  - {id: a, type: u1}\ninstances:\n"
               "  stream: {value: _io}\n  size: {value: _io.size}\n")
    data = tmp_path / "streams.bin"
    data.write_bytes(bytes([5, 6, 7]))
    assert main(["inspect", str(data), "--schema", str(p), "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == {"a": 5, "size": 3} and err == ""


def test_inspect_text_names_every_field(tone: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", str(tone), "--schema", str(WAV)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].endswith("tone.wav: wav (" + str(WAV) + "), 60 bytes")
    assert "      codec                  20     2  u2 enum codec  pcm (1)" in lines
    assert "      values                 44    16  s2 ×8          " + str(SAMPLES) in lines


def test_view_writes_an_array_field(tone: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "v.npy"
    assert main(["view", str(tone), "--schema", str(WAV), "--tensor", "chunks[1].body.values", "--npy", str(out)]) == 0
    assert np.load(out).tolist() == SAMPLES


def test_fixture_builds_bytes_from_values_and_refuses_values_it_cannot_build(tmp_path: Path,
                                                                           capsys: pytest.CaptureFixture[str]) -> None:
    p = schema(tmp_path, "hdr", "meta: {id: hdr, endian: be}\nseq:\n  - {id: magic, contents: [0xca, 0xfe]}\n"
               "  - {id: n, type: u2}\n  - {id: items, type: u1, repeat: expr, repeat-expr: n}\n")
    values = tmp_path / "v.yaml"
    values.write_text("n: 3\nitems: [1, 2, 3]\n")
    out = tmp_path / "out.bin"
    assert main(["fixture", str(values), "--schema", str(p), "-o", str(out)]) == 0
    assert out.read_bytes() == b"\xca\xfe\x00\x03\x01\x02\x03"
    bits = schema(tmp_path, "bits", "meta: {id: bits}\nseq:\n  - {id: a, type: b3}\n  - {id: b, type: b5}\n")
    values.write_text("a: 5\nb: 1\n")
    assert main(["fixture", str(values), "--schema", str(bits), "-o", str(out)]) == 0
    assert out.read_bytes() == bytes([0b101_00001])
    values.write_text("a: 9\nb: 1\n")
    capsys.readouterr()
    assert main(["fixture", str(values), "--schema", str(bits), "-o", str(out)]) == 2  # the values file's
    assert capsys.readouterr().err == (f"binparse: error: {values}, bits.a: the value does not fit the field; "
                                       "expected an integer 0..7 (b3), found 9\n")


def test_refusals_name_file_line_key_and_feature(tmp_path: Path) -> None:
    p = schema(tmp_path, "fx", "meta: {id: fx}\nseq:\n  - id: a\n    size: 4\n    process: my_fx(3)\n")
    with pytest.raises(SchemaError) as e:
        binparse.compile(p)
    assert (e.value.line, e.value.key) == (5, "process") and "custom routine" in str(e.value)
    q = schema(tmp_path, "attr", "meta: {id: attr}\nseq:\n  - {id: a, type: t}\ninstances:\n  x: {value: a.nope}\n"
               "types:\n  t:\n    seq:\n      - {id: b, type: u1}\n")
    with pytest.raises(SchemaError, match="type 'attr::t' has no field, instance or param 'nope'") as e2:
        binparse.compile(q)
    assert e2.value.line == 5


def test_a_flag_test_reads_as_kaitai_reads_it(tmp_path: Path) -> None:
    p = schema(tmp_path, "flags", "meta: {id: flags}\nseq:\n  - {id: flags, type: u1}\ninstances:\n"
               "  is_encrypted: {value: flags & 2 != 0}\n")
    assert [binparse.compile(p).parse(bytes([f])).is_encrypted for f in (0, 1, 2, 3)] == [False, False, True, True]


LOG = """meta: {id: log, endian: le}
seq:
  - {id: records, type: record, repeat: eos}
types:
  record:
    seq:
      - {id: kind, type: u1}
      - {id: len, type: u2}
      - {id: body, size: len}
      - {id: crc, type: u4}
"""


def log_bytes(n: int) -> bytes:
    return b"".join(struct.pack("<BH", k, k % 5) + bytes(range(k % 5)) + struct.pack("<I", 1000 + k) for k in range(n))


def test_records_are_read_by_their_compiled_readers(tmp_path: Path) -> None:
    log = binparse.compile(schema(tmp_path, "log", LOG))
    assert log.root_class._FIELDS[0].kind == "user" and log.module.Record._READ is not None
    data = bytearray(log_bytes(50))
    recs = log.parse(data).records
    walked = [(r.kind, r.len, r.body.tolist(), r.crc) for r in recs]
    assert walked == [(k, k % 5, list(range(k % 5)), 1000 + k) for k in range(50)]
    assert [(recs[k].kind, recs[k].crc) for k in (0, 49, -1)] == [(0, 1000), (49, 1049), (49, 1049)]
    r = recs[3]
    assert np.shares_memory(r.body, np.frombuffer(data, np.uint8)) and r.nbytes == 10 and r.path == "log.records[3]"
    assert r._num(3) == r.crc == 1003  # the interpreter's reading agrees with the compiled one


def test_a_truncated_record_fails_naming_its_field(tmp_path: Path) -> None:
    log = binparse.compile(schema(tmp_path, "log", LOG))
    data = log_bytes(4)[:-2]  # the last crc cut short
    recs = log.parse(data)
    with pytest.raises(FormatError) as e:
        recs.records
    assert e.value.path == "log.records[3].crc" and e.value.offset == 30  # 7 + 8 + 9 bytes of records, then 3 + 3
    assert "expected 4 bytes (1 x 4), found 2 bytes left" in str(e.value)
    one = log.module.Record.from_buffer(data, 24)
    assert (one.kind, one.len) == (3, 3)  # the fields that are there read, the interpreter's way
    with pytest.raises(FormatError, match="record.crc"):
        one.crc


def test_huge_counts_of_empty_records_are_refused(tmp_path: Path) -> None:
    p = schema(tmp_path, "empties", "meta: {id: empties, endian: le}\nseq:\n  - {id: n, type: u4}\n"
               "  - {id: items, type: empty, repeat: expr, repeat-expr: n}\ntypes:\n  empty: {}\n")
    with pytest.raises(FormatError, match="larger than the data could describe"):
        binparse.compile(p).parse(struct.pack("<I", 0xFFFFFFFF)).items


def test_errors_in_value_instances_are_binparse_errors(tmp_path: Path) -> None:
    p = schema(tmp_path, "conv", "meta: {id: conv}\nseq:\n  - {id: s, type: str, size: 3, encoding: ASCII}\n"
               "instances:\n  n: {value: s.to_i}\n")
    with pytest.raises(FormatError) as e:
        binparse.compile(p).parse(b"12x").n
    assert e.value.path == "conv.n" and getattr(e.value, "kaitai") == "ConversionError"



ISSUE_CASES = '''meta: {id: cases, endian: le, encoding: ASCII}
doc: 'A doc that ends in a quote: "x"'
seq:
  - {id: a, type: outer_a}
  - {id: b, type: outer_b}
  - {id: name, type: str, size: 3}
  - {id: has_tail, type: u1}
instances:
  tail:
    pos: 7
    type: u1
    if: has_tail != 0
  label:
    value: name + "!"
  first:
    value: a
  size_left:
    value: _io.size - 7
  name_length:
    value: name.length
types:
  outer_a:
    seq:
      - {id: inner, type: inner}
    types:
      inner:
        seq:
          - {id: x, type: u1}
  outer_b:
    seq:
      - {id: inner, type: inner}
    types:
      inner:
        seq:
          - {id: y, type: u2}
'''


def test_what_the_issue_found_reads_right(tmp_path: Path) -> None:
    """Two nested types of one name, `if` on a pos instance, a doc ending in a quote, value
    instances of text and of a record, `_io` and `.length` in expressions (issue 36's list)."""
    c = binparse.compile(schema(tmp_path, "cases", ISSUE_CASES))
    r = c.parse(b"\x05\x06\x07abc\x00")
    assert (r.a.inner.x, r.b.inner.y, type(r.a.inner).__name__, type(r.b.inner).__name__) == \
        (5, 0x0706, "CasesOuterAInner", "CasesOuterBInner")
    assert r.tail is None  # `if` is false: not read (position 7 would hold 0)
    assert r.label == "abc!" and r.first.inner.x == 5 and r.size_left == 0 and r.name_length == 3
    assert c.parse(b"\x05\x06\x07abc\x01\x09").tail == 9
    assert (c.root_class.__doc__ or "").endswith('A doc that ends in a quote: "x"')


def test_hostile_shapes_end_in_a_binparse_error(tmp_path: Path) -> None:
    """Records nested as deep as the file says end at the runtime's depth (200: docs/contracts.md, "Schemas
    are data"; their paths kept short), and a repeat-until over records of no size whose condition never
    holds (no hang)."""
    nest = binparse.compile(schema(tmp_path, "nest", "meta: {id: nest}\nseq:\n  - {id: a, type: u1}\n"
                                   "  - {id: next, type: nest}\n"))
    with pytest.raises(FormatError, match="records nest deeper than 200 levels") as e:
        nest.parse(bytes(5000)).validate()
    assert e.value.offset == 201 and e.value.path is not None and len(e.value.path) < 400
    with pytest.raises(FormatError, match="records nest deeper than 200 levels"):
        nest.parse(bytes(5000))._sizeof  # noqa: B018  (the size asks the nested records' ends: no RecursionError)
    stuck = binparse.compile(schema(tmp_path, "stuck", "meta: {id: stuck}\nseq:\n  - {id: items, type: empty, "
                                    "repeat: until, repeat-until: 'false'}\ntypes:\n  empty: {}\n"))
    with pytest.raises(FormatError, match="would never end"):
        stuck.parse(bytes(10)).items


def test_a_fixed_size_repeat_is_one_structured_view_of_the_buffer(tmp_path: Path) -> None:
    pts = binparse.compile(schema(tmp_path, "pts", "meta: {id: pts, endian: le}\nseq:\n  - {id: n, type: u2}\n"
                                  "  - {id: p, type: point, repeat: expr, repeat-expr: n}\ntypes:\n  point:\n"
                                  "    seq:\n      - {id: x, type: f4}\n      - {id: k, type: u1}\n"))
    buf = bytearray(struct.pack("<H", 3) + b"".join(struct.pack("<fB", x, k) for x, k in ((0.5, 1), (1.5, 2), (2.5, 3))))
    a = pts.parse(buf).p.array
    assert a.dtype.names == ("x", "k") and a.dtype.itemsize == 5 and a["x"].tolist() == [0.5, 1.5, 2.5]
    assert np.shares_memory(a, np.frombuffer(buf, np.uint8)) and not a.flags.owndata
    buf[2:6] = struct.pack("<f", 9.0)
    assert a["x"][0] == 9.0 and pts.parse(buf).p[0].x == 9.0


def test_params_of_the_root_are_kaitai_literals(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = schema(tmp_path, "pr", """meta: {id: pr, endian: le}
params:
  - {id: count, type: u1}
  - {id: tag, type: str}
  - {id: keys, type: 'u1[]'}
seq:
  - {id: vals, type: u2, repeat: expr, repeat-expr: count}
instances:
  label: {value: tag}
  second_key: {value: 'keys[1]'}
""")
    data = tmp_path / "pr.bin"
    data.write_bytes(struct.pack("<3H", 1, 2, 3))
    assert main(["inspect", str(data), "--schema", str(p), "--param", "count=2", "--param", "tag='a,b'",
                 "--param", "keys=[4, 5]", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"vals": [1, 2], "label": "a,b", "second_key": 5}
    out = tmp_path / "v.npy"
    assert main(["view", str(data), "--schema", str(p), "--param", "count=3", "--param", 'tag=""',
                 "--param", "keys=[0, 1]", "--tensor", "vals", "--npy", str(out)]) == 0
    assert np.load(out).tolist() == [1, 2, 3]


def test_a_param_given_on_the_command_line_is_checked_against_its_type(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    p = schema(tmp_path, "tp", """meta: {id: tp, endian: le}
params:
  - {id: n, type: u1}
  - {id: scale, type: f8}
  - {id: kind, type: u1, enum: animal}
  - {id: raw, type: bytes}
seq:
  - {id: vals, type: s2, repeat: expr, repeat-expr: n}
instances:
  k: {value: kind}
  s: {value: scale * 2}
  r: {value: raw}
enums:
  animal: {1: cat, 2: dog}
""")
    data = tmp_path / "tp.bin"
    data.write_bytes(struct.pack("<2h", -1, 5))
    ok = ["--param", "scale=1", "--param", "raw=[0xab, 1]"]

    def run(*extra: str) -> tuple[int, str, str]:
        code = main(["inspect", str(data), "--schema", str(p), "--json", *ok, *extra])
        out, err = capsys.readouterr()
        return code, out, err

    code, out, _ = run("--param", "n=2", "--param", "kind=animal::dog")  # an enum literal of the schema
    assert code == 0 and json.loads(out) == {"vals": [-1, 5], "k": "dog", "s": 2.0, "r": "ab01"}
    code, out, _ = run("--param", "n=1", "--param", "kind=2")  # a number that is a member: the member
    assert code == 0 and json.loads(out) == {"vals": [-1], "k": "dog", "s": 2.0, "r": "ab01"}
    code, out, _ = run("--param", "n=0", "--param", "kind=9")  # a number no member has stays the number
    assert code == 0 and json.loads(out) == {"vals": [], "k": 9, "s": 2.0, "r": "ab01"}
    for value, said in [("n=1.5", "--param n: the value is no u1; expected an integer 0..255, found 1.5"),
                        ("n=256", "--param n: the value is no u1; expected an integer 0..255, found 256"),
                        ("n=-1", "--param n: the value is no u1; expected an integer 0..255, found -1"),
                        ("n=true", "--param n: the value is no u1; expected an integer 0..255, found true"),
                        ("n='2'", "--param n: the value is no u1; expected an integer 0..255, found '2'")]:
        code, out, err = run("--param", value, "--param", "kind=1")
        assert (code, out) == (3, "") and said in err, value
    code, _, err = run("--param", "n=1", "--param", "kind=animal::cow")
    assert code == 3 and "--param kind: the value is no Kaitai literal" in err
    code, _, err = run("--param", "n=1", "--param", "kind=300")
    assert code == 3 and "--param kind: the value is no u1 of enum animal; expected an integer 0..255" in err
    p.write_text(p.read_text().replace("{id: raw, type: bytes}", "{id: raw, type: struct}"))
    code, _, err = run("--param", "n=1", "--param", "kind=1")
    assert code == 3 and "--param raw: a param of type struct cannot be given on the command line" in err


def test_a_size_or_count_that_is_null_is_a_format_error_naming_the_field(tmp_path: Path) -> None:
    """Kaitai's Python stops with a TypeError deep in its runtime (the gallery's sqlite3.ksy on a
    record whose serial type has no length); binparse names the field and what it found."""
    p = schema(tmp_path, "nul", "meta: {id: nul}\nseq:\n  - {id: code, type: u1}\n  - {id: body, size: n}\n"
               "  - {id: tail, type: u1, repeat: expr, repeat-expr: n}\n"
               "instances:\n  n: {value: code - 12, if: code >= 12}\n")
    c = binparse.compile(p)
    assert c.parse(bytes([14, 7, 8, 1, 2])).body.tobytes() == b"\x07\x08"
    with pytest.raises(FormatError) as e:
        c.parse(bytes([3, 7, 8])).validate()
    assert e.value.path == "nul.body" and "size of this field is not an integer" in str(e.value)
    assert "null" in str(e.value)


def test_a_switch_case_of_an_imported_type_reads(tmp_path: Path) -> None:
    """The gallery's pcap.ksy: a packet's body is `switch-on` the link type, its cases types of
    imported schemas that no other field of pcap names."""
    schema(tmp_path, "frame", "meta: {id: frame, endian: be}\nseq:\n  - {id: kind, type: u2}\n")
    p = schema(tmp_path, "cap", "meta: {id: cap, imports: [frame]}\nseq:\n  - {id: link, type: u1}\n"
               "  - id: body\n    size: 2\n    type:\n      switch-on: link\n      cases:\n        1: frame\n")
    root = binparse.compile(p, import_path=[tmp_path]).parse(bytes([1, 0x08, 0x06]))
    assert root.body.kind == 0x0806
    assert binparse.compile(p, import_path=[tmp_path]).parse(bytes([2, 0x08, 0x06])).body.tobytes() == b"\x08\x06"


def test_an_instance_that_reads_its_own_record_again_is_printed_once(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Kaitai's cast_to_top: `header` (pos 1, the root's own type) has a `header` too, at the same
    place: a new record each time it is read, which the tree names instead of printing it forever."""
    p = schema(tmp_path, "top", "meta: {id: top}\nseq:\n  - {id: code, type: u1}\n"
               "instances:\n  header: {pos: 1, type: top}\n  again: {value: header.as<top>}\n")
    data = tmp_path / "top.bin"
    data.write_bytes(b"\x50\x41")
    assert main(["inspect", str(data), "--schema", str(p), "--json"]) == 0  # all read: nothing unread
    out, err = capsys.readouterr()
    assert json.loads(out) == {"code": 0x50, "header": {"code": 0x41}, "again": {"code": 0x41}}
    notes = [f"binparse: note: {x}: a record the tree is already inside (not printed again)"
             for x in ("header.header", "header.again", "again.header", "again.again")]
    assert err.splitlines() == notes
    assert main(["inspect", str(data), "--schema", str(p)]) == 0  # the text leaves out and names the same
    out, err = capsys.readouterr()
    assert err.splitlines() == notes
    assert out.splitlines()[1:] == [
        "field     offset  size  type  value",
        "code           0     1  u1    80",
        "header         1     1  top",
        "  code         1     1  u1    65",
        "  header                top   the same record as header (not expanded inside itself)",
        "  again                 top   the same record as header (not expanded inside itself)",
        "again          1     1  top",
        "  code         1     1  u1    65",
        "  header                top   the same record as again (not expanded inside itself)",
        "  again                 top   the same record as again (not expanded inside itself)"]


DAG = """meta: {id: dag}
instances:
  n: {pos: 0, type: node(0)}
types:
  node:
    params:
      - {id: at, type: u4}
    seq:
      - {id: x, type: u1}
    instances:
      l: {pos: at + 1, type: node(at + 1)}
      r: {pos: at + 1, type: node(at + 1)}
"""


@pytest.mark.parametrize("as_json", [True, False])
def test_a_tree_far_larger_than_its_file_asks_the_budget(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         as_json: bool) -> None:
    """40 bytes whose records point twice at the next one: 2^40 records to print. The walk holds only
    the records it is inside, and stops once it has made more records than the input has bytes plus
    one per walk.RECORD_COST bytes of the budget: exit 2, never a hang; what was printed stays printed."""
    from binparse.engine.dump import walk
    p = schema(tmp_path, "dag", DAG)
    data = tmp_path / "dag.bin"
    data.write_bytes(bytes(40))
    args = ["inspect", str(data), "--schema", str(p), "--budget", "1MiB"] + (["--json"] if as_json else [])
    assert main(args) == 2
    out, err = capsys.readouterr()
    cap = p.stat().st_size + 40 + 2**20 // walk.RECORD_COST  # the schema and the data are the inputs
    made = (cap // 256 + 1) * 256  # counted 256 records at a time
    assert err.count("\n") == 1  # the walk stops at the refusal: one error line, no "not read" per record
    assert f"the value tree has made {made:,} records, more than its input has bytes ({p.stat().st_size + 40:,}) " \
           f"plus one per 4 KiB of the budget (set by --budget): records that point at each other make a tree far " \
           "larger than the file; the output stops here. If the file really holds that many records, raise the " \
           "budget: pass --budget SIZE or set BINPARSE_BUDGET" in err
    # every record made but the last (refused) printed its x: the root, then made - 2 nodes, as they were read
    if as_json:
        assert out.startswith('{\n "n": {\n  "x": 0,\n  "l": {\n   "x": 0,\n') and out.count('"x": 0') == made - 2
    else:
        rows = [line.split() for line in out.splitlines()[2:]]
        assert rows[:3] == [["n", "0", "1", "node"], ["x", "0", "1", "u1", "0"], ["l", "1", "1", "node"]]
        assert sum(r[0] == "x" for r in rows) == made - 2
