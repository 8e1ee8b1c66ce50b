"""Python source for the literals a generated module holds: dtypes, field specs, docstrings."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..runtime import FieldSpec


_PLAIN = (int, float, str, bytes, bool, type(None))


def literal(v: Any) -> str:
    """Python source of a constant a generated module holds (numbers, text, bytes, booleans, None, and
    tuples and frozensets of them): its `repr`, which escapes everything; anything else is refused."""
    if isinstance(v, tuple):
        return "(" + "".join(f"{literal(x)}, " for x in v) + ")"
    if isinstance(v, frozenset):
        return "frozenset({" + ", ".join(literal(x) for x in sorted(v, key=repr)) + "})"
    if not isinstance(v, _PLAIN):
        raise TypeError(f"not a literal: {type(v).__name__}")
    if isinstance(v, float) and v != v or v in (float("inf"), float("-inf")):
        return f"float({str(v)!r})"
    return repr(v)


def np_scalar(np_type: str) -> str:
    kind = np.dtype(np_type)
    if kind.kind == "S":
        return "np.bytes_"
    return f"np.{kind.type.__name__}"


def dtype_literal(dt: np.dtype[Any]) -> str:
    """Python source that rebuilds `dt` (structured, with offsets and itemsize)."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return f"({dtype_literal(base)}, {shape!r})"
    if dt.names:
        assert dt.fields is not None
        formats = ", ".join(dtype_literal(dt.fields[n][0]) for n in dt.names)
        offsets = [dt.fields[n][1] for n in dt.names]
        return (f"{{'names': {list(dt.names)!r}, 'formats': [{formats}], "
                f"'offsets': {offsets!r}, 'itemsize': {dt.itemsize}}}")
    return repr(dt.str)


def py_doc(text: str | None, ref: str | None = None, indent: str = "        ") -> str:
    """A docstring: the schema's `doc`, then its `doc-ref` (escaped so that any text compiles)."""
    parts = [p for p in ((text or "").strip(), f"See: {ref}" if ref else "") if p]
    body = "\n\n".join(parts) or "(no doc in the schema)"
    body = body.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if body.endswith('"'):
        body = body[:-1] + '\\"'
    lines = body.splitlines()
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""\n'
    return f'{indent}"""' + lines[0] + "\n" + "".join(f"{indent}{ln}\n" if ln.strip() else "\n" for ln in lines[1:]) \
        + f'{indent}"""\n'


def spec_literal(f: FieldSpec) -> str:
    """`FieldSpec(...)` with only the fields that differ from their defaults."""
    default = FieldSpec(name="", kind="")
    parts = []
    for k in f.__slots__:
        v = getattr(f, k)
        if k in ("name", "kind") or v != getattr(default, k):
            if k == "default" and isinstance(v, FieldSpec):
                parts.append(f"default={spec_literal(v)}")
            elif k == "cases":
                parts.append("cases=(" + "".join(f"({key!r}, {spec_literal(c)}), " for key, c in v) + ")")
            else:
                parts.append(f"{k}={v!r}")
    return "FieldSpec(" + ", ".join(parts) + ")"
