"""Parse preprocessed C with pycparser and lay structs out with the C rules."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core.errors import FormatError

PRELUDE = """
typedef signed char int8_t; typedef unsigned char uint8_t; typedef short int16_t; typedef unsigned short uint16_t;
typedef int int32_t; typedef unsigned int uint32_t; typedef long long int64_t; typedef unsigned long long uint64_t;
typedef unsigned long uintptr_t; typedef unsigned long size_t;
"""

# C base types: (size, signed, kind); `long` and pointers follow the pointer size.
BASE = {
    "char": (1, True, "int"), "signed char": (1, True, "int"), "unsigned char": (1, False, "int"),
    "short": (2, True, "int"), "short int": (2, True, "int"), "unsigned short": (2, False, "int"),
    "unsigned short int": (2, False, "int"), "int": (4, True, "int"), "signed int": (4, True, "int"),
    "signed": (4, True, "int"), "unsigned": (4, False, "int"), "unsigned int": (4, False, "int"),
    "long long": (8, True, "int"), "long long int": (8, True, "int"), "unsigned long long": (8, False, "int"),
    "unsigned long long int": (8, False, "int"), "float": (4, True, "float"), "double": (8, True, "float"),
    "_Bool": (1, False, "int"),
}


@dataclass
class CLayout:
    """Size and alignment of a C type, and what it is."""

    size: int
    align: int
    kind: str  # int, float, pointer, struct, union, enum
    signed: bool = True
    name: str = ""
    fields: list[Field] = field(default_factory=list)  # struct/union members


@dataclass
class Field:
    name: str
    offset: int
    type: CLayout
    dims: tuple[int, ...] = ()  # array dimensions, outermost first

    @property
    def count(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n

    @property
    def size(self) -> int:
        return self.type.size * self.count


@dataclass
class StructLayout:
    name: str
    layout: CLayout
    structs: dict[str, CLayout]


def preprocess(headers: list[str], defines: dict[str, str]) -> str:
    """Expand a header set with pcpp, with the given macros defined."""
    try:
        from pcpp import Preprocessor
    except ImportError as exc:  # pragma: no cover - the extra is missing
        raise FormatError("C header support needs the 'headers' extra", hint="pip install 'binparse[headers]'") from exc
    from pcpp.preprocessor import Action, OutputDirective  # type: ignore[import-untyped]

    class _Quiet(Preprocessor):  # type: ignore[misc]
        def on_include_not_found(self, is_malformed: bool, is_system_include: bool, curdir: str,
                                 includepath: str) -> str:
            if is_system_include:  # <stdint.h> in a header another includes: the prelude has stdint
                raise OutputDirective(Action.IgnoreAndRemove)
            return super().on_include_not_found(is_malformed, is_system_include, curdir, includepath)  # type: ignore[no-any-return]

    pp = _Quiet()
    pp.line_directive = None
    for name, value in defines.items():
        pp.define(f"{name} {value}")
    for h in headers:
        pp.add_path(str(Path(h).resolve().parent))
    out = io.StringIO()
    for h in headers:
        from ...core.paths import require_regular
        require_regular(h)  # missing, a FIFO, a device: refused before it is read (exit code 3)
        try:
            text = Path(h).read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise FormatError(f"cannot read the header: {exc.strerror}", file=h) from None
        # system headers out (the prelude has stdint), one line each: [ \t], not \s (a \s* at every line
        # start ran over every blank line after it: quadratic)
        text = re.sub(r"^[ \t]*#[ \t]*include[ \t]*<[^>\n]*>.*$", "", text, flags=re.M)
        pp.parse(text, h)
        pp.write(out)
    return out.getvalue()


def _const(node: Any, enums: dict[str, int]) -> int:
    """Value of a constant expression (array dims, enum values)."""
    from pycparser import c_ast
    if isinstance(node, c_ast.Constant):
        text = node.value.rstrip("uUlL")
        return int(text, 0) if not text.startswith("0") or text in ("0",) or text.startswith(("0x", "0X")) else int(text, 8)
    if isinstance(node, c_ast.ID):
        if node.name in enums:
            return enums[node.name]
        raise FormatError(f"unknown constant '{node.name}' in a C expression", hint="define it with --define")
    if isinstance(node, c_ast.Cast):
        return _const(node.expr, enums)
    if isinstance(node, c_ast.UnaryOp):
        v = _const(node.expr, enums)
        return {"-": -v, "+": v, "~": ~v, "!": int(not v)}[node.op]
    if isinstance(node, c_ast.BinaryOp):
        a, b = _const(node.left, enums), _const(node.right, enums)
        ops = {"+": a + b, "-": a - b, "*": a * b, "/": int(a / b) if b else 0, "%": a % b if b else 0,
               "<<": a << b, ">>": a >> b, "&": a & b, "|": a | b, "^": a ^ b}
        return ops[node.op]
    if isinstance(node, c_ast.TernaryOp):
        return _const(node.iftrue if _const(node.cond, enums) else node.iffalse, enums)
    raise FormatError(f"unsupported C constant expression {type(node).__name__}")


class _Layouter:
    def __init__(self, ast: Any, pointer_size: int) -> None:
        from pycparser import c_ast
        self.c_ast = c_ast
        self.ptr = pointer_size
        self.typedefs: dict[str, Any] = {}
        self.tags: dict[str, Any] = {}
        self.enums: dict[str, int] = {}
        self.done: dict[int, CLayout] = {}
        for ext in ast.ext:
            self._collect(ext)

    def _collect(self, node: Any) -> None:
        c = self.c_ast
        if isinstance(node, c.Typedef):
            self.typedefs[node.name] = node.type
            self._collect_type(node.type)
        elif isinstance(node, c.Decl):
            self._collect_type(node.type)

    def _collect_type(self, t: Any) -> None:
        c = self.c_ast
        while isinstance(t, (c.TypeDecl, c.ArrayDecl, c.PtrDecl)):
            t = t.type
        if isinstance(t, (c.Struct, c.Union)) and t.name and t.decls is not None:
            self.tags[("struct " if isinstance(t, c.Struct) else "union ") + t.name] = t
        if isinstance(t, (c.Struct, c.Union)) and t.decls:
            for d in t.decls:
                self._collect_type(d.type)
        if isinstance(t, c.Enum) and t.values is not None:
            value = -1
            for e in t.values.enumerators:
                value = _const(e.value, self.enums) if e.value is not None else value + 1
                self.enums[e.name] = value

    def of(self, t: Any, name: str = "") -> tuple[CLayout, tuple[int, ...]]:
        """(element layout, array dims) of a declarator type."""
        c = self.c_ast
        dims: list[int] = []
        while isinstance(t, c.ArrayDecl):
            if t.dim is None:
                raise FormatError(f"array '{name}' has no size")
            dims.append(_const(t.dim, self.enums))
            t = t.type
        if isinstance(t, c.PtrDecl):
            return CLayout(self.ptr, self.ptr, "pointer", False, "pointer"), tuple(dims)
        if isinstance(t, c.TypeDecl):
            t = t.type
        if isinstance(t, c.IdentifierType):
            key = " ".join(t.names)
            if key in self.typedefs:
                inner, more = self.of(self.typedefs[key], key)
                lay = CLayout(inner.size, inner.align, inner.kind, inner.signed, key if inner.kind not in ("struct", "union") else inner.name, inner.fields)
                return lay, tuple(dims) + more
            key = key.replace("long int", "long")
            if key in ("long", "unsigned long", "signed long"):
                return CLayout(self.ptr, self.ptr, "int", key != "unsigned long", key), tuple(dims)
            if key not in BASE:
                raise FormatError(f"unknown C type '{key}'", hint="pass the header that defines it")
            size, signed, kind = BASE[key]
            return CLayout(size, size, kind, signed, key), tuple(dims)
        if isinstance(t, c.Enum):
            if t.values is not None:
                self._collect_type(t)
            return CLayout(4, 4, "enum", True, t.name or "enum"), tuple(dims)
        if isinstance(t, (c.Struct, c.Union)):
            return self.record(t), tuple(dims)
        raise FormatError(f"unsupported C declaration for '{name}': {type(t).__name__}")

    def record(self, t: Any) -> CLayout:
        c = self.c_ast
        union = isinstance(t, c.Union)
        if t.decls is None:
            key = ("union " if union else "struct ") + (t.name or "")
            if key not in self.tags:
                raise FormatError(f"incomplete type '{key}'", hint="pass the header that defines it")
            t = self.tags[key]
        hit = self.done.get(id(t))
        if hit is not None:
            return hit
        fields: list[Field] = []
        off = size = 0
        align = 1
        for d in t.decls:
            lay, dims = self.of(d.type, d.name or "")
            if union:
                fields.append(Field(d.name, 0, lay, dims))
                size = max(size, Field("", 0, lay, dims).size)
            else:
                off = -(-off // lay.align) * lay.align
                fields.append(Field(d.name, off, lay, dims))
                off += Field("", 0, lay, dims).size
            align = max(align, lay.align)
        total = size if union else off
        total = -(-total // align) * align
        out = CLayout(total, align, "union" if union else "struct", True, t.name or "", fields)
        self.done[id(t)] = out
        return out


def layout_struct(source: str, struct: str, pointer_size: int = 8) -> StructLayout:
    """Lay out `struct` (a typedef name, `struct tag` or a bare tag) from preprocessed C source."""
    try:
        from pycparser import CParser
    except ImportError as exc:  # pragma: no cover
        raise FormatError("C header support needs the 'headers' extra", hint="pip install 'binparse[headers]'") from exc
    from pycparser import c_parser
    try:
        ast = CParser().parse(PRELUDE + source, filename="<headers>")
    except c_parser.ParseError as exc:
        raise FormatError(f"the C parser rejected the headers: {exc}") from None
    lay = _Layouter(ast, pointer_size)
    if struct in lay.typedefs:
        root, dims = lay.of(lay.typedefs[struct], struct)
    else:
        key = struct if struct.startswith(("struct ", "union ")) else f"struct {struct}"
        if key not in lay.tags:
            raise FormatError(f"no struct '{struct}' in the headers", expected=sorted(lay.typedefs)[:20])
        root, dims = lay.record(lay.tags[key]), ()
    if root.kind not in ("struct", "union") or dims:
        raise FormatError(f"'{struct}' is not a struct or union", found=root.kind)
    structs: dict[str, CLayout] = {}
    return StructLayout(struct, root, structs)
