"""A small generic FlatBuffers reader driven by a table description (schemas/espdl/espdl_model.yaml).

FlatBuffers rules used (flatbuffers.dev, "Internals"): the buffer starts with a u32 offset to the
root table; a table starts with an s32 `soffset` back to its vtable (vtable = table - soffset); a
vtable is `u16 vtable_size, u16 table_size, u16 field_offset[...]` (0 = field absent); a field's
slot is its position in the table's declaration (a union takes two: type byte, then value); an
offset field (string, vector, table) holds a u32 relative to its own position; a vector or string
is a u32 count followed by the elements (a string also by a NUL). Every offset is checked against
the buffer before it is followed: a corrupt payload gives a `FormatError` naming the file, the
field path (`Model.graph.initializer[3].dims`), the file offset and what was wrong.

`FlatBuffer(payload, schema).root()` gives a `Table`; `table.get(name)` reads a field, typed by
the description; `table.span(name)` gives where a vector's elements lie (for zero-copy views).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Any

from ....core.errors import FormatError

SCALARS: dict[str, str] = {"bool": "?", "int8": "b", "uint8": "B", "int16": "h", "uint16": "H", "int32": "i",
                           "uint32": "I", "int64": "q", "uint64": "Q", "float32": "f", "float64": "d"}
_U32 = struct.Struct("<I")
_I32 = struct.Struct("<i")
_U16x2 = struct.Struct("<HH")


@dataclass(frozen=True)
class Field:
    """One table field: its slot and how to read it (`kind`: scalar, string, table, struct, union,
    vector; `elem`: the scalar format, table or struct name, or the vector's element kind)."""

    name: str
    slot: int
    kind: str
    type: str  # the declared type (scalar/enum/struct/table/union name, or the vector's element type)
    fmt: str = ""  # struct format of a scalar or a vector's scalar elements
    size: int = 0  # bytes of a scalar, struct or vector element
    elem_kind: str = ""  # vectors: scalar, string, table, struct


class Schema:
    """The table description as lookups: per table, its fields by name. `generation` names an entry
    of the description's `generations` whose `fields` replace the types of some tables' fields."""

    def __init__(self, data: dict[str, Any], generation: str | None = None) -> None:
        self.data = data
        self.generation = generation
        changed: dict[str, dict[str, str]] = {}
        if generation is not None:
            changed = dict(data.get("generations", {})[generation].get("fields") or {})
        self.enums: dict[str, dict[str, Any]] = dict(data.get("enums", {}))
        self.structs: dict[str, dict[str, Any]] = dict(data.get("structs", {}))
        self.unions: dict[str, list[list[str]]] = dict(data.get("unions", {}))
        self.tables: dict[str, dict[str, Field]] = {}
        for tname, fields in data["tables"].items():
            slot, out = 0, {}
            for fname, ftype in fields:
                ftype = changed.get(tname, {}).get(fname, ftype)
                if ftype in self.unions:
                    out[fname + "_type"] = Field(fname + "_type", slot, "scalar", "uint8", "B", 1)
                    out[fname] = Field(fname, slot + 1, "union", ftype)
                    slot += 2
                    continue
                out[fname] = self._field(fname, slot, str(ftype))
                slot += 1
            self.tables[tname] = out

    def struct_size(self, name: str) -> int:
        size = 0
        for _, t in self.structs[name]["fields"]:
            base, _, n = t.partition("[")
            size += struct.calcsize("<" + SCALARS[base]) * (int(n[:-1]) if n else 1)
        align = int(self.structs[name].get("align", 1))
        return -(-size // align) * align

    def _scalar(self, t: str) -> tuple[str, int] | None:
        t = self.enums[t]["type"] if t in self.enums else t
        if t in SCALARS:
            return SCALARS[t], struct.calcsize("<" + SCALARS[t])
        return None

    def _field(self, name: str, slot: int, t: str) -> Field:
        if t.startswith("["):
            e = t[1:-1]
            sc = self._scalar(e)
            if sc:
                return Field(name, slot, "vector", e, sc[0], sc[1], "scalar")
            if e == "string":
                return Field(name, slot, "vector", e, "", 4, "string")
            if e in self.structs:
                return Field(name, slot, "vector", e, "", self.struct_size(e), "struct")
            return Field(name, slot, "vector", e, "", 4, "table")
        sc = self._scalar(t)
        if sc:
            return Field(name, slot, "scalar", t, sc[0], sc[1])
        if t == "string":
            return Field(name, slot, "string", t)
        if t in self.structs:
            return Field(name, slot, "struct", t, "", self.struct_size(t))
        return Field(name, slot, "table", t)


class FlatBuffer:
    """A FlatBuffer in a byte buffer (zero-copy), read by a `Schema`.

    `base` is the buffer's offset in its file, so errors give file offsets.
    """

    def __init__(self, buf: Any, schema: Schema, *, file: str | None = None, base: int = 0, root: str = "") -> None:
        self.buf = buf
        self.n = len(buf)
        self.schema = schema
        self.file = file
        self.base = base
        self.root_type = root or str(schema.data["root"])
        self.memo: dict[Any, Any] = {}  # what was decoded, by position: a table, string or vector many fields share is read once
        self.decoded = 0  # vector elements handed out, a shared vector counted at each use: what walking the result meets

    def fail(self, what: str, path: str, pos: int, expected: Any = None, found: Any = None) -> FormatError:
        return FormatError(what, file=self.file, path=path, offset=self.base + pos, expected=expected, found=found,
                           hint="the FlatBuffer payload is truncated or corrupt; re-export the model")

    def u32(self, pos: int, path: str) -> int:
        if pos < 0 or pos + 4 > self.n:
            raise self.fail("offset outside the payload", path, pos, f"4 bytes inside the {self.n}-byte payload", f"position {pos}")
        return int(_U32.unpack_from(self.buf, pos)[0])

    def target(self, pos: int, path: str) -> int:
        """Where the u32 offset stored at `pos` points."""
        t = pos + self.u32(pos, path)
        if t >= self.n:
            raise self.fail("offset points past the payload", path, pos, f"a position inside the {self.n}-byte payload", t)
        return t

    def root(self) -> Table:
        return self.table(self.target(0, self.root_type), self.root_type, self.root_type)

    def table(self, pos: int, tname: str, path: str) -> Table:
        if pos + 4 > self.n or pos < 0:
            raise self.fail(f"{tname} table outside the payload", path, pos, f"inside {self.n} bytes", pos)
        vt = pos - int(_I32.unpack_from(self.buf, pos)[0])
        if vt < 0 or vt + 4 > self.n:
            raise self.fail(f"{tname} vtable outside the payload", path, pos, f"inside {self.n} bytes", vt)
        vlen, tlen = _U16x2.unpack_from(self.buf, vt)
        if vlen < 4 or vlen % 2 or vt + vlen > self.n or pos + tlen > self.n:
            raise self.fail(f"bad {tname} vtable", path, vt, "an even size >= 4 and a table inside the payload",
                            f"vtable size {vlen}, table size {tlen}")
        slots = struct.unpack_from(f"<{(vlen - 4) // 2}H", self.buf, vt + 4)
        for s in slots:
            if s >= tlen and s:
                raise self.fail(f"{tname} field outside its table", path, vt, f"< {tlen}", s)
        return Table(self, pos, tname, slots, path)

    def vector_at(self, pos: int, size: int, path: str) -> tuple[int, int]:
        """(first element position, count) of the vector whose offset is stored at `pos`."""
        start = self.target(pos, path)
        count = self.u32(start, path)
        if start + 4 + count * size > self.n:
            raise self.fail("vector runs past the payload", path, start,
                            f"{count} x {size} bytes inside {self.n - start - 4}", f"{count * size} bytes")
        return start + 4, count

    def string_at(self, pos: int, path: str) -> str:
        start, count = self.vector_at(pos, 1, path)
        got = self.memo.get(start)
        if got is None:
            try:
                got = self.memo[start] = bytes(self.buf[start:start + count]).decode("utf-8")
            except UnicodeDecodeError:
                raise self.fail("string is not UTF-8", path, start) from None
        return str(got)


class Table:
    """One table of a FlatBuffer: fields by name, read when asked (nothing is parsed ahead)."""

    __slots__ = ("fb", "pos", "type", "slots", "path", "fields")

    def __init__(self, fb: FlatBuffer, pos: int, tname: str, slots: tuple[int, ...], path: str) -> None:
        self.fb, self.pos, self.type, self.slots, self.path = fb, pos, tname, slots, path
        self.fields = fb.schema.tables[tname]

    def _where(self, name: str) -> tuple[Field, int]:
        """The field and its position in the buffer (-1 when absent)."""
        f = self.fields[name]
        if f.slot >= len(self.slots) or not self.slots[f.slot]:
            return f, -1
        return f, self.pos + self.slots[f.slot]

    def has(self, name: str) -> bool:
        return self._where(name)[1] >= 0

    def get(self, name: str, default: Any = None) -> Any:
        """The field's value: a number, str, `Table`, tuple (a vector: shared by every field that
        points at it) or, for a struct, a tuple of its fields; `default` when absent."""
        f, p = self._where(name)
        if p < 0:
            return default
        fb, path = self.fb, f"{self.path}.{name}"
        k = f.kind
        if k == "scalar":
            if p + f.size > fb.n:
                raise fb.fail("field outside the payload", path, p)
            return struct.unpack_from("<" + f.fmt, fb.buf, p)[0]
        if k == "string":
            return fb.string_at(p, path)
        if k == "table":
            return fb.table(fb.target(p, path), f.type, path)
        if k == "struct":
            fmt = "<" + "".join(SCALARS[t.partition("[")[0]] * int(t.partition("[")[2][:-1] or 1)
                                for _, t in fb.schema.structs[f.type]["fields"])
            if p + f.size > fb.n:
                raise fb.fail("struct outside the payload", path, p)
            return struct.unpack_from(fmt, fb.buf, p)
        if k == "union":
            members = fb.schema.unions[f.type]
            tag = int(self.get(name + "_type", 0))
            if not 1 <= tag <= len(members):
                return None
            return fb.table(fb.target(p, path), members[tag - 1][1], path)
        start, count = fb.vector_at(p, f.size, path)
        fb.decoded += count
        key = ("vector", start, f.type)
        got = fb.memo.get(key)
        if got is None:  # a vector many fields point at (shared references) is decoded once, and shared
            got = fb.memo[key] = self._vector(f, start, count, path)
        return got

    def _vector(self, f: Field, start: int, count: int, path: str) -> Any:
        fb = self.fb
        ek = f.elem_kind
        if ek == "scalar":
            return struct.unpack_from(f"<{count}{f.fmt}", fb.buf, start)
        if ek == "string":
            return tuple(fb.string_at(start + 4 * i, f"{path}[{i}]") for i in range(count))
        if ek == "table":
            return tuple(fb.table(fb.target(start + 4 * i, f"{path}[{i}]"), f.type, f"{path}[{i}]") for i in range(count))
        return tuple(bytes(fb.buf[start + i * f.size:start + (i + 1) * f.size]) for i in range(count))

    def head(self, name: str) -> tuple[int, int, int] | None:
        """(position of the field's uoffset, first element position, count) of a vector field, its
        extent unchecked (the caller checks it: `narrow.classify`); None when absent."""
        f, p = self._where(name)
        if p < 0:
            return None
        start = self.fb.target(p, f"{self.path}.{name}")
        return p, start + 4, self.fb.u32(start, f"{self.path}.{name}")

    def objects(self) -> list[int]:
        """Where this table's own bytes and what its offset fields point at begin: the table, its
        vtable, and the length prefix of each string and vector (the start of each sub-table). A
        vector of this table cannot run into any of them (FlatBuffers never shares bytes between
        objects): `narrow.classify` uses it to tell a vector's element size."""
        fb = self.fb
        out = [self.pos, self.pos - int(_I32.unpack_from(fb.buf, self.pos)[0])]
        for f in self.fields.values():
            if f.kind not in ("string", "vector", "table", "union") or f.slot >= len(self.slots) or not self.slots[f.slot]:
                continue
            p = self.pos + self.slots[f.slot]
            if p + 4 <= fb.n:
                out.append(p + int(_U32.unpack_from(fb.buf, p)[0]))
        return out

    def span(self, name: str) -> tuple[int, int, int]:
        """(position, count, element size) of a vector field's elements; (0, 0, size) when absent."""
        f, p = self._where(name)
        if f.kind != "vector":
            raise TypeError(f"{self.type}.{name} is not a vector")
        if p < 0:
            return 0, 0, f.size
        start, count = self.fb.vector_at(p, f.size, f"{self.path}.{name}")
        return start, count, f.size


__all__ = ["FlatBuffer", "Field", "Schema", "Table"]
