"""`export`: an artifact written as a model another runtime runs, through the `Exportable` protocol.

The output is checked before anything is read (`binparse.writes`' rules: only a regular file is
replaced, never a link, device or folder) and is never the input itself."""

from __future__ import annotations

import argparse

from ..errors import UsageError
from ..exitcodes import OK
from ..family import Exportable
from ..render import json_text
from ..writes import check_target
from .common import open_source, write_file


def export(args: argparse.Namespace) -> int:
    """`export FILE -o OUT [--check] [--all-outputs]`."""
    if not args.out and not args.check:
        raise UsageError("nothing to do: give -o OUT (where to write the export) and/or --check", file=args.file)
    out = check_target(args.out)[0] if args.out else None  # before any work (never over an input: binparse.writes)
    obj = open_source(args.file, args)
    if not isinstance(obj, Exportable):
        raise UsageError("binparse does not export this kind of artifact", file=args.file,
                            hint="export takes a model a family knows how to write for another runtime")
    code = OK
    if out is not None:
        data, what = obj.export_model(args)
        write_file(str(out), data, what)
    if args.check:
        result = obj.check_export(args)
        print(json_text(result.summary()) if args.json else result.report())
        code = int(result.exit_code)
    return code


__all__ = ["export"]
