"""The exit-code contract every `binparse` command keeps (README "Exit codes", `binparse --help`).

0  everything named was read, verified and agrees;
1  a problem was proven (a vendor's tool would refuse it, or two files contradict each other);
2  something could not be read or verified (named in the output), and no problem was proven;
3  usage or I/O error (bad arguments, a missing path, a path that is not a regular file, a write refused).

A command that finds both a proven problem and something unverified exits 1: the problem is the
stronger statement, and the unverified part is still named in its output.
"""

from __future__ import annotations

OK = 0
PROBLEM = 1
UNVERIFIED = 2
USAGE = 3


def combine(*codes: int) -> int:
    """The exit code of several results: a usage/I/O error first, then a problem, then unverified."""
    for code in (USAGE, PROBLEM, UNVERIFIED):
        if code in codes:
            return code
    return OK


__all__ = ["OK", "PROBLEM", "UNVERIFIED", "USAGE", "combine"]
