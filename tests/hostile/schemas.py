"""The hostile-schema generator (issue 44, docs/contracts.md "Schemas are data"): `.ksy` files an
attacker would write, each class pushed to its limit, with the data each is read from; and hostile
files under a benign schema. `test_schemas.py` runs every case through every entry point.

The classes:

- **escape**: every route an expression could take to Python: dunders, `.as<any>`, `_parent` with
  several parents, `any` and `struct` params, switches over several types, `_io`, calls on records,
  names the accessor base class has (`validate`, `from_buffer`), f-strings, enum literals, encodings,
  custom `process`; each must be refused at load (exit 3) or read as plain data, and never create the
  marker file its code would write;
- **source**: schema text that would end up in generated Python: keywords, builtins and names the
  module imports as ids and type names, leading underscores, a trailing newline, docs with NUL, lone
  surrogates, quotes and backslashes, a title that tries to close the docstring;
- **cost**: what grows load or compile time: records nested dozens deep holding the next twice,
  thousands of types, fields, instances and enum members, chains of value instances that name the one
  before twice, types nested deep, long operator, member and parenthesis chains, huge literals, YAML
  bombs;
- **read**: schemas that make reading cost: a type that holds itself (in its seq, through another type,
  through instances), `process: zlib` bombs, `1 << n` and products from the file, string doubling,
  integers of thousands of digits, negative and huge sizes, repeats over records of no size, division by
  zero, bad conversions;
- **file**: a benign schema (counted records, sized blocks, strings) and hostile files for it.

`cases()` gives them all (each made when asked); `pick(n)` a sample by a seed, as the existing suite does.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field, replace

MARKER = "MARKER"  # the file a successful escape would create (in the case's folder)
SEEDS = "issue-44"


@dataclass(frozen=True)
class SchemaCase:
    """One hostile schema (or benign schema and hostile file): the `.ksy` text, the data read with it,
    any other files (imports), the `--tensor` expression `view` takes, and the exit codes the CLI may
    give (3: refused at load; 0 or 2: read as data)."""

    klass: str
    what: str
    make: Callable[[], tuple[str | bytes, bytes]] = field(hash=False, compare=False, repr=False)
    exits: frozenset[int] = frozenset({0, 2, 3})
    tensor: str = "_root"
    extra: tuple[tuple[str, bytes], ...] = ()
    name: str = "s.ksy"  # the schema's file name
    heavy: bool = False  # seconds a command (schemas at the size limits, bombs): in the long run only

    @property
    def key(self) -> str:
        return f"{self.klass}: {self.what}"


LOAD = frozenset({3})
READ = frozenset({0, 2})


def _ksy(body: str, sid: str = "s", meta: str = "") -> str:
    return f"meta:\n  id: {sid}\n  endian: le\n{meta}" + body


def _one(value: str, seq: str = "  - {id: a, type: u1}\n", types: str = "") -> str:
    """A schema whose root has `seq` and one value instance `x` of `value`."""
    return _ksy(f"seq:\n{seq}instances:\n  x:\n    value: {value}\n" + (f"types:\n{types}" if types else ""))


# --- escape ---------------------------------------------------------------------------------------

_PAYLOADS = [
    "_root.as<any>.validate.__func__.__globals__",
    "_root.as<any>.__class__.__init__.__globals__",
    "_root.as<struct>.validate",
    "_root.validate",
    "_root.from_buffer",
    "_root._cache",
    "_root.__dict__",
    "_root.__class__",
    "_root._mv",
    "_io.__class__",
    "_io.mv",
    "_io.as<any>.mv",
    "_io.read_bytes(4)",
    "_root.to_dict()",
    "_root.validate()",
    "a.__class__",
    "a.as<any>.__class__.__base__.__subclasses__()",
    "a.to_s.__self__",
    "a.bit_length()",
    "[1, 2].__len__",
    "'x'.join([])",
    "'x'.format",
    "'x'.encode('rot13')",
    "[1].to_s('hex_codec')",
    "[65, 66].to_s('uu_codec')",
    "f\"{_root.__class__}\"",
    "_root._root._root.__class__",
    "_parent.__class__",
    "_index.__class__",
    "sizeof<__class__>",
    "s::__class__::x",
]


def escape_cases() -> list[SchemaCase]:
    out = [SchemaCase("escape", f"value {p}", lambda p=p: (_one(p), b"\x05\x00\x00\x00"), LOAD) for p in _PAYLOADS]
    out.append(SchemaCase("escape", "value _parent._parent (of the root: null)", lambda: (_one("_parent._parent"),
                                                                                          b"\x05"), READ))
    two_parents = ("  - {id: a, type: u1}\n  - {id: p1, type: one}\n  - {id: p2, type: two}\n",
                   "  one:\n    seq:\n      - {id: c, type: child}\n"
                   "  two:\n    seq:\n      - {id: validate, type: u1}\n      - {id: c, type: child}\n"
                   "  child:\n    seq:\n      - {id: b, type: u1}\n    instances:\n      y:\n        value: _parent.{n}\n")
    for n, exits in (("validate", READ), ("__class__", LOAD), ("validate.__class__", LOAD), ("from_buffer", LOAD),
                     ("c.b", READ), ("_io.__class__", LOAD), ("as<any>.__class__", LOAD)):
        out.append(SchemaCase("escape", f"_parent of two parents: _parent.{n}", lambda n=n: (_ksy(
            "seq:\n" + two_parents[0] + "types:\n" + two_parents[1].replace("{n}", n)), bytes(8)), exits))
    param = ("seq:\n  - {id: a, type: u1}\n  - {id: c, type: holder(_root)}\n  - {id: d, type: holder(a)}\n"
             "types:\n  holder:\n    params:\n      - {id: p, type: %s}\n    seq:\n      - {id: b, type: u1}\n"
             "    instances:\n      y:\n        value: p.%s\n")
    for ptype in ("any", "struct"):
        for n, exits in (("a", READ), ("validate", LOAD), ("__class__", LOAD), ("_io.__class__", LOAD),
                         ("to_dict()", LOAD), ("c.p.a", READ)):
            out.append(SchemaCase("escape", f"a {ptype} param: p.{n}", lambda ptype=ptype, n=n: (
                _ksy(param % (ptype, n)), bytes(8)), exits))
    switch = ("seq:\n  - {id: k, type: u1}\n  - id: s\n    type:\n      switch-on: k\n      cases:\n        0: one\n"
              "        1: two\n  - {id: validate, type: u1}\ninstances:\n  y:\n    value: s.%s\n"
              "types:\n  one:\n    seq:\n      - {id: a, type: u1}\n  two:\n    seq:\n      - {id: b, type: u1}\n")
    for n, exits in (("a", READ), ("b", READ), ("validate", LOAD), ("__class__", LOAD), ("_parent.validate", READ),
                     ("_parent.__class__", LOAD), ("as<any>.validate", LOAD)):
        for k in (0, 1):
            out.append(SchemaCase("escape", f"a switch over two types (case {k}): s.{n}",
                                  lambda n=n, k=k: (_ksy(switch % n), bytes([k, 7, 9])), exits))
    # fields named as the accessor base's methods: plain data wherever they are named
    names = ("validate", "from_buffer", "to_dict", "rows", "copies", "nbytes", "offset", "path", "fields")
    seq = "".join(f"  - {{id: {n}, type: u1}}\n" for n in names)
    inst = "".join(f"  v_{n}:\n    value: {n} + _root.{n}\n" for n in names)
    out.append(SchemaCase("escape", "fields named as the accessor's own methods", lambda: (
        _ksy(f"seq:\n{seq}instances:\n{inst}"), bytes(range(1, 10))), READ, tensor="validate"))
    # an encoding Kaitai does not know fails when text is decoded, as in Kaitai's own code (its test suite
    # expects UnknownEncodingError then): exit 2, and no codec outside Kaitai's list ever runs
    for enc in ("rot13", "uu_codec", "zlib_codec", "idna", "punycode", "unicode_escape", "raw_unicode_escape"):
        out.append(SchemaCase("escape", f"the encoding {enc}, a Python codec", lambda enc=enc: (_ksy(
            f"seq:\n  - {{id: s, type: str, size: 4, encoding: {enc}}}\ninstances:\n  t:\n"
            f"    value: s.to_b('{enc}').to_s('{enc}')\n"), b"abcd"), READ))
    out.append(SchemaCase("escape", "process: a custom routine named as Python", lambda: (_ksy(
        "seq:\n  - {id: s, size: 4, process: os.system('touch MARKER')}\n"), b"abcd"), LOAD))
    out.append(SchemaCase("escape", "a type named os with process: __import__", lambda: (_ksy(
        "seq:\n  - {id: s, size: 4, process: __import__('os')}\n"), b"abcd"), LOAD))
    out.append(SchemaCase("escape", "an enum literal naming a dunder", lambda: (_one(
        "a == e::__class__", types="") + "enums:\n  e:\n    1: one\n", b"\x01"), LOAD))
    out.append(SchemaCase("escape", "a size through _io's Python attributes", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1}\n  - {id: b, size: _io.mv.nbytes}\n"), bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a repeat-until through a record's Python attributes", lambda: (_ksy(
        "seq:\n  - {id: a, type: r, repeat: until, repeat-until: _.validate}\n"
        "types:\n  r:\n    seq:\n      - {id: b, type: u1}\n"), bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a parent: key naming a Python attribute", lambda: (_ksy(
        "seq:\n  - {id: a, type: r, parent: _root.__class__}\n"
        "types:\n  r:\n    seq:\n      - {id: b, type: u1}\n"), bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a valid: expr through a Python attribute", lambda: (_ksy(
        "seq:\n  - id: a\n    type: u1\n    valid:\n      expr: _.__class__ == 1\n"), bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a meta/endian switch through a Python attribute", lambda: (
        "meta:\n  id: s\n  endian:\n    switch-on: _root.__class__\n    cases:\n      1: le\n      _: be\n"
        "seq:\n  - {id: a, type: u2}\n", bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a meta/endian case key through a Python attribute", lambda: (
        "meta:\n  id: s\n  endian:\n    switch-on: 1\n    cases:\n      _root.__class__: le\n      _: be\n"
        "seq:\n  - {id: a, type: u2}\n", bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a -webide-representation naming Python attributes", lambda: (_ksy(
        '-webide-representation: "{a} {__class__.__init__.__globals__} {_mv} {_cache.__class__} {a.__class__}"\n'
        "seq:\n  - {id: a, type: u1}\n"), bytes(8)), READ))
    out.append(SchemaCase("escape", "a process argument through a Python attribute", lambda: (_ksy(
        "seq:\n  - {id: a, size: 4, process: xor(_root.__class__)}\n"), bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a type argument through a Python attribute", lambda: (_ksy(
        "seq:\n  - {id: a, type: r(_io.__class__)}\ntypes:\n  r:\n    params:\n      - {id: p, type: any}\n"
        "    seq:\n      - {id: b, type: u1}\n"), bytes(8)), LOAD))
    out.append(SchemaCase("escape", "a switch case key through a Python attribute", lambda: (_ksy(
        "seq:\n  - {id: k, type: u1}\n  - id: s\n    type:\n      switch-on: k\n      cases:\n"
        "        _root.__class__: u1\n        _: u2\n"), bytes(8)), LOAD))
    return out


# --- source: schema text that reaches generated Python ---------------------------------------------

def source_cases() -> list[SchemaCase]:
    out: list[SchemaCase] = []
    words = ("class", "import", "def", "lambda", "none", "property", "cast", "np", "self", "int", "str",
             "object", "type", "match", "print", "exec", "eval", "open", "sequence", "any", "class_var")
    seq = "".join(f"  - {{id: {w}, type: u1}}\n" for w in words)
    types = "".join(f"  {w}:\n    seq:\n      - {{id: {w}, type: u1}}\n" for w in words)
    out.append(SchemaCase("source", "keywords and builtins as ids and type names", lambda seq=seq, types=types: (
        _ksy(f"seq:\n{seq}  - {{id: t, type: class}}\ntypes:\n{types}"), bytes(range(len(words) + 1))), READ,
        tensor="class"))
    classes = ("field_spec", "accessor", "int_enum", "static_layout", "record_array", "str_array", "valid_spec",
               "linear_record", "n_d_array", "class_var", "exception", "base_exception", "value_error", "none",
               "type_error", "not_implemented", "ellipsis")
    types = "".join(f"  {c}:\n    seq:\n      - {{id: v, type: u1}}\n    enums:\n      int_enum:\n        1: a\n" for c in classes)
    seq = "".join(f"  - {{id: f_{c}, type: {c}}}\n" for c in classes)
    out.append(SchemaCase("source", "type names that would shadow the module's imports and builtins",
                          lambda seq=seq, types=types: (_ksy(f"seq:\n{seq}types:\n{types}"), bytes(len(classes))), READ))
    out.append(SchemaCase("source", "enum members named mro, doc, name, value, class", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1, enum: e}\n  - {id: b, type: u1, enum: e}\nenums:\n  e:\n"
        "    1: mro\n    2:\n      id: doc\n      doc: the doc member\n    3: name\n    4: value\n    5: class\n"
        "    6: to_bytes\n    7: real\n"), b"\x01\x02"), READ))
    out.append(SchemaCase("source", "enum members class and class_ (one Python name)", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1, enum: e}\nenums:\n  e:\n    1: class\n    2: class_\n"), b"\x01"), LOAD))
    out.append(SchemaCase("source", "ids class and class_ (one Python name)", lambda: (_ksy(
        "seq:\n  - {id: class, type: u1}\n  - {id: class_, type: u1}\n"), b"\x01\x02"), LOAD))
    for bad in ("_parent", "__init__", "_missing_", "a\n", "a\nimport os", "A", "a-b", "a b", "1a", "__class__"):
        out.append(SchemaCase("source", f"seq id {bad!r}", lambda bad=bad: (_ksy(
            f"seq:\n  - {{id: {bad!r}, type: u1}}\n".replace("'", '"')), b"\x01"), LOAD))
        out.append(SchemaCase("source", f"enum member {bad!r}", lambda bad=bad: (_ksy(
            f"seq:\n  - {{id: a, type: u1, enum: e}}\nenums:\n  e:\n    1: {bad!r}\n".replace("'", '"')), b"\x01"),
            LOAD))
        out.append(SchemaCase("source", f"type name {bad!r}", lambda bad=bad: (_ksy(
            f"seq:\n  - {{id: a, type: u1}}\ntypes:\n  {bad!r}:\n    seq: []\n".replace("'", '"')), b"\x01"), LOAD))
        out.append(SchemaCase("source", f"meta/id {bad!r}", lambda bad=bad: (
            f"meta:\n  id: {bad!r}\nseq:\n  - {{id: a, type: u1}}\n".replace("'", '"'), b"\x01"), LOAD))
    docs = ['ends with a quote"', 'ends with three quotes"""', '"""; import os; os.system("touch MARKER"); """',
            "a NUL \0 inside", "a lone surrogate \ud800 inside", "a carriage return \r inside",
            "ends with a backslash \\", "a form feed \f and \u2028 line separator", "'''\x00\"\"\"\\",
            "\n\n\n", "  \t  "]
    for d in docs:
        q = json.dumps(d)  # a YAML double-quoted scalar holding exactly `d`
        out.append(SchemaCase("source", f"doc {d!r}", lambda q=q: (_ksy(
            f'doc: {q}\nseq:\n  - id: a\n    type: u1\n    doc: {q}\n    doc-ref: {q}\n'
            f'types:\n  t:\n    doc: {q}\n    seq: []\nenums:\n  e:\n    1:\n      id: m\n      doc: {q}\n',
            meta=f'  title: {q}\n'), b"\x01"), READ if "\ud800" not in d else LOAD))  # (YAML has no lone surrogate)
    out.append(SchemaCase("source", "a title that closes the module docstring", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1}\n", meta='  title: "x\\"\\"\\"\\nimport os\\nos.system(\\"touch MARKER\\")\\n"\n'),
        b"\x01"), READ))
    for name in ('q"uote.ksy', "new\nline.ksy", "back\\slash.ksy", "nul\x7f.ksy"):
        out.append(SchemaCase("source", f"the schema's file name {name!r}", lambda: (_ksy(
            "seq:\n  - {id: a, type: u1}\n"), b"\x01"), READ, name=name))
    out.append(SchemaCase("source", "strings that are no Python literal", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1}\n  - {id: m, contents: [0x00]}\ninstances:\n"
        "  s1:\n    value: '\"\\u0000\\ud800\\\"\\\"\\\"\\\\\"'\n  s2:\n    value: 1e999\n  s3:\n    value: -1e999\n"
        "  s4:\n    value: 0x7fffffffffffffffffffffffffffffff\n"), b"\x01\x00"), READ))
    out.append(SchemaCase("source", "repeat-expr 10^12 in a fixed-size record", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1, repeat: expr, repeat-expr: 1000000000000}\n"), b"\x01"), READ))
    out.append(SchemaCase("source", "repeat-expr 2^62 of records in a fixed-size record", lambda: (_ksy(
        "seq:\n  - {id: a, type: r, repeat: expr, repeat-expr: 4611686018427387904}\n"
        "types:\n  r:\n    seq:\n      - {id: b, type: u8}\n"), b"\x01"), READ))
    return out


# --- cost: load and compile ----------------------------------------------------------------------

def _nested(depth: int, twice: bool) -> str:
    types = "".join(f"  t{k}:\n    seq:\n      - {{id: a, type: t{k + 1}}}\n" +
                    (f"      - {{id: b, type: t{k + 1}}}\n" if twice else "") for k in range(depth))
    types += f"  t{depth}:\n    seq:\n      - {{id: v, type: u1}}\n"
    return _ksy(f"seq:\n  - {{id: r, type: t0}}\ntypes:\n{types}")


def _deep_types(depth: int) -> str:
    text, indent = "", "  "
    for k in range(depth):
        text += f"{indent}t{k}:\n{indent}  seq:\n{indent}    - {{id: v, type: u1}}\n{indent}  types:\n"
        indent += "    "
    text += f"{indent}leaf:\n{indent}  seq: []\n"
    return _ksy(f"seq:\n  - {{id: r, type: t0}}\ntypes:\n{text}")


def cost_cases() -> list[SchemaCase]:
    out: list[SchemaCase] = []
    for depth in (12, 24, 48):
        out.append(SchemaCase("cost", f"records nested {depth} deep, each holding the next twice",
                              lambda depth=depth: (_nested(depth, True), bytes(64)), READ))
    out.append(SchemaCase("cost", "records nested 60 deep", lambda: (_nested(60, False), bytes(8)), READ))
    out.append(SchemaCase("cost", "records nested 200 deep", lambda: (_nested(200, False), bytes(8)), LOAD))
    for n in (2000, 9000):
        out.append(SchemaCase("cost", f"{n:,} value instances, each naming the one before twice", lambda n=n: (_ksy(
            "seq:\n  - {id: a, type: u1}\ninstances:\n  v0:\n    value: a\n" +
            "".join(f"  v{k}:\n    value: v{k - 1} + v{k - 1}\n" for k in range(1, n))), b"\x01"), READ))
        out.append(SchemaCase("cost", f"{n:,} value instances over params, each naming the one before twice",
                              lambda n=n: (_ksy(
                                  "seq:\n  - {id: a, type: r(3)}\ntypes:\n  r:\n    params:\n      - {id: p, type: u4}\n"
                                  "    seq:\n      - {id: b, size: v%d}\n    instances:\n      v0:\n        value: p\n" % (n - 1) +
                                  "".join(f"      v{k}:\n        value: v{k - 1} + v{k - 1} - v{k - 1}\n" for k in range(1, n))),
                                  bytes(8)), READ))
    # a schema of more than yamlnodes.MAX_NODES YAML values is refused (exit 3); those just under it are read
    for n, exits in ((5000, READ), (7500, READ), (20000, LOAD)):  # 5 values a type
        out.append(SchemaCase("cost", f"{n:,} types", lambda n=n: (_ksy(
            "seq:\n" + "".join(f"  - {{id: f{k}, type: t{k}}}\n" for k in range(0, n, max(1, n // 50))) + "types:\n" +
            "".join(f"  t{k}:\n    seq:\n      - {{id: v, type: u1}}\n" for k in range(n))), bytes(64)), exits))
    for n, exits in ((5000, READ), (13000, READ), (20000, LOAD)):  # 3 values a field
        out.append(SchemaCase("cost", f"{n:,} seq fields", lambda n=n: (_ksy(
            "seq:\n" + "".join(f"  - {{id: f{k}, type: u1}}\n" for k in range(n))), bytes(n)), exits))
    for n, exits in ((5000, READ), (19000, READ), (25000, LOAD)):  # 2 values an instance
        out.append(SchemaCase("cost", f"{n:,} instances", lambda n=n: (_ksy(
            "seq:\n  - {id: a, type: u1}\ninstances:\n" + "".join(f"  i{k}:\n    value: a + {k}\n" for k in range(n))),
            b"\x01"), exits))
    for n, exits in ((20000, READ), (50000, LOAD)):
        out.append(SchemaCase("cost", f"an enum of {n:,} members", lambda n=n: (_ksy(
            "seq:\n  - {id: a, type: u1, enum: e}\nenums:\n  e:\n" + "".join(f"    {k}: m{k}\n" for k in range(n))),
            b"\x01"), exits))
    for depth, exits in ((30, READ), (60, LOAD), (300, LOAD)):  # schema.load.MAX_NESTING
        out.append(SchemaCase("cost", f"types nested {depth} deep", lambda depth=depth: (_deep_types(depth), bytes(8)),
                              exits))
    for n, what in ((10**4, "a + a + … (10^4 terms)"), (10**5, "a + a + … (10^5 terms)")):
        out.append(SchemaCase("cost", what, lambda n=n: (_one(" + ".join(["a"] * n)), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "_root._root… 10^4 times", lambda: (_one("._".join(["_root"] * 10**4) + ".a"), b"\x01"),
                          LOAD))
    out.append(SchemaCase("cost", "a.to_s.length… method chain 10^4", lambda: (_one("a" + ".to_s.length" * 5000), b"\x01"),
                          LOAD))
    out.append(SchemaCase("cost", "parentheses nested 10^4 deep", lambda: (_one("(" * 10**4 + "a" + ")" * 10**4), b"\x01"),
                          LOAD))
    out.append(SchemaCase("cost", "unary minus 10^4 times", lambda: (_one("-" * 10**4 + "a"), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "not 10^4 times", lambda: (_one("not " * 10**4 + "true"), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "a ? b : … nested 10^4", lambda: (_one("a == 1 ? 1 : " * 10**4 + "0"), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "f-strings nested 200 deep", lambda: (_one('f"{' * 200 + "a" + '}"' * 200), b"\x01"),
                          LOAD))
    out.append(SchemaCase("cost", "a 10^6-digit decimal literal", lambda: (_one("9" * 10**6), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "a 10^6-digit hexadecimal literal", lambda: (_one("0x" + "f" * 10**6), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "an array literal of 10^5 items", lambda: (_one(json.dumps(
        "[" + ", ".join(["a"] * 10**5) + "]")), b"\x01"), READ))
    out.append(SchemaCase("cost", "an array of 10^5 items in YAML (a schema past its size)", lambda: (_one(
        "[" + ", ".join(["a"] * 10**5) + "]"), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "a YAML alias bomb", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1}\n" + "x0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n" +
        "".join(f"x{k}: &a{k} [" + ", ".join([f"*a{k - 1}"] * 10) + "]\n" for k in range(1, 9))), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "YAML nested 10^4 deep", lambda: (_ksy("seq:\n  - {id: a, type: u1}\n-x: " +
                                                                         "[" * 10**4 + "]" * 10**4 + "\n"), b"\x01"), LOAD))
    out.append(SchemaCase("cost", "a doc of 10^7 characters", lambda: (_ksy(
        "doc: " + "x" * 10**7 + "\nseq:\n  - {id: a, type: u1}\n"), b"\x01"), READ))
    return out


# --- read: schemas that make reading cost --------------------------------------------------------

def _zbomb(mib: int) -> bytes:
    c = zlib.compressobj(9)
    zero = bytes(1 << 20)
    return b"".join([c.compress(zero) for _ in range(mib)] + [c.flush()])


def read_cases() -> list[SchemaCase]:
    out: list[SchemaCase] = []
    holds = "seq:\n  - {id: n, type: node}\ntypes:\n  node:\n    seq:\n      - {id: child, type: node}\n"
    out.append(SchemaCase("read", "a type that holds itself, on 1 byte", lambda: (_ksy(holds), b"\x01"), READ))
    out.append(SchemaCase("read", "a type that holds itself, on 1 MB", lambda: (_ksy(holds), bytes(1 << 20)), READ))
    out.append(SchemaCase("read", "two types that hold each other", lambda: (_ksy(
        "seq:\n  - {id: n, type: a}\ntypes:\n  a:\n    seq:\n      - {id: x, type: b}\n"
        "  b:\n    seq:\n      - {id: y, type: a}\n"), b"\x01"), READ))
    out.append(SchemaCase("read", "a type that holds itself after its own byte, 10^5 levels", lambda: (_ksy(
        "seq:\n  - {id: n, type: node}\n  - {id: tail, type: u1}\ntypes:\n  node:\n    seq:\n      - {id: a, type: u1}\n"
        "      - {id: child, type: node, if: a != 0}\n      - {id: b, type: u1}\n"), b"\x01" * 10**5 + b"\x00" * 10**5),
        READ))
    out.append(SchemaCase("read", "a linked list of 2^17 records by instances (1 MB)", lambda: (_ksy(
        "seq:\n  - {id: head, type: node}\ntypes:\n  node:\n    seq:\n      - {id: value, type: u4}\n"
        "      - {id: next_ofs, type: u4}\n    instances:\n      next:\n        pos: next_ofs\n        type: node\n"
        "        if: next_ofs != 0\n"),
        b"".join(struct.pack("<II", i, (i + 1) * 8 if i + 1 < 1 << 17 else 0) for i in range(1 << 17))), READ))
    out.append(SchemaCase("read", "an instance that points at itself", lambda: (_ksy(
        "seq:\n  - {id: a, type: u1}\ninstances:\n  me:\n    pos: 0\n    type: s\n"), b"\x01"), READ))
    out.append(SchemaCase("read", "records each pointing twice at the next (2^40 paths)", lambda: (_ksy(
        "seq:\n  - {id: n, type: node}\ntypes:\n  node:\n    seq:\n      - {id: k, type: u1}\n    instances:\n"
        "      l:\n        pos: _io.pos\n        type: node\n        if: _io.pos < _io.size\n"
        "      r:\n        pos: _io.pos\n        type: node\n        if: _io.pos < _io.size\n"), bytes(40)), READ))
    for mib in (300, 2000):
        out.append(SchemaCase("read", f"process: zlib of {mib} MiB of zeros", lambda mib=mib: (_ksy(
            "seq:\n  - {id: body, size-eos: true, process: zlib}\n"), _zbomb(mib)), READ, tensor="body"))
    out.append(SchemaCase("read", "process: zlib cut short", lambda: (_ksy(
        "seq:\n  - {id: body, size-eos: true, process: zlib}\n"), zlib.compress(bytes(10**5))[:-9]), READ))
    out.append(SchemaCase("read", "process: zlib 10^4 times over (nested substreams)", lambda: (_ksy(
        "seq:\n  - {id: body, size-eos: true, process: zlib, type: inner}\ntypes:\n  inner:\n    seq:\n"
        "      - {id: body, size-eos: true, process: zlib, type: inner}\n"), _nested_zlib(200)), READ))
    out.append(SchemaCase("read", "1 << n with n from the file", lambda: (_one("1 << n", "  - {id: n, type: u4}\n"),
                                                                         struct.pack("<I", 1 << 31)), READ))
    out.append(SchemaCase("read", "a product of products from the file", lambda: (_one(
        "n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n * n",
        "  - {id: n, type: u8}\n"), struct.pack("<Q", 2**64 - 1)), READ))
    out.append(SchemaCase("read", "squares through instances (2^k bits)", lambda: (_ksy(
        "seq:\n  - {id: n, type: u8}\ninstances:\n  v0:\n    value: n\n" +
        "".join(f"  v{k}:\n    value: v{k - 1} * v{k - 1}\n" for k in range(1, 40))), struct.pack("<Q", 2**64 - 1)), READ))
    out.append(SchemaCase("read", "sums through instances (thousands of digits)", lambda: (_ksy(
        "seq:\n  - {id: n, type: u8}\ninstances:\n  v0:\n    value: n << 8000\n" +
        "".join(f"  v{k}:\n    value: v{k - 1} + v{k - 1}\n" for k in range(1, 400))), struct.pack("<Q", 2**64 - 1)), READ))
    out.append(SchemaCase("read", "an integer of 2,400 digits printed", lambda: (_one("(1 << 8000) - 1"), b"\x01"), READ))
    out.append(SchemaCase("read", "a string doubled through 40 instances", lambda: (_ksy(
        "seq:\n  - {id: s, type: str, size: 4, encoding: ASCII}\ninstances:\n  v0:\n    value: s\n" +
        "".join(f"  v{k}:\n    value: v{k - 1} + v{k - 1}\n" for k in range(1, 40))), b"abcd"), READ))
    for op in ("*", "+"):  # each record's param made from the one before: the chain a value instance is checked on
        out.append(SchemaCase("read", f"params handed on through a repeat of 2 x 10^5 records ({op})", lambda op=op: (_ksy(
            "seq:\n  - id: groups\n    type: 'g(_index == 0 ? 1 : groups[_index - 1].m "
            f"{op} groups[_index - 1].m {op} 3)'\n    repeat: eos\ntypes:\n  g:\n    params:\n"
            "      - {id: m, type: u8}\n    seq:\n      - {id: b, type: u1}\n"), b"\x80" * 200_000), READ))
    out.append(SchemaCase("read", "a string doubled through params of 40 records", lambda: (_ksy(
        "seq:\n  - id: recs\n    type: 'r(_index == 0 ? \"abcd\" : recs[_index - 1].t + recs[_index - 1].t)'\n"
        "    repeat: expr\n    repeat-expr: 40\ntypes:\n  r:\n    params:\n      - {id: t, type: str}\n"
        "    seq:\n      - {id: b, type: u1}\n"), bytes(40)), READ))
    out.append(SchemaCase("read", "a negative size", lambda: (_ksy(
        "seq:\n  - {id: n, type: u1}\n  - {id: b, size: n - 10}\n"), b"\x05" + bytes(20)), READ, tensor="b"))
    out.append(SchemaCase("read", "a negative repeat count", lambda: (_ksy(
        "seq:\n  - {id: n, type: u1}\n  - {id: b, type: u1, repeat: expr, repeat-expr: n - 10}\n"), b"\x05" + bytes(20)),
        READ, tensor="b"))
    out.append(SchemaCase("read", "a size of 2^64 - 1", lambda: (_ksy(
        "seq:\n  - {id: n, type: u8}\n  - {id: b, size: n}\n"), struct.pack("<Q", 2**64 - 1)), READ, tensor="b"))
    out.append(SchemaCase("read", "a size of 2^200 from an expression", lambda: (_ksy(
        "seq:\n  - {id: n, type: u1}\n  - {id: b, size: n << 200}\n"), b"\x01"), READ, tensor="b"))
    out.append(SchemaCase("read", "a pos of 2^100", lambda: (_ksy(
        "seq:\n  - {id: n, type: u1}\ninstances:\n  far:\n    pos: n << 100\n    type: u4\n"), b"\x01"), READ))
    out.append(SchemaCase("read", "repeat: eos over records of no size", lambda: (_ksy(
        "seq:\n  - {id: items, type: empty, repeat: eos}\ntypes:\n  empty: {}\n"), b"\x01"), READ))
    out.append(SchemaCase("read", "repeat: until never true over records of no size", lambda: (_ksy(
        "seq:\n  - {id: items, type: empty, repeat: until, repeat-until: false}\ntypes:\n  empty: {}\n"), b"\x01"),
        READ))
    out.append(SchemaCase("read", "repeat-expr 2^32 of records of no size", lambda: (_ksy(
        "seq:\n  - {id: n, type: u4}\n  - {id: items, type: empty, repeat: expr, repeat-expr: n}\n"
        "types:\n  empty: {}\n"), struct.pack("<I", 2**32 - 1)), READ))
    out.append(SchemaCase("read", "repeat-expr 2^32 of strings read by pos", lambda: (_ksy(
        "seq:\n  - {id: n, type: u4}\ninstances:\n  strs:\n    pos: 0\n    type: str\n    size: 4\n"
        "    encoding: ASCII\n    repeat: expr\n    repeat-expr: n\n"), struct.pack("<I", 2**32 - 1)), READ))
    out.append(SchemaCase("read", "division and modulo by zero from the file", lambda: (_one(
        "100 / n + 100 % n", "  - {id: n, type: u1}\n"), b"\x00"), READ))
    out.append(SchemaCase("read", "to_i of text that is no number", lambda: (_ksy(
        "seq:\n  - {id: s, type: str, size: 4, encoding: ASCII}\ninstances:\n  i:\n    value: s.to_i\n"
        "  j:\n    value: s.to_i(99)\n"), b"zz\xffz"), READ))
    out.append(SchemaCase("read", "bytes that are no UTF-8 in a string", lambda: (_ksy(
        "seq:\n  - {id: s, type: str, size: 4, encoding: UTF-8}\n"), b"\xff\xfe\xfd\xfc"), READ))
    out.append(SchemaCase("read", "an index far past an array", lambda: (_one(
        "b[n]", "  - {id: n, type: u4}\n  - {id: b, type: u1, repeat: expr, repeat-expr: 2}\n"),
        struct.pack("<I", 2**31) + b"\x01\x02"), READ))
    out.append(SchemaCase("read", "substring with huge bounds", lambda: (_ksy(
        "seq:\n  - {id: s, type: str, size: 4, encoding: ASCII}\ninstances:\n  t:\n    value: s.substring(0, 1 << 60)\n"),
        b"abcd"), READ))
    return out


def _nested_zlib(n: int) -> bytes:
    data = b""
    for _ in range(n):
        data = zlib.compress(data)
    return data


# --- file: hostile files under a benign schema -------------------------------------------------------

BENIGN = _ksy("seq:\n  - {id: magic, contents: [0x42, 0x50]}\n  - {id: count, type: u4}\n"
              "  - {id: records, type: record, repeat: expr, repeat-expr: count}\n"
              "  - {id: tail, type: str, size-eos: true, encoding: UTF-8}\n"
              "types:\n  record:\n    seq:\n      - {id: kind, type: u1}\n      - {id: len, type: u4}\n"
              "      - {id: body, size: len}\n      - {id: items, type: u2, repeat: expr, repeat-expr: len}\n"
              "    instances:\n      at:\n        pos: len\n        type: u8\n        if: kind == 1\n")


def _benign_sample() -> bytes:
    recs = b"".join(bytes([k % 2]) + struct.pack("<I", 2) + b"ab" + struct.pack("<HH", 1, 2) for k in range(3))
    return b"BP" + struct.pack("<I", 3) + recs + "tail ✓".encode()


def file_cases() -> list[SchemaCase]:
    from .generator import binary_cases
    sample = _benign_sample()
    return [SchemaCase("file", f"a benign schema, its file {what}", lambda make=make: (BENIGN, make()), READ,
                       tensor="records[0].items")
            for what, make in binary_cases(sample)]


HEAVY = re.compile(r"\d\d,\d\d\d|[5-9],\d\d\d |10\^[56]|2000 MiB|1 MB|10\^5 levels|nested 48")


def cases() -> list[SchemaCase]:
    """Every case (the bytes of each made when run); those whose commands take seconds marked heavy."""
    every = escape_cases() + source_cases() + cost_cases() + read_cases() + file_cases()
    return [replace(c, heavy=True) if HEAVY.search(c.what) else c for c in every]


def pick(all_cases: list[SchemaCase], n: int, seed: str = SEEDS) -> list[SchemaCase]:
    """`n` cases of each class chosen by `seed` (the same seed, the same cases), none of the heavy ones."""
    out: list[SchemaCase] = []
    for klass in dict.fromkeys(c.klass for c in all_cases):
        ranked = sorted((c for c in all_cases if c.klass == klass and not c.heavy),
                        key=lambda c: hashlib.sha256(f"{seed}/{c.key}".encode()).digest())
        out += ranked[:n]
    return out


__all__ = ["BENIGN", "LOAD", "MARKER", "READ", "SchemaCase", "cases", "pick"]
