"""Compiled readers of a user's types: each type's seq read by straight-line Python, written once.

For every type of a user's package (`binparse.compile`, `binparse generate S.ksy -o DIR`) whose
fields it can read, the generator writes beside the class:

- `_fill_<Class>(self, mv, p, s, e, root, le, u8)`: reads the seq from `p` in Kaitai's order and
  sets each field as a slot of the record, checks included: runs of numbers by one precompiled
  `struct` call, bit-sized integers of a whole byte run by one integer, switches by a table of
  their cases built when the module is imported, records by the readers of their types, repeats
  of fixed-size numbers, byte arrays or records as views (`np.ndarray` over the caller's buffer,
  records made when indexed), other repeats in one pass;
- `_make_<Class>(owner, mv, p, s, e, root, le, u8, name, k, own, params)`: a record, read whole; and
  `_in_<Class>_<instance>(self)`: a positioned instance, read where it lies when first asked for.

The runtime side (`runtime.compiled`) calls the reader when a field is first asked for, and hands
the record to the interpreter when the reader stops (bad data), so errors stay the interpreter's.
Names come from `pytypes.pyname` (checked ids), constants from `idents.literal`; expressions
are translated by `expr.to_python` (`codegen.readexpr` says what names mean in a reader).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .. import expr as ex
from ..backends import numpy_backend as nb
from ..runtime import FieldSpec
from ..runtime.specs import respec
from ..schema import TypeDef
from ..expr.idents import literal
from .pytypes import pyname
from .readexpr import OBJECT, READER, Site
from .readfield import Fields
from .readrepeat import Code, NotCompiled, exprs_of, owner_and_root


@dataclass
class Compiled:
    """What the generator writes for a compiled type (see the module doc)."""

    functions: str  # module-level source: the fill, the maker, the instances' readers
    slots: list[str] = field(default_factory=list)  # the seq fields, then the instances' caches
    instances: dict[str, str] = field(default_factory=dict)  # instance id -> the function reading it
    tail: str = ""  # the last seq field, when records read as they are asked for (`RecordRun`) may hold it
    safe: bool = True  # the reader reads only what is set by then: its records are made of the class itself


class Reader:
    """The compiled reader of type `t` (class `cls`), written into module `gen` (see generate.py)."""

    def __init__(self, gen: Any, t: TypeDef, cls: str) -> None:
        self.gen, self.t, self.cls = gen, t, cls
        self.site = Site(t, gen.types, READER, gen.enum_ref)
        self.fields = Fields(gen, t, self.site)
        self._tail: FieldSpec | bool = False  # False: not worked out yet, True: none
        self._names: dict[str, frozenset[str]] = {}  # a value instance -> the names it reads
        self._body: list[str] | None = None
        self.site.eager_of = gen.eager_ids

    def build(self) -> Compiled | None:
        try:
            out = Compiled(self.fill() + "\n\n" + self.make() + "\n\n" + self.many(), safe=self.safe)
            tail = self.tail()
            out.tail = pyname(tail.name) if tail is not None else ""
            out.slots = [pyname(f.name) for f in nb.field_specs(self.t)] + [pyname(a.id) for a in self.gen.eager(self.t)]
            for j, spec in enumerate(nb.instance_specs(self.t)):
                body = self.instance(spec, len(nb.field_specs(self.t)) + j)
                if body is not None:
                    name = f"_in_{self.cls}_{spec.name}"
                    out.functions += f"\n\n@no_type_check\ndef {name}(self: Any) -> Any:\n" + "\n".join(body) + "\n"
                    out.instances[spec.name] = name
            return out
        except (NotCompiled, ex.ExprError):
            return None

    # -- the seq ---------------------------------------------------------------------------------------
    def fill(self) -> str:
        c = Code()
        c.lines.append("@no_type_check")
        c.lines.append(f"def _fill_{self.cls}(self: Any, mv: Any, p: int, s: int, e: int, root: Any, le: bool, "
                       f"u8: Any, tail: bool = False) -> None:")
        if self.t.params:
            c("params = self._params")
        c.lines += self.body()
        return "\n".join(c.lines) + "\n"

    @property
    def safe(self) -> bool:
        """Whether the reader asks for nothing of its record that is not set by then (a field further
        on, an instance, `_sizeof`, a member of another record that may ask for it: Site.members_set): its
        records are then made of the generated class itself (`runtime.compiled`: no `__getattr__`, read
        fast), else of its lazy twin, whose `__getattr__` reads what is asked for before it is set."""
        self.body()
        return self.site.safe

    def new(self) -> str:
        """What a maker makes a record with."""
        return f"_new({self.cls})" if self.safe else f"_new(_T_{self.cls})"

    def body(self) -> list[str]:
        """The seq read from `p` into the slots of `self` (the body of the fill and of the maker; the
        fill sets `params` first). Written once."""
        if self._body is None:
            self.site.done = set()
            self._body = self.write_body(self.site.done)
            self.site.done = None
        return self._body

    def write_body(self, done: set[str]) -> list[str]:
        t, c = self.t, Code()
        if t.endian_on is not None:
            self.endian(c)
        specs = nb.field_specs(t)
        pending = list(self.gen.eager(t))  # values of the record's own data: worked out as soon as what they
        # read is read (one that raises: when asked for, through `_LAZY`); `done`: the fields and values set
        self.values(c, pending, done)
        tail = self.tail()
        i = 0
        while i < len(specs):
            f = specs[i]
            if f.kind == "bits":
                j = self.bits(c, specs, i)
            elif tail is not None and f.name == tail.name:
                self.lazy_tail(c, f, i)
                j = i + 1
            else:
                j = self.run_end(specs, i)
                if j > i + 1:
                    self.run(c, specs[i:j])
                else:
                    self.fields.field(c, f, f"self.{pyname(f.name)}", f"{self.cls}._FIELDS[{i}]")
                    j = i + 1
            done |= {x.name for x in specs[i:j]}
            self.values(c, pending, done)
            i = j
        if tail is None:
            c("self._end = p")
        return c.lines

    def tail(self) -> FieldSpec | None:
        """The last seq field when it is a repeat of records nothing after it needs the end of (read as
        they are asked for when the record's own end is not needed: `RecordRun`)."""
        if self._tail is not False:
            return None if self._tail is True else self._tail
        self._tail = True
        specs = nb.field_specs(self.t)
        f = specs[-1] if specs else None
        if f is None or f.kind != "user" or (f.repeat or ("expr" if f.count is not None else None)) not in (
                "expr", "eos") or f.cond is not None or f.valid is not None or f.size is not None \
                or self.fields.uniform(f) is not None or not self.fields.whole_records(f) or any(f.name in ex.names(x) for x in exprs_of(f)):
            return None
        self._tail = f
        return f

    def lazy_tail(self, c: Code, f: FieldSpec, i: int) -> None:
        target = self.gen.target(self.t, f.user or "")
        with c.block("if tail:"):
            n = c.nonnegative("_k", self.site.code(f.count)) if f.count is not None else "-1"
            owner, root = owner_and_root(self.t, target)
            c(f"self.{pyname(f.name)} = _rt.RecordRun(self, {owner}, {self.gen.ref(target)}, mv, p, s, e, {root}, le, u8, "
              f"{literal(f.name)}, {n}, {self.fields.params(f, 'None')}, {literal(pyname(f.name))})")
            c("self._end = None  # read to it when asked for")
        with c.block("else:"):
            self.fields.field(c, f, f"self.{pyname(f.name)}", f"{self.cls}._FIELDS[{i}]")
            c("self._end = p")

    def values(self, c: Code, pending: list[Any], done: set[str]) -> None:
        """The pending values whose names are all read by now (`done`), set."""
        ready = []
        for a in pending:  # in the order `eager` gave: the values each one names come before it
            if a.id not in self._names:
                self._names[a.id] = frozenset(n for e in (a.value, a.cond) if e is not None for n in ex.names(e))
            if self._names[a.id] - self.site.params <= done:
                ready.append(a)
                done.add(a.id)
        if ready:
            with c.block("try:"):
                for a in ready:
                    if a.enum and a.cond is None:
                        c(f"_v = {self.gen.value_code(self.t, a, enum=False, reader=True)}")
                        c(f"self.{pyname(a.id)} = {self.gen.enum_map(self.t, a.enum)}.get(_v, _v)")
                    else:
                        c(f"self.{pyname(a.id)} = {self.gen.value_code(self.t, a, reader=True)}")
            with c.block("except Exception:"):
                c("_rt.keep_lazy(self)  # the value that failed worked out when asked for (its error then)")
            taken = {a.id for a in ready}
            pending[:] = [a for a in pending if a.id not in taken]

    def endian(self, c: Code) -> None:
        """`meta/endian` as a switch: the record's byte order, decided before its first field."""
        t = self.t
        on = self.site.code(nb.resolve_enums(t.endian_on, t))
        c(f"_on = _rt.key({on})")
        first = True
        default = None
        for k, v in t.endian_cases:
            if k is None:
                default = v
                continue
            key = nb._key(k, t)
            test = f"_kv.eq(_on, {self.site.code(key[1])})" if type(key) is tuple else f"_on == {literal(key)}"
            c(f"{'if' if first else 'elif'} {test}:")
            c(f"    le = {v == 'le'}")
            first = False
        c("else:" if not first else "if True:")
        c(f"    le = {default == 'le'}" if default is not None else "    raise _Stop")
        c("self._le = le")

    @staticmethod
    def run_end(specs: tuple[FieldSpec, ...], i: int) -> int:
        """Where the run of plain numbers starting at field i ends (one struct call reads them all)."""
        j = i
        while j < len(specs):
            f = specs[j]
            if f.kind != "prim" or f.cond is not None or f.repeated or (f.valid is not None and f.valid.expr is not None):
                break
            if j > i and (f.calc_endian != specs[i].calc_endian or (f.fmt or "<")[0] != (specs[i].fmt or "<")[0]):
                break
            j += 1
        return j

    def run(self, c: Code, run: tuple[FieldSpec, ...]) -> None:
        size = sum(f.size for f in run if isinstance(f.size, int))
        fmt = (run[0].fmt or "<")[0] + "".join((f.fmt or "")[1:] for f in run)
        one = FieldSpec(name="", kind="prim", fmt=fmt, calc_endian=run[0].calc_endian)
        c(f"if p + {size} > e:")
        c("    raise _Stop")
        names = [f"_x{j}" for j in range(len(run))]
        checked = [f for f in run if f.valid is not None or f.enum is not None]
        if not checked:
            c(", ".join(f"self.{pyname(f.name)}" for f in run) + f" = {self.fields.unpacker(one)}(mv, p)")
        else:
            c(", ".join(names) + f" = {self.fields.unpacker(one)}(mv, p)")
            for f, v in zip(run, names):
                self.fields.valid(c, f, v)
            for f, v in zip(run, names):
                c(f"self.{pyname(f.name)} = {self.fields.enumed(f, v)}")
        c(f"p += {size}")

    def bits(self, c: Code, specs: tuple[FieldSpec, ...], i: int) -> int:
        """A run of bit-sized integers from a whole byte: one integer, each field its bits of it."""
        j = i
        while j < len(specs) and specs[j].kind == "bits":
            j += 1
        run = specs[i:j]
        width = sum(f.bits for f in run)
        nbytes = -(-width // 8)
        le = run[0].bit_le
        c(f"if p + {nbytes} > e:")
        c("    raise _Stop")
        if nbytes == 1:
            c("_r = mv[p]")
        elif nbytes in (2, 4, 8):
            c(f"_r = {self.gen.unpacker(('<' if le else '>') + {2: 'H', 4: 'L', 8: 'Q'}[nbytes])}(mv, p)[0]")
        else:
            c(f"_r = int.from_bytes(mv[p:p + {nbytes}], {literal('little' if le else 'big')})")
        c(f"p += {nbytes}")
        used = 0
        for f in run:
            shift = used if le else nbytes * 8 - used - f.bits
            v = f"(_r >> {shift}) & {(1 << f.bits) - 1}" if shift else f"_r & {(1 << f.bits) - 1}"
            if f.bits == 1 and f.enum is None:
                v = f"(_r & {1 << shift}) != 0"
            else:
                v = f"({v})"
            if f.valid is not None:
                c(f"_x = {v}")
                self.fields.valid(c, f, "_x")
                v = "_x"
            c(f"self.{pyname(f.name)} = {self.fields.enumed(f, v)}")
            used += f.bits
        return j

    def make(self) -> str:
        t = self.t
        c = Code()
        c.lines.append("@no_type_check")
        c.lines.append(f"def _make_{self.cls}(owner: Any, mv: Any, p: int, s: int, e: int, root: Any, le: bool, "
                       f"u8: Any, name: str, k: Any, own: bool, params: Any) -> Any:")
        body = self.body()
        c(f"self = {self.new()}")
        for slot, local in (("_mv", "mv"), ("_off", "p"), ("_io_start", "s"), ("_io_end", "e"), ("_parent", "owner"),
                            ("_root_of", "root"), ("_pbase", "name"), ("_index", "k")):
            c(f"self.{slot} = {local}")
        if t.params:
            c("self._params = params")
        c("self._own_io = own")
        if t.inherited("endian") == "calc" and t.endian_on is None:
            c("self._le = le")
        c("if root is None:")
        c("    root = self")
        if self.tail() is not None:
            c("tail = own and _rt.streaming()  # a dump's walk in a substream: its end is known, its last records "
              "read as they are asked for")
        c.lines += body  # `_ok` is not set (True when asked for): a record read whole
        c("return self")
        return "\n".join(c.lines) + "\n"

    def many(self) -> str:
        """`_many_<Class>(...)`: `n` records of the type one after another (`n` < 0: to the end of the
        stream); (the records, the position after them). One loop, each record read by the type's code
        written into it (no call per record). Records in substreams of `size` bytes (`size` >= 0), of
        another schema's root type, or of no size to the end: a call of `_make_<Class>` each."""
        t, cls = self.t, self.cls
        c = Code()
        c.lines.append("@no_type_check")
        c.lines.append(f"def _many_{cls}(owner: Any, mv: Any, p: int, s: int, e: int, root: Any, le: bool, "
                       f"u8: Any, name: str, n: int, size: int, params: Any) -> tuple[list[Any], int]:")
        c("if root is None or size >= 0:")
        c(f"    return _rt.many_each(_make_{cls}, owner, mv, p, s, e, root, le, u8, name, n, size, params)")
        c("_mk_items = []")
        c("_mk_add = _mk_items.append")
        if self.tail() is not None:
            c("tail = False  # one after another: each record's end is where the next starts")
        stores = [f"self = {self.new()}"] + [f"self.{slot} = {local}" for slot, local in (
            ("_mv", "mv"), ("_off", "p"), ("_io_start", "s"), ("_io_end", "e"), ("_parent", "owner"),
            ("_root_of", "root"), ("_pbase", "name"), ("_index", "_mk_j"), ("_own_io", "False"))]
        if t.params:
            stores.append("self._params = params")
        if t.inherited("endian") == "calc" and t.endian_on is None:
            stores.append("self._le = le")
        body = ["    " + line for line in self.body()]
        with c.block("if n >= 0:"):
            c("if n > 4096:")
            c("    _rt.ask(n, name)")
            with c.block("for _mk_j in range(n):"):
                for line in stores:
                    c(line)
                c.lines += ["    " + line for line in body]
                c("_mk_add(self)")
            c("return _mk_items, p")
        c("_mk_j = 0")
        least = sum(f.size for f in nb.field_specs(t) if isinstance(f.size, int) and f.kind in ("prim", "contents")
                    and f.cond is None and not f.repeated)  # bytes every record takes
        with c.block("while p < e:"):
            for line in stores:
                c(line)
            if not least:
                c("_mk_p0 = p")
            c.lines += body
            c("_mk_add(self)")
            if not least:
                c("if p == _mk_p0:  # records of no size to the end of the stream: never ending")
                c("    raise _Stop")
            c("_mk_j += 1")
            c("if _mk_j & 4095 == 0:")
            c("    _rt.ask(4096, name)")
        c("return _mk_items, p")
        return "\n".join(c.lines) + "\n"

    # -- positioned instances --------------------------------------------------------------------------
    def instance(self, spec: FieldSpec, i: int) -> list[str] | None:
        """The body of `_in_<Class>_<id>(self)`: a positioned instance read where it lies (its getter
        calls it, and asks the interpreter when it raises); None: the interpreter's."""
        if spec.pos is None:
            return None
        obj = Site(self.t, self.gen.types, OBJECT, self.gen.enum_ref)
        c = Code(1)
        fields = Fields(self.gen, self.t, Site(self.t, self.gen.types, READER, self.gen.enum_ref,
                                               own_io=spec.io is not None))
        if spec.cond is not None:
            c(f"if not ({obj.code(spec.cond)}):")
            c("    return None")
        if spec.io is None or spec.io == ("name", "_io"):
            c("_r = self")
        elif spec.io[0] == "attr" and spec.io[2] == "_io":
            c(f"_r = {obj.code(spec.io[1])}")
        else:
            return None
        c("mv, s, e, u8 = _r._mv, _r._io_start, _r._io_end, _r._u8")
        c(f"p = s + {obj.code(spec.pos)}")
        c("if p < s or p > e:")
        c("    raise _Stop")
        body = Code(1)
        fields.field(body, respec(spec, cond=None), "_res",
                     f"{self.cls}._INSTANCES[{i - len(nb.field_specs(self.t))}]")
        text = "\n".join(body.lines)
        if re.search(r"\broot\b", text):
            c("root = self._root_of or self")
        if re.search(r"\bparams\b", text):
            c("params = self._params")
        if re.search(r"\ble\b", text):
            c("le = self._is_le" if self.t.inherited("endian") == "calc" else "le = True")
        c.lines += body.lines
        c("return _rt.deeper(self, _res)" if spec.kind in ("user", "switch") else "return _res")
        return c.lines


__all__ = ["Compiled", "Reader"]
