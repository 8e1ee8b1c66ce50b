"""`inspect`, `traces`, `compare` and `doctor`: artifacts through the `Artifact` protocols."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from ..errors import BinparseError
from ..family import Artifact, Comparable
from .common import open_source


def inspect(args: argparse.Namespace) -> int:
    from .. import registry, render
    from ..runtime import Accessor
    acc = open_source(args.file, args)
    if not isinstance(acc, Accessor):  # text formats, folders, traces: their own summary and report
        return _show(args, acc)
    fmt = registry.get(args.format) if args.format else registry.format_of(acc)
    acc.validate()
    size = os.stat(args.file).st_size
    meta = {"file": args.file, "format": fmt.name, "size": size}
    family: Artifact | None = None if args.fields or not isinstance(acc, Artifact) else acc
    if args.json:
        doc = {**meta, **family.summary()} if family else {**meta, "version": fmt.version, "fields": render.plain_json(acc)}
        print(json.dumps(doc, indent=1))
    else:
        title = f"{args.file}: {fmt.name}, {fmt.version}, {size:,} bytes"
        print(title + "\n" + family.report() if family else render.table(acc, title))
    return 0


def _show(args: argparse.Namespace, obj: object, path: str | None = None) -> int:
    if not isinstance(obj, Artifact):
        raise BinparseError("binparse can open this but has nothing to show of it", file=path or args.file)
    details = getattr(obj, "details", None) if getattr(args, "fields", False) else None
    text = details() if callable(details) else obj.report()  # --fields: an artifact's every field, if it has them
    print(json.dumps({"file": path or args.file, **obj.summary()}, indent=1) if args.json else text)
    return 0


def traces(args: argparse.Namespace) -> int:
    """`traces DIR [--net NET]`: every per-layer trace of a run, matched to its layer by the net."""
    obj = open_source(args.dir, args)
    kind = obj.summary().get("kind") if isinstance(obj, Artifact) else None
    if kind != "traces":
        raise BinparseError("not a folder of layer traces", file=args.dir, found=kind or type(obj).__name__,
                            hint="a folder of the per-layer trace files a runtime wrote")
    return _show(args, obj, args.dir)


def compare(args: argparse.Namespace) -> int:
    """`compare A B [--net NET]`: two runs (or a run and references) compared, layer by layer."""
    a = open_source(args.a, args)
    if not isinstance(a, Comparable):
        raise BinparseError("binparse does not compare this kind of artifact", file=args.a,
                            hint="compare takes two folders of layer traces (or traces and reference .npy files)")
    result = a.compare(open_source(args.b, args), min_snr_db=args.min_snr)
    if args.svg:
        svg = getattr(result, "svg", None)
        if not callable(svg):
            raise BinparseError("this comparison has no picture", file=args.a)
        from ..fixtures.common import write_atomic
        data = str(svg()).encode()
        write_atomic(Path(args.svg), data)
        print(f"{args.svg}: {len(data):,} bytes")
    print(json.dumps(result.summary(), indent=1) if args.json else result.report())
    return 0


def doctor(args: argparse.Namespace) -> int:
    from ..doctor import doctor as run, doctor_tree, report_text
    doc = doctor_tree(args.path, args) if args.recursive else run(args.path, args)
    print(json.dumps(doc, indent=1) if args.json else report_text(doc))
    return 0 if doc["status"] == "ok" else 1


__all__ = ["compare", "doctor", "inspect", "traces"]
