"""`binparse repair`: an .espdl model whose int64 vectors hold what was meant (model/narrow.py).

The repair touches only the defective vectors: each meant vector is appended, as int64, at the end
of the model's FlatBuffer and the field's uoffset is pointed at it (FlatBuffers offsets point forward,
and the end is past every field). Every other byte of the FlatBuffer stays where it was, so names,
weights, test values and the graph are the same bytes; the old 4-byte elements stay behind, unused.
The record keeps its magic (generation) and mode (an encrypted model is encrypted again with its key);
a pack's entries are pointed at the moved records, and a PDL3 pack gets its size and SHA-256 anew.

Refused: a model with nothing to repair, a model that does not read (a vector that fits neither as
int64 nor as int32 values: model/narrow.py), a repaired payload that does not read back as meant, an
encrypted model without its key.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path
from typing import Any

from ....core import budget
from ....core.errors import FormatError, UsageError
from ..model.crypto import decrypt
from ..model.graph import Graph

def _doctor_hint(file: str | None, what: str) -> str:
    """The doctor's command on the model's folder (or the model) as it was named, and what it does."""
    import os
    from ....family.hints import command
    if not file:
        return f"binparse's doctor on the model's folder {what}"
    return f"{command('doctor', os.path.dirname(file) or '.')} {what}"


def repaired_payload(m: Any) -> bytes | None:
    """The FlatBuffer of `m` (an `EspdlModel`) with its int32 vectors written as int64 (plain), or None when none."""
    g = m.graph
    if not g.narrow:
        return None
    firsts = {n.start: n.count for n in g.narrow}  # vectors that overlap in the payload are each copied whole
    budget.ask(len(m.payload) + sum(8 * c + 16 for c in firsts.values()),
               f"the repaired payload ({len(firsts):,} int64 vectors appended to {len(m.payload):,} bytes)",
               file=m.file, path=m.record.path)
    buf = bytearray(m.payload)
    moved: dict[int, int] = {}  # first element of an old vector -> count position of its int64 copy
    for n in g.narrow:
        pos = moved.get(n.start)
        if pos is None:
            buf += bytes(-(len(buf) + 4) % 8)  # the elements 8-byte aligned after their u32 count
            pos = moved[n.start] = len(buf)
            buf += struct.pack(f"<I{n.count}q", n.count, *n.meant)
        struct.pack_into("<I", buf, n.at, pos - n.at)
    buf += bytes(-len(buf) % 16)
    again = Graph.read(bytes(buf), file=m.file, generation=m.generation)
    want = {n.path: n.meant for n in g.narrow}
    got = {t.path + ".dims": t.dims for t in again.tensors} | {t.path + ".exponents": t.exponents for t in again.tensors}
    if again.narrow or any(got.get(p, v) != v for p, v in want.items()) or len(again.nodes) != len(g.nodes):
        raise FormatError("the repaired model does not read back as meant: not written", file=m.file,
                          path=m.record.path, hint=_doctor_hint(m.file, "says what it found"))
    return bytes(buf)


def _record(m: Any, payload: bytes, raw: memoryview, at: int) -> bytes:
    """The model's record (magic, mode, size, padding, payload) with a new payload, encrypted again
    when the model is."""
    head = 12 if m.generation == "edl1" else 16
    if m.encrypted:
        if m.key is None:
            raise UsageError("encrypted model: give its key to repair it", file=m.file, path=m.record.path,
                             hint="--key HEX")
        payload = decrypt(payload, m.key, file=m.file)
    out = bytearray(raw[at:at + head])
    struct.pack_into("<I", out, 8, len(payload))
    return bytes(out) + payload


def repaired_bytes(f: Any) -> tuple[bytes, list[str]]:
    """The repaired file (`f`: an `EspdlFile`) and, per model repaired, what was rewritten. `FormatError` when nothing needs it."""
    raw = f._mv
    said: list[str] = []
    fixed: dict[int, bytes] = {}  # record offset -> new record
    models = f.models
    offsets = [int(e.data_off) for e in f.entries or []] if f.model is None else [0]
    for m, off in zip(models, offsets):
        if m.twin is not None or off in fixed:
            continue
        if m.encrypted and m.key is None:
            raise UsageError("encrypted model: give its key (--key HEX) to look for int32 vectors", file=f._file,
                             path=m.record.path)
        payload = repaired_payload(m)
        if payload is not None:
            fixed[off] = _record(m, payload, raw, off)
            said.append(f"{m.name or 'model'}: {len(m.graph.narrow)} int64 vectors rewritten with their int32 values")
    if not fixed:
        raise UsageError("nothing to repair: no int64 vector of this file holds int32 values", file=f._file,
                         hint="the file is left as it is; " + _doctor_hint(f._file, "checks the rest"))
    if f.model is not None:
        return fixed[0], said
    return _pack(f, fixed), said


def _pack(f: Any, fixed: dict[int, bytes]) -> bytes:
    """The pack with its records laid out again (repaired ones grown) and its entries pointed at them."""
    raw = f._mv
    magic = str(f.magic)
    table = 60 if magic == "PDL3" else 8
    align = 1 if magic == "PDL1" else 16
    entries = list(f.entries or [])
    starts = sorted({int(e.data_off) for e in entries})
    if any(int(e.name_off) + int(e.name_len) > starts[0] for e in entries):
        raise FormatError("a model name lies after the first model: a pack binparse does not lay out again",
                          file=f._file, path="espdl_container.entries")
    head = 12 if magic == "PDL1" else 16
    sizes = {off: int(struct.unpack_from("<I", raw, off + 8)[0]) for off in starts}
    total = starts[0] + sum(len(fixed[off]) if off in fixed else head + sizes[off] + align for off in starts)
    # records that overlap in the file (entries a few bytes apart) are each laid out whole: asked first
    budget.ask(total, f"the repaired pack ({len(starts):,} records laid out one after another)", file=f._file)
    out = bytearray(raw[:starts[0]])
    new_off: dict[int, int] = {}
    for k, off in enumerate(starts):
        rec = fixed.get(off) or bytes(raw[off:off + head + sizes[off]])
        out += bytes(-len(out) % align)
        new_off[off] = len(out)
        out += rec
    out += bytes(-len(out) % align)
    for i, e in enumerate(entries):
        struct.pack_into("<I", out, table + 12 * i, new_off[int(e.data_off)])
    if magic == "PDL3":  # the package size, and the digest of the package with the digest's bytes zeroed
        struct.pack_into("<I", out, int(f.pdl3_header.field_info("package_size")[0]), len(out))
        at, _, size = f.pdl3_header.field_info("sha256")
        out[at:at + size] = bytes(size)
        out[at:at + size] = hashlib.sha256(out).digest()
    return bytes(out)


def repair(source: Any, out: Any = None, *, key: str | bytes | None = None) -> bytes:
    """The repaired .espdl of `source` (a path, bytes or an `EspdlFile`); written to `out` when given
    (never over the input, never through a link; `FormatError` when there is nothing to repair)."""
    from ....family.opening import open as open_file
    from ....family.fixtures.common import check_new_output, write_atomic
    f: Any = source if hasattr(source, "repaired") else open_file(source)
    if not hasattr(f, "repaired") or not hasattr(f, "models"):
        raise FormatError("not an .espdl model", file=str(source) if isinstance(source, (str, Path)) else None)
    if key is not None:
        from ..model.crypto import parse_key
        f.with_key(parse_key(key) if isinstance(key, str) else key)
    target = None if out is None else check_new_output(out, f._file)
    data, _ = repaired_bytes(f)
    if target is not None:
        write_atomic(target, data)
    return data


__all__ = ["repair", "repaired_bytes", "repaired_payload"]
