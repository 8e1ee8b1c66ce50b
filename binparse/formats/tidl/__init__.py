"""TI TIDL (TDA2/AM57x and J7 TDA4/AM6x): io descriptors, networks, tensors, detections, printouts.

The package is light: `plugin.py` declares the family, and its API (the names below) is imported
from `register` on first use, which registers the family's formats, sniffers and doctor checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import api_of

if TYPE_CHECKING:
    from .register import Config as Config
    from .register import ELEMENT_DTYPES as ELEMENT_DTYPES
    from .register import IO_FORMATS as IO_FORMATS
    from .register import NET_FORMATS as NET_FORMATS
    from .register import NET_VERSIONS as NET_VERSIONS
    from .register import IoBufDesc as IoBufDesc
    from .register import IoBufDescTda2 as IoBufDescTda2
    from .register import NetJ7 as NetJ7
    from .register import NetJ7Nearest as NetJ7Nearest
    from .register import NetTda2 as NetTda2
    from .register import Pads as Pads
    from .register import ParamFile as ParamFile
    from .register import Printout as Printout
    from .register import Tensor as Tensor


__getattr__ = api_of(__name__)

__all__ = ['Config', 'ELEMENT_DTYPES', 'IO_FORMATS', 'NET_FORMATS', 'NET_VERSIONS', 'IoBufDesc', 'IoBufDescTda2', 'NetJ7', 'NetJ7Nearest', 'NetTda2', 'Pads', 'ParamFile', 'Printout', 'Tensor']
