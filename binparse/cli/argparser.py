"""argparse kept to binparse's contract: a usage error exits 3 and names the command it is about;
`--version` reads the installed distribution's metadata only when asked."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from ..core.exitcodes import USAGE


class Parser(argparse.ArgumentParser):
    """argparse keeping binparse's exit-code contract: a usage error exits 3 (`exitcodes.USAGE`)."""

    def error(self, message: str) -> NoReturn:
        from ..core.text import shown  # an argument's value quoted in the message is a name like any other
        self.print_usage(sys.stderr)
        self.exit(USAGE, f"{self.prog}: error: {shown(message)}\n")

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        """argparse's, except that an argument the command does not take is reported with that
        command's usage (`binparse view: error: unrecognized arguments: --bogus`), not the overview's."""
        ns, extra = self.parse_known_args(args, namespace)
        if extra:
            self.innermost(ns).error(f"unrecognized arguments: {' '.join(extra)}")
        return ns

    def innermost(self, ns: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the (sub-)command `ns` was parsed for: `binparse schema diff`'s, not `binparse`'s."""
        p: argparse.ArgumentParser = self
        while True:
            sub = next((a for a in p._actions if isinstance(a, argparse._SubParsersAction)), None)
            chosen = sub.choices.get(getattr(ns, sub.dest, None) or "") if sub is not None else None
            if chosen is None:
                return p
            p = chosen


class VersionAction(argparse.Action):
    """`--version`: the installed distribution's version (its metadata read only when asked)."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print binparse's version and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        print(f"binparse {version()}")
        parser.exit(0)


def version() -> str:
    """The version of the installed binparse distribution (the package's own for a bare checkout)."""
    from importlib.metadata import PackageNotFoundError, version as of
    try:
        return of("binparse")
    except PackageNotFoundError:
        from .. import __version__
        return __version__


__all__ = ["Parser", "VersionAction", "version"]
