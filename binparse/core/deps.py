"""Runtime dependencies imported where they are first needed (pyarrow, cryptography, protobuf).

Both are in `pyproject.toml`; an environment that lacks one (binparse imported from a checkout,
a trimmed install) gets a `BinparseError` naming the package and the install command instead of
an ImportError from deep inside a reader.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .errors import BinparseError


def dependency(module: str, package: str, *, purpose: str, file: str | None = None) -> ModuleType:
    """`import module`, or a BinparseError saying which package to install for `purpose`."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise BinparseError(f"{purpose} needs the Python package {package!r}, which is not installed", file=file,
                            expected=package, found="not importable",
                            hint=f"pip install {package} (or reinstall binparse: pip install -e .)") from None


__all__ = ["dependency"]
