"""JSON and YAML documents read from files within the command's budget (docs/contracts.md,
"Resources"): the one way binparse reads a file's JSON or YAML.

- Python's objects of a document take many times its bytes (an empty object `{}` in a list is
  3 bytes of text and ~100 bytes of Python): before parsing, `EXPANSION` × the text's bytes is
  asked of the budget (`binparse.core.budget.ask`).
- YAML's aliases share one node however many times they are named, but whatever walks the
  document (a report, `--json`) meets each use: a 564-byte "billion laughs" walks 10^9 nodes.
  The document's nodes are counted with their aliases expanded before anything is built, and
  `NODE_BYTES` for each is asked of the budget: a "billion laughs" is refused (exit code 2).
- Nesting deeper than `MAX_DEPTH` and integers longer than `MAX_DIGITS` digits are refused
  (no vendor's record holds either; Python's readers fail deep inside on them).

Every refusal is a `FormatError` (or a `BudgetError`) naming the file: exit code 2.
"""

from __future__ import annotations

import json
import os
from typing import Any

from . import budget
from .errors import FormatError

EXPANSION = 32  # bytes of Python objects asked per byte of a document's text (or per expanded YAML node)
NODE_BYTES = 128  # bytes asked per value of a YAML document whose aliases expand it past its characters
MAX_DEPTH = 200  # objects and lists within each other
MAX_DIGITS = 100  # digits of an integer


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text.lstrip('-')):,} digits (more than {MAX_DIGITS})")
    return int(text)


def depth_of(text: str | bytes) -> int:
    """How deep brackets and braces nest in JSON `text` (outside strings)."""
    import numpy as np
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else bytes(text)
    a = np.frombuffer(data, np.uint8)
    steps = ((a == 0x5B) | (a == 0x7B)).astype(np.int32) - ((a == 0x5D) | (a == 0x7D))
    if not steps.size or int(np.cumsum(steps).max()) <= MAX_DEPTH:  # strings counted too: an upper bound
        return int(np.cumsum(steps).max()) if steps.size else 0
    depth = deepest = 0  # over the bound: the exact depth, strings skipped (rare: a deep document)
    in_string = escaped = False
    for b in data:
        if in_string:
            if escaped:
                escaped = False
            elif b == 0x5C:
                escaped = True
            elif b == 0x22:
                in_string = False
        elif b == 0x22:
            in_string = True
        elif b in (0x5B, 0x7B):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                break
        elif b in (0x5D, 0x7D):
            depth -= 1
    return deepest


def load_json(text: str | bytes, *, file: str | os.PathLike[str] | None = None, what: str = "JSON") -> Any:
    """The document of JSON `text`; `FormatError` for text that is not JSON (with its line and
    column), nests deeper than MAX_DEPTH or holds an integer of more than MAX_DIGITS digits."""
    name = None if file is None else os.fspath(file)
    budget.ask(EXPANSION * len(text), f"the objects of {what} ({len(text):,} bytes of text)", file=name)
    if depth_of(text) > MAX_DEPTH:
        raise FormatError(f"{what} nests deeper than {MAX_DEPTH} objects or lists: no record binparse reads does",
                          file=name)
    try:
        return json.loads(text, parse_int=_int)
    except json.JSONDecodeError as exc:
        raise FormatError(f"{what} is not JSON: {exc.msg}", file=name, path=f"line {exc.lineno}, column {exc.colno}")\
            from None
    except (ValueError, RecursionError, UnicodeDecodeError) as exc:
        raise FormatError(f"{what} cannot be read: {exc}", file=name) from None


def load_yaml(text: str, *, file: str | os.PathLike[str] | None = None, what: str = "YAML") -> Any:
    """The document of YAML `text` (YAML's safe subset: no Python objects); `FormatError` for text
    that is not YAML, nests deeper than MAX_DEPTH or whose aliases expand past the budget."""
    import yaml
    name = None if file is None else os.fspath(file)
    budget.ask(EXPANSION * len(text), f"the nodes of {what} ({len(text):,} characters of text)", file=name)
    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        nodes, deepest = _expanded(node)
        if deepest > MAX_DEPTH:
            raise FormatError(f"{what} nests deeper than {MAX_DEPTH} mappings or lists: no record binparse reads does",
                              file=name)
        if nodes > len(text):  # aliases: what walks the document meets every use of them
            budget.ask(NODE_BYTES * nodes, f"the {nodes:,} values of {what} with its aliases expanded", file=name)
        return loader.construct_document(node)
    except yaml.YAMLError as exc:
        raise FormatError(f"{what} is not YAML: {str(exc).splitlines()[0]}", file=name) from None
    except RecursionError:
        raise FormatError(f"{what} nests deeper than Python's YAML reader goes", file=name) from None
    except (ValueError, OverflowError) as exc:  # a value YAML's constructors refuse (an integer of 5,000 digits)
        raise FormatError(f"{what} cannot be read: {str(exc)[:200]}", file=name) from None
    finally:
        loader.dispose()


def _expanded(root: Any) -> tuple[int, int]:
    """(the number of nodes under `root` with every alias expanded, the deepest nesting): by the
    graph's shared nodes, each counted once with its size (no walk of the expansion itself)."""
    import yaml
    size: dict[int, int] = {}
    depth: dict[int, int] = {}
    todo: list[tuple[Any, bool]] = [(root, False)]
    while todo:
        node, done = todo.pop()
        if id(node) in size:
            continue
        children = _children(node, yaml)
        if done or not children:
            size[id(node)] = 1 + sum(size.get(id(c), 1) for c in children)
            depth[id(node)] = 1 + max((depth.get(id(c), 0) for c in children), default=0)
            continue
        todo.append((node, True))
        if len(todo) > 10 * MAX_DEPTH + 10**6:  # a graph this wide is refused by its size anyway
            break
        todo.extend((c, False) for c in children if id(c) not in size)
    return size.get(id(root), 1), depth.get(id(root), 1)


def _children(node: Any, yaml: Any) -> list[Any]:
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return []


__all__ = ["EXPANSION", "MAX_DEPTH", "NODE_BYTES", "MAX_DIGITS", "depth_of", "load_json", "load_yaml"]
