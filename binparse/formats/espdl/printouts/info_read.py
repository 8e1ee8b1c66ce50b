"""Reading esp-ppq's `.info` printout, line by line, in time linear in its length.

The grammar is esp-ppq's `printable_graph` (esp_ppq/parser/espdl/helper.py; the same since its
first espdl exporter, the `model properties:` block added later):

- newer esp-ppq: `model properties:`, `metadata_props:`, one `key: value` line per entry, blank lines;
- the header `graph NAME (` with one line per graph input that is no initializer, then `) {`, or
  `) initializers (` with a declaration per initializer and `) {`, or `) optional inputs with
  matching initializers (` before those; `graph NAME {` when the graph has no inputs (then no
  initializer is declared either);
- one line per node (`%OUT, %OUT2 = Op[attr = value, ...](%IN, ...)`, no `%OUT =` for a node without
  outputs, no `[...]` without attributes), `return %A, %B` (`return` alone without outputs), `}`;
- the sections `initializers value:`, `values info:`, `test inputs value:`, `test outputs value:`.

A value-info line (graph inputs, `values info:`) is `%NAME`, then `[TYPE, DIMS]` when it has a
type (`[TYPE]` without a shape, `[TYPE, scalar]` for no dims, `?` for an unknown dim, `[]` for no
type), then `, exponents: [...]` when it has exponents: the name may be empty (`%[FLOAT],
exponents: [0]`). A declaration is `%NAME[TYPE, DIMS]`. A value entry is `%NAME, ` then, each when
present, `shape: [...], `, `exponents: [...], `, `docString: ..., `, and the values: inline
(`value: [...]` for float_data, int32_data, int64_data, ...) or, for raw_data, numpy's repr on the
next lines (`value: array([...], dtype=int8)`).

Every line is cut by `str.find`/`rfind` and slicing (no regular expression that can backtrack), so
a line of any length costs time in proportion to it.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core.errors import FormatError
from .info_types import DTYPES, EXPONENTS, MAX_DIM, SECTIONS, InfoNode, InfoTensor
from .precision import printed_precision

_EXP = ", exponents: ["
_MARKERS = ("shape: [", "exponents: [", "docString: ", "value: ")
_HEADS = ((" ) optional inputs with matching initializers (", "optional"), (" ) initializers (", "initializers"),
          (" (", "inputs"), (" {", "body"))
_CLOSERS = {") {": "body", ") initializers (": "initializers", ") optional inputs with matching initializers (": "optional"}


def _type_part(text: str) -> tuple[str, str] | None:
    """(TYPE, DIMS) of the text between a value-info's brackets, None when it cannot be one (then the
    brackets belong to the name)."""
    dtype, _, dims = text.partition(", ")
    if dtype and not (dtype.isupper() and dtype.replace("_", "").isalnum()):
        return None
    return dtype, dims


class Reader:
    """The printout's lines, read top to bottom (one pass; values parsed by numpy)."""

    def __init__(self, file: str | None, lines: list[str], out: Any) -> None:
        self.file, self.lines, self.i = file, lines, 0
        self.out = out  # the InfoPrintout filled in (info.py: `InfoPrintout.read`)
        self.printed: tuple[int, ...] | None = None
        self.table: dict[str, InfoTensor] | None = None  # the tensor table by name, made once

    def fail(self, what: str, expected: str) -> FormatError:
        line = self.lines[self.i] if self.i < len(self.lines) else "(end of file)"
        return FormatError(what, file=self.file, path=f"line {self.i + 1}", expected=expected, found=line[:80],
                           hint="not an esp-ppq .info printout, or one cut short")

    # -- numbers --------------------------------------------------------------------------------

    def ints(self, text: str, what: str, name: str, ok: range | None) -> tuple[int, ...] | None:
        """Comma or x separated integers; None (and a note; the numbers in `self.printed`) when one cannot
        be a dim or exponent, or is not a number (an unknown dim `?`, a dim's parameter name)."""
        self.printed = None
        text = text.strip()
        if text == "scalar":  # a tensor of no dims, as the printer names it
            return ()
        parts = [p for p in text.replace("x", ",").replace(" ", ",").split(",") if p]
        try:
            vals = tuple(int(p) for p in parts)
        except ValueError:
            self.out.notes.append(f"line {self.i + 1}: {name} {what} {text[:60]!r} are not all integers (an unknown "
                                  "or named dim): not compared")
            return None
        bad = [v for v in vals if (v not in ok if ok is not None else not 0 <= v <= MAX_DIM)]
        if bad:
            self.printed = vals
            self.out.notes.append(f"line {self.i + 1}: {name} {what} {list(vals)[:8]}: {bad[0]} cannot be "
                                  f"{'an exponent' if ok is not None else 'a dim'}: not read as "
                                  f"{'exponents' if ok is not None else 'dims'} (the doctor compares them "
                                  "with the model's vectors as its schema reads them)")
            return None
        return vals

    # -- lines ----------------------------------------------------------------------------------

    def value_info(self, s: str, role: str) -> InfoTensor:
        """`%NAME[TYPE, DIMS], exponents: [...]`, each part but the name optional (`printable_value_info`,
        `printable_tensor`)."""
        if not s.startswith("%"):
            raise self.fail("not a tensor table line", "'%NAME[TYPE, DIMS], exponents: [..]'")
        body, exp = s[1:].rstrip(), None
        at = body.rfind(_EXP)
        if at >= 0 and body.endswith("]"):
            body, exp = body[:at], body[at + len(_EXP):-1]
        dtype, dims = None, None
        if body.endswith("]") and (j := body.rfind("[")) >= 0 and (part := _type_part(body[j + 1:-1])) is not None:
            body, (dtype, dims) = body[:j], part
        t = InfoTensor(body, role, self.i + 1, DTYPES.get(dtype, dtype.lower()) if dtype else None)
        if dims:
            t.dims = self.ints(dims, "dims", body, None)
            t.printed_dims = self.printed
        if exp is not None:
            t.exponents = self.ints(exp, "exponents", body, EXPONENTS)
            t.printed_exponents = self.printed
        return t

    def node(self, s: str) -> InfoNode:
        outs: tuple[str, ...] = ()
        rest = s
        if s.startswith("%"):
            at = s.find(" = ")
            if at < 0:
                raise self.fail("not a node line", "'%OUT = Op[attributes](%IN, ...)'")
            outs, rest = tuple(x.strip().lstrip("%") for x in s[:at].split(", %")), s[at + 3:]
        cut = min((k for k in (rest.find("["), rest.find("(")) if k >= 0), default=-1)
        op, rest = (rest[:cut], rest[cut:]) if cut > 0 else ("", "")
        if not op or not all(c.isalnum() or c in "_.:" for c in op):
            raise self.fail("not a node line", "'%OUT = Op[attributes](%IN, ...)'")
        attrs = ""
        if rest.startswith("["):
            attrs, _, rest = rest[1:].rpartition("](")
            rest = "(" + rest
        if not (rest.startswith("(") and rest.endswith(")")):
            raise self.fail("a node's inputs are not in parentheses", "'(%IN, ...)'")
        ins = tuple(x.strip().lstrip("%") for x in rest[1:-1].split(", %")) if rest[1:-1].strip() else ()
        return InfoNode(op, ins, outs, attrs, self.i + 1)

    # -- the whole printout -----------------------------------------------------------------------

    def properties(self) -> None:
        """Newer esp-ppq's `model properties:` / `metadata_props:` block: `key: value` lines up to the
        graph header (blank lines between)."""
        L = self.lines
        if not L or L[0].strip() != "model properties:":
            return
        self.out.metadata, self.i = {}, 1
        while self.i < len(L) and not L[self.i].startswith("graph "):
            s = L[self.i].strip()
            if s and s != "metadata_props:":
                key, sep, value = s.partition(": ")
                if not sep:
                    raise self.fail("not a metadata line", "'key: value' under 'metadata_props:'")
                self.out.metadata[key] = value
            self.i += 1

    def header(self) -> str:
        """The graph's name from its header line; what follows it (inputs, initializers or body)."""
        line = self.lines[self.i].rstrip() if self.i < len(self.lines) else ""
        if line.startswith("graph "):
            for tail, part in _HEADS:
                if line.endswith(tail):
                    self.out.graph = line[len("graph "):len(line) - len(tail)]
                    self.i += 1
                    return part
        raise self.fail("no graph header", "'graph NAME (' or 'graph NAME {'" + (
            " after the model properties" if self.out.metadata is not None else ""))

    def run(self) -> None:
        L, out = self.lines, self.out
        self.properties()
        part = self.header()
        while part != "body":
            while self.i < len(L) and L[self.i].strip() not in _CLOSERS:
                s = L[self.i].strip()
                if part == "initializers":
                    t = self.value_info(s, "initializer")
                    out.declared[t.name] = t
                else:
                    out.inputs.append(self.value_info(s, "input"))
                self.i += 1
            if self.i >= len(L):
                raise self.fail("the graph's header does not end in ') {'", "') {'")
            part = _CLOSERS[L[self.i].strip()]
            self.i += 1
        self.body()
        role = None
        while self.i < len(L):
            s = L[self.i].strip()
            if s in SECTIONS:
                role = SECTIONS[s]
                out.sections.setdefault(role, [])
            elif s and role is not None:
                self.entry(role, s)
            self.i += 1

    def body(self) -> None:
        """The nodes, then the `return` line esp-ppq's `printable_graph` always writes (`return` alone for a
        graph without outputs), then `}`: a body without it is no printout (a Graphviz `graph G { }`)."""
        L, out = self.lines, self.out
        returned = False
        while self.i < len(L) and L[self.i].strip() != "}":
            s = L[self.i].strip()
            if s == "return" or s.startswith("return "):
                out.returns = tuple(x.strip().lstrip("%") for x in s[7:].split(", %")) if s[7:].strip() else ()
                returned = True
            elif s:
                out.nodes.append(self.node(s))
            self.i += 1
        if self.i >= len(L):
            raise self.fail("the graph body does not end in '}'", "'}'")
        if not returned:
            raise self.fail("the graph body has no 'return' line", "'return %OUTPUT, ...' (or 'return') before '}', "
                            "as esp-ppq's printable_graph always writes")
        self.i += 1

    def entry(self, role: str, s: str) -> None:
        if role == "value":
            self.out.sections[role].append(self.value_info(s, role))
            return
        if not s.startswith("%"):
            raise self.fail("not a value entry", "'%NAME, shape: [..], exponents: [..],'")
        cut = [k for k in (s.find(", " + m, 1) for m in _MARKERS) if k >= 0]
        if not cut and not s.rstrip().endswith(","):
            raise self.fail("not a value entry", "'%NAME, shape: [..], exponents: [..],'")
        at = min(cut) if cut else len(s.rstrip()) - 1
        name, rest = s[1:at], s[at + 2:].strip()
        t = InfoTensor(name, role, self.i + 1)
        inline = None
        if rest.startswith("shape: ["):
            end = rest.find("]")
            t.dims = self.ints(rest[8:end], "shape", name, None)
            t.printed_dims, rest = self.printed, rest[end + 1:].removeprefix(",").strip()
        if rest.startswith("exponents: ["):
            end = rest.find("]")
            t.exponents = self.ints(rest[12:end], "exponents", name, EXPONENTS)
            t.printed_exponents, rest = self.printed, rest[end + 1:].removeprefix(",").strip()
        v = rest.rfind("value: ")
        if v >= 0 and (v == 0 or rest[v - 2:v] == ", "):
            rest, inline = rest[:v].removesuffix(", ").strip(), rest[v + len("value: "):]
        if rest.startswith("docString: "):
            doc = rest[len("docString: "):].removesuffix(",").strip()
            doc = (doc[1:] if doc[:2] in ("b'", 'b"') else doc).strip("'\"")  # bytes as Python prints them
            t.layout = doc.removeprefix("layout ==> ").strip() if doc.startswith("layout ==> ") else None
        if role == "initializer":
            decl = self.out.declared.get(name)
        else:  # a test value's type: the tensor table's (`values info:` comes before the test values)
            if self.table is None:
                self.table = {v.name: v for v in self.out.tensors("value")}
            decl = self.table.get(name)
        t.dtype = decl.dtype if decl is not None else None
        if inline is not None:
            t.values, t.dtype, (t.digits, t.scientific) = self.numbers(name, inline, t.dtype)
        else:
            self.i += 1
            t.values, t.dtype, (t.digits, t.scientific) = self.array(name, t.dtype)
        self.out.sections[role].append(t)

    def array(self, name: str, dtype: str | None) -> tuple[NDArray[Any] | None, str | None, tuple[int, bool]]:
        """numpy's repr `value: array([...], dtype=X)` over one or more lines, as a flat array."""
        L = self.lines
        if self.i >= len(L) or not L[self.i].startswith("value: array("):
            raise self.fail(f"no values after the entry of {name!r}", "'value: array(['")
        parts = []
        while True:
            parts.append(L[self.i])
            if L[self.i].rstrip().endswith(")"):
                break
            self.i += 1
            if self.i >= len(L):
                raise self.fail(f"the values of {name!r} do not end", "')'")
        text = " ".join(parts)[len("value: array("):].rstrip().removesuffix(")")
        body, _, tail = text.rpartition("]")
        at = tail.find("dtype=")
        printed = tail[at + 6:].strip().rstrip(",") if at >= 0 else None
        return self.numbers(name, body + "]", dtype or printed)

    def numbers(self, name: str, text: str, dtype: str | None) -> tuple[NDArray[Any] | None, str | None,
                                                                          tuple[int, bool]]:
        """The numbers of a printed list (`[1, 2]`, nested brackets flattened) as a flat array, and the
        precision its floats were printed at (`printed_precision`; (-1, False) for integers)."""
        body = text.replace("[", " ").replace("]", " ")
        if "True" in body or "False" in body:  # numpy's repr of a bool array (Equal, Greater, ... outputs)
            body = body.replace("True", "1").replace("False", "0")
        if "..." in body:
            self.out.notes.append(f"line {self.i + 1}: the values of {name!r} are elided ('...'): not compared")
            return None, dtype, (-1, False)
        kind = np.dtype(dtype).kind if dtype and dtype in DTYPES.values() else "f"
        if not body.strip():  # an empty list (numpy would read one 0 of blanks)
            return np.zeros(0, np.int64 if kind in "iub" else np.float64), dtype, (-1, False)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # older numpy warns where newer raises: a bad number either way
                arr = np.fromstring(body, dtype=np.int64 if kind in "iub" and "." not in body else np.float64, sep=",")
        except (ValueError, DeprecationWarning):
            raise self.fail(f"the values of {name!r} are not numbers", "numbers separated by ','") from None
        return arr, dtype, printed_precision(body) if arr.dtype.kind == "f" else (-1, False)


__all__ = ["Reader"]
