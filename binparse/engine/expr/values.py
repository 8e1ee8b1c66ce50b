"""What Kaitai's operators and built-in methods do to values: the one place their semantics live.

Both drivers use it: the interpreter (`binparse.engine.expr.interp`) and the Python source written for
generated accessors (`binparse.engine.expr.python`). Values are Python's: int (unbounded, as in Kaitai's
Python), float, bool, str; byte arrays are `bytes` or 1-D uint8 numpy views; arrays are lists,
numpy arrays or binparse's record and string sequences; enums are `IntEnum` members (or the bare
int when the enum has no such member, as in Kaitai); records are objects with attributes.

Kaitai's typing decides at compile time what Python's duck typing decides here: `==` on byte
arrays compares them whole, `/` on two integers rounds toward negative infinity, an element read
from a numpy array is a Python int (numpy's fixed-width arithmetic never leaks into an expression).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any

import numpy as np


class KaitaiTypeError(TypeError):
    """An operator or method applied to values it does not take (Kaitai's compiler refuses these)."""


def py(v: Any) -> Any:
    """A numpy scalar as the Python value it holds; anything else unchanged."""
    return v.item() if isinstance(v, np.generic) else v


def is_bytes(v: Any) -> bool:
    return isinstance(v, (bytes, bytearray, memoryview)) or (
        isinstance(v, np.ndarray) and v.dtype == np.uint8 and v.ndim == 1)


def as_bytes(v: Any) -> bytes:
    if isinstance(v, np.ndarray):
        return v.tobytes()
    if isinstance(v, (list, tuple)):
        return bytes(v)
    return bytes(v)


def _is_seq(v: Any) -> bool:
    return isinstance(v, (list, tuple, np.ndarray)) or (isinstance(v, Sequence) and not isinstance(v, (str, bytes)))


def plain(v: Any) -> Any:
    """A value in a form Python's `==` and `<` compare as Kaitai does: byte arrays as `bytes`,
    arrays as lists of plain values, numpy scalars as Python numbers."""
    if isinstance(v, (int, float, str)):
        return v
    if is_bytes(v):
        return as_bytes(v)
    if isinstance(v, np.ndarray):
        return v.tolist()
    if isinstance(v, np.generic):
        return v.item()
    if _is_seq(v):
        return [plain(x) for x in v]
    return v


def _same_kind(a: Any, b: Any) -> tuple[Any, Any]:
    a, b = plain(a), plain(b)
    if isinstance(a, bytes) and isinstance(b, list):
        return list(a), b
    if isinstance(b, bytes) and isinstance(a, list):
        return a, list(b)
    return a, b


def eq(a: Any, b: Any) -> bool:
    if type(a) is int and type(b) is int:
        return a == b
    x, y = _same_kind(a, b)
    return bool(x == y)


def ne(a: Any, b: Any) -> bool:
    return not eq(a, b)


def _ordered(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], bool]:
    def compare(a: Any, b: Any) -> bool:
        x, y = _same_kind(a, b)
        if isinstance(x, bool) or isinstance(y, bool):
            raise KaitaiTypeError("booleans are compared with == and != only")
        return bool(op(x, y))
    return compare


lt, le, gt, ge = _ordered(operator.lt), _ordered(operator.le), _ordered(operator.gt), _ordered(operator.ge)


def _num(v: Any, op: str) -> Any:
    v = py(v)
    if isinstance(v, (int, float)):
        return v
    raise KaitaiTypeError(f"operator {op!r} takes numbers, not {type(v).__name__}")


def _int(v: Any, op: str) -> int:
    v = py(v)
    if isinstance(v, int):
        return v
    raise KaitaiTypeError(f"operator {op!r} takes integers, not {type(v).__name__}")


# The largest integer an expression may make (bits): Kaitai's Python has unbounded integers, but `1 << n`
# with n from a file, or `x * x` over and over, would take the machine's memory, and Python prints
# no integer of more than 4,300 digits. Past this an expression is a FormatError (exit 2).
MAX_INT_BITS = 8192


class TooLarge(KaitaiTypeError):
    """An integer an expression would make is larger than MAX_INT_BITS (checked before it is made)."""


def _too_large(bits: int, op: str) -> TooLarge:
    return TooLarge(f"operator {op!r} would make an integer of about {bits:,} bits: binparse follows integers "
                    f"of up to {MAX_INT_BITS:,} bits")


FREE_TEXT = 1 << 12  # characters of a string an expression makes without asking the budget (codegen writes
# `s + s` out when the two are shorter)


def add(a: Any, b: Any) -> Any:
    if isinstance(a, str) and isinstance(b, str):
        n = len(a) + len(b)
        if n > FREE_TEXT:  # `s + s` over a chain of value instances doubles: the budget is asked
            from ...core import budget
            budget.ask(4 * n, f"a string of {n:,} characters an expression makes")
        return a + b
    return _num(a, "+") + _num(b, "+")


def sub(a: Any, b: Any) -> Any:
    return _num(a, "-") - _num(b, "-")


def mul(a: Any, b: Any) -> Any:
    x, y = _num(a, "*"), _num(b, "*")
    if type(x) is int and type(y) is int and x.bit_length() + y.bit_length() > MAX_INT_BITS:
        raise _too_large(x.bit_length() + y.bit_length(), "*")
    return x * y


def checked(v: Any) -> Any:
    """A value an expression made, refused when it is an integer over MAX_INT_BITS (a chain of
    value instances, each adding a bit, is bounded here)."""
    if type(v) is int and not LOW < v < HIGH:  # bounds made once: `-HIGH` here would make an 8,193-bit integer a call
        raise _too_large(v.bit_length(), "value")
    return v


HIGH = 1 << MAX_INT_BITS
LOW = -HIGH  # (generated code compares a value with these before calling `checked`: codegen.bounds.bounded)


def div(a: Any, b: Any) -> Any:
    """Kaitai `/`: integers divide rounding toward negative infinity (as Kaitai's Python does)."""
    a, b = _num(a, "/"), _num(b, "/")
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return a / b


def mod(a: Any, b: Any) -> Any:
    return _num(a, "%") % _num(b, "%")


def shl(a: Any, b: Any) -> int:
    x, n = _int(a, "<<"), _int(b, "<<")
    if n > 0 and x and x.bit_length() + n > MAX_INT_BITS:
        raise _too_large(x.bit_length() + n, "<<")
    return x << n


def shr(a: Any, b: Any) -> int:
    return _int(a, ">>") >> _int(b, ">>")


def band(a: Any, b: Any) -> int:
    return _int(a, "&") & _int(b, "&")


def bor(a: Any, b: Any) -> int:
    return _int(a, "|") | _int(b, "|")


def bxor(a: Any, b: Any) -> int:
    return _int(a, "^") ^ _int(b, "^")


BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "+": add, "-": sub, "*": mul, "/": div, "%": mod, "<<": shl, ">>": shr, "&": band, "|": bor, "^": bxor,
    "==": eq, "!=": ne, "<": lt, "<=": le, ">": gt, ">=": ge,
}


def neg(v: Any) -> Any:
    return -_num(v, "-")


def invert(v: Any) -> int:
    return ~_int(v, "~")


def index(obj: Any, i: Any) -> Any:
    """`obj[i]`: an element of an array, or a byte (an int) of a byte array."""
    i = py(i)
    if not isinstance(i, int) or isinstance(i, bool):
        raise KaitaiTypeError("an index must be an integer")
    if isinstance(obj, (bytes, bytearray)):
        return obj[i]
    return py(obj[i])


def to_s(v: Any) -> str:
    """f-string parts: integers as decimal text, strings as they are."""
    v = py(v)
    if isinstance(v, str):
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return str(int(v))
    raise KaitaiTypeError(f"an f-string takes integers and strings, not {type(v).__name__}")


def _decode(data: Any, encoding: str) -> str:
    from .encodings import decode
    return decode(as_bytes(data), encoding)


def _stream_attr(obj: Any, name: str) -> Any:
    if name == "eof":
        return bool(obj.is_eof())
    if name in ("size", "pos"):
        return int(getattr(obj, name)())
    raise KaitaiTypeError(f"a stream has size, pos and eof, not {name!r}")


def attribute(obj: Any, name: str) -> Any:
    """`obj.name` for the built-in types (Kaitai's methods without arguments); anything else is a
    `KaitaiTypeError` (a record's members: `member`)."""
    if isinstance(obj, IntEnum):
        if name == "to_i":
            return int(obj)
        raise KaitaiTypeError(f"an enum has only to_i, not {name!r}")
    if isinstance(obj, np.generic):
        obj = obj.item()
    if isinstance(obj, bool):
        if name == "to_i":
            return int(obj)
    elif isinstance(obj, int):
        if name == "to_s":
            return str(obj)
        if name == "to_i":  # an enum value with no member is a bare int in Kaitai too
            return obj
    elif isinstance(obj, float):
        if name == "to_i":
            return int(obj)
    elif isinstance(obj, str):
        if name == "length":
            return len(obj)
        if name == "reverse":
            return obj[::-1]
        if name == "to_i":
            return int(obj, 10)
    elif is_bytes(obj) or _is_seq(obj):
        if name in ("size", "length") and (name == "size" or is_bytes(obj)):
            return len(obj)
        if name in ("first", "last", "min", "max"):
            if len(obj) == 0:
                raise IndexError(f"{name} of an empty array")
            if name == "first":
                return py(obj[0])
            if name == "last":
                return py(obj[len(obj) - 1])
            items = plain(obj)
            return min(items) if name == "min" else max(items)
    elif callable(getattr(obj, "is_eof", None)):  # a stream (`_io`): binparse's, or Kaitai's own
        return _stream_attr(obj, name)
    raise KaitaiTypeError(f"{_kind(obj)} has no method {name!r}")


def _kind(obj: Any) -> str:
    return "a record" if isinstance(obj, dict) or hasattr(type(obj), "_ks_member") else \
        "null" if obj is None else type(obj).__name__


def call(obj: Any, name: str, args: Sequence[Any]) -> Any:
    """`obj.name(args…)`: the built-in methods that take arguments (a record has none in Kaitai)."""
    obj = py(obj)
    args = [py(a) for a in args]
    if isinstance(obj, str):
        if name == "substring" and len(args) == 2:
            return obj[args[0]:args[1]]
        if name == "to_i" and len(args) == 1:
            return int(obj, args[0])
        if name == "to_b" and len(args) == 1:
            from .encodings import encode
            return encode(obj, args[0])
    elif is_bytes(obj):
        if name == "to_s" and len(args) == 1:
            return _decode(obj, args[0])
        if name == "index_of" and len(args) == 1:
            return as_bytes(obj).find(bytes([args[0]]))
    elif isinstance(obj, (list, tuple)) and name == "to_s" and len(args) == 1:
        return _decode(bytes(obj), args[0])
    raise KaitaiTypeError(f"{_kind(obj)} has no method {name}() taking {len(args)} argument(s)")


def cast(v: Any, type_name: str) -> Any:
    """`v.as<type_name>`: an array of integers cast to `bytes` becomes those bytes (Kaitai packs them;
    an item outside 0..255 is an error, as there); any other cast leaves the value as it is."""
    if type_name == "bytes" and isinstance(v, (list, tuple)):
        return bytes(py(x) for x in v)
    return v


def list_value(items: Sequence[Any], literal_bytes: bool) -> Any:
    """An array literal: `bytes` when every item is an integer literal 0..255 (Kaitai's rule), else a list."""
    return bytes(items) if literal_bytes else list(items)


def member(obj: Any, name: str) -> Any:
    """`obj.name`: a declared member of a record, through its class's table (`_ks_member`, made from
    the schema when the class is made: never a Python attribute the expression names), a field of
    a record held as a mapping of its values (fixture building), or a built-in method of obj's type."""
    record = getattr(type(obj), "_ks_member", None)
    if record is not None:
        return record(obj, name)
    if isinstance(obj, dict):
        return mapping_member(obj, name)
    return attribute(obj, name)


def mapping_member(obj: dict[str, Any], name: str) -> Any:
    """`obj.name` of a record held as a mapping of its field values (construct's containers, fixture
    specs): a key that is a Kaitai id, or `_parent`/`_root` where the mapping keeps them."""
    if name[:1] != "_":
        try:
            return obj[name]
        except KeyError:
            raise KaitaiTypeError(f"the record has no field {name!r}") from None
    key = {"_parent": "_", "_root": "_root"}.get(name)
    if key is None or key not in obj:
        raise KaitaiTypeError(f"{name} of this record is not known here")
    return obj[key]


def call_method(obj: Any, name: str, args: Sequence[Any]) -> Any:
    """`obj.name(args…)` in generated code."""
    return call(obj, name, args)
