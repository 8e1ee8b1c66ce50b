"""The command line's options of a user's own schema: `--schema` and `--import-path`, `--param`, the
dump's (`inspect --schema`: `--offsets`, `--path`, `--raw`, `-o`) and `explore`'s (declared in
`parsing`, kept here so that each module stays one job)."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def schema_options(c: argparse.ArgumentParser, what: str) -> None:
    c.add_argument("--schema", metavar="SCHEMA.ksy", help=what)
    c.add_argument("--import-path", action="append", metavar="DIR",
                   help="a folder the schema's imports are looked up in (repeatable; absolute imports `/name` "
                        "only look here)")


def param_option(c: argparse.ArgumentParser) -> None:
    c.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="with --schema, a param of the schema's root type, VALUE a Kaitai literal: 3, 0x10, true, "
                        "'text', [1, 2] (repeatable)")


def dump_options(c: argparse.ArgumentParser) -> None:
    """`inspect --schema`'s own: where each value lies, a subtree, a field's bytes."""
    c.add_argument("--offsets", action="store_true", help="with --schema and JSON or YAML: each value as an object "
                   "with its place (start, end, bits, stream), its type and its value")
    c.add_argument("--path", metavar="PATH", help="with --schema: only the subtree at PATH (field ids joined by dots, "
                   "[k] for an element: chunks[3].body)")
    c.add_argument("--raw", metavar="PATH", help="with --schema and -o: write the bytes of the field at PATH (a byte "
                   "array's value, after any process; else the bytes it spans)")
    c.add_argument("-o", "--out", metavar="OUT.bin", help="with --raw: the file to write")


def explore_arguments(c: argparse.ArgumentParser, size: Callable[[str], int]) -> None:
    """`explore FILE --schema S.ksy -o PAGE.html` (`size`: how a byte count is read, as `--budget`'s)."""
    c.add_argument("file", metavar="FILE", help="the file to explore (- reads standard input)")
    schema_options(c, "the Kaitai Struct schema that reads FILE (required)")
    param_option(c)
    c.add_argument("-o", "--out", required=True, metavar="PAGE.html", help="the page to write")
    c.add_argument("--path", metavar="PATH", help="only the subtree at PATH (chunks[3].body)")
    c.add_argument("--max-bytes", metavar="SIZE", type=size, default=16 * 2**20,
                   help="bytes of FILE the page holds (default 16MiB); the tree is whole, the hex view stops there")


__all__ = ["dump_options", "explore_arguments", "param_option", "schema_options"]
