"""The one exception hierarchy binparse raises.

Every error says where (file, schema path of the field, byte offset), what was expected and what
was found, and, where possible, what to do about it. Callers catch `BinparseError`; nothing else
escapes binparse for bad input.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class Retry(NamedTuple):
    """What fixes an error on the command line: the same command with options added (`add`, words
    as typed) or taken away (`drop`, flags), and why (`say`). The command line prints it as the
    command to run (`BinparseError.retried`); Python callers read the error's own hint."""

    say: str
    add: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()


QUOTED = 2000  # characters of what an error quotes from a file (a 10^6-character line is cut, with its length)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"


class BinparseError(Exception):
    """Base class: bad input (schema, file or buffer) described well enough to act on."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        path: str | None = None,
        offset: int | None = None,
        expected: Any = None,
        found: Any = None,
        hint: str | None = None,
        retry: Retry | None = None,
    ) -> None:
        self.retry = retry
        self.message = message
        self.file = file
        self.path = path
        self.offset = offset
        self.expected = expected
        self.found = found
        self.hint = hint
        super().__init__(str(self))

    def where(self, known_file: str | None = None) -> str:
        parts = []
        if self.file is not None and str(self.file) != known_file:
            parts.append(str(self.file))
        if self.path is not None:
            parts.append(self.path)
        if self.offset is not None:
            parts.append(f"offset {self.offset} (0x{self.offset:x})")
        return ", ".join(parts)

    def __str__(self) -> str:
        return "\n".join([self.describe(), *self.excerpt()])

    def excerpt(self) -> list[str]:
        """Lines that show where in a text file the error is (a schema's line and a caret under the
        column), printed after the message; none for most errors."""
        return []

    def describe(self, known_file: str | None = None) -> str:
        """The whole message, without the file name when it is `known_file` (for a report that
        already names the file: the doctor's lines)."""
        text = _cut(self.message, 4 * QUOTED)
        where = self.where(known_file)
        if where:
            text = f"{where}: {text}"
        if self.expected is not None:
            text += f"; expected {_cut(str(self.expected), QUOTED)}"
        if self.found is not None:
            found = _cut(str(self.found), QUOTED)
            text += f", found {found}" if self.expected is not None else f"; found {found}"
        if self.hint:
            text += f". {self.hint[:1].upper()}{self.hint[1:]}"
        return text

    def on_command_line(self) -> BinparseError:
        """The same error with the Python arguments its hint names (`format=NAME`) said as the
        command line's options (`--format NAME`): what the `binparse` command prints (returns self;
        the command line says its `retry` as the command to run, `retried`)."""
        for python, option in COMMAND_LINE.items():
            self.message = self.message.replace(python, option)
            self.hint = self.hint.replace(python, option) if self.hint else self.hint
        self.args = (str(self),)
        return self

    def retried(self, command: str) -> BinparseError:
        """The error with its hint the `retry`'s reason and `command`, the command line that fixes it
        (`binparse.family.hints.again`, made by the command line from its words; returns self)."""
        if self.retry is not None:
            self.hint = f"{self.retry.say}: {command}"
            self.retry = None
            self.args = (str(self),)
        return self

    def with_file(self, file: str) -> BinparseError:
        """Fill in the file name if the raiser did not know it (returns self)."""
        if self.file is None:
            self.file = file
            self.args = (str(self),)
        return self


# Errors name what to pass in Python terms (`binparse.open(path, format=NAME)`); the command line
# says the same with its options (`BinparseError.on_command_line`).
COMMAND_LINE = {
    "format=NAME": "--format NAME",
    "import_path=[DIR]": "--import-path DIR",
    "original=PARSED": "--from FILE",
    " or version=SDK to say which SDK wrote it": "",
    "pass cvec=N": "pass --cvec N",
    "pass cores=N to read it with one count anyway": "",  # the command line has no such option
}


class SchemaError(BinparseError):
    """A .ksy schema uses something binparse cannot run (a custom process routine), or is inconsistent.

    `file` is the schema file, `line` the 1-based line, `column` the 1-based column and `key` the
    offending YAML key; `text` is the line itself (shown with a caret under the column, `excerpt`);
    `needle` what on the line the error is about (a name, a token), where the loader knows it.
    """

    def __init__(self, message: str, *, file: str | None = None, line: int | None = None,
                 key: str | None = None, column: int | None = None, text: str | None = None,
                 needle: str | None = None, **kw: Any) -> None:
        self.line = line
        self.key = key
        self.column = column
        self.text = text
        self.needle = needle
        super().__init__(message, file=file, **kw)

    def excerpt(self) -> list[str]:
        if self.text is None:
            return []
        from .text import shown
        col = max((self.column or 1) - 1, 0)
        text, lead = self.text, ""
        if len(text) > 160:  # a long line: the part around the column
            start = max(0, col - 80)
            text, lead, col = text[start:start + 160], "..." if start else "", col - start
        return [f"    {lead}{shown(text)}", "    " + " " * len(lead + shown(text[:col])) + "^"]

    def where(self, known_file: str | None = None) -> str:  # a schema error names its schema file always
        loc = str(self.file) if self.file is not None else "<schema>"
        if self.line is not None:
            loc += f":{self.line}"
            if self.column is not None:
                loc += f":{self.column}"
        if self.key is not None:
            loc += f": key '{self.key}'"
        if self.path is not None:
            loc += f" ({self.path})"
        return loc


class FormatError(BinparseError):
    """A file or buffer does not match the schema or format it was read as."""


class ValidationError(FormatError):
    """A field's value breaks the schema's `valid` or `contents` rule."""


class PathError(FormatError):
    """A path that cannot be read as the file or folder it should be: missing, permission denied,
    a FIFO, socket or device node, a link out of the folder given (exit code 3: an I/O error)."""


class WriteError(BinparseError):
    """A write binparse refuses: the target is not a regular file (a link, FIFO, device, folder), its
    folder is a link or missing, or a path escapes the folder writes are confined to (exit code 3)."""


class UsageError(BinparseError):
    """The command line asks for something that cannot be done as asked (exit code 3, like argparse's
    own usage errors)."""


class LayoutError(BinparseError):
    """A layout or view request cannot be satisfied inside the given buffer."""


class BinparseWarning(UserWarning):
    """Input read with an assumption the user must know of (e.g. a layout not verified for its version)."""


def warn(message: str) -> None:
    """Emit a `BinparseWarning` attributed to the caller's code (the first frame outside binparse)."""
    import os
    import sys
    import warnings
    from types import FrameType

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep  # binparse/, not core/
    level = 2  # stacklevel 1 is this function, 2 its caller
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, BinparseWarning, stacklevel=level)
