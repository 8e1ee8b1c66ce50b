"""Sequences over records and strings that keep the caller's buffer (no copies).

This module does not import the accessor: it needs only what `Owner` and `Record` name, so the
accessor imports the sequences and nothing imports back.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from ..errors import FormatError



class Record(Protocol):
    """A record class: what `RecordArray` asks of the class of its items."""

    @classmethod
    def _dtype_for(cls, params: dict[str, Any]) -> np.dtype[Any] | None: ...


A = TypeVar("A", bound=Record)


class Owner(Protocol):
    """The accessor a sequence belongs to: its file name, its bytes, and how it makes a child."""

    _file: str | None
    _mv: memoryview

    def _child(self, cls: Any, off: int, args: dict[str, Any], path: str, *,
               index: int | None = None, io: tuple[int, int] | None = None) -> Any: ...


class StrArray(Sequence[str]):
    """A read-only sequence of strings over a zero-copy `S<n>` array (`.array`).

    Items are decoded when indexed (Kaitai `strz` semantics: up to the first NUL).
    """

    __slots__ = ("array", "encoding", "zero_terminated", "_owner", "_path")

    def __init__(self, array: NDArray[np.bytes_], encoding: str, zero_terminated: bool,
                 owner: Owner | None = None, path: str = "") -> None:
        self.array = array
        self.encoding = encoding
        self.zero_terminated = zero_terminated
        self._owner = owner
        self._path = path

    def __len__(self) -> int:
        return int(self.array.shape[0])

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self))[i]
        raw = self.array[k:k + 1].tobytes()  # the whole item: numpy scalars drop trailing NULs
        return _decode(raw, self.encoding, self.zero_terminated, self._owner, f"{self._path}[{k}]")

    def __repr__(self) -> str:
        return f"StrArray({list(self)!r})"


def _decode(raw: bytes, encoding: str, zterm: bool, owner: Owner | None, path: str) -> str:
    if zterm:
        raw = raw.split(b"\0", 1)[0]
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        raise FormatError(f"text is not valid {encoding}", file=owner._file if owner else None,
                          path=path, found=raw[:40]) from None


class RecordArray(Generic[A], Sequence[A]):
    """A sequence of accessors over consecutive records; `.array` is the zero-copy structured view
    when the records have a fixed size."""

    __slots__ = ("_owner", "_cls", "_offsets", "_args", "_path", "_sub")

    def __init__(self, owner: Owner, cls: type[A], offsets: Sequence[int], args: dict[str, Any], path: str,
                 substream: int | None = None) -> None:
        self._owner, self._cls, self._offsets, self._args, self._path = owner, cls, offsets, args, path
        self._sub = substream  # records declared with `size` read from a substream of that many bytes

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self._offsets))[i]
        off = self._offsets[k]
        io = None if self._sub is None else (off, off + self._sub)
        return self._owner._child(self._cls, off, self._args, f"{self._path}[{k}]", index=k, io=io)

    def __iter__(self) -> Iterator[A]:
        for k in range(len(self._offsets)):
            yield self[k]

    @property
    def array(self) -> NDArray[Any]:
        """Structured numpy view of all records (fixed-size records only)."""
        dt = self._cls._dtype_for(self._args)
        if dt is None:
            raise FormatError("records have no fixed size, so there is no single structured view",
                              path=self._path)
        n = len(self._offsets)
        out: NDArray[Any] = np.ndarray((n,), dt, buffer=self._owner._mv, offset=self._offsets[0] if n else 0)
        return out
