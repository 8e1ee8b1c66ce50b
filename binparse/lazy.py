"""A family package's API imported on first use (PEP 562), so importing the package stays light."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def api_of(package: str, module: str = "register") -> Callable[[str], Any]:
    """A module `__getattr__` that answers names from `package.module`, importing it on first use.

    Importing that module registers the family's formats, sniffers and doctor checks, so using a
    family's API (`from binparse.formats.tidl import Tensor`) loads the family as a file would.
    """

    def __getattr__(name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        target = importlib.import_module(f"{package}.{module}")
        try:
            return getattr(target, name)
        except AttributeError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None

    return __getattr__
