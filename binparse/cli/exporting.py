"""`export`: an artifact written as a model another runtime runs, through the `Exportable` protocol.

The output is checked before anything is read (`check_new_output`): never through a link, never onto
a device or other non-regular file, never over the input."""

from __future__ import annotations

import argparse
import json

from ..errors import BinparseError
from ..exitcodes import OK
from ..family import Exportable
from .common import open_source, write_file


def export(args: argparse.Namespace) -> int:
    """`export FILE -o OUT [--check] [--all-outputs]`."""
    if not args.out and not args.check:
        raise BinparseError("nothing to do: give -o OUT (where to write the export) and/or --check", file=args.file)
    from ..fixtures.common import check_new_output
    out = check_new_output(args.out, args.file) if args.out else None  # before any work: never a link, a device
    obj = open_source(args.file, args)                                  # or the input itself
    if not isinstance(obj, Exportable):
        raise BinparseError("binparse does not export this kind of artifact", file=args.file,
                            hint="export takes a model a family knows how to write for another runtime")
    code = OK
    if out is not None:
        data, what = obj.export_model(args)
        check_new_output(out, args.file)  # again just before writing: nothing swapped in meanwhile
        write_file(str(out), data, what)
    if args.check:
        result = obj.check_export(args)
        print(json.dumps(result.summary(), indent=1) if args.json else result.report())
        code = int(result.exit_code)
    return code


__all__ = ["export"]
