"""`inspect`, `traces`, `compare` and `doctor`: artifacts through the `Artifact` protocols."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

from ..core import exitcodes
from ..core import render
from ..core.errors import UsageError
from ..core.text import shown
from ..family import Artifact, Comparable
from .common import open_source, say, written


def inspect(args: argparse.Namespace) -> int:
    if args.param and not args.schema:
        raise UsageError("--param gives a param of a --schema's root type: give --schema too")
    given = [f for f, on in (("--offsets", args.offsets), ("--path", args.path), ("--raw", args.raw), ("-o", args.out))
             if on]
    if given and not args.schema:
        raise UsageError(f"{' and '.join(given)} go with --schema (a file read with your own .ksy)")
    if args.schema:
        from .ksy import inspect as inspect_schema
        return inspect_schema(args)
    return said_once(lambda: _inspect(args))


def said_once(run: Callable[[], tuple[str, int]]) -> int:
    """Print what a command says (`run` gives its text and exit code) and, on stderr, only the
    warnings that text does not say already: a layout not verified is the report's UNVERIFIED
    line, the JSON's "unverified", the doctor's NOT VERIFIED, and is not printed a second time;
    a warning raised twice (a file opened again, e.g. by a folder's summary and its report) is
    printed once."""
    import warnings
    text, code = "", exitcodes.OK
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            text, code = run()
    finally:
        for w in unsaid(caught, text, set()):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    print(text)
    return code


def unsaid(caught: list[Any], text: str, told: set[tuple[str, type]]) -> list[Any]:
    """The warnings of `caught` that `text` does not say and that were not told before (`told`, the
    (message, category) of those printed so far in the run, updated): each printed once a run."""
    out = []
    for w in caught:
        message = str(w.message)
        key = (message, w.category)
        if key in told or (text and (message in text or message.partition(": ")[2] in text)):
            continue
        told.add(key)
        out.append(w)
    return out


def _inspect(args: argparse.Namespace) -> tuple[str, int]:
    """What `inspect` prints, and its exit code."""
    from ..family import registry
    from ..engine.runtime import Accessor
    acc = open_source(args.file, args)
    if not isinstance(acc, Accessor):  # text formats, folders, traces: their own summary and report
        return _shown(args, acc), read_code(acc)
    fmt = registry.get(args.format) if args.format else registry.format_of(acc)
    acc.validate()
    size = os.stat(args.file).st_size
    # one meaning of each key in every command's JSON (docs/cli-conventions.md): `format` the
    # registered format, `format_version` its release and layout as the registry names it,
    # `version` the artifact's own version as its family names it (the summary's; the accessor's)
    meta = {"file": args.file, "format": fmt.name, "format_version": fmt.version, "size": size}
    family: Artifact | None = None if args.fields or not isinstance(acc, Artifact) else acc
    code = read_code(acc)  # --fields too: what was read unverified is said by the exit code
    if args.json:
        if family:
            doc = {**meta, **{k: v for k, v in family.summary().items() if k not in meta}}
        else:
            version = getattr(acc, "version", None)
            from ..engine.dump.fields import plain_json  # an accessor without a family's report only
            doc = {**meta, **({"version": version} if isinstance(version, str) else {}),
                   "fields": plain_json(acc)}
        return render.json_text(doc), code
    title = f"{shown(args.file)}: {fmt.name}, {fmt.version}, {size:,} bytes"
    if family:
        return title + "\n" + family.report(), code
    from ..engine.dump.fields import table  # an accessor without a family's report only
    return table(acc, title), code


def read_code(obj: object) -> int:
    """`inspect`'s exit code: 2 when the object says it was read only in part or with a layout no
    vendor file confirms (`unverified`, e.g. a nearest-layout net, an encrypted model without its
    key), or names what it could not read or check (`summary()["problems"]` or `["unread"]`, e.g. a
    payload that does not decode); else 0. `inspect` reads and shows, it proves nothing: `doctor` exits 1."""
    if obj is None:
        return exitcodes.OK
    if getattr(obj, "unverified", None):
        return exitcodes.UNVERIFIED
    summary = getattr(obj, "summary", None)
    doc = summary() if callable(summary) else {}
    return exitcodes.UNVERIFIED if isinstance(doc, dict) and (doc.get("problems") or doc.get("unverified")
                                                              or doc.get("unread")) else exitcodes.OK


def _shown(args: argparse.Namespace, obj: object, path: str | None = None) -> str:
    if not isinstance(obj, Artifact):
        raise UsageError("binparse can open this but has nothing to show of it", file=path or args.file)
    if args.json:
        return render.json_text({"file": path or args.file, **obj.summary()})
    details = getattr(obj, "details", None) if getattr(args, "fields", False) else None
    return str(details()) if callable(details) else obj.report()  # --fields: an artifact's every field, if it has them


def _show(args: argparse.Namespace, obj: object, path: str | None = None) -> int:
    print(_shown(args, obj, path))
    return read_code(obj)


def traces(args: argparse.Namespace) -> int:
    """`traces DIR [--net NET]`: every per-layer trace of a run, matched to its layer by the net."""
    obj = open_source(args.dir, args)
    kind = obj.summary().get("kind") if isinstance(obj, Artifact) else None
    if kind != "traces":
        raise UsageError("not a folder of layer traces", file=args.dir, found=kind or type(obj).__name__,
                         hint="a folder of the per-layer trace files a runtime wrote")
    return _show(args, obj, args.dir)


def compare(args: argparse.Namespace) -> int:
    """`compare A B [--net NET]`: two runs (or a run and references) compared, layer by layer."""
    a = open_source(args.a, args)
    if not isinstance(a, Comparable):
        raise UsageError("binparse does not compare this kind of artifact", file=args.a,
                         hint="compare takes two folders of layer traces (or traces and reference .npy files)")
    result = a.compare(open_source(args.b, args), min_snr_db=args.min_snr)
    lines: list[str] = []
    doc = result.summary()
    if args.svg:
        svg = getattr(result, "svg", None)
        if not callable(svg):
            raise UsageError("this comparison has no picture", file=args.a)
        from ..core.writes import write_bytes
        data = str(svg()).encode()
        write_bytes(args.svg, data)
        lines.append(f"{shown(args.svg)}: {len(data):,} bytes")
        doc = {**doc, "written": [written(args.svg, len(data), "SNR by layer (SVG)")]}
    say(args, [*lines, result.report()], doc)
    return compare_code(result.summary())


def compare_code(doc: dict[str, object]) -> int:
    """`compare`'s exit code: 1 when the runs diverge (`first_divergence`, named in the output: two
    files that contradict each other), 2 when something was not compared (`unmatched` on either
    side), else 0."""
    if doc.get("first_divergence") is not None:
        return exitcodes.PROBLEM
    unmatched = doc.get("unmatched")
    if isinstance(unmatched, dict) and any(unmatched.values()):
        return exitcodes.UNVERIFIED
    return exitcodes.OK


def doctor(args: argparse.Namespace) -> int:
    from .doctor import doctor as run, doctor_tree, exit_code, report_text
    if args.recursive and not args.json:
        return _doctor_streamed(args)

    def said() -> tuple[str, int]:
        doc = doctor_tree(args.path, args) if args.recursive else run(args.path, args)
        return render.json_text(doc) if args.json else report_text(doc, args.verbose), exit_code(doc)
    return said_once(said)


def _doctor_streamed(args: argparse.Namespace) -> int:
    """`doctor -r` as text: each folder's report printed as soon as it is made (a progress line counts
    the folders meanwhile, on a terminal), then the tally; on stderr, the warnings no report says."""
    import warnings
    from ..core import progress
    from .doctor import doctor_tree, exit_code, report_text
    from .doctor_text import tally_line
    show = warnings.showwarning  # the command's own, outside the recording below
    told: set[tuple[str, type]] = set()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seen = 0

        def say(text: str) -> None:
            nonlocal seen
            progress.clear()
            print(text, flush=True)
            for w in unsaid(caught[seen:], text, told):
                show(w.message, w.category, w.filename, w.lineno)
            seen = len(caught)
        doc = doctor_tree(args.path, args, each=lambda d: say(report_text(d, args.verbose) + "\n"))
        say(tally_line(doc))
    return exit_code(doc)


__all__ = ["compare", "compare_code", "doctor", "inspect", "read_code", "said_once", "traces"]
