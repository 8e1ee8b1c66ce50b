"""Kaitai expressions: precedence, integer division, names, rendering to Python."""

from __future__ import annotations

from typing import Any

import pytest

from binparse.engine import expr as ex


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
    # operands of unknown type go through binparse.engine.expr.values (Kaitai's semantics for every type) ...
    assert ex.to_python(ex.parse("a / 2 > 1 ? a : b[0]"), lambda n: f"s.{n}", lambda e, m: "0") == \
        "(s.a if _kv.gt(_kv.div(s.a, 2), 1) else _kv.index(s.b, 0))"
    # ... integers known to be integers are Python's own operators (`/` rounds toward -infinity: //)
    assert ex.to_python(ex.parse("a / 2 > 1"), lambda n: f"s.{n}", lambda e, m: "0", lambda n: "int") == \
        "((s.a // 2) > 1)"


@pytest.mark.parametrize("text", ["a +", "a $ b", "(a", "a ? b", "a.", "3 b"])
def test_bad_expressions(text: str) -> None:
    with pytest.raises(ex.ExprError):
        ex.parse(text)


# One check per level of Kaitai's precedence (Expressions.scala), loosest first: each expression reads
# differently if that level were ranked the other way round (the value that order would give in brackets).
@pytest.mark.parametrize("text,value", [
    ("true or false ? 1 : 2", 1),            # ?: below or                  ((true or false) ? 1 : 2)
    ("true or false and false", True),       # or below and                 (False if or bound tighter)
    ("not false and false", False),          # and below not                (True if not took `false and false`)
    ("not 1 == 2", True),                    # not below comparisons        (not 1 is False; False == 2 is False)
    ("1 | 2 == 3", True),                    # comparisons below |          (1 | (2 == 3) is 1, as in C)
    ("1 | 2 ^ 3", 1),                        # | below ^                    ((1 | 2) ^ 3 is 0)
    ("6 ^ 3 & 5", 7),                        # ^ below &                    ((6 ^ 3) & 5 is 5)
    ("12 & 3 << 2", 12),                     # & below << >>                ((12 & 3) << 2 is 0)
    ("1 << 2 + 1", 8),                       # << >> below + -              ((1 << 2) + 1 is 5)
    ("2 + 3 * 4", 14),                       # + - below * / %              (20)
    ("-3 % 2", 1),                           # * / % below unary minus      (-(3 % 2) is -1)
    ("-[1, 2, 3].size", -3),                 # unary below postfix          (size of -[...] is no value)
    ("8 - 3 - 2", 3), ("16 / 4 / 2", 2),     # left-associative             (7, 8)
    ("a & 2 != 0", True),                    # the flag test C reads as a & (2 != 0)
])
def test_precedence_level_by_level(text: str, value: Any) -> None:
    assert ex.evaluate(ex.parse(text), Scope()) == value


def test_comparisons_do_not_chain() -> None:
    with pytest.raises(ex.ExprError, match="do not chain"):
        ex.parse("1 < 2 < 3")


@pytest.mark.parametrize("text,value", [
    ('"a\\tb"', "a\tb"), ("'a\\tb'", "a\\tb"), ('"\\101\\u0042"', "AB"), ('"ab" "cd"', "abcd"),
    ("[0x41, 66].to_s('ASCII')", "AB"), ('"abc".substring(1, 3).reverse', "cb"), ('"7f".to_i(16)', 127),
    ("2.9.to_i + -2.9.to_i", 0), ("12.to_s + 'x'", "12x"), ("b[0] + b.last + b.size", 9), ('f"n={a + 1}"', "n=4"),
    ("[1, 2] == [1, 2]", True), ("[300, 2].size", 2), ("4.", 4.0), (".5 * 2", 1.0),
])
def test_literals_and_methods(text: str, value: Any) -> None:
    assert ex.evaluate(ex.parse(text), Scope()) == value


def test_an_array_cast_to_bytes_is_bytes_in_the_interpreter_and_in_python() -> None:
    """Kaitai's expr_bytes_non_literal: `[one, two].as<bytes>` of two u1 fields is a byte array."""
    e = ex.parse("[a, b[2] * 51].as<bytes>")
    assert ex.evaluate(e, Scope()) == b"\x03\xff"
    code = ex.to_python(e, lambda n: f"s.{n}", lambda e, m: "0")
    assert code == "_kv.cast(_kv.list_value([s.a, _kv.mul(_kv.index(s.b, 2), 51)], False), 'bytes')"
    s = type("S", (), {"a": 3, "b": [1, 2, 5]})
    assert eval(code, {"_kv": __import__("binparse.engine.expr.values", fromlist=["x"]), "s": s}) == b"\x03\xff"
    with pytest.raises(ValueError):
        ex.evaluate(ex.parse("[a * 100].as<bytes>"), Scope())


def test_kaitai_encodings_are_known_by_their_python_codec_names() -> None:
    import codecs

    from binparse.engine.expr.encodings import KAITAI_ENCODINGS, PYTHON_CODECS, python_codec
    assert PYTHON_CODECS == {codecs.lookup(n).name for n in KAITAI_ENCODINGS}
    assert [python_codec(n) for n in ("UTF-8", "utf8", "SJIS", "cp437", "latin1", "KOI8-R")] == [
        "utf-8", "utf-8", "shift_jis", "cp437", "iso8859-1", None]
