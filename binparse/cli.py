"""The `binparse` command: inspect, generate, schemas.

Exit codes: 0 ok, 1 `generate --check` found stale modules, 2 usage error, 3 bad input
(the error's one-line message on stderr).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from .errors import BinparseError


def _inspect(args: argparse.Namespace) -> int:
    from . import api, render, registry
    acc = api.open(args.file, format=args.format)
    fmt = registry.get(args.format) if args.format else next(
        f for f in registry.registered() if f.accessor is type(acc))
    acc.validate()
    if args.json:
        print(render.to_json(acc, {"file": args.file, "format": fmt.name, "version": fmt.version,
                                   "size": acc.nbytes}))
    else:
        print(render.table(acc, f"{args.file}: {fmt.name}, {fmt.version}, {acc.nbytes:,} bytes"))
    return 0


def _generate(args: argparse.Namespace) -> int:
    from .codegen import write_all
    changed = write_all(check=args.check)
    for p in changed:
        print(("stale: " if args.check else "wrote: ") + str(p))
    if args.check and changed:
        print("generated accessors are stale: run `binparse generate`", file=sys.stderr)
        return 1
    if not changed:
        print("generated accessors are up to date")
    return 0


def _schemas(args: argparse.Namespace) -> int:
    from .registry import registered
    rows = [(f.name, f.version, f.identifies(), f.accessor._SCHEMA) for f in registered()]
    head = ("format", "version", "identified by", "schema")
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(4)]
    for r in [head, *rows]:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="binparse", description="Read accelerator artifacts and device buffers from declarative schemas.")
    sub = p.add_subparsers(dest="command", required=True)
    i = sub.add_parser("inspect", help="print the fields of a file")
    i.add_argument("file")
    i.add_argument("--format", help="format name (see `binparse schemas`); default: detect")
    i.add_argument("--json", action="store_true", help="JSON instead of a table")
    i.set_defaults(run=_inspect)
    g = sub.add_parser("generate", help="regenerate binparse/accessors from schemas/")
    g.add_argument("--check", action="store_true", help="only report stale modules (exit 1)")
    g.set_defaults(run=_generate)
    s = sub.add_parser("schemas", help="list known formats and what identifies them")
    s.set_defaults(run=_schemas)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except BinparseError as exc:
        print(f"binparse: error: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
