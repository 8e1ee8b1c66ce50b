"""Identifiers and literals of generated source: which names a schema may give, the Python name each
gets, and the one function that writes a schema's values into Python source (docs/contracts.md,
"Schemas are data").

Kaitai's rule for every id a schema gives (fields, instances, params, types, enums, enum members,
`meta/id`): ``[a-z][a-z0-9_]*``, matched whole (`re.fullmatch`: a trailing newline is not a
name). So no schema name starts with an underscore, and none is a dunder.

A name becomes Python by one documented scheme (`attr_name`, `member_name`, `class_name_of`):

- a field, instance or param id that is a Python keyword gets a trailing ``_`` (``class`` →
  ``class_``); an enum member likewise, and also one named ``mro`` or ``doc`` (the enum class's own);
- a class name (CamelCase of a type or enum id) that is a Python keyword or builtin (``None``,
  ``True``, ``Exception``) or a name a generated module imports (``Accessor``, ``FieldSpec``, …) gets
  a trailing ``_`` until it is free;
- two ids of one scope that end with the same Python name (``class`` and ``class_``) are a
  `SchemaError` at load, naming both.
"""

from __future__ import annotations

import builtins
import keyword
import re
from typing import TypeGuard

ID = re.compile(r"[a-z][a-z0-9_]*")

# what a generated module binds at its top level besides its classes (codegen/generate.py's head)
MODULE_NAMES = frozenset({
    "annotations", "Sequence", "IntEnum", "Any", "ClassVar", "cast", "np", "NDArray", "Accessor", "FieldSpec",
    "RecordArray", "StaticLayout", "StrArray", "ValidSpec", "LinearRecord", "CompiledRecord", "no_type_check"})
_DATA_CLASSES = frozenset({"FieldSpec", "ValidSpec", "StaticLayout"})  # imported by every generated module
# an enum member named so would be the enum class's own attribute
_ENUM_OWN = frozenset({"mro", "doc"})


def is_id(name: object) -> TypeGuard[str]:
    """Whether `name` is an id Kaitai allows (matched whole)."""
    return isinstance(name, str) and ID.fullmatch(name) is not None


def attr_name(name: str) -> str:
    """The Python attribute of a field, instance or param id (`class` → `class_`)."""
    return name + "_" if keyword.iskeyword(name) else name


def module_name_of(schema_id: str) -> str:
    """The module (file stem) of a schema's generated code in a package: its id, a keyword with a trailing `_`."""
    return attr_name(schema_id)


def member_name(name: str) -> str:
    """The Python name of an enum member id."""
    return name + "_" if keyword.iskeyword(name) or name in _ENUM_OWN else name


def free_class_name(name: str, taken: set[str] | frozenset[str] = frozenset()) -> str:
    """`name` (a CamelCase class name) with a trailing `_` until it is no keyword, builtin, module
    name or name in `taken`."""
    while keyword.iskeyword(name) or hasattr(builtins, name) or name in MODULE_NAMES or name in taken:
        name += "_"
    return name


def camel(name: str) -> str:
    """CamelCase of a Kaitai name, as the Kaitai compiler names classes and enums."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"_+", name) if part)


def root_class_name(schema_id: str) -> str:
    """The class name of a schema's root type (the first type named: only a reserved name is renamed)."""
    return free_class_name(camel(schema_id))


def is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__")


__all__ = ["ID", "MODULE_NAMES", "attr_name", "camel", "free_class_name", "is_dunder", "is_id", "member_name",
           "module_name_of", "root_class_name"]


def literal(value: object) -> str:
    """Python source for a value a schema gives (the one escaping function of generated code): text
    and bytes by `repr`, which escapes every character that is not printable (NUL, line breaks,
    lone surrogates) so that the source is one line of valid UTF-8; floats that are no number
    (`inf`, `nan`) as `float('…')`; tuples, lists, dicts and frozensets of these, item by item.
    Anything else is refused (`TypeError`: a bug of the generator, never schema text pasted)."""
    if value is None or isinstance(value, (bool, int, str, bytes)):
        return repr(value)
    if isinstance(value, float):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else f"float({str(value)!r})"
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if type(value).__name__ in _DATA_CLASSES and type(value).__module__ == "binparse.engine.runtime.specs":
        fields = getattr(type(value), "__slots__")  # the runtime's specs: records of named values
        return f"{type(value).__name__}(" + ", ".join(f"{k}={literal(getattr(value, k))}" for k in fields) + ")"
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(literal(v) for v in sorted(value, key=repr)) + "})" if value else "frozenset()"
    raise TypeError(f"no literal for a {type(value).__name__}")


def doc_body(text: str) -> str:
    """The body of a triple-quoted docstring that reads as `text`: backslashes doubled, quotes escaped
    when two meet or one ends the text, every character that is not printable (NUL, a carriage return, a lone
    surrogate) written as the text of its escape (the docstring shows `\\x00`); line breaks and tabs
    stay (the docstring's lines). A doc is text in the source, never source."""
    body = text.replace("\\", "\\\\")
    if '""' in body or body.endswith('"'):  # quotes that could close the docstring: every one escaped
        body = body.replace('"', '\\"')
    # a character that is not printable reads as its escape (`\x00`, `\ud800`) in the docstring itself: a
    # class's doc is encoded to UTF-8 when the class is made, which a lone surrogate would fail
    return "".join(c if c.isprintable() or c in "\n\t" else repr(c)[1:-1].replace("\\", "\\\\") for c in body)


def comment(text: str) -> str:
    """`text` for a `#` comment of generated source: as it is when printable, else as a literal."""
    return text if text.isprintable() else literal(text)


__all__ += ["comment", "doc_body", "literal"]
