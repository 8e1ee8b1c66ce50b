"""Values to bytes, one element at a time, as Kaitai's writer lays them out: numbers in their byte
order, text in its encoding, `process` undone (xor again, rotate back, zlib compressed), and a
byte array framed by its `size` (padded with `pad-right` or zeros after the `terminator`), by a
terminator, or to the end of its stream. What the reader would not read back the same (a value
holding its terminator, ending with its pad byte, longer than its size) is refused by `check_*`
with Kaitai's `_check` rules; the writer turns a size that no longer fits into a new size where
it can (`fixes`).
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

import numpy as np

from ..runtime.specs import FieldSpec


class Refused(ValueError):
    """A value the field cannot hold as the reader would read it back (the message says why)."""


def number(spec: FieldSpec, v: Any, le: bool | None) -> bytes:
    """A number (`prim`) in its byte order (`le` for a record whose byte order is a switch)."""
    fmt = spec.fmt or ""
    if spec.calc_endian and le is not None:
        fmt = ("<" if le else ">") + fmt[1:]
    if isinstance(v, np.generic):
        v = v.item()
    if fmt[-1] in "fd":
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise Refused(f"a number, not {type(v).__name__}")
        return struct.pack(fmt, v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if not isinstance(v, int):
        raise Refused(f"an integer, not {type(v).__name__}")
    try:
        return struct.pack(fmt, v)
    except struct.error:
        lo, hi = int_range(spec)
        raise Refused(f"an integer {lo}..{hi} ({spec.np})") from None


def int_range(spec: FieldSpec) -> tuple[int, int]:
    if spec.kind == "bits":
        return 0, (1 << spec.bits) - 1
    n = (spec.size if isinstance(spec.size, int) else 0) * 8  # a number's size is a constant
    signed = (spec.np or "")[1:2] == "i"
    return (-(1 << (n - 1)), (1 << (n - 1)) - 1) if signed else (0, (1 << n) - 1)


def numbers(spec: FieldSpec, values: Any, le: bool | None) -> bytes:
    """A repeat of numbers as one numpy conversion (no loop over the elements); values outside the
    type's range are refused naming the first."""
    dt = np.dtype(spec.np or "u1")
    if spec.calc_endian and le is not None and dt.itemsize > 1:
        dt = dt.newbyteorder("<" if le else ">")
    if dt.kind == "f":
        arr = np.asarray(values, dtype=np.float64) if not isinstance(values, np.ndarray) else values
        return np.ascontiguousarray(arr, dtype=dt).tobytes()
    arr = np.asarray(values)
    if arr.dtype == object or arr.dtype.kind not in "iub":
        arr = np.asarray([int(x) for x in values], dtype=object)  # e.g. enum members: plain ints
        try:
            arr = arr.astype(np.int64 if dt.kind == "i" else np.uint64)
        except (OverflowError, TypeError):
            raise Refused(f"integers {int_range(spec)[0]}..{int_range(spec)[1]} ({spec.np})") from None
    if arr.size:
        lo, hi = int_range(spec)
        bad = (arr < lo) | (arr > hi) if arr.dtype.kind != "b" else np.zeros(arr.shape, bool)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise Refused(f"integers {lo}..{hi} ({spec.np}); element {k} is {arr.flat[k]}")
    return np.ascontiguousarray(arr, dtype=dt).tobytes()


def text(spec: FieldSpec, v: Any) -> bytes:
    if not isinstance(v, str):
        raise Refused(f"text, not {type(v).__name__}")
    from ..expr.encodings import encode
    try:
        return encode(v, spec.encoding or "ascii")
    except UnicodeEncodeError as exc:
        raise Refused(f"text that {spec.encoding} can encode ({exc.reason} at character {exc.start})") from None


def raw_bytes(v: Any) -> bytes:
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, np.ndarray) and v.dtype.kind in "ui" and v.ndim == 1:
        if v.size and (v.min() < 0 or v.max() > 255):
            raise Refused("bytes (0..255)")
        return v.astype(np.uint8).tobytes()
    if isinstance(v, (list, tuple)):
        try:
            return bytes(v)
        except (ValueError, TypeError):
            raise Refused("bytes (0..255)") from None
    raise Refused(f"bytes, not {type(v).__name__}")


def unprocess(name: str, args: list[Any], data: bytes) -> bytes:
    """The raw bytes whose `process` gives `data`: xor again, rotate the other way, zlib compressed."""
    from ..runtime.stream import process
    if name == "zlib":
        return zlib.compress(data)
    if name == "xor":
        return process("xor", args, memoryview(data), None, "")
    n = int(args[0]) % 8
    return process("ror" if name == "rol" else "rol", [n], memoryview(data), None, "")


def _has_term(data: bytes, term: bytes) -> int:
    """Where `term` first stands in `data` at a multiple of its width, or -1."""
    unit = len(term)
    at = data.find(term)
    while at >= 0 and at % unit:
        at = data.find(term, at + unit - at % unit)
    return at


def frame(spec: FieldSpec, data: bytes, size: int | None, eos: bool, room: bool = True,
          filler: bytes | None = None) -> tuple[bytes, int]:
    """(the bytes to write, how many of their last bytes the next field writes over) of a byte array
    or text with the field's size (None: none, or not known yet), terminator and padding; `room`:
    whether its stream goes on after the value (a terminator with `eos-error: false` is left out at
    the end of a stream, as Kaitai's writer leaves it); `filler`: the bytes the field had in the
    original file (what followed its terminator there is kept, the reader never reads it). Raises `Refused` for a value the reader
    would not read back as it is (Kaitai's `_check` rules)."""
    term, pad, include = spec.term, spec.pad, spec.include
    at = -1
    if term is not None:
        at = _has_term(data, term)
        if include:
            if at >= 0 and at != len(data) - len(term):
                raise Refused(f"a value holding its terminator {term!r} only at its end (include: true)")
            if at < 0 and size is None and (spec.eos_error or room):
                raise Refused(f"a value ending with its terminator {term!r} (include: true)")
        elif at >= 0:
            raise Refused(f"a value without its terminator {term!r} (the reader would stop there)")
    if size is not None:
        if len(data) > size:
            raise Refused(f"at most {size} bytes (its size), not {len(data)}")
        if pad is not None and data and data[-1] == pad and (term is None or (at < 0 and (include or len(data) == size))):
            raise Refused(f"a value not ending with its pad byte {pad:#04x} (pad-right: the reader strips it)")
        fill = bytes([pad if pad is not None else 0])
        kept = filler is not None and len(filler) >= size  # the original's bytes after the terminator
        if term is not None and (not include or at >= 0) and len(data) < size and kept and filler is not None:
            out = data if include else data + term[:size - len(data)]
            return out + filler[len(out):size], 0
        if term is not None and not include and len(data) < size:
            rest = size - len(data)
            return data + term[:rest] + fill * max(0, rest - len(term)), 0
        if term is None and pad is None and len(data) != size:
            raise Refused(f"exactly {size} bytes (its size), not {len(data)}")
        return data + fill * (size - len(data)), 0
    if term is None or include:
        return data, 0
    if eos:
        return data + term, 0
    if not spec.eos_error and not room:
        return data, 0
    return data + term, 0 if spec.consume else len(term)


__all__ = ["Refused", "frame", "int_range", "number", "numbers", "raw_bytes", "text", "unprocess"]
