"""Sequences over records and strings that keep the caller's buffer (no copies).

This module does not import the accessor: it needs only what `Owner` and `Record` name, so the
accessor imports the sequences and nothing imports back.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Generic, Protocol, TypeVar

import numpy as np
from numpy.typing import NDArray

from ...core.errors import FormatError
from ..expr.encodings import decode



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
               index: int | None = None, io: tuple[int, int] | None = None, mv: Any = None) -> Any: ...

    def _elem_value(self, spec: Any, i: int, k: int | None, start: int, item: Any, io: Any,
                    size: int | None = None) -> Any: ...


class StrArray(Sequence[str]):
    """A read-only sequence of strings over a zero-copy `S<n>` array (`.array`).

    Items are decoded when indexed, cut at their terminator when they have one (Kaitai `strz`
    semantics: up to the first NUL, or the first aligned pair of NULs in UTF-16).
    """

    __slots__ = ("array", "encoding", "zero_terminated", "_owner", "_path", "_term")

    def __init__(self, array: NDArray[np.bytes_], encoding: str, zero_terminated: bool,
                 owner: Owner | None = None, path: str = "", term: bytes | None = None) -> None:
        self.array = array
        self.encoding = encoding
        self.zero_terminated = zero_terminated
        self._owner = owner
        self._path = path
        self._term = term if term is not None else (b"\0" if zero_terminated else None)

    def __len__(self) -> int:
        return int(self.array.shape[0])

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self))[i]
        raw = self.array[k:k + 1].tobytes()  # the whole item: numpy scalars drop trailing NULs
        term = self._term
        if term is not None:
            raw = raw[:terminated(raw, term)]
        return _decode(raw, self.encoding, False, self._owner, f"{self._path}[{k}]")

    def __repr__(self) -> str:
        return f"StrArray({list(self)!r})"


def terminated(raw: bytes, term: bytes) -> int:
    """Length of `raw` cut before its first `term` (aligned to the terminator's width)."""
    at = raw.find(term)
    while at >= 0 and at % len(term):
        at = raw.find(term, at + len(term) - at % len(term))
    return len(raw) if at < 0 else at


def _decode(raw: bytes, encoding: str, zterm: bool, owner: Owner | None, path: str) -> str:
    if zterm:
        raw = raw.split(b"\0", 1)[0]
    try:
        return decode(raw, encoding)
    except LookupError:
        err = FormatError(f"unknown text encoding {encoding!r}", file=owner._file if owner else None, path=path,
                          hint="Kaitai Struct knows ASCII, UTF-8, UTF-16LE/BE, UTF-32LE/BE, ISO-8859-x, "
                               "windows-125x, IBM437, IBM866, Shift_JIS, Big5 and EUC-KR")
        err.kaitai = "UnknownEncodingError"  # type: ignore[attr-defined]
        raise err from None
    except UnicodeDecodeError as exc:
        raise FormatError(f"text is not valid {encoding}", file=owner._file if owner else None,
                          path=path, found=raw[:40]) from None


class RecordArray(Generic[A], Sequence[A]):
    """A sequence of accessors over consecutive records; `.array` is the zero-copy structured view
    when the records have a fixed size."""

    __slots__ = ("_owner", "_cls", "_offsets", "_args", "_path", "_sub", "_smv", "_io")

    def __init__(self, owner: Owner, cls: type[A], offsets: Sequence[int], args: dict[str, Any], path: str,
                 substream: int | None = None, mv: memoryview | None = None,
                 io: tuple[int, int] | None = None) -> None:
        self._owner, self._cls, self._offsets, self._args, self._path = owner, cls, offsets, args, path
        self._sub = substream  # records declared with `size` read from a substream of that many bytes
        self._smv, self._io = mv, io  # records read from another stream (an instance's `io`)

    def __len__(self) -> int:
        return len(self._offsets)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self._offsets))[i]
        off = self._offsets[k]
        io = self._io if self._sub is None else (off, off + self._sub)
        return self._owner._child(self._cls, off, self._args, self._path, index=k, io=io, mv=self._smv)

    def __iter__(self) -> Iterator[A]:
        owner: Any = self._owner
        cls, args, path, smv, sub, io = self._cls, self._args, self._path, self._smv, self._sub, self._io
        child = owner._child
        for k, off in enumerate(self._offsets):
            yield child(cls, off, args, path, index=k, io=io if sub is None else (off, off + sub), mv=smv)

    @property
    def array(self) -> NDArray[Any]:
        """Structured numpy view of all records (fixed-size records only)."""
        dt = self._cls._dtype_for(self._args)
        if dt is None:
            raise FormatError("records have no fixed size, so there is no single structured view",
                              path=self._path)
        n = len(self._offsets)
        mv = self._smv if self._smv is not None else self._owner._mv
        out: NDArray[Any] = np.ndarray((n,), dt, buffer=mv, offset=self._offsets[0] if n else 0)
        return out


class ItemArray(Sequence[Any]):
    """The elements of a repeated field whose elements differ (in size, in switch case, in the
    bytes they are read from): made when indexed, from what locating the field found."""

    __slots__ = ("_owner", "_spec", "_i", "_items", "_io", "_path", "_off", "_size")

    def __init__(self, owner: Owner, spec: Any, i: int, items: list[Any], io: Any, path: str,
                 off: int = 0, size: int = 0) -> None:
        self._owner, self._spec, self._i, self._items, self._io, self._path = owner, spec, i, items, io, path
        self._off, self._size = off, size  # elements of one size whose values need working out (a record from bytes)

    def __len__(self) -> int:
        return len(self._items)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        k = range(len(self._items))[i]
        return self._owner._elem_value(self._spec, self._i, k, self._off + k * self._size, self._items[k], self._io,
                                       self._size or None)

    def __iter__(self) -> Iterator[Any]:
        for k in range(len(self._items)):
            yield self[k]

    def __repr__(self) -> str:
        return f"<{len(self)} elements of {self._path}>"
