"""Compiled reading of records whose fields lie one after another at places their own numbers give.

Many variable-size records are "linear": every field's size is a constant or an expression over the
record's earlier numbers and its params (`len: u2` then `body: size: len`). For such a type of a
user's package (`binparse.compile`, `binparse generate S.ksy -o DIR`) the generator writes, besides the field specs, plain Python that the interpreter would otherwise
work out field by field:

- `_scan_<Class>(mv, off, end, params)`: where the record ends (or -1 when the data does not hold
  it): what indexing a repeat of these records needs, without making an accessor per record;
- for each number and plain byte array of the seq, a getter body that reads it at its place
  (`off + 3 + u2 at off + 1`) once the record is known to fit (`_ok`).

A record that does not fit (a truncated file) goes the interpreter's way, field by field, so
every error names the field and offset as before. Types with anything else (bits, terminators,
`size-eos`, repeats other than counted ones, `_io`, `_parent`, switches without size, records of
no fixed size) are left to the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import expr as ex
from ..backends import numpy_backend as nb
from ..runtime import FieldSpec
from ..schema import TypeDef

_FORBIDDEN = {"_io", "_parent", "_root", "_index", "_", "_sizeof", "_is_le"}


@dataclass
class Linear:
    """What the generator writes for a linear type."""

    scan: str  # the source of `_scan_<Class>`
    getters: dict[int, str] = field(default_factory=dict)  # seq index -> expression of the value (uses mv, o)
    structs: dict[str, str] = field(default_factory=dict)  # unpacker name -> struct format
    fill: str = ""  # the source of `_fill_<Class>(self, mv, o)`: every plain number of the seq, set at once
    eager: dict[str, int] = field(default_factory=dict)  # the numbers `fill` sets: Python name -> seq index


def _unpacker(structs: dict[str, str], fmt: str) -> str:
    name = "_U_" + "".join(c if c.isalnum() else {"<": "l", ">": "b"}.get(c, "_") for c in fmt)
    structs[name] = fmt
    return name


def plan(t: TypeDef, cls: str, slots: bool = False) -> Linear | None:
    """The compiled reading of `t`, or None when it is not linear (see the module doc). With
    `slots` (a user's package), the plain numbers are slots the getters of later fields read."""
    from .pytypes import pyname
    if t.endian_on is not None or any(p.type not in ("u1", "u2", "u4", "u8", "s1", "s2", "s4", "s8") and
                                      p.prim is None for p in t.params):
        return None
    specs = nb.field_specs(t)
    if not specs:
        return None
    params = {p.id for p in t.params}
    structs: dict[str, str] = {}
    ints: dict[str, int] = {}  # earlier integer fields: name -> seq index
    needed = set()  # fields a later size, count or `if` reads
    for f in specs:
        for e in (f.size, f.count, f.cond):
            if e is not None and not isinstance(e, int):
                needed |= ex.names(e)
    scan = [f"def _scan_{cls}(mv: Any, o: int, end: int, params: dict[str, Any]) -> int:", "    p = o"]
    pos_get: list[str] = []  # each field's offset, as an expression over mv, o and self._params
    getters: dict[int, str] = {}
    cur_get = "o"
    c = 0  # bytes since `p` of constant size
    for i, f in enumerate(specs):
        if not _simple(f):
            return None
        for e in (f.size, f.count, f.cond):
            if e is not None and not isinstance(e, int):
                names = ex.names(e)
                if names & _FORBIDDEN or not names <= set(ints) | params:
                    return None
                if any(n[0] in ("attr", "call", "index", "enum", "list", "sizeof", "bitsizeof", "fstr")
                       for n in ex.nodes(e)):
                    return None
        elem = _elem_size(f, t)
        if elem is None:
            return None

        def scan_name(n: str) -> str:
            return f"v{ints[n]}" if n in ints else f"params[{n!r}]"

        def get_name(n: str) -> str:
            if n in ints:
                j = ints[n]
                if slots and specs[j].enum is None:
                    return f"self.{pyname(n)}"
                return f"{_unpacker(structs, specs[j].fmt or '')}(mv, {pos_get[j]})[0]"
            return f"self._params[{n!r}]"

        def code(e: object, name: object) -> str:
            if isinstance(e, int):
                return str(e)
            return ex.to_python(e, name, lambda a, b: "0", lambda _n: "int")  # type: ignore[arg-type]

        fixed = isinstance(elem, int) and f.count is None and f.cond is None
        size_scan = str(elem) if isinstance(elem, int) else code(elem, scan_name)
        size_get = str(elem) if isinstance(elem, int) else code(elem, get_name)
        if f.count is not None:
            size_scan = f"({code(f.count, scan_name)}) * ({size_scan})"
            size_get = f"({code(f.count, get_name)}) * ({size_get})"
        if f.cond is not None:
            size_scan = f"(({size_scan}) if ({code(f.cond, scan_name)}) else 0)"
            size_get = f"(({size_get}) if ({code(f.cond, get_name)}) else 0)"
        pos_get.append(cur_get)
        if f.kind == "prim" and f.count is None and f.cond is None and f.valid is None and not f.calc_endian:
            unpack = _unpacker(structs, f.fmt or "")
            getters[i] = f"{unpack}(mv, {cur_get})[0]"
            ints[f.name] = i
            if f.name in needed:
                at = f"p + {c}" if c else "p"
                scan += [f"    if {at} + {f.size} > end:", "        return -1", f"    v{i} = {unpack}(mv, {at})[0]"]
        elif f.kind == "bytes" and f.count is None and f.cond is None and f.valid is None and f.plain \
                and f.pad is None:
            getters[i] = f"self._u8[{cur_get}:{cur_get} + {size_get}]" if size_get != "0" else \
                f"self._u8[{cur_get}:{cur_get}]"
        if fixed:
            c += int(elem)  # type: ignore[call-overload]
        else:
            unsigned = isinstance(elem, tuple) and elem[0] == "name" and elem[1] in ints and f.count is None \
                and f.cond is None and (specs[ints[elem[1]]].fmt or "x")[-1] in "BHLQI"
            if unsigned:
                scan += [f"    p += {c} + {size_scan}" if c else f"    p += {size_scan}"]
            else:
                scan += [f"    n = {size_scan}", "    if n < 0:", "        return -1", f"    p += {c} + n" if c else
                         "    p += n"]
            c = 0
        cur_get = f"{cur_get} + {size_get}" if size_get != "0" else cur_get
    scan += [f"    p += {c}" if c else ""]
    body = [x for x in scan[2:] if x]
    inner = ["        o = p", *("    " + x.replace("return -1", "return o") for x in body)]
    loop = [f"def _scan_all_{cls}(mv: Any, p: int, end: int, params: dict[str, Any], count: int, "
            "items: list[int]) -> int:",
            "    append = items.append", "    if count < 0:", "        while p < end:", *("    " + x for x in inner),
            "            if p > end or p == o:", "                return o", "            append(o)", "        return p",
            "    for _ in range(count - len(items)):", *inner, "        if p > end:", "            return o",
            "        append(o)", "    return p"]
    scan += ["    return p if p <= end else -1"]
    fill, eager = _fill(specs, cls, structs, params)
    return Linear("\n".join(x for x in scan if x) + "\n\n\n" + "\n".join(loop) + "\n", getters, structs, fill,
                  eager)


def _fill(specs: tuple[FieldSpec, ...], cls: str, structs: dict[str, str], params: set[str]
          ) -> tuple[str, dict[str, int]]:
    """`_fill_<Class>(self, mv, o)`: the plain numbers of a record known to fit, set as its slots;
    neighbours of one byte order are read by one `struct` call."""
    from .pytypes import pyname
    lines = [f"def _fill_{cls}(self: Any, mv: Any, o: int) -> None:"]
    make = [f"def _make_{cls}(owner: Any, o: int, path: str, k: int, mv: Any, u8: Any) -> Any:",
            f"    self = _new({cls})", "    self._off = o", "    self._parent = owner",
            "    self._pbase = path", "    self._index = k", "    self._ok = True", "    self._u8 = u8"]
    eager: dict[str, int] = {}
    local: dict[str, str] = {}  # field name -> the local holding its value
    pos, c = "o", 0
    group: list[tuple[int, FieldSpec]] = []
    group_at = 0

    def flush() -> None:
        if not group:
            return
        fmt = group[0][1].fmt[0] + "".join((f.fmt or "")[1:] for _, f in group)  # type: ignore[index]
        names = [f"v{i}" for i, _ in group]
        at = f"{pos} + {group_at}" if group_at else pos
        lines.append(f"    {', '.join(names)}{',' if len(names) == 1 else ''} = {_unpacker(structs, fmt)}(mv, {at})")
        for i, f in group:
            lines.append(f"    self.{pyname(f.name)} = v{i}")
        group.clear()

    def name(n: str) -> str:
        return local[n] if n in local else f"self._params[{n!r}]"

    for i, f in enumerate(specs):
        eager_one = f.kind == "prim" and f.count is None and f.cond is None and f.valid is None and \
            not f.calc_endian and f.enum is None
        if eager_one:
            if group and (group[-1][1].fmt or "<")[0] != (f.fmt or "<")[0]:
                flush()
            if not group:
                group_at = c
            group.append((i, f))
            eager[pyname(f.name)] = i
            local[f.name] = f"v{i}"
        else:
            flush()
        size: object = f.size if f.kind != "contents" else len(f.contents or b"")
        if f.kind == "user" and f.size is None:
            return "", {}
        if isinstance(size, int) and f.count is None and f.cond is None:
            c += size
            continue
        flush()
        code = str(size) if isinstance(size, int) else ex.to_python(size, name, lambda a, b: "0",  # type: ignore[arg-type]
                                                                   lambda _n: "int")
        if f.count is not None:
            count = str(f.count) if isinstance(f.count, int) else ex.to_python(f.count, name, lambda a, b: "0",
                                                                               lambda _n: "int")
            code = f"({count}) * ({code})"
        if f.cond is not None:
            code = f"(({code}) if ({ex.to_python(f.cond, name, lambda a, b: '0', lambda _n: 'int')}) else 0)"
        pos = f"{pos} + {c} + {code}" if c else f"{pos} + {code}"
        c = 0
    flush()
    if not eager:
        return "", eager
    body = lines[1:]
    walk = [f"def _chunks_{cls}(owner: Any, offsets: Any, path: str, mv: Any, u8: Any) -> Any:",
            f"    new, cls, n = _new, {cls}, len(offsets)",
            "    for first in range(0, n, 512):  # records made 512 at a time, handed out by itertools.chain",
            "        chunk: list[Any] = []", "        append = chunk.append",
            "        for k in range(first, min(first + 512, n)):", "            o = offsets[k]",
            "            self = new(cls)", "            self._off = o", "            self._parent = owner",
            "            self._pbase = path", "            self._index = k", "            self._ok = True",
            "            self._u8 = u8", *("        " + x for x in body), "            append(self)",
            "        yield chunk", "", "",
            f"def _iter_{cls}(owner: Any, offsets: Any, path: str, mv: Any, u8: Any) -> Any:",
            f"    return _chain(_chunks_{cls}(owner, offsets, path, mv, u8))"]
    return ("\n".join(lines) + "\n\n\n" + "\n".join(make + body + ["    return self"]) + "\n\n\n"
            + "\n".join(walk) + "\n"), eager


def _simple(f: FieldSpec) -> bool:
    if f.kind in ("bits",) or f.calc_endian or f.size_eos or f.repeat not in (None, "expr") or f.io is not None:
        return False
    if f.term is not None and f.size is None:
        return False
    if f.kind == "switch" and f.size is None:
        return False
    return not (f.kind == "user" and (f.parent is not None or f.args and f.size is None))


def _elem_size(f: FieldSpec, t: TypeDef) -> int | object | None:
    """One element's size: an int, the size expression, or None (not known without reading)."""
    if f.kind == "prim":
        return f.size
    if f.kind == "contents":
        return len(f.contents or b"")
    if f.size is not None:
        return f.size
    if f.kind == "user":
        roots = [t.schema.root, *(s.root for s in t.schema.all_imports())]
        target = next((x for r in roots for x in r.all_types() if nb.ref_name(x, t.schema) == f.user), None)
        if target is None or target.params:
            return None
        lay = nb.type_layout(target)
        return None if lay is None else lay.size
    return None


__all__ = ["Linear", "plan"]
