"""Layouts: descriptors of where a logical tensor lies in a device buffer (data, not code paths)."""

from .strided import StridedLayout

__all__ = ["StridedLayout"]
