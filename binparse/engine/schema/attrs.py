"""One `seq` item or instance of a .ksy, read into an `Attr` (the keys Kaitai Struct 0.11 defines).

Descriptive keys (`doc`, `doc-ref`, and every key starting with `-`, such as `-orig-id` or
`-webide-representation`) are accepted; a key Kaitai does not define is a `SchemaError` naming
the file, the line and the key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core.errors import SchemaError
from ..expr import Expr, ExprError, parse_type
from .model import Attr, Process, Switch, TypeDef, TypeRef, Valid, bits_type, primitive
from .yamlnodes import Node, Seq

COMMON_KEYS = {"id", "doc", "doc-ref", "type", "if", "terminator", "consume", "include", "eos-error", "valid",
               "repeat", "repeat-expr", "repeat-until", "contents", "size", "size-eos", "pad-right", "parent",
               "process", "encoding", "enum"}
INSTANCE_KEYS = (COMMON_KEYS - {"id"}) | {"pos", "io", "value"}
VALUE_KEYS = {"value", "doc", "doc-ref", "enum", "if"}
VALID_KEYS = {"eq", "min", "max", "any-of", "in-enum", "expr"}
PROCESSES = {"xor": 1, "rol": 1, "ror": 1, "zlib": 0}

Err = Callable[..., SchemaError]


def descriptive(key: Any) -> bool:
    """A key Kaitai's compiler ignores: documentation and every `-`-prefixed extension key."""
    return isinstance(key, str) and key.startswith("-")


def doc_text(value: Any) -> str | None:
    """`doc`/`doc-ref` as text (a `doc-ref` list joined one per line)."""
    if value is None:
        return None
    if isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return str(value)


def enum_text(value: Any) -> str:
    return str(value)


class AttrReader:
    """Reads attributes of one type (`t`), reporting errors through `err(msg, node, key)`."""

    def __init__(self, t: TypeDef, err: Err, expr: Callable[[Any, Node, str], Expr]) -> None:
        self.t, self.err, self.expr = t, err, expr

    def check_keys(self, node: Node, allowed: set[str], what: str) -> None:
        for k in node:
            if k not in allowed and not descriptive(k):
                from .excerpt import did_you_mean
                raise self.err(f"'{k}' is not a key of {what} in Kaitai Struct 0.11{did_you_mean(str(k), allowed)} "
                               f"(allowed: {', '.join(sorted(allowed))}, and keys starting with '-')", node, k)

    def attr(self, aid: str, a: Node, instance: bool = False) -> Attr:
        line = a.lines.get("id", a.line)
        at = Attr(id=aid, kind="bytes", line=line, doc=doc_text(a.get("doc")), doc_ref=doc_text(a.get("doc-ref")),
                  key_lines={str(k): v for k, v in a.lines.items()}, display=a.get("-display"))
        if instance and "value" in a:
            self.check_keys(a, VALUE_KEYS, f"value instance '{aid}'")
            at.kind, at.value = "value", self.expr(a["value"], a, "value")
            at.enum = enum_text(a["enum"]) if "enum" in a else None
            at.cond = self.expr(a["if"], a, "if") if "if" in a else None
            return at
        self.check_keys(a, INSTANCE_KEYS if instance else COMMON_KEYS, f"instance '{aid}'" if instance else "a seq item")
        if instance:
            at.pos = self.expr(a["pos"], a, "pos") if "pos" in a else None
            at.io = self.expr(a["io"], a, "io") if "io" in a else None
        if "if" in a:
            at.cond = self.expr(a["if"], a, "if")
        self.byte_array_keys(at, a)
        typ = a.get("type")
        if "contents" in a:
            if typ is not None or "size-eos" in a or "terminator" in a:
                raise self.err("contents takes no type, size-eos or terminator", a, "contents")
            if "valid" in a:
                raise self.err("contents and valid cannot be used together", a, "valid")
            at.kind, at.contents = "contents", self.contents(a["contents"], a)
            if at.size is not None and at.size != ("num", len(at.contents)):
                raise self.err(f"size must be the contents' length ({len(at.contents)})", a, "size")
            at.size = None
        elif isinstance(typ, Node):
            at.kind, at.switch = "switch", self.switch(typ, a)
        elif typ in ("str", "strz"):
            self.string(at, a, typ)
        elif typ is not None:
            self.typed(at, a, str(typ))
        elif at.size is None and not at.size_eos and at.terminator is None:
            raise self.err("a field without a type needs size, size-eos or terminator (raw bytes), or contents", a)
        if "encoding" in a and at.kind != "str" and not (at.kind == "switch"):
            raise self.err("encoding applies to str and strz only", a, "encoding")
        if at.process is not None and at.kind not in ("bytes", "user", "switch"):
            raise self.err("process applies to byte arrays and user types read from them", a, "process")
        if at.kind == "user" and at.process is not None and at.size is None and not at.size_eos \
                and at.terminator is None:
            raise self.err("a user type with process needs size, size-eos or terminator", a, "process")
        self.repeat(at, a)
        if "enum" in a:
            if at.kind not in ("prim", "bits") or (at.prim is not None and at.prim.kind != "int"):
                raise self.err("enum applies to integer fields only", a, "enum")
            at.enum = enum_text(a["enum"])
        if "valid" in a:
            at.valid = self.valid(a["valid"], a)
        if "parent" in a:
            p = a["parent"]
            at.parent = ("num", False) if p is False else self.expr(p, a, "parent")
        return at

    def byte_array_keys(self, at: Attr, a: Node) -> None:
        if "size" in a:
            at.size = self.expr(a["size"], a, "size")
        at.size_eos = self.flag(a, "size-eos", False)
        if at.size is not None and at.size_eos:
            raise self.err("size and size-eos cannot be used together", a, "size-eos")
        if "terminator" in a:
            at.terminator = bytes([self.byte(a, "terminator")])
        at.consume = self.flag(a, "consume", True)
        at.include = self.flag(a, "include", False)
        at.eos_error = self.flag(a, "eos-error", True)
        if "pad-right" in a:
            at.pad_right = self.byte(a, "pad-right")
        if "process" in a:
            at.process = self.process(a["process"], a)

    def flag(self, a: Node, key: str, default: bool) -> bool:
        v = a.get(key, default)
        if not isinstance(v, bool):
            raise self.err(f"{key} must be true or false", a, key, found=v)
        return v

    def byte(self, a: Node, key: str) -> int:
        v = a[key]
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 255:
            raise self.err(f"{key} must be a byte value 0..255", a, key, found=v)
        return v

    def contents(self, c: Any, a: Node) -> bytes:
        if isinstance(c, str):
            return c.encode("utf-8")
        if isinstance(c, Seq):
            out = b""
            for x in c:
                if isinstance(x, str):
                    out += x.encode("utf-8")
                elif isinstance(x, int) and not isinstance(x, bool) and 0 <= x < 256:
                    out += bytes([x])
                else:
                    raise self.err("contents items are byte values 0..255 or strings", a, "contents", found=x)
            return out
        raise self.err("contents must be a string or a list of byte values and strings", a, "contents")

    def process(self, text: Any, a: Node) -> Process:
        try:
            name, args = parse_type(str(text))
        except ExprError as exc:
            raise self.err(f"process {text!r}: {exc}", a, "process") from exc
        if name not in PROCESSES:
            raise self.err(f"process '{name}' is a custom routine binparse cannot run (it runs xor, rol, ror "
                           f"and zlib)", a, "process")
        if len(args) != PROCESSES[name]:
            raise self.err(f"process {name} takes {PROCESSES[name]} argument(s)", a, "process")
        return Process(name, args)

    def encoding(self, a: Node) -> str:
        enc = a.get("encoding") or self.t.inherited("encoding")
        if enc is None:
            raise self.err("a str or strz needs an encoding (this key, or meta/encoding)", a, "type")
        return str(enc)  # one Kaitai does not know fails when text is decoded, as in Kaitai's own code

    def string(self, at: Attr, a: Node, typ: str) -> None:
        at.kind, at.encoding = "str", self.encoding(a)
        if typ == "strz":
            at.zero_terminated = True
            if at.terminator is None:
                from ..expr.encodings import python_codec
                codec = python_codec(at.encoding) or ""
                width = 4 if "32" in codec else 2 if "16" in codec else 1
                at.terminator = bytes(width)
        if at.size is None and not at.size_eos and at.terminator is None:
            raise self.err("a str needs size, size-eos or terminator (or use strz)", a, "type")

    def typed(self, at: Attr, a: Node, typ: str) -> None:
        try:
            prim = primitive(typ, self.endian())
        except ValueError as exc:
            raise self.err(str(exc), a, "type") from exc
        bits = bits_type(typ)
        if prim is not None or bits is not None:
            if at.size is not None or at.size_eos or at.terminator is not None:
                raise self.err("a number type takes no size, size-eos or terminator", a, "size")
        if prim is not None:
            at.kind, at.prim = "prim", prim
        elif bits is not None:
            at.kind, at.bits = "bits", bits[0]
            at.bit_endian = bits[1] or self.bit_endian()
        elif typ == "bytes":
            raise self.err("'bytes' is not a type of a field: leave type out and give a size", a, "type")
        else:
            at.kind, at.user = "user", self.typeref(typ, a, "type")

    def endian(self) -> str | None:
        return self.t.inherited("endian")  # type: ignore[no-any-return]

    def bit_endian(self) -> str:
        return self.t.inherited("bit_endian") or "be"

    def typeref(self, text: Any, node: Node, key: Any) -> TypeRef:
        try:
            name, args = parse_type(str(text))
        except ExprError as exc:
            raise self.err(f"type {text!r}: {exc}", node, key) from exc
        return TypeRef(name, args)

    def switch(self, typ: Node, a: Node) -> Switch:
        self.check_keys(typ, {"switch-on", "cases"}, "a switch type")
        cases = typ.get("cases", Node())
        if "switch-on" not in typ or not isinstance(cases, Node):
            raise self.err("a switch needs switch-on and cases", a, "type")
        parsed = []
        for k, v in cases.items():
            kexpr = None if k == "_" else self.expr(k, cases, k)
            ref = self.typeref(v, cases, k)
            if ref.name in ("str", "strz"):
                self.encoding(a)
            parsed.append((kexpr, ref))
        return Switch(self.expr(typ["switch-on"], typ, "switch-on"), tuple(parsed))

    def repeat(self, at: Attr, a: Node) -> None:
        rep = a.get("repeat")
        if rep is None:
            for key in ("repeat-expr", "repeat-until"):
                if key in a:
                    raise self.err(f"{key} needs 'repeat'", a, key)
            return
        if rep not in ("expr", "eos", "until"):
            raise self.err("repeat is expr, eos or until", a, "repeat", found=rep)
        at.repeat = rep
        need = {"expr": "repeat-expr", "until": "repeat-until"}.get(rep)
        for key in ("repeat-expr", "repeat-until"):
            if key in a and key != need:
                raise self.err(f"{key} does not go with repeat: {rep}", a, key)
        if need is not None and need not in a:
            raise self.err(f"repeat: {rep} needs {need}", a, "repeat")
        if rep == "expr":
            at.count = self.expr(a["repeat-expr"], a, "repeat-expr")
        elif rep == "until":
            at.until = self.expr(a["repeat-until"], a, "repeat-until")

    def valid(self, v: Any, a: Node) -> Valid:
        if not isinstance(v, Node):
            return Valid(eq=self.expr(v, a, "valid"))
        self.check_keys(v, VALID_KEYS, "valid")
        any_of = v.get("any-of")
        if any_of is not None and not isinstance(any_of, Seq):
            raise self.err("any-of must be a list", v, "any-of")
        in_enum = v.get("in-enum", False)
        if in_enum is not False and in_enum is not True:
            raise self.err("in-enum must be true", v, "in-enum")
        if in_enum and "enum" not in a:
            raise self.err("valid/in-enum needs an enum on the field", v, "in-enum")
        return Valid(
            eq=self.expr(v["eq"], v, "eq") if "eq" in v else None,
            min=self.expr(v["min"], v, "min") if "min" in v else None,
            max=self.expr(v["max"], v, "max") if "max" in v else None,
            any_of=tuple(self.expr(x, v, "any-of") for x in any_of) if any_of is not None else None,
            in_enum=bool(in_enum),
            expr=self.expr(v["expr"], v, "expr") if "expr" in v else None)

