"""The stream a record is written to: bytes, the bit state between bit-sized integers, and what is
checked only once the stream is complete.

A stream has a size when the schema gives it one (a substream of `size: N`); the root stream and
the substream of a `size-eos` or terminated field grow as they are written, and their size is
known only when they are finished. An expression that asks such a stream's size before then
(`_io.size`, `_io.eof`) raises `SizeNotYet`: the writer then lets the values decide (a field is
written when it has a value, a byte array is as long as it is) and checks the expression when
the stream is finished, as a deferred check at the position it was asked at.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...core import budget


class SizeNotYet(Exception):
    """An expression asked the size of a stream still being written (checked when it is finished)."""


class WStream:
    """A stream being written: `buf` from its start, `pos` where the next byte goes."""

    __slots__ = ("buf", "pos", "size", "bits", "bits_left", "bits_le", "deferred", "patches", "finished",
                 "eos_claims", "eof_asked", "under", "origin", "notes")

    def __init__(self, size: int | None = None) -> None:
        self.buf = bytearray()
        self.pos = 0
        self.size = size  # None: it grows (the root, a size-eos or terminated substream)
        self.bits = 0
        self.bits_left = 0
        self.bits_le = False
        self.deferred: list[tuple[int, Callable[[], None]]] = []  # (position, check) run when finished
        self.patches: list[tuple[int, bytes]] = []  # (position, bytes) of instances, laid in when finished
        self.finished = False
        self.eos_claims = 0  # fields written here that must reach the stream's end (size-eos, repeat: eos)
        self.eof_asked = False  # an expression asked whether it is at its end (its content fills it)
        self.origin: Any = None  # (record, size expression, position, index) of a substream's `size`
        self.notes: dict[str, str] | None = None  # what is written other than the file may have had it
        self.under: Any = None  # the original's bytes of this stream, when editing (unused bits kept)

    # -- state -------------------------------------------------------------------------------------
    def mark(self) -> tuple[int, int, int, bool, int, int, int]:
        """Where writing stands: to go back to (`rewind`) when a record is written again."""
        return (self.pos, self.bits, self.bits_left, self.bits_le, len(self.buf), len(self.deferred),
                len(self.patches))

    def rewind(self, mark: tuple[int, int, int, bool, int, int, int]) -> None:
        self.pos, self.bits, self.bits_left, self.bits_le, n, nd, np_ = mark
        del self.buf[n:]
        del self.deferred[nd:]
        del self.patches[np_:]

    def known_size(self) -> int:
        """The size an expression sees (`_io.size`): given, or what was written once finished."""
        if self.size is not None:
            return self.size
        if self.finished:
            return len(self.buf)
        raise SizeNotYet()

    def tell(self) -> int:
        """Where the next byte goes (a byte under way between bit-sized integers not counted)."""
        return self.pos

    # -- bytes -------------------------------------------------------------------------------------
    def align(self) -> None:
        """A byte-aligned write after bit-sized integers: the byte under way is written out (the bits
        left in it zero, as Kaitai's writer does, or the original's when editing)."""
        if self.bits_left:
            b = self.bits if self.bits_le else self.bits << (8 - self.bits_left)
            under = self.under
            if under is not None and self.pos < len(under):
                free = (0xFF << self.bits_left) & 0xFF if self.bits_le else (1 << (8 - self.bits_left)) - 1
                b |= under[self.pos] & free
            elif self.notes is not None:
                self.notes.setdefault("bits", "the unused bits of a byte after bit-sized integers are written as zeros")
            self.bits = self.bits_left = 0
            self._put(bytes([b & 0xFF]))

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.align()
        self._put(data)

    def _put(self, data: bytes | bytearray | memoryview) -> None:
        n = len(data)
        end = self.pos + n
        if self.pos == len(self.buf):
            self.buf += data
        else:
            if end > len(self.buf):
                self.buf.extend(bytes(end - len(self.buf)))
            self.buf[self.pos:end] = data
        self.pos = end

    def seek(self, pos: int) -> None:
        self.align()
        self.pos = pos

    def pad_to(self, end: int, fill: bytes | None, what: str) -> None:
        """Bytes up to `end` (a size the schema says): `fill` where it has them, zeros after."""
        n = end - self.pos
        if n <= 0:
            return
        budget.ask(n, what)
        chunk = (fill or b"")[:n]
        self._put(chunk + bytes(n - len(chunk)))

    # -- bits --------------------------------------------------------------------------------------
    def write_bits(self, n: int, value: int, le: bool) -> None:
        """An `n`-bit integer, in big- or little-endian bit order (Kaitai's write_bits_int_be/le)."""
        value &= (1 << n) - 1
        if self.bits_left and le != self.bits_le:
            self.align()
        self.bits_le = le
        if le:
            acc = self.bits | (value << self.bits_left)
            total = self.bits_left + n
            out = bytearray()
            while total >= 8:
                out.append(acc & 0xFF)
                acc >>= 8
                total -= 8
            self.bits, self.bits_left = acc, total
        else:
            acc = (self.bits << n) | value
            total = self.bits_left + n
            out = bytearray()
            while total >= 8:
                total -= 8
                out.append((acc >> total) & 0xFF)
            self.bits, self.bits_left = acc & ((1 << total) - 1), total
        if out:
            self._put(out)

    # -- the end -----------------------------------------------------------------------------------
    def finish(self) -> bytes:
        """Write out the byte under way, lay in the instances' bytes, run the deferred checks;
        the stream's bytes."""
        self.align()
        for pos, data in self.patches:
            self.pos = pos
            self._put(data)
        self.pos = len(self.buf)
        self.finished = True
        for _, check in self.deferred:
            check()
        return bytes(self.buf)


class IoView:
    """`_io` in an expression while writing: the stream, at the position the expression sees."""

    __slots__ = ("stream", "at")

    def __init__(self, stream: WStream, at: int) -> None:
        self.stream, self.at = stream, at

    def size(self) -> int:
        return self.stream.known_size()

    def pos(self) -> int:
        """Kaitai's writer counts a byte under way between bit-sized integers."""
        s = self.stream
        return self.at + 1 if s.bits_left and self.at == s.pos else self.at

    def is_eof(self) -> bool:
        self.stream.eof_asked = True
        return self.at >= self.stream.known_size()

    def __repr__(self) -> str:
        return f"<stream being written, at {self.at}>"


def view(stream: WStream) -> Any:
    return IoView(stream, stream.tell())


__all__ = ["IoView", "SizeNotYet", "WStream", "view"]
