"""`fixture`, `generate`, `schema` and `schemas`: the commands about binparse's own declarations."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ..core.errors import UsageError
from ..family.hints import command
from ..core.render import json_text
from ..core.text import shown
from .common import say, written


def fixture(args: argparse.Namespace) -> int:
    if args.schema:
        from .ksy import fixture as fixture_schema
        return fixture_schema(args)
    if args.from_file or args.set or args.param:
        raise UsageError("--from, --set and --param go with --schema: the file is read with that schema")
    if not args.spec:
        raise UsageError("give the fixture spec (SPEC.yaml), or --schema S.ksy with VALUES.yaml or --from FILE")
    from ..family.fixtures import generate
    paths = generate(args.spec, args.out)
    say(args, [shown(p) for p in paths],
        {"written": [written(str(p), os.stat(p).st_size, "fixture file") for p in paths]})
    return 0


def _kv(text: str | None) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in (text or "").split(","):
        if item.strip():
            k, _, v = item.partition("=")
            try:
                out[k.strip()] = int(v, 0)
            except ValueError:
                raise UsageError(f"params are NAME=INT pairs, got {item!r}") from None
    return out


def _schema_side(ref: str, params: str | None, type_name: str | None,
                 import_path: list[str] | None = None) -> tuple[Any, dict[str, int], str]:
    """A diff operand: a registered format name or a .ksy path (+ params), optionally a nested type."""
    from ..family.registry import registered
    from ..engine.schema import SCHEMAS_DIR, load_schema
    fmt = next((f for f in registered() if f.name == ref), None)
    if fmt is not None:
        schema, p, label = load_schema(SCHEMAS_DIR / f"{fmt.accessor_class._SCHEMA}.ksy"), dict(fmt.params), ref
    else:
        schema, p, label = load_schema(ref, import_path=import_path or []), {}, ref
    p.update(_kv(params))
    t = schema.root
    if type_name and (type_name in t.types or "::" in type_name):  # a generated .ksy of that one struct: its root
        try:
            t = t.resolve_type(type_name)
        except KeyError:
            raise UsageError(f"{label} has no type {type_name!r}", expected=sorted(t.types)) from None
        p = {k: v for k, v in p.items() if k in {x.id for x in t.params}} or {x.id: p[x.id] for x in t.params if x.id in p}
    missing = [x.id for x in t.params if x.id not in p]
    if missing:  # e.g. a net whose header depends on the SoC's core count
        raise UsageError(f"{label} is laid out by {', '.join(missing)}, which its format leaves to the file",
                         expected=f"--params-a / --params-b {','.join(f'{m}=N' for m in missing)}")
    return t, p, label


def schema(args: argparse.Namespace) -> int:
    if args.schema_command == "from-header":
        from ..engine.cheader import header_to_ksy
        from ..core.writes import write_text
        defines = {}
        for d in args.define or []:
            k, _, v = d.partition("=")
            defines[k] = v or "1"
        text, lay = header_to_ksy(args.headers, args.struct, defines=defines, pointer_size=args.pointer_size,
                                  schema_id=args.id, strings=args.string or None)
        write_text(args.out, text)
        what = f"{args.struct}, {lay.layout.size:,} bytes, {len(lay.layout.fields)} fields"
        say(args, [f"{shown(args.out)}: {shown(what)}"],
            {"written": [written(args.out, len(text.encode()), what, struct=args.struct, struct_bytes=lay.layout.size,
                                 fields=len(lay.layout.fields))]})
        return 0
    from ..engine.schema.diff import diff
    a, pa, la = _schema_side(args.a, args.params_a, args.type, args.import_path)
    b, pb, lb = _schema_side(args.b, args.params_b, args.type, args.import_path)
    changes, full = diff(a, pa, b, pb)
    if args.json:
        print(json_text({"a": la, "b": lb, "complete": full, "changes": [c.to_json() for c in changes]}))
    else:
        later = "the places of fields" if a.schema.id == b.schema.id else "fields"  # one schema's versions: types
        print(f"{shown(la)} → {shown(lb)}: {len(changes)} change(s)" + ("" if full else
                                                                       f" ({later} after a data-dependent one not compared)"))
        for c in changes:
            print("  " + shown(c.describe()))
    return 0


def generate(args: argparse.Namespace) -> int:
    if args.schemas or args.out:
        from .ksy import generate as generate_package
        if args.check:
            raise UsageError("--check compares binparse's own accessors with schemas/; give no files with it")
        if not args.schemas:
            raise UsageError("-o writes a package for your schemas: name them (SCHEMA.ksy...)")
        return generate_package(args)
    from ..engine.codegen import write_all
    changed = write_all(check=args.check)
    lines = [("stale: " if args.check else "wrote: ") + str(p) for p in changed]
    say(args, lines or ["generated accessors are up to date"],
        {"stale" if args.check else "written": [str(p) for p in changed], "up_to_date": not changed})
    if args.check and changed:
        print(f"generated accessors are stale: run {command('generate')}", file=sys.stderr)
        return 1
    return 0


def schemas(args: argparse.Namespace) -> int:
    """`schemas [--json]`: every family's kinds of file, folder and buffer, their formats, how each is recognised."""
    from .catalog import catalog, catalog_text
    doc = catalog()
    print(json_text(doc) if args.json else catalog_text(doc))
    return 0


__all__ = ["fixture", "generate", "schema", "schemas"]
