"""The base of a user's linear record types (`codegen.linear`): records a walk makes by the
hundred thousand, with only what their compiled getters read set (`_MAKE`, `_ITER` of the
generated module); anything else is filled from the record that holds them when first asked for.

Only these classes define `__getattr__` (Python then calls it for every attribute it does not find,
and looks up every attribute of such a class a little more slowly), so binparse's own formats do
not pay for it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .accessor import Accessor

_FILLED = frozenset({"_io_start", "_io_end", "_file", "_root_of", "_params", "_cache", "_ext", "_bit0", "_le",
                     "_own_io", "_pkey", "_lay", "_pre", "_depth"})


class LinearRecord(Accessor):
    """A record of a user's linear type (see the module doc)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name == "_u8":  # the buffer as uint8: byte arrays are slices of it
            u8 = self._u8 = np.frombuffer(self._mv, np.uint8)
            return u8
        if name == "_mv":
            mv = self._mv = self._parent._mv
            return mv
        if name == "_path":
            k = self._index
            path = self._path = self._pbase if k is None else f"{self._pbase}[{k}]"
            return path
        eager = type(self)._EAGER
        if name in eager:  # a plain number of a record made by from_buffer: set with the others if it fits
            if self._fits():
                type(self)._FILL(self, self._mv, self._off)
                return object.__getattribute__(self, name)
            return self._num(eager[name])  # read the interpreter's way: its error names the field
        if name in _FILLED:
            owner = self._parent
            self._io_start, self._io_end, self._file = owner._io_start, owner._io_end, owner._file
            self._root_of = owner._root_of if owner._root_of is not None else owner
            self._params, self._cache, self._ext, self._bit0, self._le, self._own_io = {}, {}, {}, None, None, False
            self._pkey, self._lay, self._pre = (), [], None
            self._depth = owner._depth + 1
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


__all__ = ["LinearRecord"]
