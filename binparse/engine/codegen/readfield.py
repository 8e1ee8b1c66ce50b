"""The code a compiled reader (`codegen.reader`) runs for one field: one element of any kind, a
switch through its table, a repeat, the field's `if` and `valid`.

The code stands in a reader whose locals are `mv` (the bytes), `s`..`e` (the stream), `p` (where
it stands), `root`, `le` (the byte order of a record whose `meta/endian` is a switch) and `u8` (the
bytes as a uint8 array: byte arrays are its slices, numpy views of the caller's buffer). Anything
the data does not allow (past the end, a check that fails, no terminator) raises `_Stop`: the
interpreter then reads the record and names what is wrong.
"""

from __future__ import annotations

from typing import Any

from ..expr.encodings import python_codec
from ..runtime import FieldSpec
from ..schema import TypeDef
from ..expr.idents import literal
from .readexpr import Site
from .readrepeat import Code, NotCompiled, Repeats, owner_and_root


class Fields(Repeats):
    """Code for the fields of type `t` (see the module doc). `gen` is the module being written: it
    names classes, unpackers, dtypes and constants, and says which types have compiled readers."""

    def __init__(self, gen: Any, t: TypeDef, site: Site) -> None:
        self.gen, self.t, self.site = gen, t, site

    # -- the field -----------------------------------------------------------------------------------
    def field(self, c: Code, f: FieldSpec, target: str, ref: str) -> None:
        """Read field `f` at `p` into `target` (`ref`: the source of its FieldSpec, for the interpreter).
        A field whose expressions read an instance reads it with its position known to the interpreter
        (`_io` of an instance is its record's stream where the reading stands, as in Kaitai)."""
        if self.gen.reads_instances(f):
            c("_AT.append((mv, s, e, p))")
            with c.block("try:"):
                self.plain_field(c, f, target, ref)
            with c.block("finally:"):
                c("_AT.pop()")
        else:
            self.plain_field(c, f, target, ref)

    def plain_field(self, c: Code, f: FieldSpec, target: str, ref: str) -> None:
        if f.cond is not None:
            with c.block(f"if {self.site.code(f.cond)}:"):
                self.unconditional(c, f, target, ref)
            with c.block("else:"):
                c(f"{target} = None")
        else:
            self.unconditional(c, f, target, ref)

    def unconditional(self, c: Code, f: FieldSpec, target: str, ref: str) -> None:
        rep = f.repeat or ("expr" if f.count is not None else None)
        if rep is None:
            self.one(c, f, "_x", "None", ref)
            self.valid(c, f, "_x")
            c(f"{target} = {self.enumed(f, '_x')}")
        else:
            self.repeat(c, f, rep, target, ref)

    def enumed(self, f: FieldSpec, v: str) -> str:
        if f.enum is None or f.kind not in ("prim", "bits"):
            return v
        return f"{self.gen.enum_map(self.t, f.enum)}.get({v}, {v})"

    # -- one element -----------------------------------------------------------------------------------
    def one(self, c: Code, f: FieldSpec, out: str, k: str, ref: str) -> None:
        """One element of `f` at `p` into `out` (numbers before their enum: `valid` checks the number)."""
        kind = f.kind
        if kind == "prim":
            c(f"if p + {f.size} > e:")
            c("    raise _Stop")
            c(f"{out} = {self.unpacker(f)}(mv, p)[0]")
            c(f"p += {f.size}")
        elif kind == "contents":
            n = len(f.contents or b"")
            c(f"if p + {n} > e or mv[p:p + {n}] != {literal(f.contents or b'')}:")
            c("    raise _Stop")
            c(f"{out} = u8[p:p + {n}]")
            c(f"p += {n}")
        elif kind == "str" and f.size is not None and f.pad is None and f.term is not None and len(f.term) == 1 \
                and f.process is None and python_codec(f.encoding or "") is not None:
            # a sized, terminated string (`size: n, type: strz`): its bytes copied once, cut, decoded
            c(f"_n = {self.site.code(f.size, elem=k != 'None')}")
            c("if p + _n > e or _n < 0:")
            c("    raise _Stop")
            c("_raw = mv[p:p + _n].tobytes()")
            c("p += _n")
            c(f"_i = _raw.find({literal(f.term)})")
            c("if _i >= 0:")
            c(f"    _raw = _raw[:_i + {len(f.term)}]" if f.include else "    _raw = _raw[:_i]")
            c(f"{out} = _raw.decode({literal(python_codec(f.encoding or ''))})")
        elif kind in ("bytes", "str"):
            self.span(c, f, k)
            if f.process is not None:
                c(f"_d = _rt.processed({literal(f.process[0])}, [{self.args(f.process[1], k)}], mv, _a, _b)")
                c(f"{out} = " + (f"np.frombuffer(_d, np.uint8)" if kind == "bytes" else
                                 self.decode(f, "memoryview(_d)", "0", "len(_d)")))
            else:
                c(f"{out} = " + ("u8[_a:_b]" if kind == "bytes" else self.decode(f, "mv", "_a", "_b")))
        elif kind == "user":
            self.record(c, f, out, k, ref)
        elif kind == "switch":
            self.switch(c, f, out, k, ref)
        else:
            raise NotCompiled(kind)

    def span(self, c: Code, f: FieldSpec, k: str) -> None:
        """`_a`.. `_b` the bytes of a byte array or string at `p` (pad and terminator taken off), and
        `p` after it."""
        if f.size is not None:
            c(f"_n = {self.site.code(f.size, elem=k != 'None')}")
            c("if p + _n > e or _n < 0:")
            c("    raise _Stop")
            c("_a = p")
            c("p = _b = p + _n")
        elif f.size_eos:
            c("_a = p")
            c("p = _b = e")
        else:
            term = f.term or b"\0"
            inc, con = (len(term) if f.include else 0), (len(term) if f.consume else 0)
            c("_a = p")
            c(f"_t = _rt.term_at(mv, p, e, {literal(term)}, {literal(f.eos_error)})")
            with c.block("if _t < e:"):
                c(f"_b = _t + {inc}" if inc else "_b = _t")
                c(f"p = _t + {con}" if con else "p = _t")
            with c.block("else:"):
                c("p = _b = e")
            return
        if f.pad is not None or f.term is not None:
            c(f"_b = _rt.stripped(mv, _a, _b, {literal(f.pad)}, {literal(f.term)}, {literal(f.include)})")

    def decode(self, f: FieldSpec, mv: str, a: str, b: str) -> str:
        codec = python_codec(f.encoding or "")
        if codec is None:
            return f"_rt.text({mv}, {a}, {b}, {literal(f.encoding or '')})"  # raises: the interpreter names it
        return f"str({mv}[{a}:{b}], {literal(codec)})"

    def args(self, args: tuple[Any, ...], k: str) -> str:
        return ", ".join(self.site.code(x, elem=k != "None") for x in args)

    def unpacker(self, f: FieldSpec) -> str:
        if f.calc_endian:
            le = self.gen.unpacker(f.fmt or "")
            be = self.gen.unpacker((f.fmt or "").translate(str.maketrans("<>", "><")))
            return f"({le} if le else {be})"
        return str(self.gen.unpacker(f.fmt or ""))

    # -- records -------------------------------------------------------------------------------------
    def record(self, c: Code, f: FieldSpec, out: str, k: str, ref: str) -> None:
        target = self.gen.target(self.t, f.user or "")
        sub = f.size is not None or f.size_eos or f.term is not None or f.process is not None
        if sub:
            self.span(c, f, k)
            if f.process is not None:
                c(f"_d = _rt.processed({literal(f.process[0])}, [{self.args(f.process[1], k)}], mv, _a, _b)")
                where = "memoryview(_d), 0, 0, len(_d)"
                u8 = "np.frombuffer(_d, np.uint8)"
            else:
                where, u8 = "mv, _a, _a, _b", "u8"
        else:
            where, u8 = "mv, p, s, e", "u8"
        if f.parent is not None:
            if f.process is not None:
                raise NotCompiled("process into a record the interpreter reads")
            at = "mv, _a, _a, _b" if sub else "mv, p, s, e"
            c(f"{out}, _end = _rt.child(self, {ref}, {at}, {k})")
            if not sub:
                c("p = _end")
            return
        params = self.params(f, k)
        owner, root = owner_and_root(self.t, target)
        c(f"{out} = {self.gen.maker(target)}({owner}, {where}, {root}, le, {u8}, {literal(f.name)}, {k}, "
          f"{literal(sub)}, {params})")
        if not sub:
            c(f"p = {out}._end")

    # -- switches ------------------------------------------------------------------------------------
    def switch(self, c: Code, f: FieldSpec, out: str, k: str, ref: str) -> None:
        on = self.site.code(f.switch_on, elem=k != "None")
        cases = list(f.cases)
        plain = all(type(key) in (int, str, bool) for key, _ in cases)
        keyed = all(type(key) is not tuple for key, _ in cases)  # constants (bytes too): a table
        c(f"_on = {on}" if plain else f"_on = _rt.key({on})" if keyed else f"_on = {on}")
        arms: list[tuple[str, FieldSpec, str]] = []
        for j, (key, case) in enumerate(cases):
            if type(key) is tuple:  # ("expr", AST): compared in order, as the interpreter does
                test = f"_kv.eq(_on, {self.site.code(key[1], elem=k != 'None')})"
            else:
                test = f"_on == {literal(key if type(key) is not bytes else key)}"
            arms.append((test, case, f"{ref}.cases[{j}][1]"))
        if len(arms) > 4 and keyed:
            table = self.gen.constant("{" + ", ".join(f"{literal(key)}: {j}" for j, (key, _) in enumerate(cases))
                                      + "}")
            c(f"_c = {table}.get(_on, -1)")
            arms = [(f"_c == {j}", case, r) for j, (_, case, r) in enumerate(arms)]
        first = True
        for test, case, case_ref in arms:
            with c.block(f"{'if' if first else 'elif'} {test}:"):
                self.one(c, case, out, k, case_ref)
            first = False
        with c.block("else:" if not first else "if True:"):
            if f.default is not None:
                self.one(c, f.default, out, k, f"{ref}.default")
            elif f.size is not None or f.size_eos or f.term is not None:
                raw = FieldSpec(name=f.name, kind="bytes", np="|u1", size=f.size, size_eos=f.size_eos, term=f.term,
                                consume=f.consume, include=f.include, eos_error=f.eos_error, pad=f.pad,
                                process=f.process)
                self.one(c, raw, out, k, ref)
            else:
                c(f"{out} = None")  # no case and no size: Kaitai reads nothing

    # -- checks --------------------------------------------------------------------------------------
    def valid(self, c: Code, f: FieldSpec, v: str, elem: bool = False) -> None:
        rule = f.valid
        if rule is None:
            return
        site, own = self.site, f.name
        elem_type = self.elem_type(f)
        plain = f.kind in ("prim", "bits")
        tests = []
        if rule.eq is not None:
            want = site.code(rule.eq, elem=elem, own=own)
            tests.append(f"{v} != {want}" if plain else f"_kv.ne({v}, {want})")
        if rule.min is not None:
            tests.append(f"{v} < {site.code(rule.min, elem=elem, own=own)}" if plain else
                         f"_kv.lt({v}, {site.code(rule.min, elem=elem, own=own)})")
        if rule.max is not None:
            tests.append(f"{v} > {site.code(rule.max, elem=elem, own=own)}" if plain else
                         f"_kv.gt({v}, {site.code(rule.max, elem=elem, own=own)})")
        if rule.any_of is not None:
            items = ", ".join(site.code(x, elem=elem, own=own) for x in rule.any_of)
            tests.append(f"{v} not in ({items},)" if plain else f"not any(_kv.eq({v}, _w) for _w in ({items},))")
        if rule.in_enum is not None:
            tests.append(f"{v} not in {self.gen.constant(literal(frozenset(rule.in_enum)))}")
        if rule.expr is not None:
            if v != "_x":
                c(f"_x = {v}")
            tests.append(f"not ({site.code(rule.expr, elem=elem, own=own, elem_type=elem_type)})")
        for test in tests:
            c(f"if {test}:")
            c("    raise _Stop")


__all__ = ["Code", "Fields", "NotCompiled"]
