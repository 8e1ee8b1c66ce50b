"""Printed floats compared at the precision they were printed at (esp-ppq prints numpy's repr of a
float array: one precision and one notation for the whole array; 9.85415445e-34 is the float32
9.854154449263851e-34, not another number)."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from numpy.typing import NDArray

_FRACTION = re.compile(r"\.(\d+)")


def printed_precision(text: str) -> tuple[int, bool]:
    """(fractional digits, scientific) of numpy's repr of a float array: numpy prints every element
    of an array with one precision (its `precision`, trailing zeros dropped), in one notation; the
    most fractional digits among the first numbers tell it."""
    head = text[:2000]
    return max((len(m) for m in _FRACTION.findall(head)), default=0), "e" in head


def same_at_precision(printed: NDArray[Any], model: NDArray[Any], digits: int, scientific: bool) -> NDArray[np.bool_]:
    """Elementwise: the printed value is the model's float at the precision printed (or the same float32)."""
    p = printed.astype(np.float64)
    m = model.astype(np.float64)
    if scientific:
        with np.errstate(divide="ignore"):
            e = np.floor(np.log10(np.where(p == 0, 1.0, np.abs(p))))
        tol = 0.5 * np.power(10.0, e - digits)
    else:
        tol = np.full(p.shape, 0.5 * 10.0 ** -digits)
    out: NDArray[np.bool_] = (np.abs(p - m) <= tol * (1 + 1e-9)) | (p.astype(np.float32) == model.astype(np.float32))
    return out


__all__ = ["printed_precision", "same_at_precision"]
