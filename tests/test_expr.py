"""Kaitai expressions: precedence, integer division, names, rendering to Python."""

from __future__ import annotations

from typing import Any

import pytest

from binparse import expr as ex


class Scope:
    values: dict[str, Any] = {"a": 3, "b": [1, 2, 5], "f": 2.5}

    def lookup(self, name: str) -> Any:
        return self.values[name]

    def attr(self, obj: Any, name: str) -> Any:
        return getattr(obj, name)

    def enum_value(self, enum: str, member: str) -> int:
        return {"kinds::a": 7}[f"{enum}::{member}"]


@pytest.mark.parametrize("text,value", [
    ("a * 2 + 1", 7), ("1 + a * 2", 7), ("(1 + a) * 2", 8), ("a << 2 | 1", 13),
    ("b[2] * (a - 1)", 10), ("a > 2 ? 10 : 20", 10), ("-7 / 2", -4), ("7 % 4", 3),
    ("kinds::a == 7", True), ("not a == 3 and true", False), ("0x10_00", 4096), ("0b101", 5),
    ("f * 2", 5.0), ("a / 2", 1), ("~0 & 0xff", 255), ("a == 3 or a == 4", True),
])
def test_evaluate(text: str, value: Any) -> None:
    assert ex.evaluate(ex.parse(text), Scope()) == value


def test_names_and_python_rendering() -> None:
    e = ex.parse("num_items * n_cores + _root.base")
    assert ex.names(e) == {"num_items", "n_cores", "_root"}
    # operands of unknown type go through binparse.expr.values (Kaitai's semantics for every type) ...
    assert ex.to_python(ex.parse("a / 2 > 1 ? a : b[0]"), lambda n: f"s.{n}", lambda e, m: "0") == \
        "(s.a if _kv.gt(_kv.div(s.a, 2), 1) else _kv.index(s.b, 0))"
    # ... integers known to be integers are Python's own operators (`/` rounds toward -infinity: //)
    assert ex.to_python(ex.parse("a / 2 > 1"), lambda n: f"s.{n}", lambda e, m: "0", lambda n: "int") == \
        "((s.a // 2) > 1)"


@pytest.mark.parametrize("text", ["a +", "a $ b", "(a", "a ? b", "a.", "3 b"])
def test_bad_expressions(text: str) -> None:
    with pytest.raises(ex.ExprError):
        ex.parse(text)
