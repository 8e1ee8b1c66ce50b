"""`export`: an artifact written as a model another runtime runs, through the `Exportable` protocol.

The output is checked before anything is read (`binparse.core.writes`' rules: only a regular file is
replaced, never a link, device or folder) and is never the input itself."""

from __future__ import annotations

import argparse
from typing import Any

from ..core.errors import UsageError
from ..core.exitcodes import OK
from ..family import Exportable
from ..core.writes import check_target
from .common import open_source, say, write_file


def export(args: argparse.Namespace) -> int:
    """`export FILE -o OUT [--check] [--all-outputs] [--json]`: with --json, the check's document
    (--check) and what was written (-o: "written")."""
    if not args.out and not args.check:
        raise UsageError("nothing to do: give -o OUT (where to write the export) and/or --check", file=args.file)
    out = check_target(args.out)[0] if args.out else None  # before any work (never over an input: binparse.core.writes)
    obj = open_source(args.file, args)
    if not isinstance(obj, Exportable):
        raise UsageError("binparse does not export this kind of artifact", file=args.file,
                            hint="export takes a model a family knows how to write for another runtime")
    code = OK
    doc: dict[str, Any] = {}
    if out is not None:
        data, what = obj.export_model(args)
        line, rec = write_file(str(out), data, what)
        doc["written"] = [rec]
        if not args.json:
            print(line)  # said before the check runs (it may take long, or fail)
    if args.check:
        result = obj.check_export(args)
        doc = {**result.summary(), **doc}
        code = int(result.exit_code)
        if not args.json:
            print(result.report())
    if args.json:
        say(args, [], doc)
    return code


__all__ = ["export"]
