"""`--param NAME=VALUE` of `inspect --schema` and `view --schema`: the root type's params, each VALUE
a Kaitai literal checked against the param's declared type (a number in its range, a string, a
boolean, bytes, an array, an enum value), never handed on as something else."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

from ..core.errors import UsageError

_LITERALS = "a number (3, 0x10, 1.5), true or false, a string in quotes, a list [1, 2] or an enum value (animal::cat)"


def root_params(args: argparse.Namespace, reader: Any) -> dict[str, Any]:
    """The root params of `reader` (a `binparse.compile` result) from the `--param` options."""
    texts: dict[str, str] = {}
    for item in getattr(args, "param", None) or []:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise UsageError("--param takes NAME=VALUE", found=item, expected="e.g. --param count=3")
        texts[name] = text
    declared = list(reader.root_class._PARAMS)
    if sorted(texts) != sorted(declared):
        raise UsageError(f"{reader.id}'s root type takes params {declared}: give each as --param NAME=VALUE"
                         if declared else f"{reader.id}'s root type takes no params", found=sorted(texts))
    if not declared:
        return {}
    from ..engine.schema import load_schema
    root = load_schema(args.schema, import_path=args.import_path or []).root
    return {p.id: _value(p, texts[p.id], root, reader) for p in root.params}


def _value(p: Any, text: str, root: Any, reader: Any) -> Any:
    from ..engine.expr import ExprError, evaluate, parse
    from ..engine.schema.types import TypeProblem, builtin_type
    try:
        ktype = builtin_type(p.type, root, p.enum)
    except (KeyError, TypeProblem):
        ktype = None
    if ktype is None or not _givable(ktype):
        raise UsageError(f"--param {p.id}: a param of type {p.type} cannot be given on the command line; "
                         f"pass it in Python: binparse.compile(SCHEMA).parse(FILE, {p.id}=...)")
    try:
        value = evaluate(parse(text), _Literals(root))
    except (ExprError, KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
        raise UsageError(f"--param {p.id}: the value is no Kaitai literal", found=text, expected=_LITERALS) from None
    checked = _check(ktype, p.type, value, root, reader)
    if checked is _BAD:
        raise UsageError(f"--param {p.id}: the value is no {p.type}" + (f" of enum {p.enum}" if p.enum else ""),
                         found=text, expected=_expected(p.type))
    return checked


class _Literals:
    """The scope of a `--param` value: no names, enum literals of the schema (`animal::cat`)."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def lookup(self, name: str) -> Any:
        raise KeyError(name)

    def attr(self, obj: Any, name: str) -> Any:
        raise KeyError(name)

    def enum_value(self, enum: str, member: str) -> int:
        members: dict[str, int] = {v: k for k, v in self.root.resolve_enum(enum).members.items()}
        return members[member]


_BAD = object()


def _givable(k: tuple[Any, ...]) -> bool:
    if k[0] == "array":
        return _givable(k[1])
    return k[0] in ("int", "float", "bool", "str", "bytes", "enum")


def _int_range(type_text: str) -> tuple[int, int]:
    from ..engine.schema.model import bits_type, primitive
    bits = bits_type(type_text)
    if bits is not None:
        return 0, (1 << bits[0]) - 1
    prim = primitive(type_text, "le")
    assert prim is not None  # an int type is bN or a primitive
    width = prim.size * 8
    return (-(1 << (width - 1)), (1 << (width - 1)) - 1) if prim.signed else (0, (1 << width) - 1)


def _check(k: tuple[Any, ...], type_text: str, v: Any, root: Any, reader: Any) -> Any:
    """`v` as a value of Kaitai type `k` (declared as `type_text`), or _BAD."""
    kind = k[0]
    if kind in ("int", "enum"):
        lo, hi = _int_range(type_text)
        if type(v) is not int or not lo <= v <= hi:
            return _BAD
        return _as_member(k[1], v, root, reader) if kind == "enum" else v
    if kind == "float":
        return float(v) if type(v) in (int, float) else _BAD
    if kind == "bool":
        return v if type(v) is bool else _BAD
    if kind == "str":
        return v if type(v) is str else _BAD
    if kind == "bytes":
        return v if type(v) is bytes else b"" if v == [] else _BAD
    if kind == "array":
        if type(v) not in (list, bytes):
            return _BAD
        items = [_check(k[1], type_text[:-2], x, root, reader) for x in v]
        return _BAD if any(x is _BAD for x in items) else v if type(v) is bytes else items
    return _BAD


def _as_member(enum: Any, v: int, root: Any, reader: Any) -> Any:
    """The generated IntEnum's member of value `v` (a number no member has stays the number)."""
    from ..engine.backends.numpy_backend import class_name, enum_class_name
    owner = root.enum_owner(enum)
    package = reader.module.__name__.rpartition(".")[0]
    from ..engine.expr.idents import module_name_of
    module = importlib.import_module(f"{package}.{module_name_of(owner.schema.id)}")
    cls = getattr(getattr(module, class_name(owner)), enum_class_name(owner, enum))
    try:
        return cls(v)
    except ValueError:
        return v


def _expected(type_text: str) -> str:
    from ..engine.schema.model import bits_type, primitive
    base = type_text[:-2] if type_text.endswith("[]") else type_text
    if bits_type(base) is not None or base[:1] in ("u", "s") and base[1:].isdigit():
        lo, hi = _int_range(base)
        what = f"an integer {lo}..{hi}"
    else:
        prim = primitive(base, "le")
        what = "a number" if prim is not None else {
            "str": "a string in quotes", "strz": "a string in quotes", "bool": "true or false",
            "bytes": "a list of bytes [1, 2]"}.get(base, base)
    return f"a list [...], each {what}" if type_text.endswith("[]") else what


__all__ = ["root_params"]
