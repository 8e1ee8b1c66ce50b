"""The commands binparse suggests, in errors and reports: each a command line that runs as printed.

`command(*words)` gives "`binparse WORD ...`": every word is a real value (the path of the file read,
a tensor name the file holds, an output path made from its name), quoted for a POSIX shell where it
needs it (`shlex.quote`), never a placeholder such as NAME or FILE. A suggestion that needs a value
binparse cannot know (a key, a shape) names the option in words outside backticks instead.

`again(args, add=..., drop=...)` is the command being run with options added or taken away (a float
array packed again with `--quantize`), for the command line's errors (`BinparseError.retry`).

Every call of `command` is noted (its file and line): tests/test_cli_hints.py makes each one print on
a real or fixture input, runs the command it prints, and fails on a call no case reaches.
"""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Sequence

#: (file, line) of every call of `command` made in this process
CALLED: set[tuple[str, int]] = set()


def _noted(depth: int = 2) -> None:
    """Note the caller's file and line (`depth` frames up): a suggestion made there was printed."""
    frame = sys._getframe(depth)
    CALLED.add((frame.f_code.co_filename, frame.f_lineno))


def _said(words: Sequence[str | os.PathLike[str]]) -> str:
    """The command in backticks, each word quoted for a shell, then escaped (`text.shown`): a name from
    a file that holds a line break or a terminal escape is shown as such, never printed raw."""
    from ..core.text import shown
    return "`binparse " + " ".join(shown(shlex.quote(os.fspath(w))) for w in words) + "`"


def command(*words: str | os.PathLike[str]) -> str:
    """"`binparse WORD ...`": a command that runs as printed (see the module's doc)."""
    _noted()
    return _said(words)


def doctor_of_folder(file: str | os.PathLike[str] | None) -> str:
    """`binparse doctor FOLDER` of the folder that holds `file` (as it was named), which compares
    the file with the artifacts beside it; words without a command when the file has no path."""
    _noted()
    if file is None:
        return "binparse's doctor, on its folder,"
    folder = os.path.dirname(os.fspath(file))
    from .plugins import families  # a companion folder (TI's tempDir/) is checked with the folder that holds it
    if os.path.basename(folder) in {c for fam in families() for c in fam.companions}:
        folder = os.path.dirname(folder)
    return _said(["doctor", folder or "."])


def stem_output(path: str | os.PathLike[str], suffix: str) -> str:
    """An output file named after `path` (its name without its last suffix), in the current folder:
    what a suggested command writes, never beside (or over) what it reads."""
    name = os.path.basename(os.fspath(path).rstrip("/\\")) or "out"
    return os.path.splitext(name)[0] + suffix


def again(argv: Sequence[str], add: Sequence[str] = (), drop: Sequence[str] = ()) -> str:
    """`argv` (a command line without `binparse`) with the options `drop` names taken away (each with
    its value when it takes one, `--tensor NAME`) and the words `add` appended, as `command` prints it."""
    takes_value = {"--tensor", "--model", "--output", "--input", "--format", "--subgraph", "--budget", "--net"}
    out: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
            continue
        flag = word.split("=", 1)[0]
        if flag in drop:
            skip = "=" not in word and flag in takes_value
            continue
        out.append(word)
    _noted()
    return _said([*out, *add])


__all__ = ["CALLED", "again", "command", "doctor_of_folder", "stem_output"]
