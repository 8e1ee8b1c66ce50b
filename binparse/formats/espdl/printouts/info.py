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

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from numpy.typing import NDArray

from ....core.errors import FormatError
from ....family.hints import doctor_of_folder
from ....core.text import shown
from .info_read import Reader
from .info_types import DTYPES, MAX_SHORT_LINES, SECTIONS, InfoNode, InfoTensor


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
        out = cls(file)
        Reader(file, data.decode("utf-8", "replace").splitlines(), out).run()
        return out

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
                 f"{doctor_of_folder(self.file)} compares it with the .espdl of the same name)",
                 table_text(("#", "op type", "inputs", "outputs", "weights"),
                            [(str(k), n.op_type, ", ".join(i for i in n.inputs if i not in inits) or "-",
                              ", ".join(n.outputs), ", ".join(i for i in n.inputs if i in inits) or "-")
                             for k, n in enumerate(self.nodes)])]
        rows = [(t.role.replace("_", " "), t.name, t.dtype or "?", _text(t.dims, "x"), _text(t.exponents, ","),
                 t.layout or "-", "-" if t.values is None else str(t.values.size))
                for t in [*self.inputs, *(x for r in SECTIONS.values() for x in self.tensors(r))]]
        lines += ["tensors:", table_text(("role", "name", "dtype", "dims", "exponents", "layout", "elements"), rows)]
        lines += [f"note: {shown(n)}" for n in self.notes]
        return "\n".join(lines)


def _text(v: tuple[int, ...] | None, sep: str) -> str:
    return "?" if v is None else sep.join(map(str, v)) or "-"


__all__ = ["DTYPES", "InfoNode", "InfoPrintout", "InfoTensor"]
