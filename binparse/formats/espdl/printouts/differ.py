"""What a printout or record and the model beside it say differently: one finding per pair of files.

A difference is two files that say different things about one value: a problem. One is said as it
is; several are one line, which says what that means (a printout of other values describes another
model: with the same graph and ops, e.g. an export at another input size), the first three, and the
command that lists them all (`doctor -v`; `--json` always carries them).
"""

from __future__ import annotations

from pathlib import Path

from ....family import Finding
from ....family.hints import command

SHOWN = 3


def differences(printed: str, model: str, diffs: list[str], folder: Path, what: str) -> Finding:
    """The one finding of `diffs` between file `printed` and `model`; `what` says what `printed` is then
    ("describes another export of the model in m.espdl: ...", "and m.espdl differ in ...")."""
    files = [printed, model]
    if len(diffs) == 1:
        return Finding("problem", f"{printed} and {model} differ: {diffs[0]}", files)
    first = "; ".join(diffs[:SHOWN])
    more = f"; {command('doctor', '-v', folder)} lists all {len(diffs)}" if len(diffs) > SHOWN else ""
    return Finding("problem", f"{printed} {what}: {len(diffs)} differences, first {first}{more}", files, list(diffs))


__all__ = ["differences"]
