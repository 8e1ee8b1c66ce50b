"""What the accessor runtime keeps per class and params: layouts, scalar places, resolved names.

Generated classes are plain data; everything derived from a class and its params (its layout,
where a scalar lies and its param-only range, the value of a param-only expression, the class a
user type name means) is computed once and kept here, so that making an accessor and reading a
field cost a few dictionary lookups.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from operator import itemgetter
from typing import Any

MISSING, DATA = object(), object()
PARAM_EXPRS: dict[Any, Any] = {}  # (id(expr), class, params) -> value, or DATA when it reads fields
STATIC_CACHE: dict[Any, Any] = {}  # (class, params) -> StaticLayout or None; ("prefix"/"dtype", ...) -> ...
RESOLVED: dict[tuple[type, str], type] = {}
NUMS: dict[Any, Any] = {}  # (class, params, field) -> (unpack_from, offset in the record, min, max)
PKEY_OF: dict[type, Callable[[dict[str, Any]], tuple[Any, ...]]] = {}  # class -> its params' values, in order


def pkey_getter(names: tuple[str, ...]) -> Callable[[dict[str, Any]], tuple[Any, ...]]:
    """A function giving the tuple of the `names` params of a params dict (KeyError when one is
    missing): an `itemgetter`, which returns a bare value for one name."""
    if len(names) == 1:
        only = names[0]
        return lambda params: (params[only],)
    return itemgetter(*names)


def module_of(cls: type) -> dict[str, Any]:
    """Namespace of the generated module that declares `cls` (or the generated class it extends)."""
    for klass in cls.__mro__:
        if "_FIELDS" in vars(klass):
            return vars(sys.modules[klass.__module__])
    return vars(sys.modules[cls.__module__])


def resolve(owner: type, name: str) -> type[Any]:
    """The class a user type name means in the generated module of `owner` (an `Accessor` class)."""
    key = (owner, name)
    hit = RESOLVED.get(key)
    if hit is None:
        hit = module_of(owner)[name]
        RESOLVED[key] = hit
    return hit
