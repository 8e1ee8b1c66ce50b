"""`repair FILE -o FIXED`: a file whose defect its family can undo, written anew (the input never changes)."""

from __future__ import annotations

import argparse

from ..core.errors import BinparseError
from ..family import Repairable
from ..family.hints import command
from ..core.text import shown
from .common import open_source, say, written


def repair(args: argparse.Namespace) -> int:
    from ..family.fixtures.common import check_new_output, write_atomic
    obj = open_source(args.file, args)
    if not isinstance(obj, Repairable):
        raise BinparseError("binparse knows no repair for this kind of file", file=args.file,
                            hint=f"{command('doctor', args.file)} says what is wrong with it")
    out = check_new_output(args.out, args.file)
    data, what = obj.repaired(args)
    write_atomic(out, data)
    say(args, [f"{shown(args.out)}: {len(data):,} bytes; {shown(what)}"], {"written": [written(args.out, len(data), what)]})
    return 0


__all__ = ["repair"]
