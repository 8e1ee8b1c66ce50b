"""Hostile .espdl files (issue 27): every command stays inside 8 x input + 256 MiB and answers with a
BinparseError, never a traceback, whatever the file claims.

- a 52 KB model whose FlatBuffer points thousands of fields at one Node table, one Tensor table and one
  20,000-character string (decoded once, described once: never copied per reference);
- a PDL2 pack whose thousands of entries all point at one model (decoded once);
- negative and absurd dims, in every command (`draw --tensor` used to crash on a negative dim);
- a malformed --key, never echoed (its length is said).
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from binparse.formats.espdl.model.flatbuf import FlatBuffer
from binparse.formats.espdl.model.graph import SCHEMAS

from .harness import bound, run_cli, within

REPO = Path(__file__).resolve().parents[2]
MODEL = REPO / "fixtures" / "espdl" / "models" / "conv_s8_blocks.espdl"
SCHEMA = SCHEMAS["edl2"]


class _Buf:
    """A FlatBuffer written front to back by hand (every offset points forward)."""

    def __init__(self) -> None:
        self.b = bytearray(4)

    def pad(self, n: int = 4) -> None:
        self.b += bytes(-len(self.b) % n)

    def table(self, tname: str, fields: dict[str, int | None]) -> tuple[int, dict[str, int]]:
        """A vtable and its table of 4-byte fields (`None`: an offset patched later); (table position,
        field name -> field position)."""
        slots = {SCHEMA.tables[tname][f].slot: f for f in fields}
        n = max(slots) + 1
        self.pad(4)
        vt = len(self.b)
        offsets = {f: 4 + 4 * i for i, f in enumerate(fields)}
        self.b += struct.pack(f"<HH{n}H", 4 + 2 * n, 4 + 4 * len(fields),
                              *[offsets[slots[s]] if s in slots else 0 for s in range(n)])
        self.pad(4)
        tp = len(self.b)
        self.b += struct.pack("<i", tp - vt) + bytes(4 * len(fields))
        for f, v in fields.items():
            if v is not None:
                struct.pack_into("<i", self.b, tp + offsets[f], v)
        return tp, {f: tp + o for f, o in offsets.items()}

    def point(self, at: int, target: int) -> None:
        struct.pack_into("<I", self.b, at, target - at)

    def vector(self, count: int) -> int:
        """A vector of `count` offsets (patched later); its count's position."""
        self.pad(4)
        pos = len(self.b)
        self.b += struct.pack("<I", count) + bytes(4 * count)
        return pos

    def string(self, text: bytes) -> int:
        self.pad(4)
        pos = len(self.b)
        self.b += struct.pack("<I", len(text)) + text + b"\0"
        return pos


def shared_model(n_refs: int = 2000, m_inputs: int = 4000, name_len: int = 20000) -> bytes:
    """An EDL2 model: n_refs nodes and n_refs initializers that are one Node and one Tensor table, the
    node's m_inputs inputs and the tensor's name one long string."""
    w = _Buf()
    model, mf = w.table("Model", {"graph": None})
    w.point(0, model)
    graph, gf = w.table("Graph", {"node": None, "initializer": None})
    w.point(mf["graph"], graph)
    nodes = w.vector(n_refs)
    w.point(gf["node"], nodes)
    inits = w.vector(n_refs)
    w.point(gf["initializer"], inits)
    node, nf = w.table("Node", {"op_type": None, "input": None})
    for i in range(n_refs):
        w.point(nodes + 4 + 4 * i, node)
    tensor, tf = w.table("Tensor", {"name": None, "dims": None, "data_type": 3})
    for i in range(n_refs):
        w.point(inits + 4 + 4 * i, tensor)
    w.point(nf["op_type"], w.string(b"Conv"))
    ins = w.vector(m_inputs)
    w.point(nf["input"], ins)
    w.pad(4)
    dims = len(w.b)
    w.b += struct.pack("<Iq", 1, 16)
    w.point(tf["dims"], dims)
    name = w.string(b"n" * name_len)
    w.point(tf["name"], name)
    for i in range(m_inputs):
        w.point(ins + 4 + 4 * i, name)
    w.pad(16)
    payload = bytes(w.b)
    return b"EDL2" + struct.pack("<II", 0, len(payload)) + bytes(4) + payload


def one_model_pack(entries: int = 1000) -> bytes:
    """A PDL2 pack whose `entries` entries all point at one model record (and one name)."""
    rec = MODEL.read_bytes()
    head = 8 + 12 * entries
    name_off = head
    data_off = -(-(head + 1) // 16) * 16
    table = struct.pack("<3I", data_off, name_off, 1) * entries
    out = b"PDL2" + struct.pack("<I", entries) + table + b"m"
    return out + bytes(data_off - len(out)) + rec


def with_dims(dims: list[int]) -> bytes:
    """conv_s8_blocks.espdl with its first initializer's first dims replaced (int64, in place)."""
    data = bytearray(MODEL.read_bytes())
    t = FlatBuffer(memoryview(data)[16:], SCHEMA).root().get("graph").get("initializer")[0]
    start, count, _ = t.span("dims")
    assert count >= len(dims)
    struct.pack_into(f"<{len(dims)}q", data, 16 + start, *dims)
    return bytes(data)


def _check(path: Path, *args: str, codes: tuple[int, ...] = (0, 1, 2, 3)) -> str:
    r = run_cli(*args, timeout=120)
    assert within(r, path.stat().st_size), (args, r.peak_rss, bound(path.stat().st_size), r.killed)
    assert r.returncode in codes and "Traceback" not in r.stderr, (args, r.returncode, r.stderr[-2000:])
    return r.stdout + r.stderr


def test_tables_shared_many_times_are_decoded_and_described_once(tmp_path: Path) -> None:
    p = tmp_path / "shared.espdl"
    p.write_bytes(shared_model())
    assert 50_000 < p.stat().st_size < 54_000  # 52 KB claiming 2,000 x 4,000 x 20,000 characters of names
    out = _check(p, "inspect", p, codes=(0,))
    assert "nodes: 2000 (Conv x2000)" in out and "parameters: 32,000 in 2000 initializers" in out
    out = _check(p, "inspect", p, "--json", codes=(0, 2))
    assert out.count('"same_as": 0') == 2 * 1999 and out.count("... (20,000 characters)") == 4000 + 1
    _check(p, "inspect", p, "-v", codes=(0, 2))
    out = _check(p, "doctor", tmp_path, codes=(0, 1, 2))
    assert len(out) < 200_000


def test_a_pack_whose_entries_all_point_at_one_model_decodes_it_once(tmp_path: Path) -> None:
    p = tmp_path / "pack.espdl"
    p.write_bytes(one_model_pack())
    out = _check(p, "inspect", p, codes=(0, 2))
    assert out.count("the same record as 'm'") == 999 and out.count("graph 'conv_s8_blocks'") == 1
    out = _check(p, "inspect", p, "--json", codes=(0, 2))
    assert out.count('"same_record_as": "m"') == 999
    out = _check(p, "doctor", tmp_path, codes=(0, 1, 2))
    assert out.count("checked once, there") == 999


@pytest.mark.parametrize("dims", [[-3], [1 << 33], [0, 1 << 30, 1 << 30]])
def test_negative_or_absurd_dims_are_a_binparse_error_in_every_command(dims: list[int], tmp_path: Path) -> None:
    p = tmp_path / "m.espdl"
    p.write_bytes(with_dims(dims))
    for args in (("inspect", p), ("inspect", p, "--json"), ("view", p, "--tensor", "w_conv", "--npy", tmp_path / "w.npy"),
                 ("view", p, "--tensor", "x", "--npy", tmp_path / "x.npy"),
                 ("draw", p, "--tensor", "w_conv", "--svg", tmp_path / "w.svg"), ("repair", p, "-o", tmp_path / "r.espdl")):
        # the model cannot be read: exit 2 (binparse.core.exitcodes), the error naming the field
        out = _check(p, *args, codes=(2,))
        assert "Model.graph.initializer[0].dims" in out and "dims" in out, (args, out[-500:])
    out = _check(p, "doctor", tmp_path, codes=(2,))  # not read, as every other command says: not verified
    assert "[note] not verified: m.espdl" in out and "Model.graph.initializer[0].dims" in out


def test_a_malformed_key_is_never_echoed(tmp_path: Path) -> None:
    secret = "hunter2-passphrase-do-not-print"
    for args in (("inspect", MODEL, "--key", secret), ("doctor", MODEL.parent, "--key", secret),
                 ("view", MODEL, "--tensor", "x", "--npy", tmp_path / "x.npy", "--key", secret)):
        r = run_cli(*args)  # a usage error of every command, said once before any file is read (not a finding per model)
        assert r.returncode == 3 and r.stdout == "" and "hunter2" not in r.stderr
        assert r.stderr.splitlines()[-1] == (f"binparse {args[0]}: error: argument --key: an ESP-DL model key is 16 "
                                             f"bytes; expected 32 hex digits, found {len(secret)} characters that are "
                                             "not 32 hex digits")


def test_printouts_and_records_too_big_for_what_they_claim_are_refused(tmp_path: Path) -> None:
    info = tmp_path / "m.info"
    info.write_bytes(b"graph g (\n" + b"\n" * 6_000_000)  # 6 MB of empty lines: 6 million Python strings
    out = _check(info, "inspect", info, codes=(2,))
    assert "millions of lines shorter than any printout's" in out and "6,000,001 lines" in out
    record = tmp_path / "m.json"
    record.write_bytes(b'{"configs": {"op": {"x": {"bit_width": 8, "policy": {}}}}, "values": {"1": {"scale": ['
                       + b"1," * 9_000_000 + b"1]}}}")
    out = _check(record, "inspect", record, codes=(2,))
    assert "larger than any quantization record esp-ppq writes" in out


def shared_vector_model(n_nodes: int = 2000, m_inputs: int = 20000) -> bytes:
    """An EDL2 model of `n_nodes` distinct Node tables whose `input` fields all point at one vector of
    `m_inputs` names (one string): 40 million names once expanded, in ~120 KB."""
    w = _Buf()
    model, mf = w.table("Model", {"graph": None})
    w.point(0, model)
    graph, gf = w.table("Graph", {"node": None})
    w.point(mf["graph"], graph)
    nodes = w.vector(n_nodes)
    w.point(gf["node"], nodes)
    inputs_at = []
    for i in range(n_nodes):
        node, nf = w.table("Node", {"input": None})
        w.point(nodes + 4 + 4 * i, node)
        inputs_at.append(nf["input"])
    ins = w.vector(m_inputs)
    for at in inputs_at:
        w.point(at, ins)
    name = w.string(b"x")
    for i in range(m_inputs):
        w.point(ins + 4 + 4 * i, name)
    w.pad(16)
    payload = bytes(w.b)
    return b"EDL2" + struct.pack("<II", 0, len(payload)) + bytes(4) + payload


def test_a_vector_shared_by_thousands_of_tables_is_asked_of_the_budget(tmp_path: Path) -> None:
    """Issue 37: vectors many tables point at are decoded once, and the graph's size with every use
    counted (what reports, JSON and exports walk) is asked of the budget: refused, exit 2, in bound."""
    p = tmp_path / "vectors.espdl"
    p.write_bytes(shared_vector_model())
    assert p.stat().st_size < 130_000
    for args in (("inspect", p), ("inspect", p, "--json", "-v"), ("doctor", tmp_path), ("export", p, "--check"),
                 ("repair", p, "-o", tmp_path / "fixed.espdl")):
        out = _check(p, *args, codes=(2,))
        assert "the model's graph (40,002,000 names, tables and values, a shared one counted at each use) needs " \
               "20,481,024,000 bytes, over the budget of 269,396,096 bytes (8 " in out, (args, out[-800:])
        assert "[problem]" not in out  # a refusal proves nothing
    assert not (tmp_path / "fixed.espdl").exists()


def overlapping_encrypted_pack(entries: int = 1000, tail: int = 280_000) -> bytes:
    """A PDL2 pack of `entries` encrypted records 16 bytes apart, each claiming every byte after its
    header: each model decrypted whole is entries x tail bytes (280 MB) from a 300 KB file."""
    head = 8 + 12 * entries
    name_off = head
    first = -(-(head + 1) // 16) * 16
    end = first + 16 * entries + tail
    table = b"".join(struct.pack("<3I", first + 16 * k, name_off, 1) for k in range(entries))
    out = bytearray(b"PDL2" + struct.pack("<I", entries) + table + b"m")
    out += bytes(first - len(out))
    for k in range(entries):
        at = first + 16 * k
        out += b"EDL2" + struct.pack("<II", 1, end - at - 16) + bytes(4)
    return bytes(out + bytes(tail))


def test_overlapping_encrypted_records_are_refused_before_decrypting(tmp_path: Path) -> None:
    """Issue 37, then 44: 1,000 encrypted records that overlap (a 300 KB pack whose models would each be
    decrypted whole: 280 MB) are refused before any is decrypted (records lie apart in any pack esp-dl's
    tools write: model/pack.py), exit 2, within bound; not a problem in doctor."""
    p = tmp_path / "overlap.espdl"
    p.write_bytes(overlapping_encrypted_pack())
    key = "00" * 16
    said = "the records of pack entries 0 and 1 overlap (bytes 12,016..308,016 and 12,032..308,016)"
    out = _check(p, "inspect", p, "--key", key, codes=(2,))
    assert said in out and "decrypting" not in out, out[-600:]
    out = _check(p, "doctor", tmp_path, "--key", key, codes=(2,))
    assert "[problem]" not in out and said in out, out[-600:]


def slide_pack(entries: int = 20_000) -> bytes:
    """A PDL2 pack whose `entries` records start 16 bytes apart and all end at the file's end: each 16-byte
    block is the root offset of one record's payload (pointing at the one Model table of conv_c.espdl's
    FlatBuffer, at the end) and the mode and size of the next. 565 KB, each record a whole model."""
    payload = (REPO / "fixtures" / "espdl" / "models" / "conv_c.espdl").read_bytes()[16:]
    root = struct.unpack_from("<I", payload, 0)[0]
    first = -(-(8 + 12 * entries + 1) // 16) * 16
    blocks = first + 16 * (entries + 1)
    end = blocks + len(payload)
    table = b"".join(struct.pack("<3I", first + 16 * k, 8 + 12 * entries, 1) for k in range(entries))
    out = bytearray(b"PDL2" + struct.pack("<I", entries) + table + b"m")
    out += bytes(first - len(out))
    for j in range(entries + 1):
        at = first + 16 * j
        out += struct.pack("<4I", blocks + root - at, 0, end - at - 16, 0)
    return bytes(out + payload)


def test_a_pack_of_records_that_slide_over_one_model_is_refused_at_once(tmp_path: Path) -> None:
    """Issue 44 item 8 (an ESP-DL slide pack: inspect 58 s and 428 MB from 552 KB, doctor 31 s): records that
    overlap are no pack esp-dl's tools write (model/pack.py); refused before any model is decoded, exit 2,
    one line, within bound and in a few seconds; not a problem in doctor."""
    p = tmp_path / "slide.espdl"
    p.write_bytes(slide_pack())
    assert p.stat().st_size == 565_440
    said = ("the records of pack entries 0 and 1 overlap (bytes 240,016..565,440 and 240,032..565,440): not a pack "
            "esp-dl's tools write, not read")
    for args in (("inspect", p), ("doctor", tmp_path)):
        r = run_cli(*args, timeout=60)
        assert r.returncode == 2 and r.seconds < 10 and within(r, p.stat().st_size), (args, r.returncode, r.seconds)
        out = r.stdout + r.stderr
        assert said in out and "[problem]" not in out and "Traceback" not in out, (args, out[-800:])
        if args[0] != "doctor":
            assert r.stderr.count("\n") == 1, r.stderr


def test_an_info_file_that_is_no_printout_is_not_read_as_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 44 item 8 (a `.info` that is no printout read as ok, exit 0): a Graphviz `graph G { ... }` and a
    header with an empty body have no `return` line, which esp-ppq's printable_graph always writes: not
    read (exit 2, one line), in doctor a file not verified, never ok."""
    from binparse.cli import main
    for text in ("graph G {\n}\n", "graph main_graph (\n) {\n}\n", "graph G {\n  a -- b;\n}\n"):
        folder = tmp_path / str(len(text))
        folder.mkdir()
        info = folder / "m.info"
        info.write_text(text)
        assert main(["inspect", str(info)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Not an esp-ppq .info printout" in err, err
        assert main(["doctor", str(folder)]) == 2
        out = capsys.readouterr().out
        assert "[ok]" not in out and "[note] not verified: m.info looks like an espdl info_printout" in out, out
