"""Python source for the literals a generated module holds: dtypes, field specs, docstrings."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..expr.idents import doc_body, literal
from ..runtime import FieldSpec


def np_scalar(np_type: str) -> str:
    kind = np.dtype(np_type)
    if kind.kind == "S":
        return "np.bytes_"
    return f"np.{kind.type.__name__}"


def dtype_literal(dt: np.dtype[Any]) -> str:
    """Python source that rebuilds `dt` (structured, with offsets and itemsize)."""
    if dt.subdtype is not None:
        base, shape = dt.subdtype
        return f"({dtype_literal(base)}, {literal(shape)})"
    if dt.names:
        assert dt.fields is not None
        formats = ", ".join(dtype_literal(dt.fields[n][0]) for n in dt.names)
        offsets = [dt.fields[n][1] for n in dt.names]
        return (f"{{'names': {literal(list(dt.names))}, 'formats': [{formats}], "
                f"'offsets': {literal(offsets)}, 'itemsize': {literal(dt.itemsize)}}}")
    return literal(dt.str)


class Dtypes:
    """Module-level constants for the structured dtypes nested in a module's records (`_DT0 = …`):
    each written once and named where it is used, so a record holding another twice, a dozen levels
    deep, takes as many lines in the source as in the schema (never one copy per use)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.names: dict[int, str] = {}
        self.kept: list[np.dtype[Any]] = []  # the dtypes named (their ids stay theirs)

    def literal(self, dt: np.dtype[Any], top: bool = True) -> str:
        """Python source that rebuilds `dt` (structured, with offsets and itemsize)."""
        if dt.subdtype is not None:
            base, shape = dt.subdtype
            return f"({self.literal(base, False)}, {literal(shape)})"
        if not dt.names:
            return literal(dt.str)
        if not top and id(dt) in self.names:
            return self.names[id(dt)]
        assert dt.fields is not None
        formats = ", ".join(self.literal(dt.fields[n][0], False) for n in dt.names)
        offsets = [dt.fields[n][1] for n in dt.names]
        text = (f"{{'names': {literal(list(dt.names))}, 'formats': [{formats}], "
                f"'offsets': {literal(offsets)}, 'itemsize': {literal(dt.itemsize)}}}")
        if top:
            return text
        name = self.names[id(dt)] = f"_DT{len(self.lines)}"
        self.kept.append(dt)
        self.lines.append(f"{name} = np.dtype({text})\n")
        return name


def py_doc(text: str | None, ref: str | None = None, indent: str = "        ") -> str:
    """A docstring: the schema's `doc`, then its `doc-ref` (escaped so that any text compiles)."""
    parts = [p for p in ((text or "").strip(), f"See: {ref}" if ref else "") if p]
    body = doc_body("\n\n".join(parts) or "(no doc in the schema)")
    lines = body.split("\n")
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
                parts.append("cases=(" + "".join(f"({literal(key)}, {spec_literal(c)}), " for key, c in v) + ")")
            else:
                parts.append(f"{k}={literal(v)}")
    return "FieldSpec(" + ", ".join(parts) + ")"
