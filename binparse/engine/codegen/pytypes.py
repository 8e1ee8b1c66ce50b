"""Python names and type annotations of generated properties."""

from __future__ import annotations

from typing import Protocol

from ..expr.idents import attr_name
from ..schema import TypeDef
from ..schema.types import KType

# A field may take a name the accessor base class gives a meaning to (`offset`, `path`, `nbytes`):
# its property then hides the base's in that class (the runtime itself uses only `_`-names).
RESERVED: set[str] = set()


def pyname(name: str) -> str:
    """The Python attribute of a schema id: a Python keyword gets a trailing `_` (`class` → `class_`;
    `binparse.engine.expr.idents`, the one naming scheme)."""
    return attr_name(name)


class Refs(Protocol):
    def ref(self, t: TypeDef) -> str: ...
    def enum_ref(self, t: TypeDef, enum: str) -> str: ...


def annotation(mod: Refs, t: TypeDef, k: KType) -> str:
    """The annotation of a value of Kaitai type `k` as a generated property returns it."""
    kind = str(k[0])
    if kind in ("int", "float", "bool", "str"):
        return kind
    if kind == "bytes":
        return "NDArray[np.uint8]"
    if kind == "enum":
        owner = t.enum_owner(k[1])
        from ..backends.numpy_backend import enum_class_name
        return f"{mod.ref(owner)}.{enum_class_name(owner, k[1])} | int"
    if kind == "user":
        return mod.ref(k[1])
    if kind == "array":
        inner = k[1]
        if inner[0] == "user":
            return f"RecordArray[{mod.ref(inner[1])}]"
        return "Any"
    return "Any"
