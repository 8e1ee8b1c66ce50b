"""`binparse doctor`: esp-ppq's `.json` quantization record against the `.espdl` of the same name.

esp-ppq writes both files from one exported graph (`EspdlExporter.export`: the record, then the model),
so where they speak of the same value they must agree. The rules, each from esp-ppq's source:

- **Exponents.** A variable the exporter quantized (`QuantConfig.exported`: ACTIVATED, PASSIVE,
  BAKED, PASSIVE_BAKED or OVERLAPPED with a scale) whose scale is a power of two, 2^e, gets e as its
  exponents in the model (`QuantVariableToIntPattern.calculate_exponent`: log2 of the scale, per
  tensor or per channel). The model's exponents must be those of one of the variable's exported
  configs, else the chip scales it by another power of two than esp-ppq computed with: a problem.
- **Storage.** An exported parameter is stored by `PPQLinearQuant_toInt` (esp_ppq/quantization/
  qfunction/linear.py): clamped into [quant_min, quant_max], then held in int8 for 8 bits, int16 for
  16, int32 for 17-32 and int64 for 33-64 (esp-ppq before 2025-03: int32 for every width over 8 or
  16). A storage wider than the recorded bit width is therefore how esp-ppq writes (a 20-bit bias of
  an ESPDL_S3_INT8 Conv in int32, a 40-bit bias of an INT16 Conv in int64): counted in the agreement
  line, never a problem. A storage narrower than the bit width, a float where a quantized value is
  recorded, or a stored value outside [quant_min, quant_max] is a contradiction: a problem.
- **FP32 variables** (state FP32, e.g. the int64 shape constants esp-ppq keeps before a Reshape)
  and configs the exporter does not apply (INITIAL, PASSIVE_INIT, DEQUANTIZED, DEACTIVED) are not
  quantized: outside both rules, counted.

Variables the model does not hold, and scales that are no power of two, are counted, not judged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check
from ....core.text import shown
from ..model.container import EspdlModel
from ..model.graph import TensorInfo
from ..model.model_tensor import ModelTensor
from ..model.weights import WeightLayout
from .differ import differences
from .info_check import model_for
from .record import QuantConfig, QuantRecord, QuantVar

RULE_EXPONENT = "esp-ppq writes log2 of the scale it quantized with: QuantVariableToIntPattern.calculate_exponent"
RULE_STORAGE = "esp-ppq clamps a quantized parameter into [quant_min, quant_max] and stores it in at least its bit " \
               "width: PPQLinearQuant_toInt"


@dataclass
class Tally:
    """What a comparison found: differences, and counts of what agrees or was outside the rules."""

    diffs: list[str] = field(default_factory=list)
    exponents: int = 0  # power-of-2 scales that are the model's exponents
    widths: int = 0  # exported parameters whose storage and values fit their recorded quantization
    wider: dict[str, int] = field(default_factory=dict)  # "20-bit in int32" -> count: esp-ppq's storage
    fp32: int = 0  # variables not quantized (FP32, or no config the exporter applies)
    absent: int = 0  # variables the model does not hold


def _same_exponents(e: tuple[int, ...], have: tuple[int, ...]) -> bool:
    return e == have or (len(have) == 1 and set(e) == set(have)) or (len(e) == 1 and set(have) == set(e))


def _short(v: tuple[int, ...]) -> str:
    return f"{list(v)[:4]}{' ...' if len(v) > 4 else ''}"


def _values(m: EspdlModel, t: TensorInfo) -> Any:
    """The initializer's whole data vector as stored (a view; no layout needed: every element counts)."""
    return ModelTensor(t, WeightLayout.of(None, t.dims), m.payload, m.file, m.payload_offset).vector()


def _storage(v: QuantVar, c: QuantConfig, m: EspdlModel, t: TensorInfo, out: Tally) -> None:
    where = f"{shown(v.name)} ({c.bit_width}-bit, {c.state}, op {shown(c.op)})"
    if t.dtype.startswith("code") or np.dtype(t.dtype).kind not in "iu":
        out.diffs.append(f"{where}: the record says esp-ppq quantized it, the model holds {t.dtype} values ({RULE_STORAGE})")
        return
    bits = np.dtype(t.dtype).itemsize * 8
    if bits < c.bit_width:
        out.diffs.append(f"{where}: the model stores it in {t.dtype}, narrower than its bit width ({RULE_STORAGE})")
        return
    if c.quant_min is not None and c.quant_max is not None and t.data_nbytes:
        vec = _values(m, t)
        lo, hi = int(vec.min()), int(vec.max())
        if lo < c.quant_min or hi > c.quant_max:
            bad = np.flatnonzero((vec < c.quant_min) | (vec > c.quant_max))
            k = int(bad[0])
            out.diffs.append(f"{where}: {bad.size} of {vec.size} stored values lie outside its recorded range "
                             f"[{c.quant_min}, {c.quant_max}], first at element {k}: {int(vec[k])} ({RULE_STORAGE})")
            return
    out.widths += 1
    if bits > c.bit_width:
        key = f"{c.bit_width}-bit values in {t.dtype}"
        out.wider[key] = out.wider.get(key, 0) + 1


def compare(r: QuantRecord, m: EspdlModel) -> Tally:
    """The record against the model, by the rules of this module's doc."""
    g = m.graph
    inits = {t.name: t for t in g.initializers}
    exps = {v.name: v.exponents for v in [*g.inputs, *g.outputs, *g.value_info]} | {n: t.exponents for n, t in inits.items()}
    out = Tally()
    for v in r.variables.values():
        exported = v.exported
        if not exported:
            out.fp32 += 1
            continue
        have = exps.get(v.name)
        if have is None:
            out.absent += 1
            continue
        wanted = [e for e in (c.exponents() for c in exported) if e is not None]
        if wanted:
            out.exponents += 1
            if not any(_same_exponents(e, have) for e in wanted):
                c = next(c for c in exported if c.exponents() is not None)
                out.diffs.append(f"{shown(v.name)}: esp-ppq quantized it with the scale 2^e, e = {_short(wanted[0])} "
                                 f"({c.state}, op {shown(c.op)}), the model's exponents are {_short(have)}: the chip "
                                 f"scales it by another power of two ({RULE_EXPONENT})")
        t = inits.get(v.name)
        if t is not None:
            _storage(v, exported[0], m, t, out)
    return out


def _ops_not_in(r: QuantRecord, m: EspdlModel) -> list[str]:
    """The ops the record configures that are no node of the model (sorted): a graph changed after esp-ppq
    wrote the record (Espressif's yolo26 PIE example fuses 49 of its 284 ops into TiledConvBlock and
    HardSiluPie8 nodes, with other exponents), or the record of another model."""
    nodes = {n.name for n in m.graph.nodes}
    return sorted({c.op for v in r.variables.values() for c in v.configs} - nodes)


def _agrees(t: Tally) -> str:
    text = (f"{t.exponents} power-of-2 scales are the model's exponents, {t.widths} quantized parameters are stored "
            "as esp-ppq stores them")
    if t.wider:
        text += " (" + ", ".join(f"{n} of {k}" for k, n in sorted(t.wider.items())) + ": esp-ppq's storage for those widths)"
    if t.fp32:
        text += f"; {t.fp32} variables not quantized (FP32 or not exported): outside these rules"
    return text


@register_check(reads=(("espdl", "quantization_record"),))
def check_record(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Each esp-ppq .json quantization record against the .espdl of the same name."""
    out: list[Finding] = []
    for rep in reports:
        if not isinstance(rep.obj, QuantRecord):
            continue
        if not rep.obj.variables:
            out.append(Finding("note", f"{rep.name}: records no quantized variable (its configs are empty, as esp-ppq "
                                       "writes them when no op was quantized): nothing to compare", [rep.name]))
            continue
        pair = model_for(rep, reports)
        if pair is None:
            out.append(Finding("note", f"{rep.name}: no {Path(rep.name).stem}.espdl beside it to compare with", [rep.name]))
            continue
        name, f = pair
        if len(f.models) != 1 or (f.models[0].encrypted and f.models[0].key is None):
            out.append(Finding("note", f"{rep.name}: {name} is a pack or encrypted without its key: not compared",
                               [rep.name, name]))
            continue
        try:
            tally = compare(rep.obj, f.models[0])
        except BinparseError as exc:
            out.append(Finding("note", f"not verified: {rep.name} was not compared, {name} cannot be read: {exc}",
                               [rep.name, name]))
            continue
        elsewhere = _ops_not_in(rep.obj, f.models[0])
        if tally.diffs and elsewhere:  # the model's graph is not the one the record configured: nothing proven
            out.append(Finding("note", f"{rep.name} configures {len(elsewhere)} ops {name} does not have (e.g. "
                                       f"{', '.join(repr(shown(o)) for o in elsewhere[:2])}): it describes another "
                                       f"graph than the model's, so its {len(tally.diffs)} differences from the "
                                       f"model's exponents prove nothing against it; first: {tally.diffs[0]}",
                               [rep.name, name], list(tally.diffs)))
        elif tally.diffs:
            out.append(differences(rep.name, name, tally.diffs, folder, f"and {name} differ"))
        else:
            out.append(Finding("ok", f"{rep.name} agrees with {name}: {_agrees(tally)}", [rep.name, name]))
    return out


__all__ = ["Tally", "check_record", "compare"]
