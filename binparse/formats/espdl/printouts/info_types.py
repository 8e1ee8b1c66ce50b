"""The pieces of an esp-ppq `.info` printout (info.py reads the whole, info_read.py its lines): a tensor
as printed, a node as printed, and the printer's names and sections."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from numpy.typing import NDArray

# ONNX's TensorProto names as the printout spells them -> numpy
DTYPES = {"FLOAT": "float32", "UINT8": "uint8", "INT8": "int8", "UINT16": "uint16", "INT16": "int16",
          "INT32": "int32", "INT64": "int64", "BOOL": "bool", "FLOAT16": "float16", "DOUBLE": "float64",
          "UINT32": "uint32", "UINT64": "uint64"}
EXPONENTS = range(-64, 64)  # what ModelTensor.scales accepts: 2^e in float32
MAX_DIM = 2**31 - 1
MAX_SHORT_LINES = 2_000_000  # lines read as Python strings whatever their length (the rest: 16 bytes a line)
SECTIONS = {"initializers value:": "initializer", "values info:": "value", "test inputs value:": "test_input",
            "test outputs value:": "test_output"}


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


__all__ = ["DTYPES", "EXPONENTS", "MAX_DIM", "MAX_SHORT_LINES", "SECTIONS", "InfoNode", "InfoTensor"]
