"""`binparse doctor`: an esp-ppq `.info` printout against the `.espdl` of the same name.

The rule: esp-ppq prints the printout from the very model it writes (`EspdlExporter.export` passes the
built FlatBuffer to `helper.printable_graph`, then saves the same bytes), so everything printed is the
model's own value, read as flatc's classes read it; a difference is two files that say different
things about the same value: a problem, said in one line per printout (`differ.py`).

Compared: the graph's name, inputs (dims, exponents) and outputs; every node (op type, inputs,
outputs, attributes, in order); every initializer (dtype, dims, exponents, layout, values) and test value
(dims, exponents, values); the exponents of the tensor table (`values info`: line k is the model's
`value_info[k]`). Values are compared with the whole data vector, as esp-ppq prints it (an EDL2 raw_data
vector is whole 16-byte blocks, so the printout shows the padding too), floats at the precision printed.
What the printout shows that cannot be a dim or exponent is a note about the printout: compared with
the model's vectors as the schema reads them (int32 values in int64 vectors, model/narrow.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ....core.errors import BinparseError
from ....core.text import shown
from ....family import FileReport, Finding, register_check
from ..model.container import EspdlFile, EspdlModel
from ..model.graph import Graph, TensorInfo
from .differ import differences
from .info import InfoPrintout, InfoTensor
from .precision import same_at_precision
from ..model.weights import ALIASES


def _same_layout(a: str | None, b: str | None) -> bool:
    """Older names (N16HWC16) mean what newer ones ((N/16)HWC16) mean; none and "" are alike."""
    return ALIASES.get(a or "", a or "") == ALIASES.get(b or "", b or "")


def _values(t: InfoTensor, m: EspdlModel, info: TensorInfo) -> str | None:
    """What differs between the printed values and the model's data vector, or None."""
    if t.values is None:
        return None
    vec = m.tensor(info.name).vector()
    if t.values.size != vec.size:
        return f"{t.values.size} values printed, the model's {info.data_field} holds {vec.size}"
    if t.values.dtype.kind == "f" and t.digits >= 0:  # printed floats: at the precision printed
        diff = np.flatnonzero(~same_at_precision(t.values, vec, t.digits, t.scientific))
    else:
        diff = np.flatnonzero(t.values != vec.astype(t.values.dtype))
    if diff.size:
        k = int(diff[0])
        return (f"{diff.size} of {vec.size} values differ, first at element {k}: printed {t.values[k]}, "
                f"the model {vec[k]}")
    return None


def _same_value(a: Any, b: Any) -> bool:
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        # esp-ppq prints a float attribute with 15 significant digits (`str_float`), the model holds a
        # float32: the same float at the precision printed is the same float32
        return float(a) == float(b) or bool(np.float32(a) == np.float32(b)) or abs(a - b) <= 5e-15 * abs(b)
    return bool(a == b)


def _attributes(printed: dict[str, Any], model: dict[str, Any]) -> str:
    """What differs between printed attributes and the model's ('' when they agree). Attributes whose
    model value binparse does not decode (tensors, graphs) and printed text that is no literal are
    not compared."""
    known = {k: v for k, v in model.items() if v is not None}
    out = []
    for k in sorted(set(printed) | set(known)):
        a, b = printed.get(k), known.get(k)
        if k not in printed or (k not in known and k not in model):
            out.append(f"{k} {'only in the model' if k not in printed else 'only printed'}")
        elif k in known and not (isinstance(a, str) and a.startswith("?")) and not _same_value(a, b):
            out.append(f"{k} printed {a!r}, the model {b!r}")
    return "; ".join(out)


def _as_read(printed: tuple[int, ...] | None, meant: tuple[int, ...], path: str, reads: dict[str, Any],
             chip: list[str]) -> bool:
    """Whether `printed` is the meant vector or, for one with int32 values in an int64 field, what
    the schema's reader reads of it (esp-ppq prints the model it wrote, read back so; counted in `chip`)."""
    if printed is None or printed == meant:
        return True
    if path in reads and reads[path] == printed:
        chip.append(path)
        return True
    return False


def _tensor(t: InfoTensor, info: TensorInfo, m: EspdlModel, what: str, reads: dict[str, Any],
            chip: list[str]) -> list[str]:
    out = []
    dims = t.dims if t.dims is not None else t.printed_dims
    if not _as_read(dims, info.dims, f"{info.path}.dims", reads, chip):
        out.append(f"{what} dims: printed {list(dims or ())}, the model {list(info.dims)}")
    if t.dtype is not None and t.dtype != info.dtype:
        out.append(f"{what} dtype: printed {t.dtype}, the model {info.dtype}")
    exps = t.exponents if t.exponents is not None else t.printed_exponents
    if not _as_read(exps, info.exponents, f"{info.path}.exponents", reads, chip):
        out.append(f"{what} exponents: printed {list(exps or ())}, the model {list(info.exponents)}")
    if t.layout is not None and not _same_layout(t.layout, info.layout):
        out.append(f"{what} layout: printed {t.layout!r}, the model {info.layout!r}")
    v = _values(t, m, info)
    if v:
        out.append(f"{what} values: {v}")
    return out


def compare(p: InfoPrintout, m: EspdlModel) -> tuple[list[str], list[str]]:
    """(differences, what agrees) between a printout and a model (read as meant; a vector with int32
    values in an int64 field may be printed as the schema's reader reads it)."""
    g: Graph = m.graph
    diffs: list[str] = []
    reads = {n.path: n.read for n in g.narrow if n.read is not None}
    chip: list[str] = []
    if p.graph != g.name:
        diffs.append(f"graph name: printed {p.graph!r}, the model {g.name!r}")
    ins = {v.name: v for v in g.inputs}
    at = {v.name: f"Model.graph.input[{i}]" for i, v in enumerate(g.inputs)}
    if [t.name for t in p.inputs] != list(ins):
        diffs.append(f"graph inputs: printed {[t.name for t in p.inputs]}, the model {list(ins)}")
    for t in p.inputs:
        v = ins.get(t.name)
        if v is not None and t.dims is not None and v.dims is not None and t.dims != tuple(v.dims):
            diffs.append(f"input {t.name!r} dims: printed {list(t.dims)}, the model {list(v.dims)}")
        shown_in = t.exponents if t.exponents is not None else t.printed_exponents
        if v is not None and not _as_read(shown_in, v.exponents, f"{at[t.name]}.exponents", reads, chip):
            diffs.append(f"input {t.name!r} exponents: printed {list(shown_in or ())}, the model {list(v.exponents)}")
    if list(p.returns) != [v.name for v in g.outputs]:
        diffs.append(f"graph outputs: printed {list(p.returns)}, the model {[v.name for v in g.outputs]}")
    if len(p.nodes) != len(g.nodes):
        diffs.append(f"{len(p.nodes)} nodes printed, the model has {len(g.nodes)}")
    for k, (a, b) in enumerate(zip(p.nodes, g.nodes)):
        if (a.op_type, a.inputs, a.outputs) != (b.op_type, b.inputs, b.outputs):
            diffs.append(f"node {k} (line {a.line}): printed {a.op_type}({', '.join(a.inputs)}) -> "
                         f"{', '.join(a.outputs)}, the model {b.name} {b.op_type}({', '.join(b.inputs)}) -> "
                         f"{', '.join(b.outputs)}")
        elif _attributes(a.attribute_values(), b.attributes):
            names = list(b.attributes)
            paths = {names[j]: f"Model.graph.node[{k}].attribute[{j}].ints" for j in range(len(names))}
            read = {n: list(reads[path]) for n, path in paths.items() if path in reads}
            if read and not _attributes(a.attribute_values(), {**b.attributes, **read}):
                chip.extend(paths[n] for n in read)
            else:
                diffs.append(f"node {k} (line {a.line}) {b.name} attributes: "
                             f"{_attributes(a.attribute_values(), b.attributes)}")
    counts: dict[str, int] = {}
    for role, mine in (("initializer", g.initializers), ("test_input", g.test_inputs), ("test_output", g.test_outputs)):
        printed, have = p.tensors(role), {t.name: t for t in mine}
        label = role.replace("_", " ")
        if {t.name for t in printed} != set(have):
            diffs.append(f"{label}s: only printed {sorted({t.name for t in printed} - set(have))}, "
                         f"only in the model {sorted(set(have) - {t.name for t in printed})}")
        for t in printed:
            if t.name in have:
                diffs.extend(f"{d} (line {t.line})" for d in _tensor(t, have[t.name], m, f"{label} {t.name!r}",
                                                                      reads, chip))
        counts[role] = len(printed)
    # the tensor table: esp-ppq prints graph.value_info in order (`printable_graph`), so the k-th line is
    # value_info[k] (a name may be in several tables: the input's exponents are another vector); by
    # name where the order differs (binparse's own fixture printouts list the inputs and outputs)
    # a ValueInfo table two lists point at is decoded once (`graph._Decoder.memo`), under the path it
    # was first read at (inputs, then outputs, then value_info): its int32-in-int64 reading is kept there
    canon: dict[int, str] = {}
    for role, vs in (("input", g.inputs), ("output", g.outputs), ("value_info", g.value_info)):
        for k, v in enumerate(vs):
            canon.setdefault(id(v), f"Model.graph.{role}[{k}]")
    table = [(canon[id(v)], v) for v in g.value_info]
    by_name = {v.name: (canon[id(v)], v) for v in [*g.outputs, *g.inputs]} | {v.name: (path, v) for path, v in table}
    checked = 0
    for k, t in enumerate(p.tensors("value")):
        shown = t.exponents if t.exponents is not None else t.printed_exponents
        path, v = table[k] if k < len(table) and table[k][1].name == t.name else by_name.get(t.name, ("", None))
        if shown is None or v is None:
            continue
        checked += 1
        if not _as_read(shown, v.exponents, f"{path}.exponents", reads, chip):
            diffs.append(f"tensor {t.name!r} exponents: printed {list(shown)}, the model {list(v.exponents)} "
                         f"(line {t.line})")
    agrees = [f"graph {g.name!r}", f"{len(g.nodes)} nodes (ops, tensors, attributes)", f"{counts['initializer']} initializers (dtype, dims, "
              "exponents, layout, values)", f"{checked} tensor exponents",
              f"{counts['test_input'] + counts['test_output']} test values"]
    if chip:
        agrees.append(f"{len(set(chip))} printed as the chip reads them (int32 values in int64 vectors: esp-ppq "
                      "printed the model it wrote, read back with the schema; read as meant they agree)")
    return diffs, agrees


def model_for(info: FileReport, reports: list[FileReport]) -> tuple[str, Any] | None:
    """(name, file) of the .espdl of the same name as a printout or record beside it, or None."""
    stem = Path(info.name).stem
    for r in reports:
        if isinstance(r.obj, EspdlFile) and Path(r.name).stem == stem:
            return r.name, r.obj
    return None


@register_check(reads=(("espdl", "info_printout"),))
def check_info(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Each esp-ppq .info printout against the .espdl of the same name."""
    out: list[Finding] = []
    for rep in reports:
        if not isinstance(rep.obj, InfoPrintout):
            continue
        p: InfoPrintout = rep.obj
        notes = [Finding("note", f"{rep.name}: {n}", [rep.name]) for n in p.notes]
        out.extend(notes)
        pair = model_for(rep, reports)
        if pair is None:
            out.append(Finding("note", f"{rep.name}: no {Path(rep.name).stem}.espdl beside it to compare with",
                               [rep.name]))
            continue
        name, f = pair
        models = f.models
        if len(models) != 1:
            out.append(Finding("note", f"{rep.name}: {name} is a pack of {len(models)} models; a printout "
                                       "describes one: not compared", [rep.name, name]))
            continue
        m = models[0]
        if m.encrypted and m.key is None:
            out.append(Finding("note", f"{rep.name}: {name} is encrypted; pass its key to compare", [rep.name, name]))
            continue
        try:
            diffs, agrees = compare(p, m)
        except BinparseError as exc:
            out.append(Finding("note", f"{rep.name}: not compared, {name} cannot be read: {exc}", [rep.name, name]))
            continue
        if any("as the chip reads them" in a for a in agrees):  # the numbers no dim can be: explained there
            out[:] = [f for f in out if not (f in notes and "cannot be a" in f.text)]
        if diffs:
            g = m.graph  # the same graph and ops with other values: e.g. an export at another input size
            same = p.graph == g.name and [n.op_type for n in p.nodes] == [n.op_type for n in g.nodes]
            out.append(differences(rep.name, name, diffs, folder, f"describes another model than {name}" + (
                f", with the same graph {shown(g.name)!r} ({len(g.nodes)} nodes, the same ops) but other values"
                if same else "")))
        else:
            out.append(Finding("ok", f"{rep.name} agrees with {name}: " + ", ".join(agrees), [rep.name, name]))
    return out


__all__ = ["check_info", "compare", "model_for"]
