"""Python names and type annotations of generated properties."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ..expr.idents import attr_name
from ..schema import EnumDef, TypeDef
from ..schema.types import KType

if TYPE_CHECKING:
    from ..runtime.specs import FieldSpec
    from ..schema.model import Attr
    from ..schema.types import Types

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
    def enum_def_ref(self, t: TypeDef, enum: EnumDef) -> str: ...


def annotation(mod: Refs, t: TypeDef, k: KType) -> str:
    """The annotation of a value of Kaitai type `k` as a generated property returns it."""
    kind = str(k[0])
    if kind in ("int", "float", "bool", "str"):
        return kind
    if kind == "bytes":
        return "NDArray[np.uint8]"
    if kind == "enum":
        return f"{mod.enum_def_ref(t, k[1])} | int"
    if kind == "user":
        return mod.ref(k[1])
    if kind == "array":
        inner = k[1]
        if inner[0] == "user":
            return f"RecordArray[{mod.ref(inner[1])}]"
        return "Any"
    return "Any"


def _np_scalar(np_type: str) -> str:
    from .literals import np_scalar
    return np_scalar(np_type)


def field_annotation(mod: Refs, types: Types, t: TypeDef, a: Attr, f: FieldSpec) -> str:
    """The annotation of a seq field or pos instance as its getter returns it: repeats of numbers are
    numpy arrays (of the codes, for enums), of text sequences of str, of byte arrays a 2-D uint8
    array (same-size elements) or a list of arrays, of bit-sized integers lists; a switch is the
    union of its cases (raw bytes when it has a size and no case for the value, None when neither)."""
    if not f.repeated:
        return _one(mod, types, t, a, f)
    if f.kind == "prim":
        return f"NDArray[{_np_scalar(f.np or '')}]" if not f.calc_endian else "NDArray[Any]"
    if f.kind == "bits":
        return "list[bool]" if f.bits == 1 and f.enum is None else "list[int]"
    if f.kind == "str":
        return "Sequence[str]"
    if f.kind in ("bytes", "contents"):
        return "NDArray[np.uint8]" if _uniform_bytes(f) else "list[NDArray[np.uint8]]"
    if f.kind == "switch":
        return f"Sequence[{_one(mod, types, t, a, f)}]"
    return annotation(mod, t, types.attr_type(t, a))


def _uniform_bytes(f: FieldSpec) -> bool:
    """Elements of one size known before reading: read as one 2-D array (the runtime's rule)."""
    from .. import expr as ex
    return f.pad is None and f.term is None and f.process is None and not f.size_eos and f.size is not None and (
        isinstance(f.size, int) or not ex.names(f.size) & {"_index", "_io"})


def _one(mod: Refs, types: Types, t: TypeDef, a: Attr, f: FieldSpec) -> str:
    if f.kind != "switch" or a.switch is None:
        return annotation(mod, t, types.attr_type(t, a, element=True))
    from ..schema.types import TypeProblem, builtin_type
    parts: list[str] = []
    for _, ref in a.switch.cases:
        try:
            k = builtin_type(ref.name, t, a.enum)
        except (KeyError, TypeProblem):
            k = None
        one = annotation(mod, t, k) if k is not None else mod.ref(t.resolve_type(ref.name))
        for p in one.split(" | "):
            if p not in parts:
                parts.append(p)
    if not any(key is None for key, _ in a.switch.cases):  # no default case
        extra = "NDArray[np.uint8]" if f.size is not None or f.size_eos or f.term is not None else "None"
        if extra not in parts:
            parts.append(extra)
    return " | ".join(parts) if "Any" not in parts else "Any"
