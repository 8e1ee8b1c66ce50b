"""The command line's declaration: every command, its arguments and their help.

Only the command being run is built (`parser(only)`): building the others, and their families'
option groups, would be start-up time spent for nothing. Bare `binparse` (or `binparse --help`)
builds the list of commands alone. Each command's `--help` shows a usage line, what the command
does, its own options, then one group of options per family that adds some (`family_args`), and
an `Examples:` section of command lines that run on the bundled fixtures.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from ..core.exitcodes import USAGE
from .argparser import Parser, VersionAction, version
from .ksyargs import dump_options, explore_arguments
from .ksyargs import param_option as _param_option
from .ksyargs import schema_options as _schema_options

COMMANDS = ("inspect", "explore", "view", "draw", "pack", "traces", "compare", "export", "repair", "fixture", "generate",
            "doctor", "schema", "schemas")

EXIT_CODES = """exit codes (every command):
  0  everything named was read, verified and agrees
  1  a problem was proven (a vendor's tool would refuse it, or two files contradict each other)
  2  something could not be read or verified (named in the output), and no problem was proven
  3  usage or I/O error (bad arguments, a missing path, a path that is not a regular file,
     a write refused)
memory stays within 8 x the input's size + 256 MiB whatever a file claims; writes go only to the
path given, never through a link or onto anything but a regular file; names from files are
printed with control characters escaped (docs/contracts.md)"""

OVERVIEW = ("Read, check and write the binary artifacts and device buffers of deep-learning accelerator\n"
            "toolchains ({families}),\nfrom declarative schemas.")


def _run(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command's function, imported when that command runs (start-up imports none of them)."""
    def run(args: argparse.Namespace) -> int:
        import importlib
        return int(getattr(importlib.import_module(f"binparse.cli.{module}"), name)(args))
    return run


# name: (module, one line for the overview, usage, description)
_COMMANDS: dict[str, tuple[str, str, str, str]] = {
    "inspect": ("artifacts", "what a file (or a folder a family reads) holds: a summary, or every field",
                "%(prog)s PATH [-v] [--fields] [--json] [--format NAME] [options]\n"
                "       %(prog)s FILE|- --schema S.ksy [--json|--format yaml] [--offsets] [--path PATH] [options]\n"
                "       %(prog)s FILE|- --schema S.ksy --raw PATH -o OUT.bin [options]",
                "Print what PATH holds: the family's summary (its version, tensors, layers, totals), with -v\n"
                "the family's whole report, or with --fields every raw field of its schema with its offset\n"
                "and type. With --schema, every field and instance of FILE (- reads standard input) as that\n"
                "Kaitai Struct schema reads it, written as it is read: a table (the tree indented, each\n"
                "value's offset, size and the type read), JSON or YAML (--offsets: each value's place)."),
    "explore": ("ksy", "an HTML page to explore a file read with a schema: its bytes beside its value tree",
                "%(prog)s FILE --schema S.ksy -o PAGE.html [--path PATH] [--max-bytes SIZE] [options]",
                "Write one self-contained HTML page (no network, no server) that shows FILE's bytes in hex\n"
                "beside the value tree its schema reads: choosing a field highlights its bytes, choosing a\n"
                "byte selects the innermost field that covers it. A big file is shown a page of bytes at a\n"
                "time; the page holds its first --max-bytes bytes (and says so when the file has more)."),
    "view": ("buffers", "write a tensor of a device buffer (or of an artifact) as .npy, in logical order",
             "%(prog)s SOURCE BUFFER --npy OUT.npy [options]\n"
             "       %(prog)s SOURCE [BUFFER] --tensor NAME --npy OUT.npy [options]\n"
             "       %(prog)s --LAYOUT [SOURCE] BUFFER --npy OUT.npy [layout options]",
             "Write a tensor as the logical .npy array (padding and blocking removed). The buffer's layout\n"
             "comes from SOURCE (a descriptor of device buffers, or an artifact that carries tensors), or\n"
             "from a family's layout flag (--LAYOUT, listed under its family below) and its options."),
    "draw": ("buffers", "an SVG picture of a device buffer: data, padding and blocking, by role",
             "%(prog)s SOURCE --svg OUT.svg [options]\n"
             "       %(prog)s --LAYOUT [SOURCE] --svg OUT.svg [layout options]",
             "Draw a device buffer as the vendors' manuals do: memory in address order, each element\n"
             "coloured by its role (data, padding, blocking lanes). The layout is given as for `view`."),
    "pack": ("buffers", "write a logical .npy array into a device buffer (padding zero)",
             "%(prog)s SOURCE ARRAY.npy --out BUFFER [options]\n"
             "       %(prog)s --LAYOUT [SOURCE] ARRAY.npy --out BUFFER [layout options]",
             "Write the logical array ARRAY.npy as the device buffer the layout describes (padding zero):\n"
             "the inverse of `view`. The layout is given as for `view`."),
    "traces": ("artifacts", "list the per-layer traces of a run, matched to their layers by the net",
               "%(prog)s FOLDER [--net NET] [--json]",
               "List the per-layer trace files a runtime wrote into FOLDER, each matched to its layer,\n"
               "element type and scale by the network it ran (--net)."),
    "compare": ("artifacts", "compare two runs layer by layer (SNR, differences, first divergence)",
                "%(prog)s RUN REFERENCE [--net NET] [--min-snr DB] [--svg OUT.svg] [--json]",
                "Compare RUN with REFERENCE layer by layer: the layer traces of two runs, a run and reference\n"
                ".npy files named by tensor, or a model and the device's layer dumps (the forms above; each\n"
                "family's options below): SNR and differences per layer, and the first layer that diverges."),
    "export": ("exporting", "write a model as one another runtime runs (e.g. ONNX), checked on its own test values",
               "%(prog)s MODEL -o OUT [--check] [--all-outputs] [--json] [options]\n"
               "       %(prog)s MODEL --check [--json] [options]",
               "Write MODEL as a model another runtime runs, computing what the device computes (its family's\n"
               "exporter, e.g. to ONNX: the family's options below say which); --check runs that export on the\n"
               "model's own test inputs and compares each output with its test outputs (exit 1 if not\n"
               "reproduced, 2 if the model has none). OUT is refused when it is MODEL, a link or not a\n"
               "regular file; nothing is written then."),
    "repair": ("repairing", "write a file anew with a defect its family knows undone (the input never changes)",
               "%(prog)s FILE -o FIXED [--json] [options]",
               "Write FILE repaired to FIXED: a defect its family names and knows how to undo (the doctor says\n"
               "which), everything else the same. Refused (exit 3, nothing written) when there is nothing to\n"
               "repair, when the repair would not read back as meant, or when FIXED is FILE, a link or not a\n"
               "regular file."),
    "fixture": ("tools", "write the artifacts, device buffers and expectations a spec describes",
                "%(prog)s SPEC.yaml [-o FOLDER] [--json] | VALUES.yaml --schema S.ksy -o OUT.bin\n"
                "       | --schema S.ksy --from FILE [--set PATH=VALUE]... -o OUT.bin",
                "Write the files a fixture spec describes: artifacts, device buffers, and the expected\n"
                "logical arrays (.expected.npy) that tests compare with. With --schema, build a file from\n"
                "values with your own Kaitai Struct schema: from a YAML mapping of the root's fields, or from\n"
                "a file read with the schema (--from), some of its values changed (--set)."),
    "generate": ("tools", "typed accessors from schemas: binparse's own, or a package of yours",
                 "%(prog)s [--check] [--json] | SCHEMA.ksy... -o PACKAGE_DIR [--import-path DIR]...",
                 "Regenerate the typed accessors (binparse/engine/accessors) from the schemas (schemas/*.ksy), or,\n"
                 "with files and -o, write a package of typed modules for your own Kaitai Struct schemas\n"
                 "(and every schema they import; the modules import each other within the package)."),
    "doctor": ("artifacts", "what made each artifact in a folder, and whether they agree",
               "%(prog)s FOLDER [-r] [--json] [options]",
               "Name what made each file of FOLDER (tool, version, target), with the evidence, and check\n"
               "that the files agree with each other and with the runtime they are meant for."),
    "schema": ("tools", "schemas from C headers, and differences between versions",
               "%(prog)s {from-header,diff} ...",
               "Turn a C struct into a schema (from-header), or list the differences between two\n"
               "versions of a format (diff). `binparse schema COMMAND --help` for each."),
    "schemas": ("tools", "list every family's kinds of file, their formats and what identifies them",
                "%(prog)s [--json]",
                "List, family by family, every kind of file, folder and device buffer binparse reads: what it\n"
                "is, the releases that write it, how binparse recognises one (its size, magic, name, a text\n"
                "sign), and its formats (name, version, what identifies a file of it, and its schema)."),
}

# Examples every command's help shows whatever the families; the families add theirs (`Family.examples`).
_WAV = "docs/ksy/tone.wav --schema docs/ksy/wav.ksy"  # a user's schema on a file it reads (docs/ksy.md)
CORE_EXAMPLES: dict[str, tuple[tuple[str, str], ...]] = {
    "inspect": ((f"inspect {_WAV}", "every field of a file read with a Kaitai Struct schema of your own"),
                (f"inspect {_WAV} --path chunks[1].body --offsets --json",
                 "one subtree as JSON, each value with its [start, end) and type"),
                (f"inspect {_WAV} --format yaml --path chunks[0]", "a subtree as YAML"),
                (f"inspect {_WAV} --raw chunks[1].body.values -o out/samples.bin", "the bytes of one field")),
    "explore": ((f"explore {_WAV} -o out/tone.html",
                 "a page to click through the file's fields and bytes (open it in a browser)"),),
    "generate": (("generate --check", "are the accessors in step with the schemas? (exit 1 if not)"),),
    "schemas": (("schemas", "every format binparse knows, family by family"),
                ("schemas --json", "the same, for scripts")),
}

_JSON = "print JSON (the same content, for scripts) instead of text"
_WRITTEN = 'print what was written as JSON ({"written": [{file, bytes, what, ...}]}) instead of text'


def parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command line; with `only`, that command alone is built, else the list of commands alone
    (for the overview, `--help` and `--version`: nothing else is asked of it)."""
    commands = "\n".join(f"  {name:<9} {line}" for name, (_m, line, _u, _t) in _COMMANDS.items())
    overview = ""
    if only not in _COMMANDS:  # the families installed, by their titles (a command's parser names none here)
        from ..family.plugins import families
        overview = OVERVIEW.format(families=", ".join(sorted(f.title or f.name for f in families())))
    p = Parser(prog="binparse", usage="%(prog)s COMMAND [options]   (binparse COMMAND --help: its options and examples)",
               description=f"{overview}\n\ncommands:\n{commands}", epilog=EXIT_CODES,
               formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--version", action=VersionAction)
    s = p.add_subparsers(dest="command", metavar="COMMAND", help=argparse.SUPPRESS)

    def print_overview(args: argparse.Namespace) -> int:  # bare `binparse`: the overview, and a usage error
        p.print_help()
        return USAGE

    p.set_defaults(run=print_overview)
    if only not in _COMMANDS:
        for name in _COMMANDS:
            s.add_parser(name, add_help=False)
        return p
    module, line, usage, text = _COMMANDS[only]
    from .family_args import usages
    usage = "\n       ".join([usage, *(f"%(prog)s {u}" for u in usages(only))])
    c = s.add_parser(only, prog=f"binparse {only}", help=line, usage=usage, description=text,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    c.set_defaults(run=_run(module, only))
    _ARGUMENTS[only](c)
    c.add_argument("--budget", metavar="SIZE", type=_budget_size,
                   help="the memory and output budget (e.g. 4GiB; default: 8 x the inputs' size + 256 MiB, or "
                        "$BINPARSE_BUDGET): raise it for a real file larger than its claims allow")
    from .family_args import add_family_arguments, examples
    add_family_arguments(only, c)
    c.epilog = examples(only, CORE_EXAMPLES.get(only, ()))
    return p


def _budget_size(text: str) -> int:
    from ..core.budget import parse_size
    try:
        return parse_size(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


# the options that name what a command writes: every other path on its command line is an input
OUTPUT_OPTIONS = frozenset({"npy", "svg", "out"})


def _inspect(c: argparse.ArgumentParser) -> None:
    c.add_argument("file", metavar="PATH", help="a file, or a folder a family reads (a compile or model folder); "
                   "with --schema, - reads standard input")
    c.add_argument("--fields", action="store_true", help="every raw field of the schema (offset, type, value) "
                                                         "instead of the family's summary")
    c.add_argument("-v", "--verbose", action="store_true", help="the family's whole report (every layer, tensor "
                                                                 "and value), not only its summary")
    c.add_argument("--json", action="store_true", help=_JSON)
    c.add_argument("--format", metavar="NAME", help="read PATH as this format (`binparse schemas` lists them); "
                                                    "default: detected from its size, magic and name. With "
                                                    "--schema, how to print: text (default), json or yaml")
    _schema_options(c, "read PATH with this Kaitai Struct schema (a .ksy of your own): every field and instance")
    _param_option(c)
    dump_options(c)


def _explore(c: argparse.ArgumentParser) -> None:
    explore_arguments(c, _budget_size)
    c.add_argument("--json", action="store_true", help=_WRITTEN)


def _source_options(c: argparse.ArgumentParser) -> None:
    c.add_argument("--format", metavar="NAME", help="read SOURCE as this format (`binparse schemas`); default: detected")
    c.add_argument("--net", metavar="NET", help="the network that describes SOURCE (element types, scales), "
                                                "for a source that does not carry them, e.g. a layer trace")


def _view(c: argparse.ArgumentParser) -> None:
    c.add_argument("source", metavar="SOURCE", help="what describes the buffer: a descriptor of device buffers (an io "
                   "descriptor, a compile folder), an artifact that carries its tensors (then alone), or the file a "
                   "--LAYOUT flag takes; with a --LAYOUT flag that takes none, the BUFFER itself")
    c.add_argument("buffer", nargs="?", metavar="BUFFER", help="the device buffer (or layer dump) to read")
    c.add_argument("--npy", required=True, metavar="OUT.npy", help="where to write the array")
    c.add_argument("--tensor", metavar="NAME", help="the tensor of SOURCE to write (MODEL/TENSOR in a pack)")
    c.add_argument("--dequantize", action="store_true",
                   help="write float32 real values (the family's quantisation rule) instead of the stored integers")
    c.add_argument("--stored", action="store_true", help="with --tensor: the elements as the device stores them "
                                                         "(blocked, padded) instead of logical order")
    c.add_argument("--json", action="store_true", help=_WRITTEN)
    _source_options(c)
    _schema_options(c, "read FILE with this Kaitai Struct schema; --tensor then names an array field, as an "
                       "expression on the root (frames[2].pixels)")
    _param_option(c)


def _draw(c: argparse.ArgumentParser) -> None:
    c.add_argument("source", nargs="?", metavar="SOURCE",
                   help="a descriptor of device buffers or an artifact that carries tensors; with a --LAYOUT flag: "
                        "the file it takes, if any")
    c.add_argument("--svg", required=True, metavar="OUT.svg", help="where to write the picture")
    c.add_argument("--tensor", metavar="NAME", help="the tensor of SOURCE to draw, in its stored blocking")
    c.add_argument("--json", action="store_true", help=_WRITTEN)
    _source_options(c)


def _pack(c: argparse.ArgumentParser) -> None:
    c.add_argument("source", metavar="SOURCE", help="what describes the buffer: a descriptor of device buffers (an io "
                   "descriptor, a compile folder) or the file a --LAYOUT flag takes; with a --LAYOUT flag that takes "
                   "none, the ARRAY.npy itself")
    c.add_argument("array", nargs="?", metavar="ARRAY.npy", help="the logical array to write into the buffer (.npy)")
    c.add_argument("--out", required=True, metavar="BUFFER", help="the device buffer file to write")
    c.add_argument("--quantize", action="store_true",
                   help="quantise float values with the family's rule (default: the array holds the stored integers)")
    c.add_argument("--json", action="store_true", help=_WRITTEN)
    _source_options(c)


def _traces(c: argparse.ArgumentParser) -> None:
    c.add_argument("dir", metavar="FOLDER", help="the folder of per-layer trace files a run wrote")
    c.add_argument("--net", metavar="NET", help="the network the run executed (element types, scales, layer names)")
    c.add_argument("--json", action="store_true", help=_JSON)


def _compare(c: argparse.ArgumentParser) -> None:
    c.add_argument("a", metavar="RUN", help="what to check: a folder of layer traces, or a model (a family's form "
                                            "above)")
    c.add_argument("b", metavar="REFERENCE",
                   help="what it should agree with: another run's traces, a folder of .npy files named by tensor, or "
                        "the device's layer dumps of the model")
    c.add_argument("--net", metavar="NET", help="the network both runs of layer traces executed")
    c.add_argument("--min-snr", type=float, default=30.0, metavar="DB",
                   help="SNR in dB below which a layer diverges (default 30)")
    c.add_argument("--svg", metavar="OUT.svg", help="also write a plot of SNR by layer")
    c.add_argument("--json", action="store_true", help=_JSON)


def _export(c: argparse.ArgumentParser) -> None:
    c.add_argument("file", metavar="MODEL", help="the model to export")
    c.add_argument("-o", "--out", metavar="OUT", help="where to write the exported model (a new or regular file)")
    c.add_argument("--check", action="store_true", help="run the export on the model's own test inputs and compare "
                                                         "with its test outputs (exit 1 if not reproduced)")
    c.add_argument("--all-outputs", action="store_true",
                   help="every intermediate tensor also an output (to compare with the device's dumps layer by layer)")
    c.add_argument("--json", action="store_true", help="print JSON instead of text: --check's result, and "
                                                       'what -o wrote ("written": [{file, bytes, what}])')


def _repair(c: argparse.ArgumentParser) -> None:
    c.add_argument("file", metavar="FILE", help="the file to repair (never changed)")
    c.add_argument("-o", "--out", required=True, metavar="FIXED", help="where to write the repaired file")
    c.add_argument("--json", action="store_true", help=_WRITTEN)


def _fixture(c: argparse.ArgumentParser) -> None:
    c.add_argument("spec", nargs="?", metavar="SPEC.yaml", help="the fixture spec (YAML; its `family:` says whose "
                                                                "writer); with --schema, the values of the root's fields")
    c.add_argument("-o", "--out", metavar="FOLDER", help="output folder (default: the spec's folder); with "
                                                         "--schema, the file to write")
    _schema_options(c, "build the bytes of the values in SPEC.yaml with this Kaitai Struct schema")
    c.add_argument("--from", dest="from_file", metavar="FILE", help="with --schema, build from the values of FILE "
                                                                    "(read with the schema) instead of SPEC.yaml")
    c.add_argument("--set", action="append", metavar="PATH=VALUE",
                   help="with --from, change one value: PATH a field path (chunks[1].body.sample_rate), VALUE a "
                        "Kaitai literal, a member name for an enum, a word for text (repeatable)")
    _param_option(c)
    c.add_argument("--json", action="store_true", help=_WRITTEN)


def _generate(c: argparse.ArgumentParser) -> None:
    c.add_argument("schemas", nargs="*", metavar="SCHEMA.ksy", help="your own schemas: generate a package of "
                                                                     "typed modules for them (with -o)")
    c.add_argument("-o", "--out", metavar="PACKAGE_DIR", help="the package folder to write (its name is the "
                                                              "package's)")
    c.add_argument("--import-path", action="append", metavar="DIR",
                   help="a folder the schemas' imports are looked up in (repeatable)")
    c.add_argument("--check", action="store_true", help="only list stale modules, write nothing (exit 1 if any)")
    c.add_argument("--json", action="store_true", help='print JSON ({"written" or, with --check, "stale": [...], '
                                                       '"up_to_date": ...}) instead of text')


def _doctor(c: argparse.ArgumentParser) -> None:
    c.add_argument("path", metavar="FOLDER", help="a folder of artifacts (or one file)")
    c.add_argument("-r", "--recursive", action="store_true", help="also every folder below FOLDER, each on its own")
    c.add_argument("-v", "--verbose", action="store_true", help="under a line that sums several findings up (a "
                                                                 "printout of another export), each of them")
    c.add_argument("--json", action="store_true", help=_JSON)


def _schemas(c: argparse.ArgumentParser) -> None:
    c.add_argument("--json", action="store_true", help=_JSON)


def _schema(c: argparse.ArgumentParser) -> None:
    from .family_args import examples
    scs = c.add_subparsers(dest="schema_command", required=True, title="commands", metavar="COMMAND")
    fh = scs.add_parser("from-header", prog="binparse schema from-header", help="turn a C struct into a .ksy schema",
                        usage="%(prog)s HEADER [HEADER ...] --struct NAME --out OUT.ksy [--json] [options]",
                        description="Turn a C struct of the vendor's headers into a .ksy schema (sizes and "
                                    "offsets as the compiler lays them out).",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    fh.add_argument("headers", nargs="+", metavar="HEADER", help="C header files, read in order")
    fh.add_argument("--struct", required=True, metavar="NAME", help="typedef name or struct tag")
    fh.add_argument("--define", action="append", metavar="MACRO[=VALUE]", help="a macro for the preprocessor "
                                                                               "(repeatable)")
    fh.add_argument("--pointer-size", type=int, choices=(4, 8), default=8, metavar="{4,8}",
                    help="bytes of a pointer on the target (default 8)")
    fh.add_argument("--id", metavar="ID", help="meta/id of the schema (default: from the struct name)")
    fh.add_argument("--string", action="append", metavar="GLOB",
                    help="char arrays to read as strings (repeatable; default *Name)")
    fh.add_argument("--out", required=True, metavar="OUT.ksy", help="the schema file to write")
    fh.add_argument("--json", action="store_true", help=_WRITTEN)
    fh.epilog = examples("schema from-header")
    df = scs.add_parser("diff", prog="binparse schema diff", help="fields added, removed, moved, resized between two versions",
                        usage="%(prog)s OLD NEW [--type NAME] [--params-a NAME=INT,...] [--params-b NAME=INT,...] [--json]",
                        description="List the fields added, removed, moved and resized from version OLD to NEW.",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    df.add_argument("a", metavar="OLD", help="a format name (`binparse schemas`) or a .ksy file")
    df.add_argument("b", metavar="NEW", help="the version to compare with OLD: a format name or a .ksy file")
    df.add_argument("--params-a", metavar="NAME=INT,...", help="the schema parameters of OLD")
    df.add_argument("--params-b", metavar="NAME=INT,...", help="the schema parameters of NEW")
    df.add_argument("--type", metavar="NAME", help="compare a nested type (e.g. a layer) instead of the root")
    df.add_argument("--json", action="store_true", help=_JSON)
    df.add_argument("--import-path", action="append", metavar="DIR",
                    help="a folder the schemas' imports are looked up in (repeatable)")
    df.epilog = examples("schema diff")


_ARGUMENTS: dict[str, Callable[[argparse.ArgumentParser], None]] = {
    "inspect": _inspect, "explore": _explore, "view": _view, "draw": _draw, "pack": _pack, "traces": _traces, "compare": _compare,
    "export": _export, "repair": _repair, "fixture": _fixture, "generate": _generate, "doctor": _doctor, "schema": _schema, "schemas": _schemas,
}

__all__ = ["COMMANDS", "EXIT_CODES", "Parser", "parser", "version"]
