"""TI TIDL (TDA2/AM57x and J7 TDA4/AM6x): io descriptors, networks, tensors, detections, printouts.

The package is light: `plugin.py` declares the family; the names below are imported from their
modules on first use, after `register` (which registers the family's formats, sniffers, checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.lazy import api_of

if TYPE_CHECKING:
    from .am57x import Config as Config
    from .tensors import ELEMENT_DTYPES as ELEMENT_DTYPES
    from .register import IO_FORMATS as IO_FORMATS
    from .register import NET_FORMATS as NET_FORMATS
    from .net.model import NET_VERSIONS as NET_VERSIONS
    from .io.desc import IoBufDesc as IoBufDesc
    from .io.desc import IoBufDescTda2 as IoBufDescTda2
    from .net.model import NetJ7 as NetJ7
    from .net.nearest import NetJ7Nearest as NetJ7Nearest
    from .net.model import NetTda2 as NetTda2
    from .tensors import Pads as Pads
    from .am57x import ParamFile as ParamFile
    from .printouts.files import Printout as Printout
    from .tensors import Tensor as Tensor

_API = {
    "Config": "am57x",
    "ELEMENT_DTYPES": "tensors",
    "IO_FORMATS": "register",
    "NET_FORMATS": "register",
    "NET_VERSIONS": "net.model",
    "IoBufDesc": "io.desc",
    "IoBufDescTda2": "io.desc",
    "NetJ7": "net.model",
    "NetJ7Nearest": "net.nearest",
    "NetTda2": "net.model",
    "Pads": "tensors",
    "ParamFile": "am57x",
    "Printout": "printouts.files",
    "Tensor": "tensors",
}
__getattr__ = api_of(__name__, _API)
__all__ = sorted(_API)
