"""ESP-DL models exported to ONNX (the optional extra `binparse[onnx]`: onnx and onnxruntime).

`to_onnx(model)` builds the ONNX model of one `EspdlModel`; `export(source)` takes a path or an
`EspdlFile` (with `model=` for a pack, `key=` for an encrypted model) and returns an
`onnx.ModelProto`; `check(source)` runs the export in onnxruntime on the model's own test inputs and
compares each output with the model's test outputs (`ExportCheck`). `OPS` lists the supported ops.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.lazy import names_from

if TYPE_CHECKING:
    from .api import check as check
    from .api import export as export
    from .verify import ExportCheck as ExportCheck
    from .convert import to_onnx as to_onnx
    from .ops import OPS as OPS

_API = {"OPS": "ops", "to_onnx": "convert", "export": "api", "check": "api", "ExportCheck": "verify"}
__getattr__ = names_from(__name__, _API)
__all__ = sorted(_API)
