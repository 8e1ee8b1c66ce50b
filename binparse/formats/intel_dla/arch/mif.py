"""`MifFile`: a Quartus Memory Initialization File (.mif) read into a numpy array of words.

The format (Quartus help, "Memory Initialization File (.mif) Definition"): `WIDTH = n;`,
`DEPTH = n;`, `ADDRESS_RADIX = r;`, `DATA_RADIX = r;` (BIN, OCT, DEC, UNS, HEX; DEC may be
negative: two's complement in WIDTH bits), then `CONTENT BEGIN ... END;` whose entries are
`addr : value;`, `addr : v0 v1 ...;` (consecutive addresses) or `[a..b] : v0 ...;` (the range
filled with the values repeated). Comments are `-- to the end of a line` and `% ... %`.
Addresses not given are 0.

Why not the `mif` package on PyPI (0.7): on a 65,536 × 128-bit ROM (1.8 MB of text) it takes 1.17 s
against this reader's 57 ms (bench/bench_intel_mif.py; a Python call per word and per address), needs `lark`, allocates DEPTH × WIDTH from
the header before reading any content (a 300-byte file claiming DEPTH 4e9 gets a 16 GB array) and
fills a range one word at a time in Python (a `[0..FFFFFFFF]` line never ends). This reader
turns the digits of all one-value entries into words at once in numpy, checks DEPTH × WIDTH
against the command's budget before allocating (`binparse.core.budget`), and fills ranges by slices.

Words are kept as little-endian bytes, `data` shape (DEPTH, ceil(WIDTH / 8)), uint8; `words()` is a
zero-copy unsigned view when WIDTH fits 8, 16, 32 or 64 bits.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core import budget
from ....core.errors import FormatError

CHUNK = 1 << 16  # entries converted at once
RADIXES = {"BIN": 2, "OCT": 8, "HEX": 16, "DEC": 10, "UNS": 10}
_COMMENTS = re.compile(rb"--[^\n]*|%[^%]*%")
# no leading \s*: findall tries every position, and a run of spaces before no keyword was scanned from each
_HEADER = re.compile(rb"(WIDTH|DEPTH|ADDRESS_RADIX|DATA_RADIX)\s*=\s*([0-9A-Za-z_]+)\s*;", re.I)
_BEGIN = re.compile(rb"\bCONTENT\s+BEGIN\b")  # searched in the upper-cased text
# a token starts after no token character, and is never given back (possessive): findall over a run of
# 10^6 letters with no `:` after it tried every start and every split of the run
_SIMPLE = re.compile(rb"(?<![0-9A-Za-z])([0-9A-Za-z]++)\s*+:\s*+([-+0-9A-Za-z]++)\s*+;")
# 256 -> the digit's value (0..35), 255 for a byte that is no digit
_DIGIT = np.full(256, 255, np.uint8)
for _i, _c in enumerate(b"0123456789abcdefghijklmnopqrstuvwxyz"):
    _DIGIT[_c] = _i
    _DIGIT[bytes([_c]).upper()[0]] = _i


def _digits(values: Any, base: int, width: int, what: str, file: str | None) -> NDArray[np.uint8]:
    """(n, ceil(width / 8)) little-endian bytes of `values` (bytes strings, or a numpy 'S' array)
    in a power-of-two base, all at once."""
    bits_per = {2: 1, 8: 3, 16: 4}[base]
    nbytes = (width + 7) // 8
    if not len(values):
        return np.zeros((0, nbytes), np.uint8)
    arr = np.ascontiguousarray(values, dtype=np.bytes_)  # numpy finds the longest in C
    values = arr
    chars = arr.view(np.uint8).reshape(len(values), -1)
    lengths = np.char.str_len(arr)
    vals = _DIGIT[chars]
    cols = np.arange(chars.shape[1])
    real = cols[None, :] < lengths[:, None]
    bad = real & (vals >= base)
    if bad.any():
        row = int(np.argmax(bad.any(axis=1)))
        raise FormatError(f"a {what} is not a base-{base} number", file=file,
                          found=values[row].decode("ascii", "replace"))
    # right-align the digits: column j of the aligned matrix holds digit j - (L - length)
    L = chars.shape[1]
    src = cols[None, :] - (L - lengths[:, None])
    aligned = np.where(src >= 0, np.take_along_axis(vals, np.clip(src, 0, L - 1), axis=1), 0).astype(np.uint8)
    if base == 16:  # two digits a byte: no bit matrix
        return _hex_bytes(aligned, width, nbytes, values, what, file)
    bits = ((aligned[:, :, None] >> np.arange(bits_per - 1, -1, -1, dtype=np.uint8)) & 1).reshape(len(values), -1)
    total = bits.shape[1]
    if total > width and bits[:, :total - width].any():
        row = int(np.argmax(bits[:, :total - width].any(axis=1)))
        raise FormatError(f"a {what} does not fit WIDTH {width} bits", file=file,
                          found=values[row].decode("ascii", "replace"))
    keep = bits[:, max(total - width, 0):]
    if keep.shape[1] < nbytes * 8:
        keep = np.pad(keep, ((0, 0), (nbytes * 8 - keep.shape[1], 0)))
    return np.packbits(keep[:, ::-1], axis=1, bitorder="little")[:, :nbytes]


def _hex_bytes(aligned: NDArray[np.uint8], width: int, nbytes: int, values: Any, what: str,
               file: str | None) -> NDArray[np.uint8]:
    """Little-endian bytes of right-aligned hex digits (n, L)."""
    n, L = aligned.shape
    need = 2 * nbytes
    if L < need:
        aligned = np.pad(aligned, ((0, 0), (need - L, 0)))
    extra = aligned[:, :aligned.shape[1] - need]
    digits = aligned[:, aligned.shape[1] - need:]
    big = (digits[:, 0::2] << 4) | digits[:, 1::2]  # most significant byte first
    over = extra.any(axis=1) if extra.size else np.zeros(n, bool)
    if width % 8:
        over |= (big[:, 0] >> (width % 8)) != 0
    if over.any():
        row = int(np.argmax(over))
        raise FormatError(f"a {what} does not fit WIDTH {width} bits", file=file,
                          found=values[row].decode("ascii", "replace"))
    out: NDArray[np.uint8] = np.ascontiguousarray(big[:, ::-1])
    return out


def _decimal(values: Any, width: int, signed: bool, file: str | None) -> NDArray[np.uint8]:
    """Decimal values (DEC may be negative: two's complement in `width` bits)."""
    nbytes = (width + 7) // 8
    try:
        ints = [int(v, 10) for v in list(values)]
    except ValueError:
        raise FormatError("a value is not a decimal number", file=file) from None
    out = np.zeros((len(ints), nbytes), np.uint8)
    limit = 1 << width
    for i, v in enumerate(ints):  # decimal text has no digit-per-bit rule: one int() per word
        if not (-(limit >> 1) if signed else 0) <= v < limit:
            raise FormatError(f"a value does not fit WIDTH {width} bits", file=file, found=str(v))
        out[i] = np.frombuffer((v % limit).to_bytes(nbytes, "little"), np.uint8)
    return out


def _entries(body: bytes) -> list[tuple[bytes, bytes]]:
    """(address, values) of each `addr : values;` entry, cut at the `;` and the first `:` (an
    expression `([^:;]+):([^;]*);` scanned a long entry with no `:` from each of its bytes)."""
    out = []
    for entry in body.split(b";")[:-1]:
        address, colon, values = entry.partition(b":")
        if colon and address.strip():
            out.append((address, values))
    return out


def _most_digits(radix: str, width: int) -> int:
    """The most characters a WIDTH-bit number takes in `radix` (a sign included)."""
    base = RADIXES[radix]
    return len(str(1 << width)) + 1 if base == 10 else -(-width // {2: 1, 8: 3, 16: 4}[base]) + 1


class MifFile:
    """One .mif: `depth`, `width`, radixes and `data` (DEPTH × word bytes, little-endian)."""

    def __init__(self, source: str | os.PathLike[str] | bytes, *, file: str | None = None) -> None:
        self.file = file if file is not None else (None if isinstance(source, bytes) else os.fspath(source))
        raw = source if isinstance(source, bytes) else Path(source).read_bytes()
        self.size = len(raw)
        text = _COMMENTS.sub(b" ", raw)
        upper = text.upper()
        start = _BEGIN.search(upper)
        end = upper.rfind(b"END")
        if start is None or end < start.end() or not upper[end + 3:].strip().startswith(b";"):
            raise FormatError("a Quartus MIF has a CONTENT BEGIN ... END; block", file=self.file,
                              expected="CONTENT BEGIN ... END;", found="none")
        head = {k.upper().decode(): v.decode() for k, v in _HEADER.findall(text[:start.start()])}
        for key in ("WIDTH", "DEPTH"):
            if key not in head or not head[key].isdigit() or len(head[key]) > 18 or int(head[key]) <= 0:
                raise FormatError(f"a Quartus MIF declares {key} = a positive number;", file=self.file, path=key,
                                  found=head.get(key, "none"))
        self.width, self.depth = int(head["WIDTH"]), int(head["DEPTH"])
        self.address_radix = head.get("ADDRESS_RADIX", "HEX").upper()
        self.data_radix = head.get("DATA_RADIX", "HEX").upper()
        for key, r in (("ADDRESS_RADIX", self.address_radix), ("DATA_RADIX", self.data_radix)):
            if r not in RADIXES:
                raise FormatError(f"{key} is one of {', '.join(RADIXES)}", file=self.file, path=key, found=r)
        self.word_bytes = (self.width + 7) // 8
        need = self.depth * self.word_bytes
        budget.ask(need, f"DEPTH {self.depth:,} × WIDTH {self.width}: the MIF's words", file=self.file, path="DEPTH")
        self.data: NDArray[np.uint8] = np.zeros((self.depth, self.word_bytes), np.uint8)
        body = text[start.end():end]
        self.entries = body.count(b";")
        simple = _SIMPLE.findall(body)
        if len(simple) == self.entries:  # every entry `addr : value;`: all words at once
            if simple:
                simple = self._fitting(simple)
                pairs = np.array(simple, dtype=np.bytes_)  # (n, 2): made in C, as wide as the longest digits
                del simple
                for k in range(0, len(pairs), CHUNK):  # a chunk at a time: the digit matrices stay small
                    part = pairs[k:k + CHUNK]
                    self.data[self._addresses(part[:, 0])] = self._values(part[:, 1], self.data_radix, self.width,
                                                                          "value")
        else:
            self._fill(_entries(body))

    def _fitting(self, simple: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
        """`simple` with no address or value longer than its WIDTH's digits: the digit matrices are
        entries × the longest digits (a 100 KB string of digits in a 105 KB file would make them
        gigabytes). Leading zeros are dropped when that makes them fit; else the value does not fit."""
        addresses, values = zip(*simple)
        for col, radix, width, what in ((addresses, self.address_radix, 64, "address"),
                                        (values, self.data_radix, self.width, "value")):
            most = _most_digits(radix, width)
            if max(map(len, col)) > most:  # rare: only then is each one looked at
                trimmed = [v.lstrip(b"0") or b"0" for v in col]
                if max(map(len, trimmed)) > most:
                    bad = next(v for v in trimmed if len(v) > most)
                    raise FormatError(f"a {what} does not fit WIDTH {width} bits", file=self.file,
                                      expected=f"at most {most} digits in {radix}", found=bad[:40].decode("ascii", "replace")
                                      + f"... ({len(bad):,} digits)")
                if what == "address":
                    addresses = tuple(trimmed)
                else:
                    values = tuple(trimmed)
        return list(zip(addresses, values))

    def _values(self, values: Any, radix: str, width: int, what: str) -> NDArray[np.uint8]:
        base = RADIXES[radix]
        if base == 10:
            return _decimal(values, width, radix == "DEC", self.file)
        return _digits(values, base, width, what, self.file)

    def _addresses(self, values: Any) -> NDArray[np.int64]:
        b = self._values(values, self.address_radix, 64, "address")
        addr = np.zeros((len(values), 8), np.uint8)
        addr[:, :b.shape[1]] = b
        out = addr.view("<u8").reshape(-1)
        if (out >= self.depth).any():
            bad = int(out[np.argmax(out >= self.depth)])
            raise FormatError("an address is past DEPTH", file=self.file, expected=f"< {self.depth}", found=bad)
        return out.astype(np.int64)

    def _fill(self, entries: list[tuple[bytes, bytes]]) -> None:
        """Entries with ranges or several values (rare): one numpy fill per entry."""
        for a_raw, v_raw in entries:
            a, vals = a_raw.strip(), v_raw.split()
            words = self._values(vals, self.data_radix, self.width, "value")
            if not len(words):
                raise FormatError("a MIF entry has no value", file=self.file, found=a.decode(errors="replace"))
            if a.startswith(b"["):
                m = re.fullmatch(rb"\[\s*([0-9A-Za-z]+)\s*\.\.\s*([0-9A-Za-z]+)\s*\]", a)
                if m is None:
                    raise FormatError("a MIF address range is [a..b]", file=self.file, found=a.decode(errors="replace"))
                start, end = (int(x) for x in self._addresses([m.group(1), m.group(2)]))
                if end < start:
                    raise FormatError("a MIF address range ends before it starts", file=self.file,
                                      found=a.decode(errors="replace"))
            else:
                start = int(self._addresses([a])[0])
                end = start + len(words) - 1
                if end >= self.depth:
                    raise FormatError("an entry's values run past DEPTH", file=self.file, found=end)
            n = end - start + 1
            self.data[start:end + 1] = np.resize(words, (n, self.word_bytes)) if len(words) != n else words

    # -- values -----------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return Path(self.file).name if self.file else "<mif>"

    def words(self) -> NDArray[Any]:
        """The words as unsigned integers (a zero-copy view) when WIDTH fits 8/16/32/64 bits."""
        if self.word_bytes not in (1, 2, 4, 8):
            raise FormatError(f"{self.width}-bit words have no numpy integer type: use .data (little-endian bytes)",
                              file=self.file)
        out: NDArray[Any] = self.data.view(f"<u{self.word_bytes}").reshape(self.depth)
        return out

    def hex_words(self, count: int) -> list[str]:
        """The first `count` words in hex (most significant digit first), for reports."""
        rows = self.data[:count, ::-1]
        return [row.tobytes().hex().lstrip("0") or "0" for row in rows]

    def used(self) -> int:
        """How many words are not zero."""
        return int(self.data.any(axis=1).sum())


__all__ = ["MifFile", "RADIXES"]
