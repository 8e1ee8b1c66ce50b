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
    """The root accessor of `file` (`-`: standard input, read into memory within the budget), with the
    root's params from `--param`."""
    from .ksyparams import root_params
    params = root_params(args, reader)
    if file == "-":
        from ..core.filemap import STDIN, read_stdin
        data = read_stdin()
        return reader.root_class.from_buffer(data, file=STDIN, **params)
    from ..core.paths import require_regular
    require_regular(file)  # a FIFO or device is refused before it is read
    return reader.parse(file, **params)


def _output(args: argparse.Namespace) -> str:
    """The output format of `inspect --schema`: text, json or yaml (`--json` or `--format`)."""
    from ..engine.dump.tree import FORMATS
    fmt = (args.format or ("json" if args.json else "text")).lower()
    if fmt not in FORMATS:
        raise UsageError(f"with --schema, --format is how to print: {', '.join(FORMATS)}", found=args.format)
    if args.json and fmt != "json":
        raise UsageError(f"--json and --format {fmt} say two different things: give one")
    return fmt


def inspect(args: argparse.Namespace) -> int:
    """`inspect FILE --schema S.ksy [--json|--format yaml] [--offsets] [--path P]`: the tree (seq fields,
    then instances), written as it is read; `--raw PATH -o OUT` the bytes of one field."""
    from ..engine.dump import tree
    if args.fields or args.verbose:
        raise UsageError("--schema reads the file with that schema: --fields and -v do not apply")
    fmt = _output(args)
    if bool(args.raw) != bool(args.out):
        raise UsageError("--raw PATH and -o OUT.bin go together: the bytes of the field at PATH, written to OUT.bin")
    if args.file != "-":
        from ..core.paths import require_regular
        require_regular(args.file)  # a missing input is said before anything about the schema
    reader = compiled(args)
    root = parsed(reader, args.file, args)
    if args.raw:
        return _raw(root, args)
    import sys
    size = memoryview(root._mv).nbytes
    title = f"{args.file}: {reader.id} ({args.schema}), {size:,} bytes" if fmt == "text" else ""
    walk = tree.dump(root, sys.stdout, fmt, offsets=args.offsets, path=args.path or "", title=title,
                     name=f"inspect {args.file}", size=size)
    for line in walk.notes:  # read, only not printed inside itself: a note, not something unread
        print(f"binparse: note: {shown(line)}", file=sys.stderr)
    for line in walk.unread:
        print(f"binparse: not read: {shown(line)}", file=sys.stderr)
    return exitcodes.UNVERIFIED if walk.unread else exitcodes.OK


def _raw(root: Any, args: argparse.Namespace) -> int:
    """`--raw PATH -o OUT`: a byte array's value (after any `process`), else the bytes the value spans."""
    import numpy as np
    from ..engine.dump import tree
    from ..engine.dump.values import is_bytes
    from .common import say, write_file
    t = tree.find(root, args.raw)
    v, sp = t.value, t.span
    if is_bytes(v, t.case or t.spec) or isinstance(v, np.ndarray) and v.dtype == np.uint8 and t.spec is not None \
            and t.spec.kind in ("bytes", "contents"):
        data: Any = np.ascontiguousarray(v).data.cast("B")
        what = f"{args.raw} of {args.file} ({data.nbytes:,} bytes" + (
            f", its value after process: {sp.end - sp.start:,} bytes at {sp.start:,} in the file)" if sp is not None
            and t.spec is not None and t.spec.process is not None else ")")
    elif sp is not None and sp.end >= 0:
        data = t.stream()[sp.start:sp.end]
        where = f"of the bytes {sp.stream.partition('.')[2] or sp.stream}'s process made" if sp.stream else \
            f"of {args.file}"
        what = f"{args.raw}: bytes {sp.start:,}..{sp.end:,} {where} ({sp.end - sp.start:,} bytes)"
    else:
        raise UsageError(f"{args.raw} has no bytes: a value instance, a field whose `if` is false, or a record "
                         "that breaks off (where it ends is not known)", file=args.file)
    line, rec = write_file(args.out, data, what)
    say(args, [line], {"written": [rec]})
    return exitcodes.OK


def explore(args: argparse.Namespace) -> int:
    """`explore FILE --schema S.ksy -o PAGE.html`: the explorer page (`engine.dump.explorer`)."""
    import sys
    from ..engine.dump.explorer import write_page
    from .common import say, written
    if not args.schema:
        raise UsageError("explore reads FILE with a Kaitai Struct schema: give --schema S.ksy")
    if args.file != "-":
        from ..core.paths import require_regular
        require_regular(args.file)  # a missing input is said before anything about the schema
    reader = compiled(args)
    root = parsed(reader, args.file, args)
    page = write_page(args.out, root, title=f"{args.file}: {reader.id} ({args.schema})",
                      path_in_tree=args.path or "",
                      max_bytes=args.max_bytes, name=f"explore {args.file}")
    for line in page.walk.notes:
        print(f"binparse: note: {shown(line)}", file=sys.stderr)
    for line in page.walk.unread:
        print(f"binparse: not read: {shown(line)}", file=sys.stderr)
    for line in page.capped:
        print(f"binparse: note: {shown(line)}", file=sys.stderr)
    what = f"the explorer page of {args.file}: {page.nodes:,} fields, {page.embedded:,} of {page.size:,} bytes"
    say(args, [f"{shown(args.out)}: {shown(what)}"], {"written": [written(args.out, page.written, what)]})
    return exitcodes.UNVERIFIED if page.walk.unread else exitcodes.OK


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
    from ..core.paths import require_regular
    require_regular(args.files[0])  # a missing input is said before anything about the schema
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
    """`fixture VALUES.yaml --schema S.ksy -o OUT.bin`: the bytes of the values, built by the schema;
    `fixture --schema S.ksy --from FILE --set PATH=VALUE -o OUT.bin`: FILE's values, some changed,
    written back (what did not change keeps FILE's bytes)."""
    from .common import say, write_file
    if not args.out:
        raise UsageError("with --schema, fixture writes one file: give -o OUT.bin")
    if args.from_file:
        data, what = _rebuilt(args)
    else:
        data, what = _built(args)
    line, rec = write_file(args.out, data, what)
    say(args, [line], {"written": [rec]})
    return exitcodes.OK


def _rebuilt(args: argparse.Namespace) -> tuple[bytes, str]:
    from ..core.paths import require_regular
    from ..engine.serialize import ConsistencyError
    from ..engine.serialize.setpath import apply_set
    if args.spec:
        raise UsageError("--from builds from FILE's values: give no VALUES.yaml with it", found=args.spec)
    require_regular(args.from_file)  # the input is checked before the schema is compiled
    reader = compiled(args)
    root = parsed(reader, args.from_file, args)
    from ..engine.runtime import Accessor
    Accessor.validate(root)  # the base's own (a schema's field may be called validate or to_dict)
    values = Accessor.to_dict(root)
    for item in args.set or []:
        apply_set(values, item, root)
    try:
        data = reader.build(values, original=root)
    except ConsistencyError as exc:  # the values --set gave: a usage error (exit code 3), not the file's
        raise UsageError(exc.message, file=exc.file, path=exc.path, expected=exc.expected, found=exc.found,
                         hint=exc.hint) from None
    changed = f", {len(args.set)} value(s) set" if args.set else ""
    return data, f"{len(data):,} bytes of {reader.id} from {shown(args.from_file)}{changed}"


def _built(args: argparse.Namespace) -> tuple[bytes, str]:
    from ..core.documents import load_yaml
    from ..core.paths import read_text, require_regular
    from ..engine.schema import load_schema
    from ..engine.serialize import build
    if args.set:
        raise UsageError("--set changes values of a file read with --from FILE")
    if not args.spec:
        raise UsageError("give the values (VALUES.yaml), or --from FILE to build from a file's values")
    require_regular(args.spec)  # the input is checked before the schema is compiled
    schema = load_schema(args.schema, import_path=args.import_path or [])
    values = load_yaml(read_text(args.spec), file=args.spec, what="the values")  # aliases and nesting bounded
    if not isinstance(values, dict):
        raise UsageError("the values are a YAML mapping of the root's field ids", file=args.spec)
    params = {p.id: values.pop(p.id) for p in schema.root.params if p.id in values}
    data = build(schema, values, params=params, file=args.spec)
    return data, f"{len(data):,} bytes of {schema.id}"


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


__all__ = ["compiled", "explore", "fixture", "generate", "inspect", "parsed", "view"]
