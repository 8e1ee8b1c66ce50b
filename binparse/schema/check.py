"""Cross-reference checks of a loaded schema: every type, enum and name an expression uses exists.

Run by the loader after a file is read; failures are `SchemaError`s naming the file, the line of
the offending key and the field's schema path.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import SchemaError
from . import expr as ex
from .model import Attr, TypeDef, TypeRef

SPECIAL_NAMES = {"_root", "_parent", "_index", "_io"}
Fail = Callable[[str, str], SchemaError]


def check_references(root: TypeDef) -> None:
    """Every type, enum and expression name refers to something that exists (seq fields: earlier ones)."""
    for t in root.all_types():
        known = {p.id for p in t.params} | {i.id for i in t.instances} | SPECIAL_NAMES
        earlier: set[str] = set()
        for a in t.seq + t.instances:
            visible = known | earlier | ({a.id} if a in t.instances else set())
            check_attr(t, a, visible if a in t.seq else known | {s.id for s in t.seq})
            earlier.add(a.id)


def check_attr(t: TypeDef, a: Attr, visible: set[str]) -> None:
    def fail(msg: str, key: str) -> SchemaError:
        line = a.key_lines.get(key, a.line)
        return SchemaError(msg, file=t.schema.file, line=line, key=key, path=f"{t.path}.{a.id}")

    exprs: list[tuple[str, ex.Expr | None]] = [("size", a.size), ("repeat-expr", a.count),
                                               ("value", a.value), ("pos", a.pos), ("if", a.cond)]
    if a.valid is not None:
        v = a.valid
        exprs.extend(("valid", e) for e in (v.eq, v.min, v.max, *(v.any_of or ())))
    refs: list[TypeRef] = []
    if a.user:
        refs.append(a.user)
    if a.switch:
        exprs.append(("switch-on", a.switch.on))
        refs.extend(r for _, r in a.switch.cases)
        exprs.extend(("type", k) for k, _ in a.switch.cases)
    for r in refs:
        exprs.extend(("type", arg) for arg in r.args)
        try:
            target = t.resolve_type(r.name)
        except KeyError:
            raise fail(f"unknown type '{r.name}'", "type") from None
        if len(r.args) != len(target.params):
            raise fail(f"type '{r.name}' takes {len(target.params)} argument(s), got {len(r.args)}", "type")
    for key, e in exprs:
        if e is None:
            continue
        for n in ex.names(e):
            if n not in visible:
                raise fail(f"expression names '{n}', which is not an earlier field, param or "
                           f"instance of '{t.path}'", key)
        check_enum_literals(t, e, fail, key)
    if a.display not in (None, "hex"):  # `-display: hex` (binparse's custom key) prints an integer in hex
        raise fail("-display takes only 'hex' (print the integer in hexadecimal)", "-display")
    if a.enum is not None:
        try:
            t.resolve_enum(a.enum)
        except KeyError:
            raise fail(f"unknown enum '{a.enum}'", "enum") from None


def check_enum_literals(t: TypeDef, e: ex.Expr, fail: Fail, key: str) -> None:
    if e[0] == "enum":
        try:
            members = t.resolve_enum(e[1]).members.values()
        except KeyError:
            raise fail(f"unknown enum '{e[1]}'", key) from None
        if e[2] not in members:
            raise fail(f"enum '{e[1]}' has no member '{e[2]}'", key)
    for part in e[1:]:
        if isinstance(part, tuple):
            check_enum_literals(t, part, fail, key)
