"""`binparse doctor`: each ESP-DL model with test values exported to ONNX and run on them.

A model reproduces its test outputs (>= 99 % of every output's elements within one quantization
step, with the rounding its evidence chooses: `rounding.py`): an `ok` finding, a strong check that
its decoding (layouts, exponents, graph) is right. When it does not, a `note`: the export is
binparse's reading, not the vendor's, so a difference proves nothing against the file. When the
check cannot run (the export refuses the model, onnxruntime refuses the export), the model is "not
verified" (exit code 2), named with the reason, never passed over. Without onnx/onnxruntime
(`binparse[onnx]`) nothing is said.
"""

from __future__ import annotations

from pathlib import Path

from ....core.errors import BinparseError
from ....family import FileReport, Finding, register_check


@register_check
def check_export(reports: list[FileReport], folder: Path) -> list[Finding]:
    """Each model that carries test values: its ONNX export run on them."""
    from .deps import available
    if not any(rep.family == "espdl" and hasattr(rep.obj, "models") for rep in reports) or not available():
        return []
    from .rounding import AUTO
    from .verify import THRESHOLD, check_model
    out: list[Finding] = []
    for rep in reports:
        if rep.family != "espdl" or not hasattr(rep.obj, "models"):
            continue
        try:
            models = list(rep.obj.models)
        except BinparseError:
            continue
        for m in models:
            label = f"{rep.name}{'/' + m.name if m.name else ''}"
            try:
                if (m.encrypted and m.key is None) or not m.graph.test_outputs:
                    continue
                result = check_model(m, rounding=AUTO)
            except BinparseError as exc:
                out.append(Finding("note", f"not verified: {label}: its test values could not be checked in ONNX: "
                                           f"{exc.message}", [rep.name]))
                continue
            count = sum(o.count for o in result.outputs)
            within = sum(o.within for o in result.outputs)
            worst = min(result.outputs, key=lambda o: o.share)
            text = (f"{label}: its ONNX export (binparse export) run on its test inputs gives {within:,} of {count:,} "
                    f"test output element{'s' if count != 1 else ''} within one quantization step ({sum(o.exact for o in result.outputs):,} "
                    f"exact; lowest share {100 * worst.share:.2f} % in {worst.name!r}; rounding "
                    f"{result.choice.rounding if result.choice else '?'})")
            reproduced = all(o.share >= THRESHOLD for o in result.outputs)
            out.append(Finding("ok" if reproduced else "note", text + ("" if reproduced else
                               f": below {100 * THRESHOLD:g} %, the export does not reproduce them"), [rep.name]))
    return out
__all__ = ["check_export"]
