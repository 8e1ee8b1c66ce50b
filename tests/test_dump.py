"""Dumps of a user's schema (`inspect --schema`, `binparse.engine.dump`): what they print of real files
of Kaitai's gallery (values and byte ranges against the official compiler's Python in its debug mode,
which records where each field starts and ends), exact floats, the text table, YAML, `--path`,
`--raw`, standard input, what is left out (the same in every output), `-webide-representation`, and
memory bounded by the tree's depth, not its size."""

from __future__ import annotations

import importlib
import io
import json
import math
import os
import struct
import subprocess
import sys
import zlib
from enum import IntEnum
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

import binparse
from binparse.cli import main
from binparse.engine import kaitai_ref
from binparse.engine.dump import dump, find

from .conftest import REPO, import_from, need
from .test_ksy import LOG  # records of a kind, a length, that many bytes and a crc

CONFORMANCE = REPO.parent / "shared" / "conformance"
GALLERY, SAMPLES = CONFORMANCE / "kaitai_struct_formats", CONFORMANCE / "kaitai_struct_samples"
CASES = ["image/png/atch-zlib.png", "hardware/edid/edid-1.2.bin", "media/wav/small.wav", "executable/elf/hello_world.o",
         "serialization/chrome_pak/v5.pak", "archive/android_sparse/fill-4k-zeros.img", "hardware/dtb/xenvm-4.2.dtb",
         "image/gimp_brush/pixel.gbr", "network/rtp_packet/pcma-marker.bin", "executable/java_class/LongType.class",
         "filesystem/amlogic_emmc_partitions/amlogic-s905y2.bin", "archive/xar/sha1-dir.xar"]


@pytest.fixture(autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path_factory.getbasetemp() / "ksy-cache"))


def gallery(case: str) -> tuple[Path, Path]:
    """(schema, sample) of a gallery case `category/format/file`; skipped when the gallery is absent."""
    if not CONFORMANCE.is_dir():
        pytest.skip(f"{CONFORMANCE} is absent")
    cat, fmt, _ = case.split("/")
    return GALLERY / cat / f"{fmt}.ksy", SAMPLES / case


def dumped(root: Any, fmt: str = "json", **kw: Any) -> tuple[str, Any]:
    out = io.StringIO()
    walk = dump(root, out, fmt, **kw)
    return out.getvalue(), walk


@pytest.fixture(scope="module")
def kaitai_debug(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The official compiler's Python of the cases' schemas, in its debug mode (`_debug` start and end)."""
    need("kaitai", kaitai_ref.available())
    if not CONFORMANCE.is_dir():
        pytest.skip(f"{CONFORMANCE} is absent")
    out = tmp_path_factory.mktemp("kaitai-debug")
    kaitai_ref.compile_schemas(sorted({gallery(c)[0] for c in CASES}), out, [GALLERY], debug=True)
    return out


def kaitai_ranges(k: Any, base: int, prefix: str, root: Any, out: dict[str, tuple[int, int]]) -> None:
    """Where Kaitai's debug mode says each seq field and element lies, as file offsets (its positions
    count from the start of a record's substream: `base` adds where that substream starts)."""
    for name in k.SEQ_FIELDS:
        d = k._debug.get(name, {})
        if "start" not in d or "end" not in d:
            continue
        s, e = base + d["start"], base + d["end"]
        out[prefix + name] = (s, e)
        v = getattr(k, name, None)
        processed = hasattr(k, "_raw__raw_" + name)

        def child(c: Any, start: int, path: str) -> None:
            if hasattr(c, "_debug") and hasattr(c, "SEQ_FIELDS"):
                b = base if c._io is k._io else 0 if c._io is root._io else None if processed else start
                if b is not None:
                    kaitai_ranges(c, b, path + ".", root, out)
        if "arr" in d:
            for j, a in enumerate(d["arr"]):
                if "start" in a and "end" in a:
                    out[f"{prefix}{name}[{j}]"] = (base + a["start"], base + a["end"])
                    if isinstance(v, list) and j < len(v):
                        child(v[j], base + a["start"], f"{prefix}{name}[{j}]")
        else:
            child(v, s, prefix + name)


def our_ranges(node: dict[str, Any], prefix: str, out: dict[str, tuple[int, int]], bits: dict[str, Any]) -> None:
    """The [start, end) of every node of an `--offsets` document in the file's own bytes."""
    if "start" in node and "stream" not in node:
        (bits if "bits" in node else out)[prefix.rstrip(".")] = (node["start"], node["end"])
    for key, c in node.get("fields", {}).items():
        our_ranges(c, prefix + key + ".", out, bits)
    for j, c in enumerate(node.get("items", [])):
        our_ranges(c, prefix.rstrip(".") + f"[{j}].", out, bits)


def same_values(ours: Any, k: Any, path: str, bad: list[str]) -> None:
    """binparse's JSON `ours` against Kaitai's object `k`: its seq fields all there, every value equal
    (instances read from Kaitai's object too); raw bytes as hex, enum members by name."""
    if hasattr(k, "_io") and hasattr(k, "SEQ_FIELDS"):
        if not isinstance(ours, dict):
            bad.append(f"{path}: {ours!r} is no object")
            return
        bad.extend(f"{path}.{n}: missing" for n in k.SEQ_FIELDS if n not in ours)
        for n, v in ours.items():
            same_values(v, getattr(k, n, None), f"{path}.{n}", bad)
        return
    if isinstance(k, list):
        if not isinstance(ours, list) or len(ours) != len(k):
            bad.append(f"{path}: {ours!r} is not {len(k)} elements")
            return
        for j, (a, b) in enumerate(zip(ours, k)):
            same_values(a, b, f"{path}[{j}]", bad)
        return
    want = k.name if isinstance(k, IntEnum) else k.hex() if isinstance(k, bytes) else k
    if ours != want or type(ours) is float and type(want) is float and ours.hex() != want.hex():
        bad.append(f"{path}: {ours!r} != {want!r}")


@pytest.mark.parametrize("case", CASES)
def test_values_and_ranges_are_kaitais(case: str, kaitai_debug: Path) -> None:
    """Every value of `--json` is what the official compiler's Python reads (floats to the last bit),
    and every [start, end) of `--offsets` where its debug mode says the field lies."""
    ksy, sample = gallery(case)
    fmt = ksy.stem
    from kaitaistruct import KaitaiStream
    data = sample.read_bytes()
    cls = getattr(import_from(kaitai_debug, fmt), "".join(p.capitalize() for p in fmt.split("_")))
    k = cls(KaitaiStream(io.BytesIO(data)))
    k._read()
    theirs: dict[str, tuple[int, int]] = {}
    kaitai_ranges(k, 0, "", k, theirs)
    reader = binparse.compile(ksy, import_path=[GALLERY])
    text, walk = dumped(reader.parse(data), offsets=True)
    ours: dict[str, tuple[int, int]] = {}
    bits: dict[str, Any] = {}
    our_ranges(json.loads(text), "", ours, bits)
    assert walk.unread == [] and len(theirs) >= 5
    assert {p: theirs[p] for p in theirs if p not in bits} == {p: ours[p] for p in theirs if p not in bits}
    plain, walk = dumped(reader.parse(data))
    bad: list[str] = []
    same_values(json.loads(plain), k, "", bad)
    assert bad == [] and walk.unread == []
    yaml_text, _ = dumped(reader.parse(data), "yaml")
    assert yaml.safe_load(yaml_text) == json.loads(plain)  # the same document
    yaml_text, _ = dumped(reader.parse(data), "yaml", offsets=True)
    assert yaml.safe_load(yaml_text) == json.loads(text)


def test_bit_ranges_and_exact_floats_of_an_edid(capsys: pytest.CaptureFixture[str]) -> None:
    """EDID's chromaticity: eight 2-bit fields in bytes 25-26 (bits counted in reading order), then the
    values its instances compute, printed as the doubles they are (594 / 1024 = 0.580078125)."""
    ksy, sample = gallery("hardware/edid/edid-1.2.bin")
    assert main(["inspect", str(sample), "--schema", str(ksy), "--path", "chromacity", "--offsets", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    f = doc["fields"]
    assert (doc["start"], doc["end"], doc["type"]) == (25, 35, "chromacity_info")
    assert [(f[n]["start"], f[n]["end"], f[n]["bits"], f[n]["value"]) for n in
            ("red_x_1_0", "red_y_1_0", "green_x_1_0", "green_y_1_0", "blue_x_1_0")] == \
        [(25, 26, [200, 202], 2), (25, 26, [202, 204], 0), (25, 26, [204, 206], 1), (25, 26, [206, 208], 3),
         (26, 27, [208, 210], 3)]  # bits read most significant first: byte 25 is 10 00 01 11, byte 26 11 ...
    assert sample.read_bytes()[25:27] == bytes([0b10_00_01_11, 0b11_11_01_01])
    assert f["red_x"] == {"type": "value", "value": 594 / 1024} and f["red_x"]["value"] == 0.580078125
    assert main(["inspect", str(sample), "--schema", str(ksy), "--path", "chromacity"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[1:5] == ["field          offset    size  type             value",
                         "chromacity         25      10  chromacity_info",
                         "  red_x_1_0      25:0  2 bits  b2               2",
                         "  red_y_1_0      25:2  2 bits  b2               0"]
    assert "  red_x                        value            0.580078125" in rows


F4 = "meta: {id: floats, endian: le}\nseq:\n  - {id: x, type: f4}\n  - {id: y, type: f8}\n" \
     "instances:\n  half: {value: x / 2}\n"


def test_an_f4_is_the_double_of_its_float32(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A float32 field is printed as the double it is (0.64f is 0.6399999856948853), never as the shortest
    text of the float32, which a JSON reader would read as another number (the families' reports keep that rule)."""
    p = tmp_path / "floats.ksy"
    p.write_text(F4)
    data = tmp_path / "floats.bin"
    data.write_bytes(struct.pack("<fd", 0.64, 0.1))
    assert main(["inspect", str(data), "--schema", str(p), "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == {"x": float(np.float32(0.64)), "y": 0.1, "half": float(np.float32(0.64)) / 2}
    assert '"x": 0.6399999856948853' in out and '"half": 0.3199999928474426' in out
    assert main(["inspect", str(data), "--schema", str(p), "--format", "yaml"]) == 0
    # `y` alone is YAML 1.1's true: that key is quoted, as PyYAML reads it back
    assert capsys.readouterr().out == 'x: 0.6399999856948853\n"y": 0.1\nhalf: 0.3199999928474426\n'
    assert main(["inspect", str(data), "--schema", str(p), "--format", "yaml"]) == 0
    assert yaml.safe_load(capsys.readouterr().out) == {"x": 0.6399999856948853, "y": 0.1, "half": 0.3199999928474426}
    assert main(["inspect", str(data), "--schema", str(p)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["field  offset  size  type   value",
                                                        "x           0     4  f4     0.6399999856948853",
                                                        "y           4     8  f8     0.1",
                                                        "half                 value  0.3199999928474426"]


def test_the_table_of_a_gimp_brush(capsys: pytest.CaptureFixture[str]) -> None:
    """The text table: the tree indented, offset, size, the type read (the enum, strz with its size)."""
    ksy, sample = gallery("image/gimp_brush/pixel.gbr")
    assert main(["inspect", str(sample), "--schema", str(ksy)]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == [
        "field              offset  size  type                 value",
        "len_header              0     4  u4                   47",
        "header                  4    43  header",
        "  version               4     4  u4                   2",
        "  width                 8     4  u4                   1",
        "  height               12     4  u4                   1",
        "  bytes_per_pixel      16     4  u4 enum color_depth  grayscale (1)",
        "  magic                20     4  magic[4]             47 49 4d 50",
        "  spacing              24     4  u4                   50",
        "  brush_name           28    19  strz[19]             'Pixel (1x1 square)'",
        "len_body                         value                1",
        "body                   47     1  bytes[1]             ff"]
    data = sample.read_bytes()
    assert data[28:47] == b"Pixel (1x1 square)\0" and data[47:] == b"\xff" and data[4:8] == bytes([0, 0, 0, 2])


def test_a_png_switch_process_and_representation(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The type read is the switch's case; a chunk is named by its `-webide-representation` ({type});
    a zlib field spans its compressed bytes and `--raw` writes the bytes it decompresses to."""
    ksy, sample = gallery("image/png/atch-zlib.png")
    data = sample.read_bytes()
    assert main(["inspect", str(sample), "--schema", str(ksy), "--path", "chunks[2]"]) == 0
    zipped = "43 6f 6e 67 72 61 74 75 6c 61 74 69 6f 6e 73 21 0a 0a 59 6f 75 20 68 61 76 65 20 73 75 63 63 65 …"
    assert capsys.readouterr().out.splitlines()[1:] == [
        "field              offset  size  type                                value",
        "chunks[2]              88   143  chunk                               atCh",
        "  len                  88     4  u4                                  131",
        "  type_raw             92     4  bytes[4]                            61 74 43 68",
        "  body                 96   131  atch_chunk",
        "    file_name          96    12  strz[12]                            'message.txt'",
        "    compression       108     1  u1 enum compression_attach_methods  zlib (1)",
        "    data_plain                   bytes                               null (if is false)",
        f"    data_zlib         109   118  bytes[118] (zlib)                   {zipped}",
        f"    data                         value                               {zipped}",
        "  crc                 227     4  u4                                  383285492",
        "  type                           value                               'atCh'",
        "  is_ancillary                   value                               True",
        "  is_private                     value                               True",
        "  reserved_bit                   value                               False",
        "  is_safe_to_copy                value                               True"]
    assert data[88:92] == (131).to_bytes(4, "big") and data[96:109] == b"message.txt\0\x01"
    assert zlib.crc32(data[92:227]) == 383285492 and bytes.fromhex(zipped[:47].replace(" ", "")) == b"Congratulations!"
    out = tmp_path / "message.txt"
    raw = ["--raw", "chunks[2].body.data_zlib", "-o", str(out)]
    assert main(["inspect", str(sample), "--schema", str(ksy), *raw]) == 0
    assert out.read_bytes() == zlib.decompress(data[109:227]) and out.read_bytes().startswith(b"Congratulations!")
    assert capsys.readouterr().out == f"{out}: chunks[2].body.data_zlib of {sample} ({len(out.read_bytes()):,} " \
                                      "bytes, its value after process: 118 bytes at 109 in the file)\n"
    assert main(["inspect", str(sample), "--schema", str(ksy), "--raw", "chunks[2].body.data", "-o", str(out)]) == 0
    assert out.read_bytes() == zlib.decompress(data[109:227])  # a value instance of bytes: its value
    capsys.readouterr()
    assert main(["inspect", str(sample), "--schema", str(ksy), "--raw", "chunks[2].type", "-o", str(out)]) == 3
    assert "chunks[2].type has no bytes: a value instance" in capsys.readouterr().err
    assert main(["inspect", str(sample), "--schema", str(ksy), "--raw", "chunks[0]", "-o", str(out), "--json"]) == 0
    assert out.read_bytes() == data[33:48]
    assert json.loads(capsys.readouterr().out)["written"][0]["bytes"] == 15


def test_path_finds_a_subtree_and_says_what_is_not_there(capsys: pytest.CaptureFixture[str]) -> None:
    ksy, sample = gallery("image/png/atch-zlib.png")
    root = binparse.compile(ksy, import_path=[GALLERY]).parse(sample)
    t = find(root, "chunks[0].body.entries[0]")
    assert (t.value.r, t.value.g, t.value.b) == (0, 255, 0) and (t.span.start, t.span.end) == (41, 44)
    assert find(root, "ihdr.width").value == 200 and find(root, "ihdr.width").span.start == 16
    assert main(["inspect", str(sample), "--schema", str(ksy), "--path", "chunks[0].body", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"entries": [{"r": 0, "g": 255, "b": 0}]}
    for path, message in (("ihdr.widht", "ihdr has no field 'widht' (did you mean 'width'?); it has width, height"),
                          ("chunks[9]", "chunks has 4 elements: there is no [9]"),
                          ("magic.x", "magic is no record: it has no field 'x'"),
                          ("chunks.0", "'chunks.0' is not a path of fields")):
        assert main(["inspect", str(sample), "--schema", str(ksy), "--path", path]) == 3
        assert message in capsys.readouterr().err


def test_standard_input_reads_as_the_file_within_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    ksy, sample = gallery("image/gimp_brush/pixel.gbr")
    cmd = [sys.executable, "-m", "binparse", "inspect", "-", "--schema", str(ksy), "--json"]
    piped = subprocess.run(cmd, input=sample.read_bytes(), capture_output=True)
    assert main(["inspect", str(sample), "--schema", str(ksy), "--json"]) == 0
    named = capsys.readouterr().out
    assert piped.returncode == 0 and piped.stdout.decode() == named and json.loads(named)["len_body"] == 1
    small = subprocess.run([*cmd, "--budget", "20"], input=sample.read_bytes(), capture_output=True, text=False)
    assert small.returncode == 2 and b"standard input read into memory (48 bytes so far) needs 48 bytes" in small.stderr
    main_fd, terminal = os.openpty()  # a terminal on standard input: refused, not waited on
    try:
        typed = subprocess.run(cmd, stdin=terminal, capture_output=True, timeout=60)
    finally:
        os.close(main_fd)
        os.close(terminal)
    assert typed.returncode == 3 and typed.stderr.startswith(b"binparse: error: <stdin>: standard input is a terminal")
    short = subprocess.run(cmd, input=sample.read_bytes()[:30], capture_output=True)
    assert short.returncode == 2 and json.loads(short.stdout) == {"len_header": 47}  # what was read before it broke off
    assert short.stderr.decode().startswith("binparse: not read: header: field runs past the end of the data "
                                            "(offset 4 (0x4)); expected 43 bytes (1 x 43), found 26 bytes left\n")


BROKEN = """meta: {id: broken, endian: le}
seq:
  - {id: count, type: u1}
instances:
  table:
    pos: 1
    type: entry
    repeat: expr
    repeat-expr: count
  tail: {pos: 1, type: tail}
types:
  entry:
    seq:
      - {id: a, type: u1}
  tail:
    seq:
      - {id: first, type: u1}
      - {id: rest, size: first * 8}
      - {id: after, type: u1}
"""


def test_what_cannot_be_read_is_left_out_alike_in_every_output(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """An instance whose record breaks off keeps what was read (it was dropped whole from --json), and
    JSON, YAML and text leave out the same fields and name them alike on stderr (exit code 2)."""
    p = tmp_path / "broken.ksy"
    p.write_text(BROKEN)
    data = tmp_path / "broken.bin"
    data.write_bytes(bytes([9, 1, 2, 3]))  # nine entries claimed, three bytes after the count
    errs = []
    for fmt in ("json", "yaml", "text"):
        assert main(["inspect", str(data), "--schema", str(p), "--format", fmt]) == 2
        out, err = capsys.readouterr()
        errs.append(err)
        if fmt == "json":
            assert json.loads(out) == {"count": 9, "tail": {"first": 1}}
        elif fmt == "yaml":
            assert yaml.safe_load(out) == {"count": 9, "tail": {"first": 1}}
        else:
            assert out.splitlines()[2:] == [
                "count         0     1  u1     9",
                "table                  entry  not read: field runs past the end of the data (offset 1 (0x1)); "
                "expected 9 bytes (9 x 1), found 3 bytes left",
                "tail          1        tail",
                "  first       1     1  u1     1",
                "  rest                 bytes  not read: field runs past the end of the data (offset 2 (0x2)); "
                "expected 8 bytes (1 x 8), found 2 bytes left",
                "  after                u1     not read: after rest"]
    assert errs[0] == errs[1] == errs[2] == (
        "binparse: not read: table: field runs past the end of the data (offset 1 (0x1)); expected 9 bytes (9 x 1), "
        "found 3 bytes left\nbinparse: not read: tail.rest: field runs past the end of the data (offset 2 (0x2)); "
        "expected 8 bytes (1 x 8), found 2 bytes left\n"
        "binparse: not read: tail.after: after tail.rest, which could not be read\n")
    assert main(["inspect", str(data), "--schema", str(p), "--json", "--offsets", "--path", "tail"]) == 2
    assert json.loads(capsys.readouterr().out) == {"start": 1, "type": "tail", "fields": {  # no end: it breaks off
        "first": {"start": 1, "end": 2, "type": "u1", "value": 1}}}


REPR = """meta: {id: reprs, endian: be}
seq:
  - {id: items, type: item, repeat: expr, repeat-expr: 2}
types:
  item:
    -webide-representation: '{code} = {code:dec} {kind} {kind:dec} {tag:str}/{tag:hex} [{pair}] {nothing}!'
    seq:
      - {id: code, type: u2}
      - {id: kind, type: u1, enum: kinds}
      - {id: tag, size: 2}
      - {id: pair, type: u1, repeat: expr, repeat-expr: 2}
enums:
  kinds: {1: one, 2: two}
"""


def test_webide_representation_as_the_web_ide_writes_it(tmp_path: Path) -> None:
    p = tmp_path / "reprs.ksy"
    p.write_text(REPR)
    data = bytes([0x01, 0x2C, 1, 0x41, 0x42, 7, 8, 0x00, 0x0F, 3, 0x00, 0xFF, 9, 10])
    root = binparse.compile(p).parse(data)
    text, _ = dumped(root, "text")
    rows = text.splitlines()
    assert rows[1:3] == ["items          0    14  item ×2        2 elements",
                         "  [0]          0     7  item           0x12c = 300 one 1 AB/0x4142 [0x7, 0x8] !"]
    # an enum value no member has is a number (in hex, as the Web IDE writes numbers); bytes as text or in hex
    assert rows[7] == "  [1]          7     7  item           0xf = 15 0x3 3 \\x00ÿ/0x00ff [0x9, 0xa] !"


def test_span_and_find_in_the_api() -> None:
    """`acc.span(name)`, `acc.span(name, k)`: where a field or an element lies (bits too), without
    reading its value; `find` the value at a path and where it lies."""
    ksy, sample = gallery("network/rtp_packet/pcma-marker.bin")
    rtp = binparse.compile(ksy).parse(sample)
    assert (rtp.span("payload_type").start, rtp.span("payload_type").end) == (1, 2)
    assert (rtp.span("payload_type").start_bit, rtp.span("payload_type").end_bit) == (9, 16)
    assert rtp.span("data").size == 240 and rtp.span("header_extension") is None  # if false: no span
    assert (rtp.offset, rtp.nbytes) == (0, 252)
    ksy, sample = gallery("image/png/atch-zlib.png")
    png = binparse.compile(ksy, import_path=[GALLERY]).parse(sample)
    assert [(s.start, s.end) for s in (png.span("chunks", k) for k in range(4))] == \
        [(33, 48), (48, 88), (88, 231), (231, 243)]
    assert png.chunks[2].span("body").stream is None
    with pytest.raises(KeyError, match="has no field or positioned instance 'nope'"):
        png.span("nope")


def test_the_walk_shows_progress_on_a_terminal_after_a_second(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A dump that takes more than a second says how far it is on a terminal's stderr (in place), and
    takes the line away at the end; nothing when stderr is no terminal."""
    from binparse.engine.dump import walk as walk_mod

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True
    p = tmp_path / "log.ksy"
    p.write_text(LOG)
    data = b"".join(struct.pack("<BH", k % 3, 4) + b"x%03d" % (k % 1000) + struct.pack("<I", k)
                    for k in range(1000))  # 11 bytes each
    root = binparse.compile(p).parse(data)
    for terminal in (True, False):
        err = Terminal() if terminal else io.StringIO()
        monkeypatch.setattr(sys, "stderr", err)
        clock = iter(range(0, 100_000, 2))
        monkeypatch.setattr(walk_mod.time, "perf_counter", lambda: float(next(clock)))  # two seconds a record
        _, w = dumped(root, name="inspect log.bin", size=len(data))
        assert w.records == 1001
        lines = err.getvalue().split("\r")
        if not terminal:
            assert lines == [""]
            continue
        # the root and 255 records of 11 bytes: the last one at byte 254 * 11
        assert lines[1:4] == ["inspect log.bin: 256 records, byte 2,794 of 11,000 (25 %)",
                              "inspect log.bin: 512 records, byte 5,610 of 11,000 (51 %)",
                              "inspect log.bin: 768 records, byte 8,426 of 11,000 (76 %)"]
        assert lines[-2:] == [" " * len(lines[3]), ""]  # taken away



PEAK = """
import os, sys
from binparse.cli import main
sys.stdout = open(os.devnull, "w")
code = main(["inspect", sys.argv[1], "--schema", sys.argv[2], "--json"])
peak = next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:"))  # this process's own
print(code, peak, file=sys.stderr)
"""


def test_memory_of_a_dump_stays_flat_as_the_file_grows(tmp_path: Path) -> None:
    """A log of 1,000 records and one of 101,000 dumped as JSON in fresh processes: the peak memory grows by
    less than 80 bytes a record: the runtime's index of where each record starts and the file's own bytes
    (the tree used to be held whole: about 2.4 KB a record, 240 MB more)."""
    if not Path("/proc/self/status").is_file():
        pytest.skip("the peak memory of a process is read from /proc (Linux)")
    p = tmp_path / "log.ksy"
    p.write_text(LOG)
    peaks = []
    for n in (1_000, 101_000):
        data = tmp_path / f"log{n}.bin"
        rec = [struct.pack("<BH", k % 3, 4) + b"x%03d" % (k % 1000) + struct.pack("<I", k) for k in range(n)]
        data.write_bytes(b"".join(rec))
        r = subprocess.run([sys.executable, "-c", PEAK, str(data), str(p)], capture_output=True, text=True,
                           env={**os.environ, "BINPARSE_BUDGET": "64MiB"})  # well under a held tree's 240 MB
        code, kb = r.stderr.split()[-2:]
        assert code == "0", r.stderr
        peaks.append(int(kb))
    assert (peaks[1] - peaks[0]) * 1024 < 80 * 100_000, peaks


CHAIN = "meta: {id: chain}\nseq:\n  - {id: head, type: node}\ntypes:\n  node:\n    seq:\n" \
        "      - {id: more, type: u1}\n      - {id: next, type: node, if: more != 0}\n"


def test_records_nested_deeper_than_the_walk_follows_are_named_and_the_rest_printed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """300 records, each inside the one before: the walk prints 200 levels, names the record it does not
    enter (exit 2), and the JSON stays whole (every object closed)."""
    from binparse.engine.dump.walk import MAX_DEPTH
    p = tmp_path / "chain.ksy"
    p.write_text(CHAIN)
    data = tmp_path / "chain.bin"
    data.write_bytes(bytes([1] * 300 + [0]))
    assert main(["inspect", str(data), "--schema", str(p), "--json"]) == 2
    out, err = capsys.readouterr()
    node, depth = json.loads(out)["head"], 1
    while "next" in node:
        node, depth = node["next"], depth + 1
    assert depth == MAX_DEPTH - 1 and node == {"more": 1}  # the root is the first of the 200 levels
    assert err.startswith("binparse: not read: head.next.next") and "….next" in err and err.endswith(
        ".next: records nest deeper than 200: the tree is not printed that deep\n") and len(err) < 400


def test_yaml_and_json_read_back_every_text(tmp_path: Path) -> None:
    """Text from a file (control characters, quotes, a character beyond U+FFFF, a key YAML 1.1 would read
    as a boolean) reads back from the YAML and the JSON as it was."""
    p = tmp_path / "texts.ksy"
    p.write_text("meta: {id: texts, encoding: UTF-8}\nseq:\n  - {id: 'on', type: strz}\n  - {id: b, type: strz}\n")
    words = ["a😀b\t\"q\"\\", "é\x01\n"]
    root = binparse.compile(p).parse(b"".join(w.encode() + b"\0" for w in words))
    assert yaml.safe_load(dumped(root, "yaml")[0]) == json.loads(dumped(root)[0]) == {"on": words[0], "b": words[1]}
    assert dumped(root, "yaml")[0] == '"on": "a\\U0001f600b\\t\\"q\\"\\\\"\nb: "\\u00e9\\u0001\\n"\n'


NAMES = """meta: {id: names, endian: le}
seq:
  - {id: offset, type: u1}
  - {id: nbytes, type: u1}
  - {id: span, type: u1}
  - {id: path, type: u1}
  - {id: validate, type: u1}
instances:
  again: {value: _root}
"""


def test_fields_named_like_the_api_dump_as_any_other(tmp_path: Path) -> None:
    """Fields called `offset`, `nbytes`, `span`, `path` and `validate` hide the accessor's own names in
    Python; the dump uses the runtime's own places, so it prints them as any other field."""
    p = tmp_path / "names.ksy"
    p.write_text(NAMES)
    root = binparse.compile(p).parse(bytes([7, 8, 9, 10, 11]))
    assert (root.offset, root.nbytes, root.span, root.path, root.validate) == (7, 8, 9, 10, 11)
    doc = json.loads(dumped(root, offsets=True)[0])
    assert (doc["start"], doc["end"]) == (0, 5)
    assert [(doc["fields"][n]["start"], doc["fields"][n]["value"]) for n in ("offset", "nbytes", "span", "path")] \
        == [(0, 7), (1, 8), (2, 9), (3, 10)]
    assert "again" not in doc["fields"]  # the record the tree is inside: named, not printed again
