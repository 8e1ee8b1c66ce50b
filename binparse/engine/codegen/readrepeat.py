"""The code a compiled reader (`codegen.reader`) runs for a repeat: elements of one size as numpy views
(numbers, byte arrays) or as records made when first asked for (`_rt.Records`), records of a type read
one after another by that type's loop (`_MANY`), anything else element by element into a list; and
the lines of code themselves (`Code`). `Fields` (`codegen.readfield`) reads the elements."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .. import expr as ex
from ..backends import numpy_backend as nb
from ..runtime import FieldSpec
from ..schema import TypeDef
from ..schema.types import KType
from ..expr.idents import literal
from .bounds import bounded
from .readexpr import Site


def exprs_of(f: FieldSpec) -> list[Any]:
    """Every expression of field `f` (its cases' too)."""
    out = [f.cond, f.size, f.count, f.until, f.switch_on, *f.args,
           *(k[1] for k, _ in f.cases if type(k) is tuple), *(f.process[1] if f.process else ())]
    for case in [*(c for _, c in f.cases), *([f.default] if f.default is not None else [])]:
        out += exprs_of(case)
    if f.valid is not None:
        v = f.valid
        out += [v.eq, v.min, v.max, v.expr, *(v.any_of or ())]
    return [e for e in out if e is not None and not isinstance(e, int)]


class NotCompiled(Exception):
    """A field the compiled reader does not read (its type is then read by the interpreter)."""


class Code:
    """Lines of Python at an indentation."""

    def __init__(self, indent: int = 1) -> None:
        self.lines: list[str] = []
        self.ind = indent
        self.n = 0

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.ind + line)

    @contextmanager
    def block(self, head: str) -> Iterator[None]:
        self(head)
        self.ind += 1
        try:
            yield
        finally:
            self.ind -= 1

    def nonnegative(self, local: str, source: str) -> str:
        """`local = source`, the reader stopping when it is negative (a size or a count); returns `local`."""
        self(f"{local} = {source}")
        self(f"if {local} < 0:")
        self("    raise _Stop")
        return local

    def tmp(self, stem: str) -> str:
        """A fresh local name."""
        self.n += 1
        return f"_{stem}{self.n}"


class Repeats:
    """Repeats of `Fields` (a mixin: see the module doc)."""

    if TYPE_CHECKING:
        gen: Any
        t: TypeDef
        site: Site

        def one(self, c: Code, f: FieldSpec, out: str, k: str, ref: str) -> None: ...
        def valid(self, c: Code, f: FieldSpec, v: str, elem: bool = False) -> None: ...
        def enumed(self, f: FieldSpec, v: str) -> str: ...

    def repeat(self, c: Code, f: FieldSpec, rep: str, target: str, ref: str) -> None:
        size = self.uniform(f)
        if size is not None and rep != "until":
            self.views(c, f, rep, size, target)
            return
        if f.kind == "user" and rep != "until" and self.whole_records(f):
            self.records(c, f, rep, target)
            return
        c("_l = []")
        c("_append = _l.append")
        if rep == "expr":
            c(f"_k = {self.site.code(f.count)}")
            head = "for k in range(_k):"
        else:
            c("k = 0")
            head = "while p < e:" if rep == "eos" else "while True:"
        if target.startswith("self.") and any(f.name in ex.names(x) for x in exprs_of(f)):
            # its elements read the elements before them (`groups[_index - 1]`): the list is the field's
            # while it grows, as in Kaitai, and is taken back when the reader stops
            c(f"{target} = _l")
            with c.block("try:"):
                saved, self.site.growing = self.site.growing, (f.name, "_l")
                try:
                    self.loop(c, f, rep, head, ref)
                finally:
                    self.site.growing = saved
            with c.block("except BaseException:"):
                c(f"del {target}")
                c("raise")
        elif f.kind == "prim" and size is not None:  # numbers until a condition: a view of those read, as
            c("_s0 = p")  # any other repeat of numbers is (the loop reads them to test the condition)
            self.loop(c, f, rep, head, ref)
            dt = self.gen.dtype(f.np or "")
            if f.calc_endian:
                dt = f"({dt} if le else {self.gen.dtype((f.np or '').translate(str.maketrans('<>', '><')))})"
            c(f"{target} = np.ndarray((len(_l),), {dt}, buffer=mv, offset=_s0)")
        else:
            self.loop(c, f, rep, head, ref)
            c(f"{target} = _l")

    def loop(self, c: Code, f: FieldSpec, rep: str, head: str, ref: str) -> None:
        with c.block(head):
            c("_p0 = p")
            self.one(c, f, "_x", "k", ref)
            self.valid(c, f, "_x", elem=True)
            c(f"_append({self.enumed(f, '_x')})")
            c("if k & 4095 == 4095:")
            c(f"    _rt.ask(4096, {literal(f.name)})")
            if rep == "until":
                c(f"if {self.site.code(f.until, elem=True, elem_type=self.elem_type(f))}:")
                c("    break")
            if rep != "expr":
                c("if p == _p0:")
                c("    raise _Stop")
                c("k += 1")

    def views(self, c: Code, f: FieldSpec, rep: str, size: int | str, target: str) -> None:
        """Elements of one size: numbers and byte arrays as numpy views of the buffer, records made
        when first asked for (`_rt.Records`)."""
        if isinstance(size, str):  # records of a `size` worked out once: each read from a substream
            size = c.nonnegative("_z", size)
        if rep == "expr":
            c(f"_k = {self.site.code(f.count)}")
            c(f"if _k < 0 or p + _k * {size} > e:")
            c("    raise _Stop")
        else:
            c(f"_k, _r = divmod(e - p, {size})" if size != "_z" else "_k, _r = divmod(e - p, _z) if _z else (0, 0)")
            c("if _r:")
            c("    raise _Stop")
        if f.kind == "prim":
            dt = self.gen.dtype(f.np or "")
            if f.calc_endian:
                dt = f"({dt} if le else {self.gen.dtype((f.np or '').translate(str.maketrans('<>', '><')))})"
            c(f"_v = np.ndarray((_k,), {dt}, buffer=mv, offset=p)")
        elif f.kind in ("bytes", "contents"):
            c(f"_v = np.ndarray((_k, {size}), np.uint8, buffer=mv, offset=p)")
        else:
            cls = self.gen.ref(self.gen.target(self.t, f.user or ""))
            c(f"_v = _rt.Records(self, {cls}, p, _k, {size}, {literal(f.name)}, (mv, s, e, root, le, u8), "
              f"{size == '_z'}, {self.params(f, 'None')})")
        c(f"p += _k * {size}")
        self.valid_array(c, f, "_v")
        c(f"{target} = _v")

    def whole_records(self, f: FieldSpec) -> bool:
        """Records of a user type read one after another by their type's loop (`_MANY`): nothing of
        them depends on their index or on where the stream stands."""
        if f.parent is not None or f.process is not None or f.term is not None or f.size_eos or f.valid is not None:
            return False
        return not any(self.site.uses(x, "_index", "_io") for x in (*f.args, f.size))

    def records(self, c: Code, f: FieldSpec, rep: str, target: str) -> None:
        target_type = self.gen.target(self.t, f.user or "")
        n = c.nonnegative("_k", self.site.code(f.count)) if rep == "expr" else "-1"
        size = c.nonnegative("_z", self.site.code(f.size)) if f.size is not None else "-1"
        owner, root = owner_and_root(self.t, target_type)
        c(f"{target}, p = {self.gen.maker(target_type, many=True)}({owner}, mv, p, s, e, {root}, le, u8, "
          f"{literal(f.name)}, {n}, {size}, {self.params(f, 'None')})")

    def params(self, f: FieldSpec, k: str) -> str:
        target = self.gen.target(self.t, f.user or "")
        if not target.params:
            return "None"
        return "{" + ", ".join(f"{literal(p.id)}: {self.arg(a, k)}" for p, a in zip(target.params, f.args)) + "}"

    def arg(self, a: ex.Expr, k: str) -> str:
        """A param's argument: checked like a value instance when it may grow (params handed from record
        to record, each times 128, would make an integer of millions of bits: the interpreter's too)."""
        return bounded(self.site, a, self.site.code(a, elem=k != 'None'))

    def elem_type(self, f: FieldSpec) -> KType | None:
        a = self.t.attr(f.name)
        if a is None:
            return None
        return self.site.types.attr_type(self.t, a, element=True)

    def uniform(self, f: FieldSpec) -> int | str | None:
        """The size of every element, known before reading (elements are then views, no list)."""
        if f.kind == "prim" and (f.valid is None or f.valid.expr is None):
            return int(f.size)  # type: ignore[arg-type]
        if f.kind == "bytes" and isinstance(f.size, int) and f.pad is None and f.term is None \
                and f.process is None and f.valid is None:
            return f.size
        if f.kind == "user" and not f.size_eos and f.term is None and f.parent is None and f.process is None \
                and f.pad is None and not any(self.site.uses(x, "_index", "_io") for x in f.args):
            if f.size is not None:  # each in a substream of `size` bytes
                return None if self.site.uses(f.size, "_index", "_io") else self.site.code(f.size)
            target = self.gen.target(self.t, f.user or "")
            lay = nb.type_layout(target) if not target.params and target.schema is self.t.schema else None
            return None if lay is None else lay.size
        return None

    def valid_array(self, c: Code, f: FieldSpec, v: str) -> None:
        rule = f.valid
        if rule is None:
            return
        if f.kind != "prim":
            raise NotCompiled("valid on an array of records")
        site = self.site
        if rule.eq is not None:
            c(f"if _k and not ({v} == {site.code(rule.eq, own=f.name)}).all():")
            c("    raise _Stop")
        if rule.min is not None:
            c(f"if _k and {v}.min() < {site.code(rule.min, own=f.name)}:")
            c("    raise _Stop")
        if rule.max is not None:
            c(f"if _k and {v}.max() > {site.code(rule.max, own=f.name)}:")
            c("    raise _Stop")
        if rule.any_of is not None or rule.in_enum is not None:
            allowed = ", ".join(site.code(x, own=f.name) for x in rule.any_of) if rule.any_of is not None \
                else ", ".join(str(x) for x in rule.in_enum or ())
            c(f"if _k and not np.isin({v}, [{allowed}]).all():")
            c("    raise _Stop")





def owner_and_root(t: TypeDef, target: TypeDef) -> tuple[str, str]:
    """What a reader of `t` passes as the parent and the root of a record of `target` it makes: none
    for a type of another schema (its own root when it is that schema's root type), as in Kaitai."""
    if target.schema is not t.schema:
        return "None", ("None" if target.parent is None else "_NO_ROOT")
    return "self", "root"

__all__ = ["Code", "NotCompiled", "Repeats", "exprs_of", "owner_and_root"]
