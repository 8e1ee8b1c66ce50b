"""MATLAB Deep Learning HDL Toolbox external memory formats (seed 003), as layout descriptors.

The package is light: `plugin.py` declares the family; the names below are imported from
`layouts` on first use (the conv and FC module layouts; see its docstring for the rules).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.lazy import names_from

if TYPE_CHECKING:
    from .layouts import DTYPES as DTYPES, THREAD_NUMBERS as THREAD_NUMBERS
    from .layouts import ConvLayout as ConvLayout, FcLayout as FcLayout

_API = {"ConvLayout": "layouts", "DTYPES": "layouts", "FcLayout": "layouts", "THREAD_NUMBERS": "layouts"}
__getattr__ = names_from(__name__, _API)
__all__ = sorted(_API)
