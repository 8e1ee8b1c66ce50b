"""Kaitai Struct's expression language: text to a small tuple AST, with Kaitai's grammar exactly.

Precedence, loosest first (Kaitai's `Expressions.scala`): `c ? a : b`; `or`; `and`; `not`; one
comparison (`== != < <= > >=`, not chained); `|`; `^`; `&`; `<< >>`; `+ -`; `* / %`; unary
`- + ~`; postfix `.name`, `.name(args)`, `[i]`, `.as<type>`. Bitwise operators bind tighter than
comparisons (`a & 2 != 0` is `(a & 2) != 0`), unlike C.

AST nodes (tuples, hashable): ("num", int|float|bool), ("str", text), ("name", id),
("enum", "path::enum", member), ("attr", obj, id), ("call", obj, id, (args…)), ("index", obj, i),
("un", "-"|"~"|"not", x), ("bin", op, a, b) for arithmetic, bitwise, comparison, `and`, `or`;
("cond", c, a, b), ("list", (items…)), ("cast", obj, "type"), ("sizeof", "type"),
("bitsizeof", "type"), ("fstr", (parts…)).
"""

from __future__ import annotations

import re
from typing import Any

from .trees import MAX_DEPTH as MAX_DEPTH, depth as depth, names as names, nodes as nodes

Expr = tuple[Any, ...]


class ExprError(ValueError):
    """The text is not a Kaitai expression (the loader turns this into a SchemaError)."""


_TOKEN = re.compile(r"""
    (?P<ws>(?:[ \t\r\n]|\\\n)+)
  | (?P<fstr>f")
  | (?P<dstr>"(?:[^"\\]|\\.)*")
  | (?P<sstr>'[^']*')
  | (?P<float>\d+[eE][+-]?\d+|\d*\.\d+(?:[eE][+-]?\d+)?|\d+\.(?![ \t\n]*[A-Za-z_])(?:[eE][+-]?\d+)?)
  | (?P<int>0[xX][0-9a-fA-F_]+|0[bB][01_]+|0[oO][0-7_]+|[1-9][\d_]*|0)
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>::|<<|>>|<=|>=|==|!=|[-+*/%<>&|^~?:.\[\](),{}])
""", re.VERBOSE | re.DOTALL)

_ESCAPES = {"a": "\a", "b": "\b", "t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r", "e": "\x1b",
            "'": "'", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(?:([abtnvfre'\"\\])|([0-7_]+)|u([0-9a-fA-F_]{4})|(.))", re.DOTALL)

# Binary operators by level, loosest first; each level is left-associative.
_LEVELS: tuple[tuple[str, ...], ...] = (("|",), ("^",), ("&",), ("<<", ">>"), ("+", "-"), ("*", "/", "%"))
COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")
KEYWORDS = ("and", "or", "not")


def unescape(body: str) -> str:
    """The text of a double-quoted Kaitai string literal (its escapes: `\\n`, octal, `\\u0041`)."""

    def one(m: re.Match[str]) -> str:
        if m.group(1):
            return _ESCAPES[m.group(1)]
        if m.group(2):
            return chr(int(m.group(2).replace("_", ""), 8))
        if m.group(3):
            return chr(int(m.group(3).replace("_", ""), 16))
        raise ExprError(f"unknown escape \\{m.group(4)} in a string")

    return _ESCAPE.sub(one, body)


def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExprError(f"unexpected character {text[pos]!r} at column {pos + 1}")
        kind = m.lastgroup or ""
        if kind == "fstr":
            end = _fstring_end(text, m.end())
            out.append(("fstr", text[m.end():end]))
            pos = end + 1
            continue
        pos = m.end()
        if kind != "ws":
            tok = m.group()
            if kind == "name" and tok in KEYWORDS:
                kind = "op"
            out.append((kind, tok))
    out.append(("end", ""))
    return out


def _fstring_end(text: str, start: int) -> int:
    depth, i = 0, start
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth == 0:
            return i
        i += 1
    raise ExprError("unterminated f-string")


# How deep an expression may nest: parentheses, brackets, arguments, `? :` and unary operators while
# parsing (MAX_NEST), and the tree once parsed (MAX_DEPTH: `a + b + c …` and `x.a.b.c …` are loops of
# the parser but nest the tree). Deeper is a SchemaError at load, never a RecursionError later (Kaitai's
# gallery and test formats nest 21 deep at most).
MAX_NEST = 32
_MAX_LITERAL = 2048  # characters of an integer literal (8,192 bits in hexadecimal: values.MAX_INT_BITS)


class _Parser:
    def __init__(self, text: str, nest: int = 0) -> None:
        self.toks = _tokens(text)
        self.i = 0
        self.nest = nest

    def deeper(self) -> None:
        self.nest += 1
        if self.nest > MAX_NEST:
            raise ExprError(f"the expression nests deeper than {MAX_NEST} levels")

    def peek(self, k: int = 0) -> tuple[str, str]:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def take(self, tok: str | None = None) -> tuple[str, str]:
        t = self.toks[self.i]
        if tok is not None and (t[1] != tok or t[0] in ("dstr", "sstr", "fstr")):
            raise ExprError(f"expected {tok!r}, found {t[1] or 'end of expression'!r}")
        self.i += 1
        return t

    def at(self, tok: str) -> bool:
        kind, t = self.peek()
        return t == tok and kind in ("op", "name")

    def parse(self) -> Expr:
        e = self.test()
        if self.peek()[0] != "end":
            raise ExprError(f"unexpected {self.peek()[1]!r}")
        return e

    def test(self) -> Expr:
        self.deeper()
        cond = self.or_test()
        if self.at("?"):
            self.take()
            a = self.test()
            self.take(":")
            b = self.test()
            cond = ("cond", cond, a, b)
        self.nest -= 1
        return cond

    def or_test(self) -> Expr:
        e = self.and_test()
        while self.at("or"):
            self.take()
            e = ("bin", "or", e, self.and_test())
        return e

    def and_test(self) -> Expr:
        e = self.not_test()
        while self.at("and"):
            self.take()
            e = ("bin", "and", e, self.not_test())
        return e

    def not_test(self) -> Expr:
        if self.at("not"):
            self.take()
            self.deeper()
            inner = self.not_test()
            self.nest -= 1
            return ("un", "not", inner)
        return self.comparison()

    def comparison(self) -> Expr:
        left = self.level(0)
        kind, tok = self.peek()
        if kind == "op" and tok in COMPARISONS:
            self.take()
            left = ("bin", tok, left, self.level(0))
            if self.peek()[0] == "op" and self.peek()[1] in COMPARISONS:
                raise ExprError(f"comparisons do not chain in Kaitai: put parentheses around one ({tok!r} then "
                                f"{self.peek()[1]!r})")
        return left

    def level(self, n: int) -> Expr:
        if n == len(_LEVELS):
            return self.factor()
        e = self.level(n + 1)
        while self.peek()[0] == "op" and self.peek()[1] in _LEVELS[n]:
            op = self.take()[1]
            e = ("bin", op, e, self.level(n + 1))
        return e

    def factor(self) -> Expr:
        kind, tok = self.peek()
        if kind == "op" and tok in ("-", "+", "~"):
            self.take()
            self.deeper()
            inner = self.factor()
            self.nest -= 1
            if tok == "+":
                return inner
            if tok == "-" and inner[0] == "num" and not isinstance(inner[1], bool):
                return ("num", -inner[1])
            return ("un", tok, inner)
        return self.postfix(self.atom())

    def type_name(self) -> str:
        parts = []
        if self.at("::"):
            self.take()
            parts.append("")
        kind, name = self.take()
        if kind != "name":
            raise ExprError(f"expected a type name, found {name!r}")
        parts.append(name)
        while self.at("::"):
            self.take()
            kind, name = self.take()
            if kind != "name":
                raise ExprError(f"expected a type name after '::', found {name!r}")
            parts.append(name)
        text = "::".join(parts)
        if self.at("[") and self.peek(1)[1] == "]":
            self.take()
            self.take()
            text += "[]"
        return text

    def atom(self) -> Expr:
        kind, tok = self.peek()
        if kind in ("dstr", "sstr"):
            text = ""
            while self.peek()[0] in ("dstr", "sstr"):
                k, t = self.take()
                text += unescape(t[1:-1]) if k == "dstr" else t[1:-1]
            return ("str", text)
        if kind == "fstr":
            self.take()
            return ("fstr", _fstring_parts(tok, self.nest))
        self.take()
        if kind == "int":
            digits = tok.replace("_", "")
            if digits[:2].lower() in ("0x", "0b", "0o") and len(digits) == 2:
                raise ExprError(f"no digits in {tok!r}")
            if len(digits) > _MAX_LITERAL:
                raise ExprError(f"an integer literal of {len(digits):,} digits (binparse follows integers of up "
                                f"to {_MAX_LITERAL} digits)")
            return ("num", int(digits, 0))
        if kind == "float":
            return ("num", float(tok))
        if kind == "name":
            if tok in ("sizeof", "bitsizeof") and self.at("<"):
                self.take()
                name = self.type_name()
                self.take(">")
                return (tok, name)
            if self.at("::"):
                return self.enum_literal(tok)
            if tok in ("true", "false"):
                return ("num", tok == "true")
            return ("name", tok)
        if tok == "::" and kind == "op":
            return self.enum_literal("")
        if tok == "(" and kind == "op":
            e = self.test()
            self.take(")")
            return e
        if tok == "[" and kind == "op":
            items: list[Expr] = []
            while not self.at("]"):
                items.append(self.test())
                if not self.at(","):
                    break
                self.take()
            self.take("]")
            return ("list", tuple(items))
        raise ExprError(f"unexpected {tok or 'end of expression'!r}")

    def enum_literal(self, first: str) -> Expr:
        names = [first] if first else [""]
        while self.at("::"):
            self.take()
            kind, name = self.take()
            if kind != "name":
                raise ExprError(f"expected a name after '::', found {name!r}")
            names.append(name)
        if first == "":
            names = names[1:]
            if len(names) < 2:
                raise ExprError("an enum literal is enum::member")
            return ("enum", "::" + "::".join(names[:-1]), names[-1])
        if len(names) < 2:
            raise ExprError("an enum literal is enum::member")
        return ("enum", "::".join(names[:-1]), names[-1])

    def postfix(self, e: Expr) -> Expr:
        while True:
            if self.at("."):
                self.take()
                kind, name = self.take()
                if kind != "name":
                    raise ExprError(f"expected a name after '.', found {name!r}")
                if name == "as" and self.at("<"):
                    self.take()
                    tname = self.type_name()
                    self.take(">")
                    e = ("cast", e, tname)
                elif self.at("("):
                    self.take()
                    args: list[Expr] = []
                    while not self.at(")"):
                        args.append(self.test())
                        if not self.at(","):
                            break
                        self.take()
                    self.take(")")
                    e = ("call", e, name, tuple(args))
                else:
                    e = ("attr", e, name)
            elif self.at("["):
                self.take()
                idx = self.test()
                self.take("]")
                e = ("index", e, idx)
            else:
                return e


def _fstring_parts(body: str, nest: int = 0) -> tuple[Expr, ...]:
    parts: list[Expr] = []
    text, i = "", 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            text += body[i:i + 2]
            i += 2
        elif c == "{":
            depth, j = 1, i + 1
            while depth:
                depth += {"{": 1, "}": -1}.get(body[j], 0)
                j += 1
            if text:
                parts.append(("str", unescape(text)))
                text = ""
            parts.append(_Parser(body[i + 1:j - 1], nest + 1).parse())
            i = j
        else:
            text += c
            i += 1
    if text:
        parts.append(("str", unescape(text)))
    return tuple(parts)


def parse(text: str | int | float | bool) -> Expr:
    """Parse an expression (a YAML scalar) into an AST; raises `ExprError`."""
    if isinstance(text, (bool, int, float)):
        if isinstance(text, int) and text.bit_length() > 4 * _MAX_LITERAL:
            raise ExprError(f"an integer literal of {text.bit_length():,} bits (binparse follows integers of up to "
                            f"{4 * _MAX_LITERAL:,} bits)")
        return ("num", text)
    try:
        e = _Parser(str(text).strip()).parse()
    except ExprError:
        raise
    except RecursionError:
        raise ExprError("the expression nests deeper than binparse follows") from None
    except (IndexError, ValueError) as exc:  # an f-string cut short, a literal Python cannot make
        raise ExprError(f"not an expression ({exc})") from None
    if depth(e) > MAX_DEPTH:
        raise ExprError(f"the expression nests deeper than {MAX_DEPTH} levels (a chain of that many "
                        "operators or members): split it into value instances")
    return e


def parse_type(text: str) -> tuple[str, tuple[Expr, ...]]:
    """A type reference `name`, `a::b` or `name(arg, …)`: its name and argument ASTs."""
    p = _Parser(str(text).strip())
    name = p.type_name()
    args: list[Expr] = []
    if p.at("("):
        p.take()
        while not p.at(")"):
            args.append(p.test())
            if not p.at(","):
                break
            p.take()
        p.take(")")
    if p.peek()[0] != "end":
        raise ExprError(f"unexpected {p.peek()[1]!r} in a type reference")
    return name, tuple(args)

