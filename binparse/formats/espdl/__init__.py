"""Espressif ESP-DL: tensors in padded HWC buffers (old dl::Tensor), TensorBase, .espdl models.

The package is light: `plugin.py` declares the family; the names below are imported from their
modules on first use, after `register` (which registers the family's formats, sniffers, checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.lazy import api_of

if TYPE_CHECKING:
    from .buffers.tensor import DlTensor as DlTensor
    from .model.container import EspdlFile as EspdlFile
    from .model.container import EspdlModel as EspdlModel
    from .model.graph import Graph as Graph
    from .model.model_tensor import ModelTensor as ModelTensor
    from .model.graph import Node as Node
    from .buffers.tensor import TensorBase as TensorBase
    from .model.graph import TensorInfo as TensorInfo
    from .model.graph import ValueInfo as ValueInfo
    from .model.weights import WeightLayout as WeightLayout
    from .buffers.tensor import concat as concat
    from .printouts.info import InfoPrintout as InfoPrintout
    from .printouts.record import QuantRecord as QuantRecord
    from .writers.repair import repair as repair

_API = {
    "DlTensor": "buffers.tensor",
    "EspdlFile": "model.container",
    "EspdlModel": "model.container",
    "Graph": "model.graph",
    "ModelTensor": "model.model_tensor",
    "Node": "model.graph",
    "TensorBase": "buffers.tensor",
    "TensorInfo": "model.graph",
    "ValueInfo": "model.graph",
    "WeightLayout": "model.weights",
    "concat": "buffers.tensor",
    "InfoPrintout": "printouts.info",
    "QuantRecord": "printouts.record",
    "repair": "writers.repair",
}
__getattr__ = api_of(__name__, _API)
__all__ = sorted(_API)
