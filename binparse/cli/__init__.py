"""The `binparse` command: inspect, view, draw, pack, traces, compare, export, repair, doctor, fixture, schema,
generate, schemas.

The commands name no family: each speaks the protocols of `binparse.family`, and the families'
options and buffer-layout flags are added from their declarations (`binparse.family.plugins`); the
command line itself is declared in `binparse.cli.parsing`.
Exit codes (`binparse.core.exitcodes`, docs/contracts.md): 0 everything named was read, verified and
agrees; 1 a problem was proven; 2 something could not be read or verified (named in the output);
3 usage or I/O error (bad arguments, a missing path, not a regular file, a write refused). Every
line printed has its control characters escaped (`binparse.core.text.shown_lines`).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

from ..core import exitcodes, inputs
from ..core.budget import BudgetError
from ..core.errors import BinparseError, PathError, SchemaError, UsageError, WriteError
from ..family.hints import again
from ..core.text import shown, shown_lines
from .parsing import COMMANDS, EXIT_CODES, OUTPUT_OPTIONS, parser


def _plain_warnings() -> None:
    """Print `BinparseWarning`s as one `binparse: warning: …` line, not Python's file:line format."""
    import warnings

    from ..core.errors import BinparseWarning
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


def _paths_named(args: Any) -> list[str]:
    """Every string on the command line outside the output options (those that are files are inputs)."""
    named: list[str] = []
    for dest, value in vars(args).items():
        if dest in OUTPUT_OPTIONS:
            continue
        for v in value if isinstance(value, (list, tuple)) else (value,):
            if isinstance(v, str) and v:
                named.append(v)
    return named


def exit_code(exc: BaseException) -> int:
    """The contract's exit code of an error a command raised: 3 for usage and I/O (a path that is
    missing, unreadable or not a regular file; a write refused; options that do not fit, which is
    an error naming no input file; a schema binparse refuses), 2 for an input that could not be read
    (its content: the error names the file, and the field and offset)."""
    if isinstance(exc, BudgetError):  # a file's claim refused: the file was not read, nothing is proven
        return exitcodes.UNVERIFIED
    if isinstance(exc, (PathError, WriteError, UsageError, SchemaError, OSError)):  # a schema refused: the
        return exitcodes.USAGE  # user's input to the tool (docs/contracts.md, "Schemas are data"), not data unread
    if isinstance(exc, BinparseError) and exc.file is None:  # about the command line, not a file's bytes
        return exitcodes.USAGE
    return exitcodes.UNVERIFIED


def _closed_output() -> None:
    """After the reader of standard output went away (a broken pipe): point its descriptor at
    /dev/null, so the interpreter's last flush at exit cannot fail again."""
    import contextlib
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out, err = sys.stdout, sys.stderr
    if out is None:  # started with standard output closed (`>&-`): nothing could be shown, an I/O error
        if err is not None:
            print("binparse: error: standard output is closed: nothing can be shown. Give the command an "
                  "output (a file or a pipe)", file=err)
        return exitcodes.USAGE
    if err is None:  # standard error closed: errors are lost, the exit code still says what happened
        err = open(os.devnull, "w")  # noqa: SIM115  (for the whole process: never closed)
    sys.stdout, sys.stderr = _Escaped(out), _Escaped(err)
    try:
        args = parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
        if getattr(args, "budget", None) is None:
            from ..core.budget import env_limit
            env_limit()  # a $BINPARSE_BUDGET that is no size: refused before the command runs (exit 3)
        with inputs.command(getattr(args, "budget", None)):
            inputs.note_paths(_paths_named(args))  # an output named like an input is refused before anything runs
            code = int(args.run(args))
            sys.stdout.flush()  # a reader that went away is an I/O error of this command, not of the exit
            return code
    except BinparseError as exc:  # its hint in the command line's terms, a retry as the command to run
        exc.on_command_line()
        if exc.retry is not None:  # the command that fixes it, made of the words typed
            exc.retried(again(argv, exc.retry.add, exc.retry.drop))
        print(f"binparse: error: {shown(exc.describe())}", file=sys.stderr)
        for line in exc.excerpt():  # where in a schema: its line and a caret (escaped already)
            print(shown(line), file=sys.stderr)
        return exit_code(exc)
    except BrokenPipeError:  # the reader of our output went away (`| head`): not all was shown, an I/O error
        _closed_output()
        return exitcodes.USAGE
    except OSError as exc:  # a write the system refused (no space, a read-only folder): I/O
        where = f"{shown(exc.filename)}: " if exc.filename else ""
        print(f"binparse: error: {where}{shown(exc.strerror or exc)}", file=sys.stderr)
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
