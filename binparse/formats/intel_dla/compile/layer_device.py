"""`LayerDevice`: the compiler's `*_dla_layer_device.csv`, where each layer of a graph runs.

One row per node: `Node name,Device,Node Type (extra info),Input Shape (extra info),Output Shape
(extra info)`; shapes are `[1 256 56 56]`, several joined by `;`. Device `FPGA` runs on the IP;
any other device (`CPU`, ...) is a fallback to the host. The table is small (one row per
layer), so it is read with the csv module.
"""

from __future__ import annotations

import io
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....core import csv_rows
from ....core.errors import FormatError
from ....core.text import shown

HEADER = ("Node name", "Device", "Node Type (extra info)", "Input Shape (extra info)", "Output Shape (extra info)")
ON_IP = "FPGA"
_SHAPE = re.compile(r"\[([0-9\s]*)\]$")  # one class inside the brackets: linear (no split to try)


@dataclass(frozen=True)
class Layer:
    node: str
    device: str
    type: str
    input_shapes: list[list[int]]
    output_shapes: list[list[int]]

    def to_json(self) -> dict[str, Any]:
        return {"node": self.node, "device": self.device, "type": self.type,
                "input_shapes": self.input_shapes, "output_shapes": self.output_shapes}


def _shapes(cell: str, *, file: str, row: int, column: str) -> list[list[int]]:
    out = []
    for part in filter(None, (p.strip() for p in cell.split(";"))):
        m = _SHAPE.match(part)
        dims = m.group(1).split() if m is not None else []
        if m is None or any(len(d) > 18 for d in dims):  # no dim has more digits than an int64
            raise FormatError("a shape is not [d0 d1 ...]", file=file, path=f"row {row}, column '{column}'",
                              expected="e.g. [1 256 56 56]", found=part)
        out.append([int(d) for d in dims])
    return out


def _text(shapes: list[list[int]]) -> str:
    """Shapes as the table writes them: [1 64 56 56];[64 64 3 3]."""
    return ";".join("[" + " ".join(map(str, s)) + "]" for s in shapes)


class LayerDevice:
    """The rows of one `*_dla_layer_device.csv`, in file order."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.file = os.fspath(path)
        try:
            text = Path(path).read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise FormatError("a layer placement table is UTF-8 text", file=self.file, offset=exc.start) from None
        rows = list(csv_rows.rows(io.StringIO(text), file=self.file))
        if not rows or tuple(c.strip() for c in rows[0]) != HEADER:
            raise FormatError("not an FPGA AI Suite layer placement table", file=self.file, path="row 1",
                              expected=",".join(HEADER), found=",".join(rows[0]) if rows else "(empty)")
        self.layers: list[Layer] = []
        for k, r in enumerate(rows[1:], start=2):
            if not r:
                continue
            if len(r) != len(HEADER):
                raise FormatError("wrong number of cells", file=self.file, path=f"row {k}", expected=len(HEADER),
                                  found=len(r))
            self.layers.append(Layer(r[0], r[1], r[2], _shapes(r[3], file=self.file, row=k, column=HEADER[3]),
                                     _shapes(r[4], file=self.file, row=k, column=HEADER[4])))

    @property
    def name(self) -> str:
        return Path(self.file).name

    def devices(self) -> dict[str, int]:
        """Layers per device, FPGA first."""
        counts = Counter(la.device for la in self.layers)
        return dict(sorted(counts.items(), key=lambda kv: (kv[0] != ON_IP, kv[0])))

    def fallbacks(self) -> list[Layer]:
        """Layers the compiler left to another device than the FPGA."""
        return [la for la in self.layers if la.device != ON_IP]

    def summary(self) -> dict[str, Any]:
        return {"family": "intel_dla", "kind": "layer placement", "layers": len(self.layers),
                "devices": self.devices(), "types": dict(Counter(la.type for la in self.layers)),
                "fallbacks": [la.node for la in self.fallbacks()], "rows": [la.to_json() for la in self.layers]}

    def placement_line(self) -> str:
        """One line: how many layers run where, and which fall back."""
        where = ", ".join(f"{n} on {shown(d)}" for d, n in self.devices().items())
        back = self.fallbacks()
        tail = ("; falls back: " + ", ".join(f"{shown(la.node)} ({shown(la.type)}, {shown(la.device)})" for la in back)) if back else \
            "; none falls back"
        return f"{len(self.layers)} layers: {where}{tail}"

    def report(self) -> str:
        lines = [f"FPGA AI Suite layer placement {shown(self.name)}: {self.placement_line()}"]
        for la in self.layers:
            lines.append(f"  {shown(la.node)}  {shown(la.device)}  {shown(la.type)}  {_text(la.input_shapes)} -> {_text(la.output_shapes)}")
        return "\n".join(lines)


__all__ = ["HEADER", "Layer", "LayerDevice"]
