"""The command line's side of the contracts (docs/contracts.md): the exit code of an error, argparse
with the contract's usage code, the epilog that states them, and the stream that escapes what
the commands print."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .. import exitcodes
from ..errors import BinparseError, PathError, UsageError, WriteError
from ..text import shown, shown_lines

EXIT_CODES = ("exit codes, the same for every command: 0 everything named was read, verified and agrees; "
              "1 a problem was proven (named in the output); 2 something could not be read or verified "
              "(named in the output) and no problem was proven; 3 usage or I/O error (bad arguments, a "
              "missing path, a path that is not a regular file, a write refused). Memory stays within "
              "8 x the input's size + 256 MiB whatever a file claims; writes go only to the path given, "
              "never through a link or onto anything but a regular file; names from files are printed "
              "with control characters escaped. docs/contracts.md says it all.")


class Parser(argparse.ArgumentParser):
    """argparse with the contract's exit code for usage errors (3, not argparse's 2)."""

    def error(self, message: str) -> Any:
        self.print_usage(sys.stderr)
        self.exit(exitcodes.USAGE, f"{self.prog}: error: {shown(message)}\n")


class Escaped:
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


__all__ = ["EXIT_CODES", "Escaped", "Parser", "exit_code"]
