"""YAML read with the line of every mapping, key and list item (PyYAML's composer), for error messages."""

from __future__ import annotations

import re
from typing import Any

import yaml

from ...core.errors import SchemaError


class KsyLoader(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2's booleans (only true/false: an enum member called `no` or
    `off` stays a name, as in Kaitai's own YAML readers) and `0o17` octal integers."""


KsyLoader.yaml_implicit_resolvers = {k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:bool"]
                                     for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}
KsyLoader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                                list("tTfF"))
KsyLoader.add_implicit_resolver("tag:yaml.org,2002:int", re.compile(r"^[-+]?0o[0-7_]+$"), list("-+0"))


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    text = str(loader.construct_scalar(node)).replace("_", "")
    sign = -1 if text.startswith("-") else 1
    body = text.lstrip("+-")
    if body[:2] in ("0o", "0O"):
        return sign * int(body[2:], 8)
    return yaml.SafeLoader.construct_yaml_int(loader, node)


KsyLoader.add_constructor("tag:yaml.org,2002:int", _construct_int)


class Node(dict):  # type: ignore[type-arg]
    """A YAML mapping that remembers its own line and the line of each key (1-based)."""

    line: int
    lines: dict[Any, int]


class Seq(list):  # type: ignore[type-arg]
    line: int
    lines: list[int]


# A schema's YAML nodes, its aliases expanded: Kaitai's largest gallery schema (dicom.ksy) has 8,338; a schema
# past this is refused (exit 3) before anything is made of it, so that loading and compiling stay within seconds
MAX_NODES = 40_000
# YAML's escapes (`"\ud800"`) name characters; a surrogate alone is none (YAML 1.2 and libyaml refuse it, PyYAML's
# own scanner lets it through): refused, so that no text of a schema is one Python cannot encode
_SURROGATE = re.compile("[\ud800-\udfff]")


def _scalar(node: yaml.Node) -> None:
    if isinstance(node, yaml.ScalarNode) and _SURROGATE.search(node.value):
        raise SchemaError("not valid YAML: a lone surrogate (an escape \\uD800 to \\uDFFF alone) is no Unicode "
                          "character", line=node.start_mark.line + 1)


def _convert(node: yaml.Node, loader: KsyLoader, count: list[int] | None = None) -> Any:
    count = count if count is not None else [0]
    count[0] += 1
    if count[0] > MAX_NODES:
        raise SchemaError(f"more than {MAX_NODES:,} YAML nodes once its aliases are expanded: binparse reads no "
                          "schema that large (Kaitai's largest gallery schema has some 8,000)",
                          line=node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        out = Node()
        out.line, out.lines = node.start_mark.line + 1, {}
        for k, v in node.value:
            _scalar(k)
            key = loader.construct_object(k, deep=True)
            out[key] = _convert(v, loader, count)
            out.lines[key] = k.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        seq = Seq(_convert(v, loader, count) for v in node.value)
        seq.line, seq.lines = node.start_mark.line + 1, [v.start_mark.line + 1 for v in node.value]
        return seq
    _scalar(node)
    return loader.construct_object(node, deep=True)


def read_yaml(text: str, file: str) -> Node:
    """The top-level mapping of a .ksy text; a `SchemaError` naming the line when it is not YAML."""
    loader = KsyLoader(text)  # (PyYAML's own parser: libyaml's accepts tabs PyYAML refuses, and words errors apart)
    try:
        node = loader.get_single_node()
    except (yaml.YAMLError, ValueError) as exc:  # PyYAML's problem, where it is, and what it was reading (from
        # where); a value YAML's constructors refuse (10^6 digits) too
        mark = getattr(exc, "problem_mark", None)
        context, cmark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
        lines = text.splitlines()
        what = f"{context}: " if context else ""
        if context and cmark and cmark.line < len(lines):
            what = f"{context} (from line {cmark.line + 1}, column {cmark.column + 1}): "
        line = min(mark.line, len(lines) - 1) if mark and lines else None  # the stream's end: its last line
        raise SchemaError(f"not valid YAML: {what}{getattr(exc, 'problem', None) or exc}", file=file,
                          line=None if line is None else line + 1,
                          column=None if line is None or mark is None else
                          (mark.column + 1 if line == mark.line else len(lines[line]) + 1),
                          text=None if line is None else lines[line]) from exc
    except RecursionError:
        raise SchemaError("YAML nested deeper than a schema is", file=file) from None
    finally:
        loader.dispose()
    if node is None or not isinstance(node, yaml.MappingNode):
        raise SchemaError("a .ksy file must be a YAML mapping", file=file, line=1)
    try:
        data = _convert(node, KsyLoader(""))
    except SchemaError as exc:
        raise exc.with_file(file) from None
    except (yaml.YAMLError, ValueError) as exc:
        mark = getattr(exc, "problem_mark", None)
        raise SchemaError(f"not valid YAML: {str(getattr(exc, 'problem', exc))[:200]}", file=file,
                          line=mark.line + 1 if mark else None) from None
    except RecursionError:
        raise SchemaError("YAML nested deeper than a schema is", file=file) from None
    assert isinstance(data, Node)
    return data
