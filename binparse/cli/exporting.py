"""`export`: an artifact written as a model another runtime runs, through the `Exportable` protocol.

The output is checked before anything is read (`binparse.writes`' rules: only a regular file is
replaced, never a link, device or folder) and is never the input itself."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from ..errors import UsageError, WriteError
from ..exitcodes import OK
from ..family import Exportable
from .common import open_source, write_file


def _target(out: str, source: str) -> Path:
    """Where the export may go: `binparse.writes`' rules, and never over the file it reads."""
    from ..text import shown
    from ..writes import check_target
    p, _ = check_target(out)
    if p.exists() and Path(source).exists() and os.path.samefile(p, source):
        raise WriteError("is the input: export never writes over the file it reads, nothing written", file=shown(p))
    return p


def export(args: argparse.Namespace) -> int:
    """`export FILE -o OUT [--check] [--all-outputs]`."""
    if not args.out and not args.check:
        raise UsageError("nothing to do: give -o OUT (where to write the export) and/or --check", file=args.file)
    out = _target(args.out, args.file) if args.out else None  # before any work
    obj = open_source(args.file, args)
    if not isinstance(obj, Exportable):
        raise UsageError("binparse does not export this kind of artifact", file=args.file,
                            hint="export takes a model a family knows how to write for another runtime")
    code = OK
    if out is not None:
        data, what = obj.export_model(args)
        _target(str(out), args.file)  # again just before writing (write_file checks the target once more)
        write_file(str(out), data, what)
    if args.check:
        result = obj.check_export(args)
        print(json.dumps(result.summary(), indent=1) if args.json else result.report())
        code = int(result.exit_code)
    return code


__all__ = ["export"]
