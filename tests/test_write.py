"""Writing back: `Compiled.build(values, original=)`, `fixture --schema S.ksy --from FILE --set`,
Kaitai's consistency checks, lengths that follow the values (binparse.engine.serialize)."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest

import binparse
from binparse.cli import main
from binparse.engine.serialize import ConsistencyError

from . import roundtrip as rt

from .test_ksy import SAMPLES, WAV, tone  # noqa: F401  (the WAV tour's tone, a fixture)


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path / "cache"))


def ksy(tmp_path: Path, name: str, text: str) -> binparse.Compiled:
    p = tmp_path / f"{name}.ksy"
    p.write_text(text)
    return binparse.compile(p)


def test_a_changed_value_changes_its_bytes_only(tone: Path) -> None:
    wav = binparse.compile(WAV)
    t = wav.parse(tone)
    values = t.to_dict()
    values["chunks"][0]["body"]["sample_rate"] = 16000
    data = wav.build(values, original=t)
    before = tone.read_bytes()
    assert [i for i in range(len(data)) if data[i] != before[i]] == [24, 25]
    assert data[24:28] == struct.pack("<I", 16000) and wav.parse(data).chunks[0].body.sample_rate == 16000


def test_a_length_follows_its_value_and_one_set_against_it_is_refused(tone: Path) -> None:
    wav = binparse.compile(WAV)
    t = wav.parse(tone)
    values = t.to_dict()
    values["chunks"][1]["body"]["values"] += [1, 2, 3]
    back = wav.parse(wav.build(values, original=t))
    assert back.chunks[1].header.size == 22 and back.chunks[1].body.values.tolist() == SAMPLES + [1, 2, 3]
    values = t.to_dict()
    values["chunks"][1]["header"]["size"] = 4
    with pytest.raises(ConsistencyError) as e:
        wav.build(values, original=t)
    assert str(e.value) == (
        f"{tone}, wav.chunks[1].body: is 16 bytes, but its size (header.size) gives 4. Set wav.chunks[1].header.size "
        "to 16 as well (it was set to 4), or leave it as the file has it: it then follows")


def test_values_alone_build_the_whole_language(tmp_path: Path) -> None:
    c = ksy(tmp_path, "many", """meta: {id: many, endian: le, encoding: UTF-8}
seq:
  - {id: magic, contents: [0xca, 0xfe]}
  - {id: flags, type: b3}
  - {id: kind, type: b5, enum: kind}
  - {id: n, type: u1}
  - {id: items, type: s2, repeat: expr, repeat-expr: n}
  - {id: name, type: strz}
  - {id: label, type: str, size: 6, terminator: 0, pad-right: 0x20}
  - {id: key, type: u1}
  - {id: secret, size: 3, process: xor(key)}
  - {id: len_body, type: u2}
  - id: body
    size: len_body
    type:
      switch-on: kind
      cases:
        'kind::text': text_body
        'kind::raw': raw_body
  - {id: tail, type: u1, repeat: until, repeat-until: _ == 0xff}
types:
  text_body:
    seq:
      - {id: text, type: str, size-eos: true}
  raw_body:
    seq:
      - {id: data, size-eos: true}
enums:
  kind: {1: text, 2: raw}
""")
    values = {"flags": 5, "kind": "text", "n": 0, "items": [-1, 300], "name": "ab", "label": "xy", "key": 0x0F,
              "secret": b"abc", "len_body": 0, "body": {"text": "héllo"}, "tail": [1, 0xFF]}
    data = c.build(values)
    assert data == (b"\xca\xfe" + bytes([0b101_00001]) + b"\x02" + struct.pack("<2h", -1, 300) + b"ab\0"
                    + b"xy\0   " + b"\x0f" + bytes(b ^ 0x0F for b in b"abc") + b"\x06\x00" + "héllo".encode()
                    + b"\x01\xff")
    r = c.parse(data)
    assert (r.n, r.len_body, r.kind.name, r.body.text, r.label, bytes(r.secret)) == (2, 6, "text", "héllo", "xy", b"abc")


@pytest.mark.parametrize(("change", "message"), [
    ({"magic": b"\xca\xfd"}, "many.magic: the value does not fit the field; expected its contents b'\\xca\\xfe', found "
                             "b'\\xca\\xfd'"),
    ({"tail": [0xFF, 1]}, "many.tail: element 0: its repeat-until (_ == 255) is true, but the last element, and only "
                          "it, must end the repeat"),
    ({"name": "a\0b"}, "many.name: the value does not fit the field; expected a value without its terminator "
                       "b'\\x00' (the reader would stop there), found 'a\\x00b'"),
    ({"version": 7}, "many: the values name 'version', which many does not have; expected ['magic', 'n', 'items', "
                     "'name', 'big', 'tail']"),
    ({"nn": 1}, "many: the values name 'nn', which many does not have; expected ['magic', 'n', 'items', 'name', 'big', "
                "'tail']. Did you mean 'n'?"),
    ({"double_n": 4}, "many.double_n: is a value instance, worked out from the fields: it is never written. Set the "
                      "fields it is computed from instead"),
    ({"big": 5}, "many.big: has a value, but its `if` (n > 2) is false; found 5"),
    ({"n": 3, "items": [1, 2, 300], "big": 1}, "many.items: the value does not fit the field; expected integers "
                                               "0..255 (|u1); element 2 is 300"),
])
def test_what_the_reader_would_not_read_back_is_refused_naming_the_field(tmp_path: Path, change: dict[str, object],
                                                                         message: str) -> None:
    c = ksy(tmp_path, "many", """meta: {id: many, endian: be, encoding: ASCII}
seq:
  - {id: magic, contents: [0xca, 0xfe]}
  - {id: n, type: u1}
  - {id: items, type: u1, repeat: expr, repeat-expr: n}
  - {id: name, type: strz}
  - {id: big, type: u1, if: n > 2}
  - {id: tail, type: u1, repeat: until, repeat-until: _ == 0xff}
instances:
  double_n: {value: n * 2}
""")
    values = {"magic": b"\xca\xfe", "n": 2, "items": [1, 2], "name": "ab", "big": None, "tail": [1, 0xFF]}
    assert c.build(values) == b"\xca\xfe\x02\x01\x02ab\0\x01\xff"
    assert c.build({**values, "n": 0}) == b"\xca\xfe\x02\x01\x02ab\0\x01\xff"  # values alone: the count follows
    with pytest.raises(ConsistencyError) as e:
        c.build({**values, **change})
    assert str(e.value) == message


def test_lengths_follow_through_params_records_and_substream_sizes(tmp_path: Path) -> None:
    c = ksy(tmp_path, "nest", """meta: {id: nest, endian: le}
seq:
  - {id: len_all, type: u2}
  - {id: all, size: len_all - 1, type: block}
types:
  block:
    seq:
      - {id: count_words, type: u1}
      - {id: words, type: u2, repeat: expr, repeat-expr: count_words}
      - {id: note, type: item(3)}
      - {id: rest, size: _io.size - _io.pos - 1}
      - {id: end, type: u1}
  item:
    params: [{id: width, type: u1}]
    seq:
      - {id: data, size: width}
""")
    values = {"len_all": 10, "all": {"count_words": 1, "words": [7], "note": {"data": b"abc"}, "rest": b"zz",
                                     "end": 9}}
    assert c.build(values) == b"\x0a\x00\x01\x07\x00abczz\x09"
    values["all"]["words"] = [7, 8]
    values["all"]["rest"] = b"zzzz"
    data = c.build(values)
    assert data == b"\x0e\x00\x02\x07\x00\x08\x00abczzzz\x09"
    r = c.parse(data)
    assert (r.len_all, r.all.count_words, bytes(r.all.rest)) == (14, 2, b"zzzz")
    values["all"]["note"]["data"] = b"abcd"  # its size is a param given as a constant: nothing to set
    with pytest.raises(ConsistencyError) as e:
        c.build(values)
    assert str(e.value) == ("nest.all.note.data: is 4 bytes, but its size (width) gives 3. Change the values width is "
                            "computed from so that it gives 4")


@pytest.mark.skipif(not rt.SAMPLES.is_dir(), reason="../shared/conformance is absent")
def test_a_png_text_changed_in_a_zlib_chunk_gets_its_chunk_length(tmp_path: Path) -> None:
    png = binparse.compile(rt.GALLERY / "image" / "png.ksy", import_path=[rt.GALLERY])
    sample = rt.SAMPLES / "image" / "png" / "libpng-pngtest.png"
    root = png.parse(sample)
    values = root.to_dict()
    text = values["chunks"][17]["body"]["text"]["value"]
    values["chunks"][17]["body"]["text"]["value"] = text.replace("Times New Roman", "Helvetica")
    data = png.build(values, original=root)
    back = png.parse(data)
    want = zlib.compress(values["chunks"][17]["body"]["text"]["value"].encode("iso-8859-1"))
    assert back.chunks[17].body.text.value == text.replace("Times New Roman", "Helvetica")
    assert back.chunks[17].len == len("Description") + 2 + len(want) and len(data) == len(sample.read_bytes()) - 198 + \
        back.chunks[17].len
    old = sample.read_bytes()
    start = root.chunks[17].offset
    assert data[:start] == old[:start] and data[-76:] == old[-76:]  # the other chunks: the file's bytes


def test_fixture_from_a_file_with_set(tone: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fast.wav"
    assert main(["fixture", "--schema", str(WAV), "--from", str(tone), "--set", "chunks[0].body.sample_rate=16000",
                 "--set", "chunks[0].body.byte_rate=32000", "--set", "chunks[0].body.codec=ieee_float",
                 "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"{out}: 60 bytes of wav from {tone}, 3 value(s) set\n"
    old, new = tone.read_bytes(), out.read_bytes()
    assert [i for i in range(60) if old[i] != new[i]] == [20, 24, 25, 28, 29]
    assert new[20:32] == struct.pack("<HHII", 3, 1, 16000, 32000)
    assert main(["fixture", "--schema", str(WAV), "--from", str(tone), "--set", "chunks[0].body.sample_rat=1",
                 "-o", str(out)]) == 3
    assert capsys.readouterr().err == (
        "binparse: error: --set chunks[0].body.sample_rat: chunks[0].body has no field 'sample_rat'; expected "
        "['codec', 'channels', 'sample_rate', 'byte_rate', 'block_align', 'bits_per_sample']. Did you mean "
        "'sample_rate'?\n")
    assert main(["fixture", "--schema", str(WAV), "--from", str(tone), "--set", "chunks[0].header.padded_size=3",
                 "-o", str(out)]) == 3
    assert "'padded_size' is a value instance, worked out from the fields: it is never written" in \
        capsys.readouterr().err
    assert main(["fixture", "--schema", str(WAV), "--from", str(tone), "-o", str(tone)]) == 3
    assert "is an input of this command" in capsys.readouterr().err


def test_fixture_from_checks_the_input_before_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.ksy"
    bad.write_text("meta: {id: bad}\nseq:\n  - {id: a, type: nope}\n")
    assert main(["fixture", "--schema", str(bad), "--from", str(tmp_path / "missing.bin"), "-o",
                 str(tmp_path / "o.bin")]) == 3
    assert "missing.bin" in capsys.readouterr().err


def test_a_record_may_be_given_as_a_parsed_record(tone: Path) -> None:
    """`values["chunks"][1] = other.chunks[1]`: an accessor in the values is written as its values."""
    wav = binparse.compile(WAV)
    t = wav.parse(tone)
    values = t.to_dict()
    values["chunks"] = [t.chunks[1], t.chunks[0]]  # the data chunk first
    swapped = wav.parse(wav.build(values))
    assert [c.header.tag for c in swapped.chunks] == ["data", "fmt "] and swapped.chunks[0].body.values.tolist() == SAMPLES
