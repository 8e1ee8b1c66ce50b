"""Load a .ksy file into the schema model, rejecting anything outside binparse's subset.

The subset is written down in `schemas/README.md`. Every rejection is a `SchemaError` that names
the file, the line and the key. YAML is read with PyYAML's composer so each key keeps its line.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..errors import SchemaError
from ..paths import read_text
from . import expr as ex
from .check import check_references
from .model import Attr, EnumDef, Param, Schema, Switch, TypeDef, TypeRef, Valid, primitive

ID = re.compile(r"^[a-z][a-z0-9_]*$")
TYPE_CALL = re.compile(r"^([a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*)(?:\((.*)\))?$")
ROOT_KEYS = {"meta", "doc", "doc-ref", "seq", "types", "enums", "instances", "params"}
TYPE_KEYS = ROOT_KEYS - {"meta"}
META_KEYS = {"id", "endian", "imports", "title", "file-extension", "license", "ks-version", "xref"}
ATTR_KEYS = {"id", "type", "size", "repeat", "repeat-expr", "encoding", "contents", "valid",
             "enum", "doc", "doc-ref", "if", "-display"}
INSTANCE_KEYS = (ATTR_KEYS - {"id"}) | {"value", "pos"}
PARAM_KEYS = {"id", "type", "doc", "doc-ref"}
VALID_KEYS = {"eq", "min", "max", "any-of", "in-enum"}


class Node(dict):  # type: ignore[type-arg]
    """A YAML mapping that remembers its own line and the line of each key (1-based)."""

    line: int
    lines: dict[Any, int]


class Seq(list):  # type: ignore[type-arg]
    line: int
    lines: list[int]


def _convert(node: yaml.Node, loader: yaml.SafeLoader) -> Any:
    if isinstance(node, yaml.MappingNode):
        out = Node()
        out.line, out.lines = node.start_mark.line + 1, {}
        for k, v in node.value:
            key = loader.construct_object(k, deep=True)
            out[key] = _convert(v, loader)
            out.lines[key] = k.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = Seq(_convert(v, loader) for v in node.value)
        seq.line, seq.lines = node.start_mark.line + 1, [v.start_mark.line + 1 for v in node.value]
        return seq
    return loader.construct_object(node, deep=True)


def _read_yaml(text: str, file: str) -> Node:
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SchemaError(f"not valid YAML: {getattr(exc, 'problem', exc)}", file=file,
                          line=mark.line + 1 if mark else None) from exc
    finally:
        loader.dispose()
    if node is None or not isinstance(node, yaml.MappingNode):
        raise SchemaError("a .ksy file must be a YAML mapping", file=file, line=1)
    data = _convert(node, yaml.SafeLoader(""))
    assert isinstance(data, Node)
    return data


class _Loader:
    def __init__(self, schemas_root: Path | None) -> None:
        self.cache: dict[str, Schema] = {}
        self.schemas_root = schemas_root
        self.loading: set[str] = set()

    # -- helpers -------------------------------------------------------------------------------
    def err(self, msg: str, node: Node | Seq | None, key: Any = None, **kw: Any) -> SchemaError:
        line = None
        if node is not None:
            line = node.lines.get(key, node.line) if isinstance(node, Node) and key is not None else node.line
        return SchemaError(msg, file=self.file, line=line, key=None if key is None else str(key), **kw)

    def keys(self, node: Any, allowed: set[str], what: str, parent: Node | Seq | None = None,
             pkey: Any = None) -> Node:
        if not isinstance(node, Node):
            raise self.err(f"{what} must be a mapping", parent, pkey)
        for k in node:
            if k not in allowed:
                raise self.err(f"'{k}' is not in binparse's .ksy subset for {what} "
                               f"(allowed: {', '.join(sorted(allowed))}); see schemas/README.md",
                               node, k)
        return node

    def expr(self, value: Any, node: Node, key: str) -> ex.Expr:
        if isinstance(value, (Node, Seq)) or value is None:
            raise self.err("expected an expression", node, key)
        try:
            return ex.parse(value)
        except ex.ExprError as exc:
            raise self.err(f"expression {value!r} is outside the subset: {exc}", node, key) from exc

    def text(self, node: Node, key: str) -> str | None:
        v = node.get(key)
        if v is not None and not isinstance(v, str):
            raise self.err("expected text", node, key)
        return v

    # -- files ---------------------------------------------------------------------------------
    def load(self, path: Path) -> Schema:
        path = path.resolve()
        key = str(path)
        if key in self.cache:
            return self.cache[key]
        if key in self.loading:
            raise SchemaError("circular import", file=key)
        self.loading.add(key)
        try:
            try:
                text = read_text(path)  # a FIFO or device is refused before it is read
            except OSError as exc:
                raise SchemaError(f"cannot read schema: {exc.strerror}", file=key) from exc
            self.file = key
            data = _read_yaml(text, key)
            schema = self.schema(data, path, text)
        finally:
            self.loading.discard(key)
        self.cache[key] = schema
        return schema

    def schema(self, data: Node, path: Path, text: str) -> Schema:
        self.keys(data, ROOT_KEYS, "the top level")
        meta = self.keys(data.get("meta"), META_KEYS, "meta", data, "meta")
        sid = meta.get("id")
        if not isinstance(sid, str) or not ID.match(sid):
            raise self.err("meta/id must be a lower_snake_case name", meta, "id", found=sid)
        endian = meta.get("endian")
        if endian not in (None, "le", "be"):
            raise self.err("meta/endian must be 'le' or 'be'", meta, "endian", found=endian)
        name = path.stem
        if self.schemas_root is not None:
            try:
                name = path.relative_to(self.schemas_root.resolve()).with_suffix("").as_posix()
            except ValueError:
                pass
        schema = Schema(id=sid, file=str(path), name=name, source=text, endian=endian,
                        title=self.text(meta, "title"))
        imports = meta.get("imports", Seq())
        if not isinstance(imports, Seq):
            raise self.err("meta/imports must be a list", meta, "imports")
        file = self.file
        for i, imp in enumerate(imports):
            if not isinstance(imp, str):
                raise SchemaError("import must be a path", file=file, line=imports.lines[i], key="imports")
            target = (path.parent / (imp + ".ksy")) if not imp.startswith("/") else Path(imp + ".ksy")
            if not target.exists() and self.schemas_root is not None:
                target = self.schemas_root / (imp.lstrip("/") + ".ksy")
            if not target.exists():
                raise SchemaError(f"imported schema '{imp}' not found", file=file,
                                  line=imports.lines[i], key="imports", expected=str(target))
            schema.imports.append(self.load(target))
            self.file = file
        schema.root = self.typedef(sid, data, schema, None, data.line)
        check_references(schema.root)
        return schema

    # -- types ---------------------------------------------------------------------------------
    def typedef(self, name: str, node: Node, schema: Schema, parent: TypeDef | None, line: int) -> TypeDef:
        t = TypeDef(name=name, line=line, schema=schema, parent=parent,
                    doc=self.text(node, "doc"), doc_ref=self.text(node, "doc-ref"))
        for key, build in (("params", self.params), ("enums", self.enums)):
            if key in node:
                build(t, node[key], node, key)
        types = node.get("types", Node())
        if not isinstance(types, Node):
            raise self.err("types must be a mapping", node, "types")
        for tname, tnode in types.items():
            if not isinstance(tname, str) or not ID.match(tname):
                raise self.err("type names must be lower_snake_case", types, tname)
            self.keys(tnode, TYPE_KEYS, f"type '{tname}'", types, tname)
            t.types[tname] = self.typedef(tname, tnode, schema, t, types.lines[tname])
        seq = node.get("seq", Seq())
        if not isinstance(seq, Seq):
            raise self.err("seq must be a list", node, "seq")
        for i, item in enumerate(seq):
            a = self.keys(item, ATTR_KEYS, "a seq item", seq)
            if "id" not in a or not isinstance(a["id"], str) or not ID.match(a["id"]):
                raise SchemaError("every seq item needs a lower_snake_case id", file=self.file,
                                  line=seq.lines[i], key="id")
            t.seq.append(self.attr(a["id"], a, schema))
        inst = node.get("instances", Node())
        if not isinstance(inst, Node):
            raise self.err("instances must be a mapping", node, "instances")
        for iname, inode in inst.items():
            if not isinstance(iname, str) or not ID.match(iname):
                raise self.err("instance names must be lower_snake_case", inst, iname)
            self.keys(inode, INSTANCE_KEYS, f"instance '{iname}'", inst, iname)
            t.instances.append(self.attr(iname, inode, schema, instance=True))
        ids = [a.id for a in t.seq + t.instances] + [p.id for p in t.params]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise self.err(f"duplicate id '{sorted(dup)[0]}'", node)
        return t

    def params(self, t: TypeDef, items: Any, node: Node, key: str) -> None:
        if not isinstance(items, Seq):
            raise self.err("params must be a list", node, key)
        for i, p in enumerate(items):
            p = self.keys(p, PARAM_KEYS, "a param", items)
            pid, ptype = p.get("id"), p.get("type")
            if not isinstance(pid, str) or not ID.match(pid):
                raise self.err("param id must be lower_snake_case", p, "id")
            try:
                prim = primitive(str(ptype), t.schema.endian or "le")
            except ValueError:
                prim = None
            if prim is None or prim.kind != "int":
                raise self.err("params must be integer types (u1…u8, s1…s8)", p, "type", found=ptype)
            t.params.append(Param(pid, str(ptype), items.lines[i], prim, self.text(p, "doc")))

    def enums(self, t: TypeDef, items: Any, node: Node, key: str) -> None:
        if not isinstance(items, Node):
            raise self.err("enums must be a mapping", node, key)
        for ename, enode in items.items():
            if not isinstance(ename, str) or not ID.match(ename) or not isinstance(enode, Node):
                raise self.err("an enum is a lower_snake_case name mapping integers to ids", items, ename)
            e = EnumDef(ename, {}, {}, items.lines[ename])
            for value, member in enode.items():
                if not isinstance(value, int) or isinstance(value, bool):
                    raise self.err("enum keys must be integers", enode, value)
                if isinstance(member, Node):
                    self.keys(member, {"id", "doc", "doc-ref"}, "an enum member", enode, value)
                    if member.get("doc"):
                        e.docs[value] = str(member["doc"])
                    member = member.get("id")
                if not isinstance(member, str) or not ID.match(member):
                    raise self.err("enum member ids must be lower_snake_case", enode, value, found=member)
                if member in e.members.values():
                    raise self.err(f"enum member '{member}' appears twice", enode, value)
                e.members[value] = member
            t.enums[ename] = e

    def typeref(self, text: Any, node: Node, key: str) -> TypeRef:
        m = TYPE_CALL.match(str(text)) if isinstance(text, str) else None
        if not m:
            raise self.err(f"type {text!r} is not a number type, str, strz or a user type name", node, key)
        args: tuple[ex.Expr, ...] = ()
        if m.group(2) is not None and m.group(2).strip():
            try:
                args = tuple(ex.parse(a) for a in _split_args(m.group(2)))
            except ex.ExprError as exc:
                raise self.err(f"type arguments {m.group(2)!r}: {exc}", node, key) from exc
        return TypeRef(m.group(1), args)

    def attr(self, aid: str, a: Node, schema: Schema, instance: bool = False) -> Attr:
        line = a.lines.get("id", a.line)
        at = Attr(id=aid, kind="bytes", line=line, doc=self.text(a, "doc"), doc_ref=self.text(a, "doc-ref"),
                  key_lines={str(k): v for k, v in a.lines.items()}, display=a.get("-display"))  # check.py checks it
        if instance and "value" in a:
            if set(a) - {"value", "doc", "doc-ref", "enum"}:
                raise self.err("a value instance takes only value, enum, doc, doc-ref", a,
                               sorted(set(a) - {"value", "doc", "doc-ref", "enum"})[0])
            at.kind, at.value = "value", self.expr(a["value"], a, "value")
            at.enum = self.text(a, "enum")
            return at
        if instance:
            if "pos" not in a:
                raise self.err("an instance needs 'value' or 'pos'", a)
            at.pos = self.expr(a["pos"], a, "pos")
        typ = a.get("type")
        if "if" in a:
            at.cond = self.expr(a["if"], a, "if")
        if "size" in a:
            at.size = self.expr(a["size"], a, "size")
        if "contents" in a:
            c = a["contents"]
            if isinstance(c, str):
                data = c.encode("utf-8")
            elif isinstance(c, Seq) and all(isinstance(b, int) and 0 <= b < 256 for b in c):
                data = bytes(c)
            else:
                raise self.err("contents must be a string or a list of byte values", a, "contents")
            if typ is not None or "size" in a:
                raise self.err("contents takes no type or size", a, "contents")
            at.kind, at.contents = "contents", data
        elif isinstance(typ, Node):
            self.keys(typ, {"switch-on", "cases"}, "a switch type", a, "type")
            cases = typ.get("cases")
            if "switch-on" not in typ or not isinstance(cases, Node):
                raise self.err("a switch needs switch-on and cases", a, "type")
            parsed = []
            for k, v in cases.items():
                kexpr = None if k == "_" else self.expr(k, cases, k)
                parsed.append((kexpr, self.typeref(v, cases, k)))
            at.kind, at.switch = "switch", Switch(self.expr(typ["switch-on"], typ, "switch-on"), tuple(parsed))
        elif typ in ("str", "strz"):
            at.kind, at.zero_terminated = "str", typ == "strz"
            at.encoding = self.text(a, "encoding")
            if at.encoding is None:
                raise self.err(f"{typ} needs an encoding", a, "type")
            if at.size is None:
                raise self.err(f"{typ} needs a size in binparse's subset", a, "type")
        elif typ is not None:
            try:
                prim = primitive(str(typ), schema.endian)
            except ValueError as exc:
                raise self.err(str(exc), a, "type") from exc
            if prim is not None:
                if at.size is not None:
                    raise self.err("a number type takes no size", a, "size")
                at.kind, at.prim = "prim", prim
            else:
                at.kind, at.user = "user", self.typeref(typ, a, "type")
        elif at.size is None:
            raise self.err("a field without a type needs a size (raw bytes) or contents", a)
        if "encoding" in a and at.kind != "str":
            raise self.err("encoding applies to str and strz only", a, "encoding")
        rep = a.get("repeat")
        if rep is not None:
            if rep != "expr":
                raise self.err("only 'repeat: expr' is in binparse's subset", a, "repeat", found=rep)
            if "repeat-expr" not in a:
                raise self.err("repeat: expr needs repeat-expr", a, "repeat")
            at.count = self.expr(a["repeat-expr"], a, "repeat-expr")
        elif "repeat-expr" in a:
            raise self.err("repeat-expr needs 'repeat: expr'", a, "repeat-expr")
        if "enum" in a:
            if at.kind != "prim" or at.prim is None or at.prim.kind != "int":
                raise self.err("enum applies to integer fields only", a, "enum")
            at.enum = self.text(a, "enum")
        if "valid" in a:
            at.valid = self.valid(a["valid"], a)
        return at

    def valid(self, v: Any, a: Node) -> Valid:
        if not isinstance(v, Node):
            return Valid(eq=self.expr(v, a, "valid"))
        self.keys(v, VALID_KEYS, "valid", a, "valid")
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
            in_enum=bool(in_enum))

def _split_args(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += (ch in "([") - (ch in ")]")
        cur += ch
    out.append(cur)
    return [s.strip() for s in out]


SCHEMAS_DIR = Path(__file__).resolve().parents[2] / "schemas"


def load_schema(path: str | os.PathLike[str], schemas_root: str | os.PathLike[str] | None = None) -> Schema:
    """Load and check one .ksy file (and its imports). Raises `SchemaError`."""
    root = Path(schemas_root) if schemas_root is not None else SCHEMAS_DIR
    return _Loader(root).load(Path(path))


def load_all(schemas_root: str | os.PathLike[str] | None = None) -> list[Schema]:
    """Every .ksy under `schemas_root` (default: the repository's `schemas/`), sorted by name."""
    root = Path(schemas_root) if schemas_root is not None else SCHEMAS_DIR
    loader = _Loader(root)
    return sorted((loader.load(p) for p in root.rglob("*.ksy")), key=lambda s: s.name)


def source_hash(schema: Schema) -> str:
    """sha256 over the schema's text and its imports' texts (what generated code is made from)."""
    h = hashlib.sha256(schema.source.encode("utf-8"))
    for imp in schema.all_imports():
        h.update(imp.source.encode("utf-8"))
    return h.hexdigest()
