"""The `binparse` command: inspect, view, draw, pack, traces, compare, export, doctor, fixture, schema, generate, schemas.

The commands name no family: each speaks the protocols of `binparse.family`, and the families'
options and buffer-layout flags are added from their declarations (`binparse.plugins`).
Exit codes (`binparse.exitcodes`, docs/contracts.md): 0 everything named was read, verified and
agrees; 1 a problem was proven; 2 something could not be read or verified (named in the output);
3 usage or I/O error (bad arguments, a missing path, not a regular file, a write refused). Every
line printed has its control characters escaped (`binparse.text.shown_lines`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .. import exitcodes
from ..errors import BinparseError, PathError, UsageError, WriteError
from ..text import shown, shown_lines


COMMANDS = ("inspect", "view", "draw", "pack", "traces", "compare", "export", "repair", "fixture", "generate",
            "doctor", "schema", "schemas")


def _run(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command's function, imported when that command runs (start-up imports none of them)."""
    def run(args: argparse.Namespace) -> int:
        import importlib
        return int(getattr(importlib.import_module(f"binparse.cli.{module}"), name)(args))
    return run


def _family_options(sub: dict[str, argparse.ArgumentParser]) -> None:
    """Every family's options and layout flags, on the commands they declare."""
    from ..plugins import families
    helps: dict[tuple[str, str], list[str]] = {}
    first: dict[tuple[str, str], Any] = {}
    groups: dict[tuple[str, str], Any] = {}
    for fam in families():
        for opt in fam.options:
            for cmd in opt.commands:
                helps.setdefault((cmd, opt.flags[0]), []).append(opt.help)
                first.setdefault((cmd, opt.flags[0]), opt)
    for (cmd, _flag), opt in first.items():
        if cmd not in sub:
            continue
        target: Any = sub[cmd]
        if opt.group:
            target = groups.get((cmd, opt.group)) or groups.setdefault((cmd, opt.group),
                                                                        sub[cmd].add_mutually_exclusive_group())
        target.add_argument(*opt.flags, help="; ".join(dict.fromkeys(h for h in helps[(cmd, _flag)] if h)),
                            **opt.kwargs)
    for cmd in ("view", "pack", "draw"):
        if cmd not in sub:
            continue
        flags = sub[cmd].add_mutually_exclusive_group()
        for fam in families():
            for kind in fam.layouts:
                if kind.choices:
                    flags.add_argument(kind.flag, choices=kind.choices, help=kind.help)
                else:
                    flags.add_argument(kind.flag, action="store_true", help=kind.help)


EXIT_CODES = ("exit codes, the same for every command: 0 everything named was read, verified and agrees; "
              "1 a problem was proven (named in the output); 2 something could not be read or verified "
              "(named in the output) and no problem was proven; 3 usage or I/O error (bad arguments, a "
              "missing path, a path that is not a regular file, a write refused). Memory stays within "
              "8 x the input's size + 256 MiB whatever a file claims; writes go only to the path given, "
              "never through a link or onto anything but a regular file; names from files are printed "
              "with control characters escaped. docs/contracts.md says it all.")


class _Parser(argparse.ArgumentParser):
    """argparse with the contract's exit code for usage errors (3, not argparse's 2)."""

    def error(self, message: str) -> Any:
        self.print_usage(sys.stderr)
        self.exit(exitcodes.USAGE, f"{self.prog}: error: {shown(message)}\n")


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `only`, that command alone is built (a call runs one command:
    building the others is start-up time spent for nothing)."""
    p = _Parser(prog="binparse", description="Read accelerator artifacts and device buffers from "
                                             "declarative schemas.", epilog=EXIT_CODES)
    s = p.add_subparsers(dest="command", required=True)
    sub: dict[str, argparse.ArgumentParser] = {}

    def command(name: str, module: str, help: str) -> argparse.ArgumentParser:
        if only is not None and name != only:  # another command than the one run: not built at all
            return _Parser(add_help=False)
        c = sub[name] = s.add_parser(name, help=help)
        c.set_defaults(run=_run(module, name))
        return c

    i = command("inspect", "artifacts", "print the fields of a file (or a folder a family reads)")
    i.add_argument("file")
    i.add_argument("--format", help="format name (see `binparse schemas`); default: detect")
    i.add_argument("--json", action="store_true", help="JSON instead of a table")
    i.add_argument("--fields", action="store_true", help="every raw field instead of the family's summary")
    i.add_argument("-v", "--verbose", action="store_true", help="the family's whole report, not only its summary")
    v = command("view", "buffers", "write a tensor of a device buffer (or an artifact) as .npy, in logical order")
    v.add_argument("files", nargs="+", metavar="[SOURCE] BUFFER",
                   help="a descriptor and the buffer; a family flag's sources and the buffer; or one artifact")
    v.add_argument("--npy", required=True, help="where to write the array")
    v.add_argument("--dequantize", action="store_true", help="float32 real values (the family's quantisation rule)")
    v.add_argument("--tensor", help="a tensor the SOURCE names (MODEL/TENSOR in a pack)")
    v.add_argument("--stored", action="store_true", help="with --tensor: the elements as the device stores them "
                                                          "(blocked, padded) instead of logical order")
    v.add_argument("--net", help="the network that describes SOURCE (element types, scales), e.g. for a trace")
    d = command("draw", "buffers", "an SVG picture of a device buffer: data, padding and blocking, by role")
    d.add_argument("files", nargs="*", metavar="SOURCE", help="a descriptor, or a family flag's sources")
    d.add_argument("--svg", required=True, help="where to write the picture")
    d.add_argument("--tensor", help="a tensor of a model SOURCE: its stored blocking")
    k = command("pack", "buffers", "write a logical .npy array into a device buffer (padding zero)")
    k.add_argument("files", nargs="+", metavar="[SOURCE] ARRAY", help="as for view, with the .npy instead of the buffer")
    k.add_argument("--out", required=True, help="the buffer file to write")
    k.add_argument("--quantize", action="store_true", help="quantise float values (the family's rule)")
    for c in (v, d, k):
        c.add_argument("--format", help="format of the SOURCE file; default: detect")
    t = command("traces", "artifacts", "list the per-layer traces of a run, matched to their layers by the net")
    t.add_argument("dir")
    t.add_argument("--net", help="the network the run executed (element types, scales, layer names)")
    t.add_argument("--json", action="store_true")
    c = command("compare", "artifacts", "compare two runs layer by layer (SNR, differences, first divergence)")
    c.add_argument("a")
    c.add_argument("b", help="the other run, or a folder of reference .npy named by tensor")
    c.add_argument("--net", help="the network both runs executed")
    c.add_argument("--min-snr", type=float, default=30.0, help="SNR in dB below which a layer diverges (default 30)")
    c.add_argument("--svg", help="also write a plot of SNR by layer")
    c.add_argument("--json", action="store_true")
    e = command("export", "exporting", "write a model as a model another runtime runs (e.g. ONNX), and "
                                       "check it on the model's own test values")
    e.add_argument("file")
    e.add_argument("-o", "--out", help="where to write the exported model")
    e.add_argument("--check", action="store_true", help="run the export on the model's own test inputs and "
                                                         "compare with its test outputs (exit 1 if not reproduced)")
    e.add_argument("--all-outputs", action="store_true", help="every intermediate tensor also an output "
                                                               "(to compare with the device's dumps layer by layer)")
    e.add_argument("--json", action="store_true", help="with --check: JSON instead of text")
    r = command("repair", "repairing", "write a file anew with a defect its family knows undone (the input "
                                       "never changes)")
    r.add_argument("file")
    r.add_argument("-o", "--out", required=True, help="where to write the repaired file (not the input)")
    f = command("fixture", "tools", "write the artifacts, device buffers and expectations a spec describes")
    f.add_argument("spec", help="fixture spec (YAML; see README)")
    f.add_argument("-o", "--out", help="output folder (default: beside the spec)")
    g = command("generate", "tools", "regenerate binparse/accessors from schemas/")
    g.add_argument("--check", action="store_true", help="only report stale modules (exit 1)")
    dr = command("doctor", "artifacts", "what made each artifact in a folder, and whether they agree")
    dr.add_argument("path")
    dr.add_argument("--json", action="store_true")
    dr.add_argument("-r", "--recursive", action="store_true", help="also every folder below PATH, each on its own")
    sc = command("schema", "tools", "schemas from C headers, and differences between versions")
    scs = sc.add_subparsers(dest="schema_command", required=True)
    fh = scs.add_parser("from-header", help="turn a C struct into a .ksy")
    fh.add_argument("headers", nargs="+")
    fh.add_argument("--struct", required=True, help="typedef name or struct tag")
    fh.add_argument("--define", action="append", help="MACRO[=VALUE] (repeatable)")
    fh.add_argument("--pointer-size", type=int, choices=(4, 8), default=8)
    fh.add_argument("--id", help="meta/id of the schema (default: from the struct name)")
    fh.add_argument("--string", action="append", help="glob of char arrays to read as strings (default *Name)")
    fh.add_argument("--out", required=True)
    df = scs.add_parser("diff", help="fields added, removed, moved, resized between two versions")
    df.add_argument("a", help="a format name (binparse schemas) or a .ksy")
    df.add_argument("b")
    df.add_argument("--params-a", help="NAME=INT,... for a")
    df.add_argument("--params-b", help="NAME=INT,... for b")
    df.add_argument("--type", help="compare a nested type (e.g. layer) instead of the root")
    df.add_argument("--json", action="store_true")
    command("schemas", "tools", "list known formats and what identifies them")
    _family_options(sub)
    return p


def _plain_warnings() -> None:
    """Print `BinparseWarning`s as one `binparse: warning: …` line, not Python's file:line format."""
    import warnings

    from ..errors import BinparseWarning
    python_format = warnings.formatwarning

    def fmt(message: Warning | str, category: type[Warning], filename: str, lineno: int,
            line: str | None = None) -> str:
        if issubclass(category, BinparseWarning):
            return f"binparse: warning: {shown(message)}\n"
        return python_format(message, category, filename, lineno, line)

    warnings.formatwarning = fmt


class _Escaped:
    """A text stream whose writes have their control characters escaped (line breaks and tabs
    kept): whatever a file's names hold, nothing the commands print can move the cursor, recolour
    the terminal or set its title."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.unescaped = stream  # for `progress`, whose carriage returns are meant (its names are escaped)

    def write(self, text: str) -> int:
        return int(self._stream.write(shown_lines(text)))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def exit_code(exc: BaseException) -> int:
    """The contract's exit code of an error a command raised: 3 for usage and I/O (a path that is
    missing, unreadable or not a regular file; a write refused; options that do not fit, which is
    an error naming no input file), 2 for an input that could not be read (its content: the error
    names the file, and the field and offset)."""
    if isinstance(exc, (PathError, WriteError, UsageError, OSError)):
        return exitcodes.USAGE
    if isinstance(exc, BinparseError) and exc.file is None:  # about the command line, not a file's bytes
        return exitcodes.USAGE
    return exitcodes.UNVERIFIED


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = _Escaped(out), _Escaped(err)
    try:
        args = parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
        return int(args.run(args))
    except BinparseError as exc:
        print(f"binparse: error: {shown(exc)}", file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a write the system refused (no space, a read-only folder): I/O
        where = f"{shown(exc.filename)}: " if exc.filename else ""
        print(f"binparse: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return exitcodes.USAGE
    except (Exception, RecursionError) as exc:  # a bug: one line, never a traceback from deep inside
        if os.environ.get("BINPARSE_DEBUG"):
            raise
        print(f"binparse: error: binparse failed ({type(exc).__name__}: {shown(exc)}); nothing was verified. "
              "Please report it (BINPARSE_DEBUG=1 shows where)", file=sys.stderr)
        return exitcodes.UNVERIFIED
    finally:
        sys.stdout, sys.stderr = out, err


def console() -> int:
    """The `binparse` command itself: `main` with warnings printed as plain lines."""
    _plain_warnings()
    return main()


__all__ = ["EXIT_CODES", "console", "exit_code", "main", "parser"]
