"""Write a FlatBuffer from plain values and the same table description the reader uses (fixtures).

Front to back: the root offset, then each table as its vtable followed by the table, then what
the table points to (every offset points forward, as FlatBuffers' unsigned offsets require).
Positions are aligned from the buffer's start and the result is padded to 16 bytes, so a payload
placed on a 16-byte boundary (EDL2) has its raw_data blocks 16-byte aligned, as esp-dl expects.

Values: numbers for scalars and enums, `str` for strings, a dict for a table, a tuple for a
struct, a list for a vector (`bytes` for a vector of scalars or 16-byte blocks: the bytes as
they are; a numpy array: its own elements and count whatever the field declares, as the flatbuffers
runtime's `CreateNumpyVector` writes it, which is how esp-ppq put int32 values in int64 vectors),
`(member_type, dict)` for a union. The same dict given twice in one vector (a YAML alias) is one table
that both entries point at, as FlatBuffers allows (what hostile tests build shared tables with).
"""

from __future__ import annotations

import struct
from typing import Any

import numpy as np

from ..model.flatbuf import SCALARS, Field, Schema


class _Writer:
    def __init__(self, schema: Schema) -> None:
        self.s = schema
        self.buf = bytearray()

    def pad_to(self, align: int, extra: int = 0) -> None:
        self.buf += bytes(-(len(self.buf) + extra) % align)

    def patch(self, at: int, target: int) -> None:
        struct.pack_into("<I", self.buf, at, target - at)

    def string(self, text: str) -> int:
        data = text.encode("utf-8")
        self.pad_to(4)
        pos = len(self.buf)
        self.buf += struct.pack("<I", len(data)) + data + b"\0"
        return pos

    def vector(self, f: Field, value: Any) -> int:
        if isinstance(value, np.ndarray):  # as the flatbuffers runtime's CreateNumpyVector: the array's own
            data = value.astype(value.dtype.newbyteorder("<")).tobytes()  # element size, its element count
            self.pad_to(max(4, value.dtype.itemsize), 4)
            pos = len(self.buf)
            self.buf += struct.pack("<I", value.size) + data
            return pos
        esize = f.size
        align = 16 if f.elem_kind == "struct" else max(4, esize)
        if isinstance(value, (bytes, bytearray, memoryview)):
            data = bytes(value)
            if len(data) % esize:
                data += bytes(-len(data) % esize)
            self.pad_to(align, 4)
            pos = len(self.buf)
            self.buf += struct.pack("<I", len(data) // esize) + data
            return pos
        items = list(value)
        if f.elem_kind == "scalar":
            self.pad_to(align, 4)
            pos = len(self.buf)
            self.buf += struct.pack(f"<I{len(items)}{f.fmt}", len(items), *items)
            return pos
        self.pad_to(4)
        pos = len(self.buf)
        self.buf += struct.pack("<I", len(items)) + bytes(4 * len(items))
        written: dict[int, int] = {}  # one table given twice (the same dict: a YAML alias) is written once
        for i, item in enumerate(items):
            if f.elem_kind == "string":
                target = self.string(item)
            elif (target := written.get(id(item), -1)) < 0:
                target = written[id(item)] = self.table(f.type, item)
            self.patch(pos + 4 + 4 * i, target)
        return pos

    def struct_bytes(self, name: str, value: Any) -> bytes:
        fmt = "<" + "".join(SCALARS[t.partition("[")[0]] * int(t.partition("[")[2][:-1] or 1)
                            for _, t in self.s.structs[name]["fields"])
        raw = struct.pack(fmt, *value)
        return raw + bytes(self.s.struct_size(name) - len(raw))

    def table(self, tname: str, values: dict[str, Any]) -> int:
        fields = self.s.tables[tname]
        unknown = set(values) - set(fields)
        if unknown:
            raise KeyError(f"{tname} has no field(s) {sorted(unknown)}")
        items: list[tuple[Field, Any]] = []
        for name, v in values.items():
            if v is None:
                continue
            f = fields[name]
            if f.kind == "union":
                member, body = v
                tag = [m[1] for m in self.s.unions[f.type]].index(member) + 1
                items.append((fields[name + "_type"], tag))
                items.append((Field(name, f.slot, "table", member), body))
            else:
                items.append((f, v))
        items.sort(key=lambda fv: fv[0].slot)
        layout, off = [], 4
        for f, v in items:
            size = f.size if f.kind in ("scalar", "struct") else 4
            a = min(size, 8) if f.kind == "scalar" else (int(self.s.structs[f.type].get("align", 4)) if f.kind == "struct" else 4)
            off += -off % a
            layout.append((f, v, off))
            off += size
        nslots = (max(f.slot for f, _ in items) + 1) if items else 0
        vlen, tlen = 4 + 2 * nslots, off + (-off % 4)
        self.pad_to(16, vlen)  # the table starts 16-aligned (its vtable just before it)
        vt = len(self.buf)
        slots = [0] * nslots
        for f, _, o in layout:
            slots[f.slot] = o
        self.buf += struct.pack(f"<HH{nslots}H", vlen, tlen, *slots)
        tp = len(self.buf)
        self.buf += bytes(tlen)
        struct.pack_into("<i", self.buf, tp, tp - vt)
        later = []
        for f, v, o in layout:
            if f.kind == "scalar":
                struct.pack_into("<" + f.fmt, self.buf, tp + o, v)
            elif f.kind == "struct":
                self.buf[tp + o:tp + o + f.size] = self.struct_bytes(f.type, v)
            else:
                later.append((f, v, tp + o))
        for f, v, at in later:
            if f.kind == "string":
                self.patch(at, self.string(v))
            elif f.kind == "table":
                self.patch(at, self.table(f.type, v))
            else:
                self.patch(at, self.vector(f, v))
        return tp


def build(schema: Schema, values: dict[str, Any], root: str = "") -> bytes:
    """The FlatBuffer of a root table (`schema`'s root type unless `root` names another)."""
    w = _Writer(schema)
    w.buf += bytes(4)
    w.patch(0, w.table(root or str(schema.data["root"]), values))
    w.pad_to(16)
    return bytes(w.buf)


__all__ = ["build"]
