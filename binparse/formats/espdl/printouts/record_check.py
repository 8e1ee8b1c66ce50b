"""`binparse doctor`: esp-ppq's `.json` quantization record against the `.espdl` of the same name.

Compared: each recorded variable the model holds (an initializer, a graph input or output, a value's
exponents) whose scale is a power of two: 2^e is exponent e (one per tensor, or one per channel);
and an initializer's element type against the recorded bit width. Each difference is a problem
(two files esp-ppq wrote together contradict each other); variables the model does not hold, and
scales that are no power of two, are counted, not judged.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ....errors import BinparseError
from ....family import FileReport, Finding, register_check
from ..model.container import EspdlModel
from .info_check import model_for
from .record import QuantRecord


def compare(r: QuantRecord, m: EspdlModel) -> tuple[list[str], int, int]:
    """(differences, exponents compared, bit widths compared)."""
    g = m.graph
    inits = {t.name: t for t in g.initializers}
    exps = {v.name: v.exponents for v in [*g.inputs, *g.outputs, *g.value_info]} | {n: t.exponents for n, t in inits.items()}
    diffs: list[str] = []
    n_exp = n_width = 0
    for v in r.variables.values():
        e = v.exponents()
        have = exps.get(v.name)
        if e is not None and have is not None:
            n_exp += 1
            if not (e == have or (len(have) == 1 and set(e) == set(have)) or (len(e) == 1 and set(have) == set(e))):
                diffs.append(f"{v.name}: the recorded scale is 2^e with e = {list(e)[:4]}{' ...' if len(e) > 4 else ''}, "
                             f"the model's exponents are {list(have)[:4]}{' ...' if len(have) > 4 else ''}")
        t = inits.get(v.name)
        if t is not None and v.bit_width and not t.dtype.startswith("code") and v.state != "FP32":
            n_width += 1
            bits = np.dtype(t.dtype).itemsize * 8
            if bits != v.bit_width:
                diffs.append(f"{v.name}: {v.bit_width}-bit recorded, the model holds {t.dtype}")
    return diffs, n_exp, n_width


@register_check(reads=(("espdl", "quantization_record"),))
def check_record(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Each esp-ppq .json quantization record against the .espdl of the same name."""
    out: list[Finding] = []
    for rep in reports:
        if not isinstance(rep.obj, QuantRecord):
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
            diffs, n_exp, n_width = compare(rep.obj, f.models[0])
        except BinparseError as exc:
            out.append(Finding("note", f"{rep.name}: not compared, {name} cannot be read: {exc}", [rep.name, name]))
            continue
        if diffs:
            out.extend(Finding("problem", f"{rep.name} and {name} differ: {d}", [rep.name, name]) for d in diffs)
        else:
            out.append(Finding("ok", f"{rep.name} agrees with {name}: {n_exp} power-of-2 scales are the model's "
                                     f"exponents, {n_width} bit widths its initializers' element types",
                               [rep.name, name]))
    return out


__all__ = ["check_record", "compare"]
