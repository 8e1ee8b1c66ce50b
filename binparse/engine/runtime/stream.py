"""Positions in a stream, bit-sized integers, terminators and `process`: Kaitai's stream semantics.

A position is a byte offset (an int), or, between bit-sized integers, `(next byte, bits left,
their value)` exactly as Kaitai's runtime keeps its bit state: a byte-aligned read starts at the
next whole byte and drops what is left, a bit-sized integer goes on from the bits left.
`KStream` is what `_io` means in an expression: the stream's `size`, `pos` and `eof`.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

from ...core import budget
from ...core.errors import FormatError

Pos = Any  # int, or tuple[int, int, int] (next byte, bits left 1..7, their value)
AT: list[tuple[memoryview, int, int, Any]] = []  # (stream, start, end, position) of the reads under way


def current(mv: memoryview, start: int, end: int) -> Any:
    """The position the innermost read under way on this stream stands at, or None (no read under
    way on it: the instance asking is read after its record's seq, as Kaitai reads it)."""
    for smv, s, e, at in reversed(AT):
        if smv is mv and s == start and e == end:
            return at
    return None


def aligned(pos: Pos) -> int:
    """The byte a byte-aligned read starts at (bits left over are dropped, as Kaitai does)."""
    return pos if type(pos) is int else pos[0]


def eof_error(need: int, have: int, *, file: str | None, path: str, offset: int, what: str = "") -> FormatError:
    err = FormatError(f"{what or 'field'} runs past the end of the data: requested {need} bytes, but only "
                      f"{max(have, 0)} bytes available", file=file, path=path, offset=offset,
                      expected=f"{need} bytes", found=f"{max(have, 0)} bytes left",
                      hint="the file is truncated, or a size or count in it is corrupt")
    err.kaitai = "EndOfStreamError"  # type: ignore[attr-defined]
    return err


def overrun(file: str | None, path: str, off: int, count: int | None, size: int, end: int) -> FormatError:
    """A field of `count` elements of `size` bytes (or one) that the data does not hold."""
    total = size * (1 if count is None else count)
    err = FormatError("field runs past the end of the data", file=file, path=path, offset=off,
                      expected=f"{total} bytes ({count if count is not None else 1} x {size})",
                      found=f"{max(end - off, 0)} bytes left", hint="the file is truncated, or a count in it is corrupt")
    err.kaitai = "EndOfStreamError"  # type: ignore[attr-defined]
    return err


def read_bits(mv: memoryview, pos: Pos, n: int, le: bool, end: int, file: str | None, path: str) -> tuple[int, Pos]:
    """An `n`-bit integer read from `pos` (big- or little-endian bit order), and the position after it."""
    if type(pos) is int:
        p, left, bits = pos, 0, 0
    else:
        p, left, bits = pos
    need = n - left
    if need > 0:
        nbytes = (need - 1) // 8 + 1
        if p + nbytes > end:
            raise eof_error(nbytes, end - p, file=file, path=path, offset=p)
        raw = int.from_bytes(mv[p:p + nbytes], "little" if le else "big")
        p += nbytes
        new_left = -need % 8
        if le:
            value = ((raw << left) | bits) & ((1 << n) - 1)
            bits = raw >> need
        else:
            value = (raw >> new_left) | (bits << need)
            bits = raw & ((1 << new_left) - 1)
    else:
        new_left = left - n
        if le:
            value = bits & ((1 << n) - 1)
            bits >>= n
        else:
            value = bits >> new_left
            bits &= (1 << new_left) - 1
    return value, (p if new_left == 0 else (p, new_left, bits))


def _find(mv: memoryview, sub: bytes, start: int, end: int) -> int:
    """`bytes.find` over a memoryview without copying it whole: the object under the view when it
    can search (bytes, mmap), else chunks that double in size (linear in the distance searched)."""
    obj: Any = mv.obj
    if isinstance(obj, (bytes, bytearray)) and len(obj) == mv.nbytes or (
            hasattr(obj, "find") and not isinstance(obj, (bytes, bytearray, np.ndarray)) and len(obj) == mv.nbytes):
        return int(obj.find(sub, start, end))
    chunk, at = 256, start
    while at < end:
        stop = min(end, at + chunk + len(sub) - 1)
        hit = bytes(mv[at:stop]).find(sub)
        if hit >= 0:
            return at + hit
        at += chunk
        chunk *= 2
    return -1


def find_term(mv: memoryview, start: int, end: int, term: bytes) -> int:
    """Offset of the first `term` at or after `start` (aligned to its width from `start`), or -1."""
    at = _find(mv, term, start, end)
    unit = len(term)
    while at >= 0 and (at - start) % unit:
        at = _find(mv, term, at + unit - (at - start) % unit, end)
    return at


def strip_and_terminate(mv: memoryview, start: int, end: int, pad: int | None, term: bytes | None,
                        include: bool) -> int:
    """The end of a value read with `size`/`size-eos` once `pad-right` is stripped and the value is
    cut at its `terminator` (Kaitai's order: pad first, unless the pad byte is the terminator)."""
    stop = end
    if pad is not None and (term is None or pad != term[-1]):
        while stop > start and mv[stop - 1] == pad:
            stop -= 1
    if term is not None:
        at = find_term(mv, start, stop, term)
        if at >= 0:
            stop = at + (len(term) if include else 0)
    return stop


INFLATE = 1 << 20  # bytes `process: zlib` inflates at a time, each step asked of the budget before it is made


def inflate(data: memoryview, file: str | None, path: str) -> memoryview:
    """`process: zlib`: the inflated bytes (read-only), streamed: the budget is asked for each step
    (what is made so far and the step) before the step is inflated, so a bomb stops at the budget
    having made no more than it (`process` copies it once into the bytes that name the field, asked first)."""
    d = zlib.decompressobj()
    out = bytearray()
    tail: bytes | memoryview = data
    try:
        while not d.eof:
            budget.ask(len(out) + INFLATE, f"the zlib-decompressed bytes of {path}", file=file, path=path,
                       transient=True)
            chunk = d.decompress(tail, INFLATE)
            out += chunk
            tail = d.unconsumed_tail
            if not chunk and not tail:
                break
        if not d.eof:  # as zlib.decompress, which Kaitai's Python calls: a stream cut short is an error
            raise FormatError("zlib data is cut short (incomplete or truncated stream)", file=file, path=path)
        budget.ask(len(out), f"the zlib-decompressed bytes of {path}", file=file, path=path)
    except BaseException as exc:  # an error's traceback keeps this frame (the budget keeps what it refused, a value
        del out[:]  # instance its error): the bytes made so far are freed now (a second read of the field would
        if isinstance(exc, zlib.error):  # else hold them twice)
            raise FormatError(f"zlib data is corrupt: {exc}", file=file, path=path) from None
        raise
    return memoryview(out).toreadonly()


class Processed(bytes):
    """Bytes a `process` made, knowing the field they were made for (`origin`, its path): the
    stream of the records read from them, which `spans` names."""

    origin: str


def process(name: str, args: list[Any], data: memoryview, file: str | None, path: str) -> bytes:
    """`process: xor(key)`, `rol(n)`, `ror(n)` or `zlib`: the bytes the field's value is made of (a copy,
    a `Processed` naming the field)."""
    raw = _process(name, args, data, file, path)
    if isinstance(raw, memoryview):  # inflated: copied once into the named bytes, the copy asked first
        budget.ask(len(raw), f"the zlib-decompressed bytes of {path}, named", file=file, path=path, transient=True)
    out = Processed(raw)
    out.origin = path
    return out


def _process(name: str, args: list[Any], data: memoryview, file: str | None, path: str) -> bytes | memoryview:
    if name == "zlib":
        return inflate(data, file, path)
    budget.ask(len(data), f"the processed bytes of {path}", file=file, path=path)
    arr = np.frombuffer(data, np.uint8)
    if name == "xor":
        key = args[0]
        if isinstance(key, int):
            return bytes((arr ^ np.uint8(key & 0xFF)).tobytes())
        k = np.frombuffer(bytes(key) if not isinstance(key, np.ndarray) else key.tobytes(), np.uint8)
        if not len(k):
            return arr.tobytes()
        return (arr ^ np.resize(k, len(arr))).tobytes()
    amount = int(args[0]) if name == "rol" else 8 - int(args[0])  # Kaitai rotates right by rotating left 8 - n
    if amount < 0:
        raise FormatError(f"cannot rotate by {amount} bits", file=file, path=path)
    left = ((arr.astype(np.uint16) << amount) & 0xFF).astype(np.uint8) if amount < 8 else np.zeros_like(arr)
    return (left | (arr >> (-amount % 8))).tobytes()  # as Kaitai's rotate: `(b << n) & 0xff | b >> (-n % 8)`


class KStream:
    """`_io` in an expression: the stream a record is read from (its `size`, `pos`, `eof`)."""

    __slots__ = ("mv", "start", "end", "at", "pending")

    def __init__(self, mv: memoryview, start: int, end: int, at: int, pending: bool = False) -> None:
        self.mv, self.start, self.end, self.at, self.pending = mv, start, end, at, pending

    def size(self) -> int:
        return self.end - self.start

    def pos(self) -> int:
        return self.at - self.start

    def is_eof(self) -> bool:
        return not self.pending and self.at >= self.end

    def __repr__(self) -> str:
        return f"<stream of {self.size()} bytes at {self.pos()}>"
