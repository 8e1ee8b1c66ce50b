"""An .arch file's text read by protobuf's own text-format parser, keeping what it does not know.

The message type comes from schemas/intel_dla/arch.proto through its generated descriptor
(arch_descriptor.py): no protoc at run time. protobuf's parser skips fields it does not know
(`allow_unknown_field`) and refuses enum values it does not know; a newer FPGA AI Suite may
write either. So before protobuf parses, one pass over protobuf's own tokenizer, guided by the
same descriptor, lists every field and enum value the declaration lacks, with its line and
value; unknown enum values are blanked out of the text protobuf parses (they stay listed). The
caller reports them; nothing is dropped in silence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message, message_factory, text_format

from ....core.errors import FormatError
from .descriptor import DESCRIPTOR

_NUMBER = re.compile(r"[-+]?(0[xX][0-9a-fA-F]+|[0-9]+)$")
MAX_DEPTH = 64  # blocks within blocks: Intel's files nest 4 deep; deeper is not an architecture
MAX_LINE = 4096  # characters of a line (Intel's longest is under 100): protobuf's parser is quadratic in a line


@dataclass(frozen=True)
class Unknown:
    """A field (or an enum value) the declaration does not have: where, and what the file says."""

    path: str  # dotted field path, e.g. "pe_array.enable_foo"
    line: int  # 1-based
    value: Any  # scalar, list of scalars, or a dict for a block
    what: str = "field"  # "field" or "enum value"

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "line": self.line, "value": self.value, "what": self.what}


@lru_cache(maxsize=1)
def arch_class() -> type[message.Message]:
    """The protobuf message class of binparse.intel_dla.Arch, built from the committed descriptor."""
    pool = descriptor_pool.DescriptorPool()
    pool.Add(descriptor_pb2.FileDescriptorProto.FromString(DESCRIPTOR))
    cls: type[message.Message] = message_factory.GetMessageClass(pool.FindMessageTypeByName("binparse.intel_dla.Arch"))
    return cls


def _scalar(raw: str) -> Any:
    """A scalar token as a plain value (for reporting unknown fields only)."""
    if raw in ("true", "True", "t"):
        return True
    if raw in ("false", "False", "f"):
        return False
    if _NUMBER.match(raw):
        try:
            return int(raw, 0)
        except ValueError:  # a leading zero: decimal, as protobuf reads it
            return int(raw, 10)
    try:
        return float(raw)
    except ValueError:
        return raw


def _seen(tok: Any) -> str:
    return f"'{tok.token}'" if tok.token else "the end of the file"


class _Walker:
    """Walks protobuf's tokens beside the descriptor; records what the descriptor lacks."""

    def __init__(self, lines: list[str]) -> None:
        self.tok: Any = text_format.Tokenizer(lines)  # Any: the stubs type its ParseError() wrongly
        self.unknown: list[Unknown] = []
        self.blank: list[tuple[int, int, int]] = []  # (line, first column, end column), 1-based line

    def where(self) -> tuple[int, int]:
        """(line, column), 1-based, of the current token: the numbers protobuf's `ParseError` gives,
        read without making one (its message copies the whole line: quadratic on a long line)."""
        tok = self.tok
        line, col = getattr(tok, "_line", None), getattr(tok, "_column", None)
        if isinstance(line, int) and isinstance(col, int):
            return line + 1, col + 1
        err = tok.ParseError("")
        return int(err.GetLine()), int(err.GetColumn())

    def value(self) -> Any:
        """One scalar value (a number, a string or an enum name): never a brace, a bracket or the end."""
        tok = self.tok
        if tok.token[:1] in ("'", '"'):
            return tok.ConsumeString()
        raw = tok.token
        if tok.AtEnd() or raw in ("{", "}", "<", ">", "[", "]", ",", ";", ":"):
            raise tok.ParseError(f"expected a value, found {_seen(tok)}")
        tok.NextToken()
        return _scalar(raw)

    def block(self, desc: Any, path: str, depth: int = 0) -> dict[str, Any]:
        """Fields up to the closing brace (or the end) beside `desc` (a message Descriptor; None inside
        an unknown block, whose fields are returned as a dict)."""
        tok, seen = self.tok, {}  # type: ignore[var-annotated]
        while not tok.AtEnd() and not tok.LookingAt("}") and not tok.LookingAt(">"):
            line, col = self.where()
            name = tok.ConsumeIdentifierOrNumber()
            field = desc.fields_by_name.get(name) if desc is not None else None
            here = f"{path}.{name}" if path else name
            is_block = not tok.TryConsume(":") or tok.LookingAt("{") or tok.LookingAt("<")
            if is_block:
                close = ">" if tok.TryConsume("<") else "}"
                if close == "}":
                    tok.Consume("{")
                if depth >= MAX_DEPTH:
                    raise FormatError(f"blocks nested more than {MAX_DEPTH} deep: not an architecture description",
                                      path=f"line {line}, {here}")
                sub = field.message_type if field is not None else None
                got: Any = self.block(sub, here, depth + 1)
                tok.Consume(close)
            elif tok.TryConsume("["):
                got = []
                while not tok.TryConsume("]"):  # values separated by commas up to the ']'
                    got.append(self.value())
                    if not tok.TryConsume(",") and not tok.LookingAt("]"):
                        raise tok.ParseError(f"a list of values ends with ']', found {_seen(tok)}")
            else:
                vline, vcol = self.where()
                raw = tok.token
                got = self.value()
                if field is not None and field.enum_type is not None and isinstance(got, str) \
                        and got not in field.enum_type.values_by_name:
                    if vline != line:
                        raise FormatError("an unknown enum value must be on its field's line", path=here,
                                          found=f"line {vline}")
                    self.unknown.append(Unknown(here, line, got, "enum value"))
                    self.blank.append((line, col, vcol + len(raw)))
            if desc is not None and field is None:
                self.unknown.append(Unknown(here, line, got))
            if desc is None:
                seen.setdefault(name, []).append(got)
            if not tok.TryConsume(","):
                tok.TryConsume(";")
        return {k: v[0] if len(v) == 1 else v for k, v in seen.items()}


def parse_arch_text(text: str, *, file: str | None = None) -> tuple[message.Message, list[Unknown]]:
    """(the Arch message, the fields and enum values it lacks) of an .arch file's text.

    Raises `FormatError` with the line and column protobuf's parser gives for text that is not
    protobuf text format, or that sets a declared field to a value of the wrong type.
    """
    lines = text.splitlines()  # LF, CRLF and CR alike
    long = next((k for k, line in enumerate(lines) if len(line) > MAX_LINE), None)
    if long is not None:  # protobuf's tokenizer copies the whole line at every failed try: quadratic in it
        raise FormatError(f"line {long + 1} is {len(lines[long]):,} characters long: no architecture description "
                          "has such a line (Intel's files' longest are under 100)", file=file, path=f"line {long + 1}",
                          expected=f"lines of at most {MAX_LINE:,} characters")
    cls = arch_class()
    walker = _Walker(lines)
    try:
        walker.block(cls.DESCRIPTOR, "")
        if not walker.tok.AtEnd():
            raise walker.tok.ParseError(f"unexpected '{walker.tok.token}'")
    except text_format.ParseError as exc:
        raise _error(exc, file) from None
    except FormatError as exc:
        raise exc.with_file(file) if file else exc
    for line, first, end in walker.blank:  # enum values protobuf would refuse: listed above, left out here
        s = lines[line - 1]
        lines[line - 1] = s[:first - 1] + " " * (end - first) + s[end - 1:]
    msg = cls()
    try:
        text_format.Parse("\n".join(lines), msg, allow_unknown_field=True)
    except text_format.ParseError as exc:
        raise _error(exc, file) from None

    return msg, walker.unknown


def _error(exc: text_format.ParseError, file: str | None) -> FormatError:
    detail = str(exc).split(" : ", 1)[-1]
    detail = re.sub(r"^'.*?': ", "", detail).rstrip(".")
    return FormatError("not an FPGA AI Suite architecture description (protobuf text format)", file=file,
                       path=f"line {exc.GetLine()}, column {exc.GetColumn()}", found=detail,
                       hint="an .arch file is `name: value` lines and `group { ... }` blocks "
                            "(IP Reference Manual, Architecture Description File Format)")


def to_text(msg: message.Message) -> str:
    """The message written as protobuf text format (`key: value`, double quotes), as
    `dla_compiler --gen-arch` writes it."""
    return str(text_format.MessageToString(msg))


__all__ = ["Unknown", "arch_class", "parse_arch_text", "to_text"]
