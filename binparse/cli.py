"""The `binparse` command: inspect, view, generate, schemas.

Exit codes: 0 ok, 1 `generate --check` found stale modules, 2 usage error, 3 bad input
(the error's one-line message on stderr).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from typing import Any

from .errors import BinparseError


def _inspect(args: argparse.Namespace) -> int:
    from . import api, registry, render
    from .runtime import Accessor
    acc: Any = api.open(args.file, format=args.format)
    if not isinstance(acc, Accessor):  # text formats and folders: their own summary and report
        print(json.dumps({"file": args.file, **acc.summary()}, indent=1) if args.json else acc.report())
        return 0
    fmt = registry.get(args.format) if args.format else registry.format_of(acc)
    acc.validate()
    size = os.stat(args.file).st_size
    meta = {"file": args.file, "format": fmt.name, "size": size}
    family: Any = None if args.fields else acc if hasattr(acc, "summary") else None
    if args.json:
        doc = {**meta, **family.summary()} if family else {**meta, "version": fmt.version, "fields": render.plain_json(acc)}
        print(json.dumps(doc, indent=1))
    else:
        title = f"{args.file}: {fmt.name}, {fmt.version}, {size:,} bytes"
        print(title + "\n" + family.report() if family else render.table(acc, title))
    return 0


def _view(args: argparse.Namespace) -> int:
    import numpy as np

    from . import api
    from .errors import FormatError
    io = api.open(args.io_file, format=args.format)
    if not hasattr(io, "tensor"):
        raise FormatError("not an io descriptor with tensors", file=args.io_file)
    which: str | int = int(args.name) if args.name.isdigit() else args.name
    tensor = io.tensor(which, "input" if args.input else "output")
    buf = api.map_file(args.buffer)
    try:
        arr = tensor.dequantize(buf) if args.dequantize else tensor.view(buf)
    except BinparseError as exc:
        raise exc.with_file(args.buffer) from None
    out = np.ascontiguousarray(arr)
    with open(args.npy, "wb") as f:
        np.save(f, out)
    print(f"{args.npy}: {tensor.direction} {tensor.name or tensor.index}, {out.dtype}, shape {tuple(out.shape)}")
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
    i.add_argument("--fields", action="store_true", help="every raw field instead of the family's summary")
    i.set_defaults(run=_inspect)
    v = sub.add_parser("view", help="write a tensor of a device buffer as .npy (logical order, no padding)")
    v.add_argument("io_file", help="the io descriptor (*_tidl_io_1.bin)")
    v.add_argument("buffer", help="the raw device buffer, from its first byte, padding included")
    side = v.add_mutually_exclusive_group(required=True)
    side.add_argument("--output", dest="name", help="output tensor name or index")
    side.add_argument("--input", dest="input_name", help="input tensor name or index")
    v.add_argument("--npy", required=True, help="where to write the array")
    v.add_argument("--dequantize", action="store_true", help="float32 (q - zero point) / scale")
    v.add_argument("--format", help="format of the io file; default: detect")
    v.set_defaults(run=_view)
    g = sub.add_parser("generate", help="regenerate binparse/accessors from schemas/")
    g.add_argument("--check", action="store_true", help="only report stale modules (exit 1)")
    g.set_defaults(run=_generate)
    s = sub.add_parser("schemas", help="list known formats and what identifies them")
    s.set_defaults(run=_schemas)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "input_name", None) is not None:
        args.name, args.input = args.input_name, True
    elif hasattr(args, "input_name"):
        args.input = False
    try:
        return int(args.run(args))
    except BinparseError as exc:
        print(f"binparse: error: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
