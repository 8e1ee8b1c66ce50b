"""A family package's API imported on first use (PEP 562), so importing the package stays light."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def names_from(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` answering each name from its submodule (`names`: name → submodule); the
    answer is then kept in the package's namespace (later uses are plain attribute lookups)."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{names[name]}"), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__


def api_of(package: str, names: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` answering each public name from its submodule (`names`: name → submodule).

    The family's `register` module is imported first: using a family's API (`from
    binparse.formats.tidl import Tensor`) registers its formats as opening one of its files would.
    """

    from_module = names_from(package, names)

    def __getattr__(name: str) -> Any:
        if name in names:
            importlib.import_module(f"{package}.register")
        return from_module(name)

    return __getattr__
