"""`view`, `pack` and `draw`: a device buffer through a family's `BufferLayout`.

The layout comes from a family's layout flag (the family builds it from its options and the
SOURCE files it takes) or from the SOURCE itself (`LayoutSource`: a descriptor of device buffers
with the options that pick one of its tensors). `view --tensor NAME` and
`view SOURCE` of a one-tensor source read through `TensorSource`.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..core.errors import BinparseError, UsageError
from ..core.text import shown
from ..family import BufferLayout, LayoutKind, LayoutSource, TensorSource
from ..family.hints import command
from .common import open_source, save_npy, say, write_file, written


def _files(args: argparse.Namespace, second: str) -> list[str]:
    """The file arguments given, in order: SOURCE, then BUFFER or ARRAY.npy (`second`)."""
    return [f for f in (getattr(args, "source", None), getattr(args, second, None)) if f]


def chosen_kind(args: argparse.Namespace) -> LayoutKind | None:
    """The family layout flag given on the command line, if any."""
    from ..family.plugins import families
    for fam in families():
        for kind in fam.layouts:
            if getattr(args, kind.dest, None):
                return kind
    return None


def _layout(args: argparse.Namespace, files: list[str], what: str) -> BufferLayout:
    """The layout of the buffer (or array) that is the last of `files` (`what` names the files)."""
    kind = chosen_kind(args)
    if kind is not None:
        given = len(files) - (what != "draw")
        least = kind.sources if kind.min_sources is None else kind.min_sources
        if not least <= given <= kind.sources:
            want = " ".join(["SOURCE"] * kind.sources + ([] if what == "draw" else [what.upper()]))
            if least < kind.sources:
                want = f"{want} (SOURCE optional)"
            raise UsageError(f"{kind.flag} takes {want or 'no file'}", found=" ".join(files) or "none")
        from ..family.plugins import resolve
        make = resolve(kind.make)
        return make(args, files[:given])  # type: ignore[no-any-return]
    if len(files) != 1 + (what != "draw"):
        raise UsageError(f"expected SOURCE{'' if what == 'draw' else ' ' + what.upper()}, or a family flag "
                         f"({command(args.command, '--help')} lists them)", found=" ".join(files) or "none")
    source = open_source(files[0], args)
    if not isinstance(source, LayoutSource):
        raise UsageError("this file describes no device buffer", file=files[0],
                            hint="give an io descriptor or compile folder, or a family flag with its options")
    return source.buffer_layout(args)


def view(args: argparse.Namespace) -> int:
    from ..core.filemap import map_file
    from ..core.progress import LONG_BUFFER_BYTES, task
    if args.param and not args.schema:
        raise UsageError("--param gives a param of a --schema's root type: give --schema too")
    files = _files(args, "buffer")
    if args.schema:
        from .ksy import view as view_schema
        args.files = files
        return view_schema(args)
    if args.tensor is not None or (len(files) == 1 and chosen_kind(args) is None):
        return _view_named(args, files)
    buf = map_file(files[-1])
    with task(f"viewing {files[-1]} ({len(buf) / 2**20:,.0f} MB)", long=len(buf) > LONG_BUFFER_BYTES):
        layout = _layout(args, files, "buffer")
        try:
            arr, what = layout.view_array(buf, dequantize=args.dequantize)
        except BinparseError as exc:
            raise exc.with_file(files[-1]) from None
    line, rec = save_npy(args.npy, arr, what)
    say(args, [line], {"written": [rec]})
    return 0


def _view_named(args: argparse.Namespace, files: list[str]) -> int:
    """`view SOURCE [BUFFER] [--tensor NAME]`: any artifact that names its tensors (`TensorSource`)."""
    from ..core.filemap import map_file
    if not 1 <= len(files) <= 2:
        raise UsageError("expected SOURCE [BUFFER] with --tensor", found=" ".join(files))
    source = open_source(files[0], args)
    if not isinstance(source, TensorSource):
        raise UsageError("this file names no tensors that `view --tensor` can read", file=files[0],
                         hint="a descriptor of device buffers takes SOURCE BUFFER and its options; "
                              f"family flags ({command('view', '--help')}) describe a buffer by themselves")
    buf = map_file(files[1]) if len(files) == 2 else None
    arr, what = source.tensor_array(args.tensor, buf, stored=args.stored, dequantize=args.dequantize)
    line, rec = save_npy(args.npy, arr, what)
    say(args, [line], {"written": [rec]})
    return 0


def pack(args: argparse.Namespace) -> int:
    import numpy as np
    files = _files(args, "array")
    if not files:
        raise UsageError("expected [SOURCE] ARRAY")
    layout = _layout(args, files, "array")
    from ..core.filemap import map_npy
    try:  # mapped: a header that claims more elements than the file holds is refused, not allocated
        logical = map_npy(files[-1])  # a FIFO or device is refused, not read (it could hang)
    except (OSError, ValueError) as exc:
        raise BinparseError(f"cannot read the array: {exc}", file=files[-1]) from None
    data, what = layout.pack_bytes(logical, quantize=args.quantize)
    line, rec = write_file(args.out, data, what)
    say(args, [line], {"written": [rec]})
    return 0


def draw(args: argparse.Namespace) -> int:
    from ..family.draw import render
    from ..core.progress import LONG_BUFFER_BYTES, task
    from ..core.writes import write_bytes
    memory: Any = _layout(args, _files(args, "none"), "draw").memory_map()
    rows, cols = memory.shape
    with task(f"drawing {rows * cols:,} elements", long=rows * cols > LONG_BUFFER_BYTES // 8):
        data = render(memory).encode()
    write_bytes(args.svg, data)
    say(args, [f"{shown(args.svg)}: {shown(memory.title)}, {len(data):,} bytes"],
        {"written": [written(args.svg, len(data), memory.title)]})
    return 0


__all__ = ["chosen_kind", "draw", "pack", "view"]
