"""esp-ppq's `.info` printout of an .espdl model: its graph, tensor table and every value, as text.

esp-ppq writes MODEL.info beside MODEL.espdl, printed from the model it wrote (read back with the
classes flatc generates, esp_ppq/parser/espdl/helper.py `printable_graph`). Newer esp-ppq opens it with
`model properties:` and `metadata_props:` followed by the model's metadata as `key: value` lines;
then, in both forms, the graph in ONNX's printable form (`graph NAME (`
inputs `) initializers (` declarations `) {` one line per node `}`), then the sections
`initializers value:`, `values info:`, `test inputs value:` and `test outputs value:`. A value entry
is a line `%NAME, shape: [..], exponents: [..], docString: ..,` and numpy's repr of the data
(`value: array([...], dtype=int8)`); a table entry is `%NAME[DTYPE, DIMS], exponents: [..]`.

A printed number that cannot be a dim or an exponent is kept out of the tensor (None), kept as printed
(`printed_dims`, `printed_exponents`) and listed in `notes`: esp-ppq prints what the schema's reader
reads, so a model with int32 values in int64 vectors (model/narrow.py) prints those readings; the
doctor compares them with the model's vectors as read by the schema (info_check.py).
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....errors import FormatError
from ....text import shown
from .precision import printed_precision

# ONNX's TensorProto names as the printout spells them -> numpy
DTYPES = {"FLOAT": "float32", "UINT8": "uint8", "INT8": "int8", "UINT16": "uint16", "INT16": "int16",
          "INT32": "int32", "INT64": "int64", "BOOL": "bool", "FLOAT16": "float16", "DOUBLE": "float64",
          "UINT32": "uint32", "UINT64": "uint64"}
EXPONENTS = range(-64, 64)  # what ModelTensor.scales accepts: 2^e in float32
MAX_DIM = 2**31 - 1
MAX_SHORT_LINES = 2_000_000  # lines read as Python strings whatever their length (the rest: 16 bytes a line)
SECTIONS = {"initializers value:": "initializer", "values info:": "value", "test inputs value:": "test_input",
            "test outputs value:": "test_output"}
_DECL = re.compile(r"^\s*%(?P<name>.+?)\[(?P<dtype>\w+), (?P<dims>[^\]]*)\](?:, exponents: \[(?P<exp>[^\]]*)\])?\s*$")
_ENTRY = re.compile(r"^%(?P<name>.+?), shape: \[(?P<dims>[^\]]*)\], exponents: \[(?P<exp>[^\]]*)\],"
                    r"(?: docString: (?P<doc>.*?),)?\s*$")
_NODE = re.compile(r"^\s*(?P<outs>%.+?) = (?P<op>[\w.:]+)(?P<rest>[\[(].*)$")
_DOC = re.compile(r"^b?['\"]?layout ==> (?P<layout>[^'\"]*)['\"]?$")


@dataclass
class InfoTensor:
    """One tensor the printout names: declared type and dims, exponents, layout, values (flat)."""

    name: str
    role: str  # input, initializer, value, test_input, test_output
    line: int
    dtype: str | None = None  # numpy name
    dims: tuple[int, ...] | None = None
    exponents: tuple[int, ...] | None = None
    layout: str | None = None
    values: NDArray[Any] | None = None
    printed_dims: tuple[int, ...] | None = None  # as printed, when they cannot be dims
    printed_exponents: tuple[int, ...] | None = None  # as printed, when they cannot be exponents
    digits: int = -1  # printed floats: the fractional digits numpy printed (-1: integers)
    scientific: bool = False  # printed floats: in scientific notation

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "dims": None if self.dims is None else list(self.dims), "dtype": self.dtype,
                "exponents": None if self.exponents is None else list(self.exponents), "layout": self.layout,
                "values": None if self.values is None else
                {"count": int(self.values.size), "head": self.values[:8].tolist()}}


@dataclass
class InfoNode:
    """A node line: op type, input and output names, attributes as printed."""

    op_type: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    attributes: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {"op_type": self.op_type, "inputs": list(self.inputs), "outputs": list(self.outputs)}

    def attribute_values(self) -> dict[str, Any]:
        """The printed attributes as values (`name = 'text'`, numbers, lists: Python literals, read by
        `ast.literal_eval`); one that is no literal stays its text, prefixed with `?`."""
        out: dict[str, Any] = {}
        depth, quote, start, parts = 0, "", 0, []
        text = self.attributes
        for k, c in enumerate(text):
            if quote:
                quote = "" if c == quote else quote
            elif c in "'\"":
                quote = c
            elif c in "[(":
                depth += 1
            elif c in "])":
                depth -= 1
            elif c == "," and depth == 0:
                parts.append(text[start:k])
                start = k + 1
        parts.append(text[start:])
        for part in (p.strip() for p in parts if p.strip()):
            name, eq, value = part.partition(" = ")
            if not eq:
                continue
            try:
                out[name] = ast.literal_eval(value)
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                out[name] = "?" + value
        return out


@dataclass
class InfoPrintout:
    """A `.info` printout read (the `Artifact` protocol: summary(), report())."""

    file: str | None
    graph: str = ""
    metadata: dict[str, str] | None = None  # newer esp-ppq: the model's metadata_props (None: the older form)
    inputs: list[InfoTensor] = field(default_factory=list)
    declared: dict[str, InfoTensor] = field(default_factory=dict)  # the header's initializer declarations
    nodes: list[InfoNode] = field(default_factory=list)
    returns: tuple[str, ...] = ()
    sections: dict[str, list[InfoTensor]] = field(default_factory=dict)  # by role: initializer, value, test_*
    notes: list[str] = field(default_factory=list)  # what the printout shows that cannot be a dim or exponent

    @classmethod
    def read(cls, source: str | bytes) -> InfoPrintout:
        """Read a printout from a path or its bytes."""
        file = None if isinstance(source, (bytes, bytearray)) else str(source)
        data = bytes(source) if file is None else Path(source).read_bytes()  # type: ignore[arg-type]
        lines = data.count(b"\n")
        if lines > MAX_SHORT_LINES and len(data) < 16 * lines:  # each line is a Python string (~50 bytes more)
            raise FormatError("millions of lines shorter than any printout's: not an esp-ppq printout", file=file,
                              expected=f"at most {MAX_SHORT_LINES:,} lines, or lines of 16 bytes on average",
                              found=f"{lines:,} lines in {len(data):,} bytes")
        return _Reader(file, data.decode("utf-8", "replace").splitlines()).run()

    def tensors(self, role: str) -> list[InfoTensor]:
        return self.sections.get(role, [])

    def tensor_array(self, name: str | None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """The `TensorSource` protocol: the values printed for `name` in the model's logical form (its
        dims, a blocked weight unblocked as the model's own tensor is); `stored`: the whole data vector
        as printed (an EDL2 raw_data vector is whole 16-byte blocks)."""
        hits = [t for r in ("initializer", "test_input", "test_output") for t in self.tensors(r) if t.name == name]
        if name is None or buffer is not None or dequantize or not hits or hits[0].values is None:
            raise FormatError("name a tensor whose values the printout shows (--tensor NAME; no buffer, no "
                              "--dequantize)", file=self.file, found=name,
                              expected=[t.name for r in ("initializer", "test_input", "test_output")
                                        for t in self.tensors(r)][:12])
        t = hits[0]
        assert t.values is not None
        vals: NDArray[Any] = t.values if t.dtype is None else t.values.astype(t.dtype)
        if stored:
            return vals, f"esp-ppq .info {t.role.replace('_', ' ')} {t.name!r}, the data vector as printed"
        if t.dims is None:
            raise FormatError(f"the printout gives no dims for {name!r}: only --stored", file=self.file,
                              path=f"line {t.line}")
        from ..model.weights import WeightLayout
        lay = WeightLayout.of(t.layout if t.role == "initializer" else None, t.dims, self.depthwise(t.name),
                              tensor=t.name, file=self.file,
                              matmul=any(n.op_type == "MatMul" and n.inputs[1:2] == (t.name,) for n in self.nodes))
        if vals.size < lay.count:
            raise FormatError(f"fewer values printed for {name!r} than its dims hold", file=self.file,
                              path=f"line {t.line}", expected=f"{lay.count} values for dims {list(t.dims)}",
                              found=f"{vals.size} values")
        head = vals[:lay.count]
        out = head.reshape(lay.logical_shape) if lay.is_view else head[lay.stored_index()]
        order = f"logical{' (' + lay.name + ' unblocked)' if not lay.is_view else ''}, dims {list(out.shape)}"
        return out, f"esp-ppq .info {t.role.replace('_', ' ')} {t.name!r}, {order}"

    def depthwise(self, name: str) -> bool:
        """Whether `name` is the weight of a printed Conv whose group is over 1."""
        for n in self.nodes:
            if n.op_type == "Conv" and len(n.inputs) > 1 and n.inputs[1] == name:
                g = n.attribute_values().get("group")
                return isinstance(g, int) and g > 1
        return False

    def summary(self) -> dict[str, Any]:
        return {"family": "espdl", "kind": "info_printout", "graph": self.graph, "metadata": self.metadata,
                "inputs": [t.to_json() for t in self.inputs], "nodes": [n.to_json() for n in self.nodes],
                "outputs": list(self.returns),
                "initializers": [t.to_json() for t in self.tensors("initializer")],
                "values": [t.to_json() for t in self.tensors("value")],
                "test_inputs": [t.to_json() for t in self.tensors("test_input")],
                "test_outputs": [t.to_json() for t in self.tensors("test_output")], "notes": self.notes}

    def report(self) -> str:
        from ..model.report import table_text
        inits = {t.name for t in self.tensors("initializer")} | set(self.declared)
        form = "the older form" if self.metadata is None else \
            f"the newer form, {len(self.metadata)} metadata entries" + "".join(f"; {shown(k)}: {shown(v)}" for k, v in
                                                                               list(self.metadata.items())[:4])
        lines = [f"esp-ppq .info printout of graph {self.graph!r}: {len(self.nodes)} nodes ({form}; "
                 "`binparse doctor` compares it with the .espdl of the same name)",
                 table_text(("#", "op type", "inputs", "outputs", "weights"),
                            [(str(k), n.op_type, ", ".join(i for i in n.inputs if i not in inits) or "-",
                              ", ".join(n.outputs), ", ".join(i for i in n.inputs if i in inits) or "-")
                             for k, n in enumerate(self.nodes)])]
        rows = [(t.role.replace("_", " "), t.name, t.dtype or "?", _text(t.dims, "x"), _text(t.exponents, ","),
                 t.layout or "-", "-" if t.values is None else str(t.values.size))
                for t in [*self.inputs, *(x for r in SECTIONS.values() for x in self.tensors(r))]]
        lines += ["tensors:", table_text(("role", "name", "dtype", "dims", "exponents", "layout", "values"), rows)]
        lines += [f"note: {shown(n)}" for n in self.notes]
        return "\n".join(lines)


def _text(v: tuple[int, ...] | None, sep: str) -> str:
    return "?" if v is None else sep.join(map(str, v)) or "-"


class _Reader:
    """The printout's lines, read top to bottom (one pass; values parsed by numpy)."""

    def __init__(self, file: str | None, lines: list[str]) -> None:
        self.file, self.lines, self.i = file, lines, 0
        self.out = InfoPrintout(file)

    def fail(self, what: str, expected: str) -> FormatError:
        line = self.lines[self.i] if self.i < len(self.lines) else "(end of file)"
        return FormatError(what, file=self.file, path=f"line {self.i + 1}", expected=expected, found=line[:80],
                           hint="not an esp-ppq .info printout, or one cut short")

    def ints(self, text: str, what: str, name: str, ok: range | None) -> tuple[int, ...] | None:
        """Comma or x separated integers; None (and a note; the numbers in `self.printed`) when one cannot
        be a dim or exponent."""
        self.printed: tuple[int, ...] | None = None
        if text.strip() == "scalar":  # a tensor of no dims, as ONNX's printer names it
            return ()
        parts = [p for p in re.split(r"[,x\s]+", text.strip()) if p]
        try:
            vals = tuple(int(p) for p in parts)
        except ValueError:
            self.out.notes.append(f"line {self.i + 1}: {name} {what} {text.strip()!r} are not integers "
                                  "(esp-ppq printed something else): not compared")
            return None
        bad = [v for v in vals if (v not in ok if ok is not None else not 0 <= v <= MAX_DIM)]
        if bad:
            self.printed = vals
            self.out.notes.append(f"line {self.i + 1}: {name} {what} {list(vals)}: {bad[0]} cannot be "
                                  f"{'an exponent' if ok is not None else 'a dim'}: not read as "
                                  f"{'exponents' if ok is not None else 'dims'} (the doctor compares them "
                                  "with the model's vectors as its schema reads them)")
            return None
        return vals

    def decl(self, role: str, m: re.Match[str]) -> InfoTensor:
        name = m["name"]
        t = InfoTensor(name, role, self.i + 1, DTYPES.get(m["dtype"], m["dtype"].lower()),
                       self.ints(m["dims"], "dims", name, None))
        t.printed_dims = self.printed
        if m["exp"] is not None:
            t.exponents = self.ints(m["exp"], "exponents", name, EXPONENTS)
            t.printed_exponents = self.printed
        return t

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

    def run(self) -> InfoPrintout:
        L, out = self.lines, self.out
        self.properties()
        head = re.match(r"^graph (?P<name>.*) \($", L[self.i] if self.i < len(L) else "")
        if head is None:
            raise self.fail("no graph header", "'graph NAME ('" + (" after the model properties"
                                                                    if out.metadata is not None else ""))
        out.graph, self.i = head["name"], self.i + 1
        while self.i < len(L) and (m := _DECL.match(L[self.i])):
            out.inputs.append(self.decl("input", m))
            self.i += 1
        if self.i >= len(L) or L[self.i].strip() != ") initializers (":
            raise self.fail("the graph's inputs do not end in ') initializers ('", "') initializers ('")
        self.i += 1
        while self.i < len(L) and (m := _DECL.match(L[self.i])):
            out.declared[m["name"]] = self.decl("initializer", m)
            self.i += 1
        if self.i >= len(L) or L[self.i].strip() != ") {":
            raise self.fail("the initializer declarations do not end in ') {'", "') {'")
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
        return out

    def body(self) -> None:
        L, out = self.lines, self.out
        while self.i < len(L) and L[self.i].strip() != "}":
            s = L[self.i].strip()
            if s.startswith("return "):
                out.returns = tuple(x.strip().lstrip("%") for x in s[7:].split(", %"))
            elif s:
                out.nodes.append(self.node(s))
            self.i += 1
        if self.i >= len(L):
            raise self.fail("the graph body does not end in '}'", "'}'")
        self.i += 1

    def node(self, s: str) -> InfoNode:
        m = _NODE.match(s)
        if m is None:
            raise self.fail("not a node line", "'%OUT = Op[attributes](%IN, ...)'")
        rest, attrs = m["rest"], ""
        if rest.startswith("["):
            attrs, _, rest = rest[1:].rpartition("](")
            rest = "(" + rest
        if not (rest.startswith("(") and rest.endswith(")")):
            raise self.fail("a node's inputs are not in parentheses", "'(%IN, ...)'")
        ins = tuple(x.strip().lstrip("%") for x in rest[1:-1].split(", %")) if rest[1:-1].strip() else ()
        outs = tuple(x.strip().lstrip("%") for x in m["outs"].split(", %"))
        return InfoNode(m["op"], ins, outs, attrs, self.i + 1)

    def entry(self, role: str, s: str) -> None:
        if role == "value":
            m = _DECL.match(s)
            if m is None:
                raise self.fail("not a tensor table line", "'%NAME[DTYPE, DIMS], exponents: [..]'")
            self.out.sections[role].append(self.decl(role, m))
            return
        m = _ENTRY.match(s)
        if m is None:
            raise self.fail("not a value entry", "'%NAME, shape: [..], exponents: [..],'")
        name = m["name"]
        t = InfoTensor(name, role, self.i + 1, dims=self.ints(m["dims"], "shape", name, None))
        t.printed_dims = self.printed
        t.exponents = self.ints(m["exp"], "exponents", name, EXPONENTS)
        t.printed_exponents = self.printed
        table = self.out.declared if role == "initializer" else {v.name: v for v in self.out.tensors("value")}
        decl = table.get(name)
        t.dtype = decl.dtype if decl is not None else None
        if m["doc"]:
            d = _DOC.match(m["doc"].strip())
            t.layout = d["layout"].strip() if d else None
        self.i += 1
        t.values, t.dtype, (t.digits, t.scientific) = self.values(name, t.dtype)
        self.out.sections[role].append(t)

    def values(self, name: str, dtype: str | None) -> tuple[NDArray[Any] | None, str | None, tuple[int, bool]]:
        """numpy's repr `value: array([...], dtype=X)` over one or more lines, as a flat array, and the
        precision its floats were printed at (`printed_precision`; (-1, False) for integers)."""
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
        printed = re.search(r"dtype=(\w+)", tail)
        dtype = dtype or (printed[1] if printed else None)
        body = body.replace("[", " ").replace("]", " ")
        if "..." in body:
            self.out.notes.append(f"line {self.i + 1}: the values of {name!r} are elided ('...'): not compared")
            return None, dtype, (-1, False)
        kind = np.dtype(dtype).kind if dtype and dtype in DTYPES.values() else "f"
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error")  # older numpy warns where newer raises: a bad number either way
                arr = np.fromstring(body, dtype=np.int64 if kind in "iub" and "." not in body else np.float64, sep=",")
        except (ValueError, DeprecationWarning):
            raise self.fail(f"the values of {name!r} are not numbers", "numbers separated by ','") from None
        return arr, dtype, printed_precision(body) if arr.dtype.kind == "f" else (-1, False)


__all__ = ["InfoNode", "InfoPrintout", "InfoTensor"]
