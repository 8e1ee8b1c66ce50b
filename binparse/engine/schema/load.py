"""Load .ksy files (Kaitai Struct 0.11) into the schema model: binparse's own and users' alike.

Every key Kaitai defines is read; descriptive keys (`doc`, `doc-ref`, `-`-prefixed extensions,
`meta/application`, `meta/tags`, …) are accepted. What binparse cannot run (a custom `process`
routine, an opaque type nobody supplied) and anything Kaitai itself refuses is a `SchemaError`
naming the file, the line and the key. Imports resolve as in Kaitai: relative ones from the
importing file's folder, absolute ones (`/name`) from the import path; circular imports are fine.
An import is confined: the file it names, links followed and `..` resolved, must lie inside the
importing file's folder, the main schema's folder or a folder of the import path; one that leads out
is refused (a `SchemaError` naming the import, never the content of what it points at).
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...core.errors import SchemaError
from ..expr import Expr, ExprError, parse
from ..expr.idents import attr_name, is_id, member_name
from ...core.paths import read_text
from .attrs import AttrReader, descriptive, doc_text
from .check import check_references
from .excerpt import did_you_mean, place
from .model import EnumDef, Param, Schema, TypeDef, is_builtin, primitive
from .yamlnodes import Node, Seq, read_yaml

MAX_NESTING = 32  # `types:` inside `types:` (Kaitai's gallery nests 6 deep)
ROOT_KEYS = {"meta", "doc", "doc-ref", "seq", "types", "enums", "instances", "params", "to-string"}
TYPE_KEYS = ROOT_KEYS
META_KEYS = {"id", "title", "application", "file-extension", "xref", "license", "ks-version", "ks-debug",
             "ks-opaque-types", "imports", "encoding", "endian", "bit-endian", "tags"}
TYPE_META_KEYS = META_KEYS - {"id", "imports"}
PARAM_KEYS = {"id", "type", "doc", "doc-ref", "enum"}
ENUM_MEMBER_KEYS = {"id", "doc", "doc-ref"}


class _Loader:
    def __init__(self, import_path: Sequence[Path]) -> None:
        self.cache: dict[str, Schema] = {}
        self.import_path = [p.resolve() for p in import_path]
        self.unchecked: list[Schema] = []
        self.file = ""
        self.roots: list[Path] = [Path(os.path.realpath(p)) for p in self.import_path]
        self.texts: dict[str, str] = {}  # file -> text (a schema error shows its line)
        self.path: str | None = None  # the type or field being read (a schema error names it)

    # -- helpers -------------------------------------------------------------------------------
    def err(self, msg: str, node: Node | Seq | None = None, key: Any = None, **kw: Any) -> SchemaError:
        line = None
        if node is not None:
            line = node.lines.get(key, node.line) if isinstance(node, Node) and key is not None else node.line
        if self.path is not None:
            kw.setdefault("path", self.path)
        return SchemaError(msg, file=self.file, line=line, key=None if key is None else str(key), **kw)

    def keys(self, node: Any, allowed: set[str], what: str, parent: Node | Seq | None = None,
             pkey: Any = None) -> Node:
        if not isinstance(node, Node):
            raise self.err(f"{what} must be a mapping", parent, pkey)
        for k in node:
            if k not in allowed and not descriptive(k):
                raise self.err(f"'{k}' is not a key of {what} in Kaitai Struct 0.11{did_you_mean(str(k), allowed)} "
                               f"(allowed: {', '.join(sorted(allowed))}, and keys starting with '-')", node, k)
        return node

    def expr(self, value: Any, node: Node, key: Any) -> Expr:
        if isinstance(value, (Node, Seq)) or value is None:
            raise self.err("expected an expression", node, key)
        try:
            return parse(value)
        except ExprError as exc:  # the caret under the token it stops at, when the message quotes one
            token = re.findall(r"'([^']+)'", str(exc))
            text = str(value) if not isinstance(value, int) or value.bit_length() < 8000 else ""
            needle = token[-1] if token and token[-1] in text else text
            if token and token[-1] == "end of expression":
                needle = text + "\0"  # the caret after the expression
            shown = f"of {value.bit_length():,} bits" if isinstance(value, int) and not isinstance(value, bool) \
                and not text else repr(value) if len(text) <= 200 else f"{text[:100]!r}… ({len(text):,} characters)"
            raise self.err(f"expression {shown}: {exc}", node, key, needle=needle) from None

    # -- files ---------------------------------------------------------------------------------
    def load(self, path: Path) -> Schema:
        main = Path(os.path.realpath(path.resolve().parent))
        if main not in self.roots:
            self.roots.append(main)
        schema = self.read(path)
        while self.unchecked:  # every file of the import closure is read before types are resolved
            s = self.unchecked.pop(0)
            if s.opaque_types:
                self.supply_opaque(s)
            self.file = s.file
            check_references(s.root)
        return schema

    def supply_opaque(self, schema: Schema) -> None:
        """`meta/ks-opaque-types: true`: a type name no declaration answers is another schema of that
        id, found as `<name>.ksy` beside the file or in the import path (as Kaitai's generated code
        imports a module of that name); one found nowhere stays unknown (a `SchemaError` when checked)."""
        for t in schema.root.all_types():
            for a in t.seq + t.instances:
                refs = [a.user] if a.user is not None else [r for _, r in a.switch.cases] if a.switch else []
                for r in refs:
                    if is_builtin(r.name) or "::" in r.name:
                        continue
                    try:
                        t.resolve_type(r.name)
                        continue
                    except KeyError:
                        pass
                    for d in [Path(schema.file).parent, *self.import_path]:
                        if (d / f"{r.name}.ksy").is_file():
                            target = self.confined(d / f"{r.name}.ksy", Path(schema.file), r.name, None, 0)
                            schema.imports.append(self.read(target))
                            break

    def read(self, path: Path) -> Schema:
        path = path.resolve()
        key = str(path)
        if key in self.cache:
            return self.cache[key]
        outer = self.file
        try:
            text = read_text(path)  # a FIFO or device is refused before it is read
        except OSError as exc:
            raise SchemaError(f"cannot read schema: {exc.strerror}", file=key) from exc
        self.file = key
        self.texts[key] = text
        data = read_yaml(text, key)
        schema = self.schema_head(data, path, text)
        self.cache[key] = schema  # before its imports: an import circle comes back to this object
        imports = data["meta"].get("imports", Seq())
        for i, imp in enumerate(imports):
            target = self.find_import(imp, path, imports, i)
            schema.imports.append(self.read(target))
            self.file = key
        schema.root = self.typedef(schema.id, data, schema, None, data.line)
        self.unchecked.append(schema)
        self.file = outer
        return schema

    def find_import(self, imp: Any, path: Path, imports: Seq, i: int) -> Path:
        if not isinstance(imp, str) or not imp.strip("/"):
            raise SchemaError("an import is a path without .ksy", file=self.file, line=imports.lines[i], key="imports")
        tries = [] if imp.startswith("/") else [path.parent / f"{imp}.ksy"]
        tries += [d / f"{imp.lstrip('/')}.ksy" for d in self.import_path]
        for t in tries:
            if t.is_file():
                return self.confined(t, path, imp, imports, i)
        raise SchemaError(f"imported schema '{imp}' not found", file=self.file, line=imports.lines[i],
                          key="imports", needle=imp, expected=" or ".join(str(t) for t in tries),
                          hint="give the folder that holds it as an import path: import_path=[DIR]")

    def confined(self, target: Path, importer: Path, imp: str, imports: Seq | None, i: int) -> Path:
        """`target` once it is known to lie (links followed, `..` resolved) inside the importing file's
        folder, the main schema's folder or the import path; else a `SchemaError` naming the import."""
        real = Path(os.path.realpath(target))
        own = Path(os.path.realpath(importer.parent))
        if any(real.is_relative_to(root) for root in [own, *self.roots]):
            return real
        raise SchemaError(f"import '{imp}' leads outside the schema's folder and the import path (a '..' or a link): "
                          "binparse reads only schemas inside them", file=self.file,
                          line=imports.lines[i] if imports is not None else None, key="imports",
                          needle=imp if imports is not None else None,
                          hint="put the schema in the folder, or give its folder as an import path: import_path=[DIR]")

    def schema_head(self, data: Node, path: Path, text: str) -> Schema:
        self.keys(data, ROOT_KEYS, "the top level")
        meta = self.keys(data.get("meta"), META_KEYS, "meta", data, "meta")
        sid = meta.get("id")
        if not is_id(sid):
            raise self.err("meta/id must be a lower_snake_case name", meta, "id", found=sid)
        imports = meta.get("imports", Seq())
        if not isinstance(imports, Seq):
            raise self.err("meta/imports must be a list", meta, "imports")
        name = path.stem
        for root in self.import_path:
            if root in path.parents:
                name = path.relative_to(root).with_suffix("").as_posix()
                break
        endian = meta.get("endian")
        schema = Schema(id=sid, file=str(path), name=name, source=text,
                        endian=endian if isinstance(endian, str) else None,
                        title=str(meta["title"]) if meta.get("title") is not None else None)
        schema.opaque_types = meta.get("ks-opaque-types") is True
        schema.debug = meta.get("ks-debug") is True
        return schema

    # -- types ---------------------------------------------------------------------------------
    def type_meta(self, t: TypeDef, node: Node, root: bool) -> None:
        meta = node.get("meta")
        if meta is None:
            return
        self.keys(meta, META_KEYS if root else TYPE_META_KEYS, "meta", node, "meta")
        endian = meta.get("endian")
        if isinstance(endian, Node):
            self.keys(endian, {"switch-on", "cases"}, "meta/endian", meta, "endian")
            cases = endian.get("cases")
            if "switch-on" not in endian or not isinstance(cases, Node):
                raise self.err("a calculated endian needs switch-on and cases", meta, "endian")
            parsed = []
            for k, v in cases.items():
                if v not in ("le", "be"):
                    raise self.err("meta/endian cases give le or be", cases, k, found=v)
                parsed.append((None if k == "_" else self.expr(k, cases, k), v))
            t.endian_on, t.endian_cases = self.expr(endian["switch-on"], endian, "switch-on"), tuple(parsed)
        elif endian is not None:
            if endian not in ("le", "be"):
                raise self.err("meta/endian must be 'le' or 'be' (or a switch)", meta, "endian", found=endian)
            t.endian = endian
        bit_endian = meta.get("bit-endian")
        if bit_endian is not None:
            if bit_endian not in ("le", "be"):
                raise self.err("meta/bit-endian must be 'le' or 'be'", meta, "bit-endian", found=bit_endian)
            t.bit_endian = bit_endian
        enc = meta.get("encoding")
        if enc is not None:
            t.encoding = str(enc)

    def typedef(self, name: str, node: Node, schema: Schema, parent: TypeDef | None, line: int) -> TypeDef:
        t = TypeDef(name=name, line=line, schema=schema, parent=parent,
                    doc=doc_text(node.get("doc")), doc_ref=doc_text(node.get("doc-ref")))
        nesting, up = 0, parent
        while up is not None:
            nesting, up = nesting + 1, up.parent
        if nesting > MAX_NESTING:
            raise self.err(f"types nested more than {MAX_NESTING} deep (types: inside types:): binparse reads no "
                           "schema nested that deep", node)
        rep = node.get("-webide-representation")
        t.webide_repr = rep if isinstance(rep, str) else None
        outer, self.path = self.path, t.path
        self.type_meta(t, node, parent is None)
        if "params" in node:
            self.params(t, node["params"], node, "params")
        if "enums" in node:
            self.enums(t, node["enums"], node, "enums")
        types = node.get("types", Node())
        if not isinstance(types, Node):
            raise self.err("types must be a mapping", node, "types")
        for tname, tnode in types.items():
            if not is_id(tname):
                raise self.err("type names must be lower_snake_case", types, tname)
            self.keys(tnode, TYPE_KEYS, f"type '{tname}'", types, tname)
            t.types[tname] = self.typedef(tname, tnode, schema, t, types.lines[tname])
        reader = AttrReader(t, self.err, self.expr)
        seq = node.get("seq", Seq())
        if not isinstance(seq, Seq):
            raise self.err("seq must be a list", node, "seq")
        for i, item in enumerate(seq):
            if not isinstance(item, Node):
                raise SchemaError("a seq item must be a mapping", file=self.file, line=seq.lines[i])
            aid = item.get("id") if "id" in item else f"_unnamed{i}"  # binparse's name for a field with no id
            if not isinstance(aid, str) or "id" in item and not is_id(aid):
                raise SchemaError("a seq item's id must be lower_snake_case", file=self.file, line=seq.lines[i],
                                  key="id", found=aid, path=t.path)
            self.path = f"{t.path}.{aid}"
            t.seq.append(reader.attr(aid, item))
            self.path = t.path
        inst = node.get("instances", Node())
        if not isinstance(inst, Node):
            raise self.err("instances must be a mapping", node, "instances")
        for iname, inode in inst.items():
            if not is_id(iname):
                raise self.err("instance names must be lower_snake_case", inst, iname)
            if not isinstance(inode, Node):
                raise self.err(f"instance '{iname}' must be a mapping", inst, iname)
            self.path = f"{t.path}.{iname}"
            t.instances.append(reader.attr(iname, inode, instance=True))
            self.path = t.path
        seen: dict[str, str] = {}
        for aid in [a.id for a in t.seq + t.instances] + [p.id for p in t.params]:
            other = seen.get(attr_name(aid))
            if other is not None:
                raise self.err(f"duplicate id '{aid}'" if other == aid else
                               f"ids '{other}' and '{aid}' are both '{attr_name(aid)}' in Python (a keyword gets a "
                               "trailing _): rename one", node)
            seen[attr_name(aid)] = aid
        self.path = outer
        return t

    def params(self, t: TypeDef, items: Any, node: Node, key: str) -> None:
        if not isinstance(items, Seq):
            raise self.err("params must be a list", node, key)
        for i, p in enumerate(items):
            p = self.keys(p, PARAM_KEYS, "a param", items)
            pid, ptype = p.get("id"), p.get("type")
            if not is_id(pid):
                raise self.err("param id must be lower_snake_case", p, "id")
            try:
                prim = primitive(str(ptype), "le") if ptype is not None else None
            except ValueError:
                prim = None
            t.params.append(Param(pid, str(ptype) if ptype is not None else "any", items.lines[i], prim,
                                  doc_text(p.get("doc")), str(p["enum"]) if "enum" in p else None))

    def enums(self, t: TypeDef, items: Any, node: Node, key: str) -> None:
        if not isinstance(items, Node):
            raise self.err("enums must be a mapping", node, key)
        for ename, enode in items.items():
            if not is_id(ename) or not isinstance(enode, Node):
                raise self.err("an enum is a lower_snake_case name mapping integers to ids", items, ename)
            e = EnumDef(ename, {}, {}, items.lines[ename])
            py_names: dict[str, str] = {}  # Python name -> member id (two ids, one name: refused)
            for value, member in enode.items():
                if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                    value = int(value)
                if not isinstance(value, int) or isinstance(value, bool):
                    raise self.err("enum keys must be integers", enode, value)
                if isinstance(member, bool):  # `1: true` is the member `true` (YAML would make it a boolean)
                    member = str(member).lower()
                if isinstance(member, Node):
                    self.keys(member, ENUM_MEMBER_KEYS, "an enum member", enode, value)
                    if member.get("doc"):
                        e.docs[value] = str(member["doc"])
                    member = member.get("id")
                if not is_id(member):
                    raise self.err("enum member ids must be lower_snake_case", enode, value, found=member)
                assert isinstance(member, str)
                twin = py_names.get(member_name(member))
                if twin == member:
                    raise self.err(f"enum member '{member}' appears twice", enode, value)
                py_names[member_name(member)] = member
                if twin is not None:
                    raise self.err(f"enum members '{twin}' and '{member}' are both '{member_name(member)}' in Python "
                                   "(a keyword, mro or doc gets a trailing _): rename one", enode, value)
                e.members[value] = member
            t.enums[ename] = e


SCHEMAS_DIR = Path(__file__).resolve().parents[3] / "schemas"


def load_schema(path: str | os.PathLike[str], schemas_root: str | os.PathLike[str] | None = None,
                import_path: Sequence[str | os.PathLike[str]] = ()) -> Schema:
    """Load and check one .ksy file (and its imports). Raises `SchemaError`.

    Absolute imports (`/name`) are looked up in `import_path`; binparse's own `schemas/` (or
    `schemas_root`) is searched last for binparse's schemas.
    """
    dirs = [Path(p) for p in import_path]
    root = Path(schemas_root) if schemas_root is not None else SCHEMAS_DIR
    if not dirs or Path(path).resolve().is_relative_to(root.resolve()):
        dirs.append(root)
    loader = _Loader(dirs)
    try:
        return loader.load(Path(path))
    except SchemaError as exc:  # its line and column, shown with a caret
        place(exc, loader.texts.get(str(exc.file)))
        raise


def load_all(schemas_root: str | os.PathLike[str] | None = None) -> list[Schema]:
    """Every .ksy under `schemas_root` (default: the repository's `schemas/`), sorted by name."""
    root = Path(schemas_root) if schemas_root is not None else SCHEMAS_DIR
    loader = _Loader([root])
    try:
        return sorted((loader.load(p) for p in root.rglob("*.ksy")), key=lambda s: s.name)
    except SchemaError as exc:
        place(exc, loader.texts.get(str(exc.file)))
        raise


def source_hash(schema: Schema) -> str:
    """sha256 over the schema's text and its imports' texts (what generated code is made from)."""
    h = hashlib.sha256(schema.source.encode("utf-8"))
    for imp in schema.all_imports():
        h.update(imp.source.encode("utf-8"))
    return h.hexdigest()
