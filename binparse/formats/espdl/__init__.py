"""Espressif ESP-DL: tensors in padded HWC buffers (old dl::Tensor), TensorBase, .espdl models.

The package is light: `plugin.py` declares the family; the names below are imported from their
modules on first use, after `register` (which registers the family's formats, sniffers, checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import api_of

if TYPE_CHECKING:
    from .tensor import DlTensor as DlTensor
    from .container import EspdlFile as EspdlFile
    from .container import EspdlModel as EspdlModel
    from .graph import Graph as Graph
    from .model_tensor import ModelTensor as ModelTensor
    from .graph import Node as Node
    from .tensor import TensorBase as TensorBase
    from .graph import TensorInfo as TensorInfo
    from .graph import ValueInfo as ValueInfo
    from .weights import WeightLayout as WeightLayout
    from .tensor import concat as concat

_API = {
    "DlTensor": "tensor",
    "EspdlFile": "container",
    "EspdlModel": "container",
    "Graph": "graph",
    "ModelTensor": "model_tensor",
    "Node": "graph",
    "TensorBase": "tensor",
    "TensorInfo": "graph",
    "ValueInfo": "graph",
    "WeightLayout": "weights",
    "concat": "tensor",
}
__getattr__ = api_of(__name__, _API)
__all__ = sorted(_API)
