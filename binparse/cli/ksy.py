"""The commands on a user's own Kaitai Struct schema: `inspect --schema`, `view --schema`,
`fixture --schema`, `generate SCHEMA.ksy… -o PACKAGE_DIR`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..core import exitcodes
from ..core import render
from ..core.errors import UsageError
from ..core.text import shown


def compiled(args: argparse.Namespace) -> Any:
    """`binparse.compile` of `--schema` with the `--import-path` folders."""
    from ..engine.compiler import compile as compile_ksy
    from ..core.paths import require_regular
    require_regular(args.schema)  # a FIFO or device is refused before it is read
    return compile_ksy(args.schema, import_path=args.import_path or [])


def parsed(reader: Any, file: str, args: argparse.Namespace) -> Any:
    """The root accessor of `file`, with the root's params from `--param`."""
    from .ksyparams import root_params
    return reader.parse(file, **root_params(args, reader))


def inspect(args: argparse.Namespace) -> int:
    """`inspect FILE --schema S.ksy [--json]`: the whole tree (seq fields, then instances)."""
    from ..engine.dump import tree
    from ..core.paths import require_regular
    if args.fields or args.verbose or args.format:
        raise UsageError("--schema reads the file with that schema: --format, --fields and -v do not apply")
    reader = compiled(args)
    require_regular(args.file)
    root = parsed(reader, args.file, args)
    from ..engine.runtime import Accessor
    Accessor.validate(root)  # the seq is read whole, as Kaitai reads it (the base's own: a field may be called validate)
    if args.json:
        doc, skipped, inside = tree.json_tree(root)
        print(render.json_text(doc))
        for line in inside:  # read, only not printed inside itself: a note, not something unread
            print(f"binparse: note: {shown(line)}", file=sys.stderr)
    else:
        import os
        skipped = []
        title = f"{shown(args.file)}: {shown(reader.id)} ({shown(args.schema)}), {os.stat(args.file).st_size:,} bytes"
        rows = tree.text_rows(root)
        print("\n".join([title, *render.columns(("field", "offset", "type", "value"), rows, indent="")]))
        skipped = [f"{r[0]}: {r[3][len('not read: '):]}" for r in rows if r[3].startswith("not read: ")]
    for line in skipped:
        print(f"binparse: not read: {shown(line)}", file=sys.stderr)
    return exitcodes.UNVERIFIED if skipped else exitcodes.OK


def view(args: argparse.Namespace) -> int:
    """`view FILE --schema S.ksy --tensor EXPR --npy OUT.npy`: an array field (a Kaitai expression on
    the root, e.g. `frames[2].pixels`) written as .npy."""
    import numpy as np
    from ..engine.expr import ExprError, evaluate, parse
    from ..engine.runtime.evaluate import _Scope
    from .common import save_npy, say
    if len(args.files) != 1 or not args.tensor:
        raise UsageError("with --schema, view takes one FILE and --tensor FIELD (an expression such as "
                         "frames[2].pixels)", found=" ".join(args.files))
    reader = compiled(args)
    root = parsed(reader, args.files[0], args)
    try:  # through the one evaluator: names the schema declares and Kaitai's methods, nothing else
        value = evaluate(parse(args.tensor), _Scope(root))
    except ExprError as exc:
        raise UsageError(f"--tensor {args.tensor!r} is not a field expression: {exc}") from None
    except (TypeError, IndexError, KeyError, ValueError, ZeroDivisionError, AttributeError) as exc:
        raise UsageError(f"--tensor {args.tensor!r}: {exc}", file=args.files[0]) from None
    if isinstance(value, np.ndarray):
        arr = value
    else:
        arr = np.asarray(getattr(value, "array", value))
        if arr.dtype == object or arr.ndim == 0 and not np.issubdtype(arr.dtype, np.number):
            raise UsageError(f"--tensor {args.tensor!r} is no array of numbers", file=args.files[0],
                             found=type(value).__name__)
    line, rec = save_npy(args.npy, arr, f"{args.tensor} of {args.files[0]}")
    say(args, [line], {"written": [rec]})
    return exitcodes.OK


def fixture(args: argparse.Namespace) -> int:
    """`fixture VALUES.yaml --schema S.ksy -o OUT.bin`: the bytes of the values, built by the schema."""
    from ..engine.backends import construct_backend as cb
    from ..core.documents import load_yaml
    from ..core.paths import read_text
    from ..engine.schema import load_schema
    from .common import write_file
    if not args.out:
        raise UsageError("with --schema, fixture writes one file: give -o OUT.bin")
    schema = load_schema(args.schema, import_path=args.import_path or [])
    values = load_yaml(read_text(args.spec), file=args.spec, what="the values")  # aliases and nesting bounded
    if not isinstance(values, dict):
        raise UsageError("the values are a YAML mapping of the root's field ids", file=args.spec)
    params = {p.id: values.pop(p.id) for p in schema.root.params if p.id in values}
    data = cb.build(schema, values, **params)
    write_file(args.out, data, f"{len(data):,} bytes of {schema.id}")
    return exitcodes.OK


def generate(args: argparse.Namespace) -> int:
    """`generate SCHEMA.ksy… -o PACKAGE_DIR`: typed modules of the user's own package."""
    from ..engine.codegen import write_package
    if not args.out:
        raise UsageError("give -o PACKAGE_DIR: where the generated package goes (binparse's own schemas "
                         "are generated by the generate command given no files)")
    name = Path(args.out).name
    if not name.isidentifier():
        raise UsageError(f"{name!r} cannot be a Python package name (letters, digits and _)", found=args.out)
    written = write_package(args.schemas, args.out, args.import_path or [])
    for p in written:
        print("wrote: " + shown(str(p)))
    if not written:
        print(f"{shown(args.out)} is up to date")
    return exitcodes.OK


__all__ = ["compiled", "fixture", "generate", "inspect", "view"]
