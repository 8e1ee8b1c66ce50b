"""The `binparse` command: inspect, view, draw, pack, traces, compare, doctor, fixture, schema, generate, schemas.

The commands name no family: each speaks the protocols of `binparse.family`, and the families'
options and buffer-layout flags are added from their declarations (`binparse.plugins`); the
command line itself is declared in `binparse.cli.parsing`. Exit codes: `binparse.exitcodes`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..errors import BinparseError
from .parsing import COMMANDS, parser


def _plain_warnings() -> None:
    """Print `BinparseWarning`s as one `binparse: warning: …` line, not Python's file:line format."""
    import warnings

    from ..errors import BinparseWarning
    python_format = warnings.formatwarning

    def fmt(message: Warning | str, category: type[Warning], filename: str, lineno: int,
            line: str | None = None) -> str:
        if issubclass(category, BinparseWarning):
            return f"binparse: warning: {message}\n"
        return python_format(message, category, filename, lineno, line)

    warnings.formatwarning = fmt


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
    try:
        return int(args.run(args))
    except BinparseError as exc:
        print(f"binparse: error: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        return 0


def console() -> int:
    """The `binparse` command itself: `main` with warnings printed as plain lines."""
    _plain_warnings()
    return main()


__all__ = ["console", "main", "parser"]
