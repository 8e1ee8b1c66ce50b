"""Espressif ESP-DL: tensors in padded HWC buffers (old dl::Tensor), TensorBase, .espdl models.

The package is light: `plugin.py` declares the family, and its API (the names below) is imported
from `register` on first use, which registers the family's formats, sniffers and doctor checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import api_of

if TYPE_CHECKING:
    from .register import DlTensor as DlTensor
    from .register import EspdlFile as EspdlFile
    from .register import EspdlModel as EspdlModel
    from .register import Graph as Graph
    from .register import ModelTensor as ModelTensor
    from .register import Node as Node
    from .register import TensorBase as TensorBase
    from .register import TensorInfo as TensorInfo
    from .register import ValueInfo as ValueInfo
    from .register import WeightLayout as WeightLayout
    from .register import concat as concat


__getattr__ = api_of(__name__)

__all__ = ['DlTensor', 'EspdlFile', 'EspdlModel', 'Graph', 'ModelTensor', 'Node', 'TensorBase', 'TensorInfo', 'ValueInfo', 'WeightLayout', 'concat']
