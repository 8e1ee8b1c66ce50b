"""J7 networks of a netVersion without a verified layout: the nearest layout that holds, said aloud.

`NetJ7Nearest.from_buffer` tries the verified layouts nearest first (`versions.nearest_layouts`),
keeps the first under which the file is a plausible network (`net_check`), warns with a
`BinparseWarning` (`errors.warn`) and records why on the net (`unverified`); when none holds it raises a
`FormatError` that names every layout tried and why it failed. `sniff` recognises such a file
(a date-like netVersion binparse has no entry for) so `binparse.open` reaches it without --format.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any, TypeVar

from ....core.buffers import BufferLike, byte_view
from ....core.errors import BinparseError, FormatError, warn
from ....family.hints import command
from ....core.text import is_text
from .model import NET_VERSIONS, NetJ7
from .check import structure_problems
from .versions import BY_VALUE, LAYOUTS, OTHER, VERIFIED, as_date, nearest_layouts

N = TypeVar("N", bound="NetJ7Nearest")


class NetJ7Nearest(NetJ7):
    """A J7 network whose netVersion has no verified layout (10.00, 11.x, or one never seen)."""

    __slots__ = ()

    @classmethod
    def from_buffer(cls: type[N], buf: BufferLike, offset: int = 0, *, file: str | None = None,
                    **params: int) -> N:
        """The network read with the nearest layout that holds (warns); `gen=` forces one layout."""
        if params:
            return super().from_buffer(buf, offset, file=file, **params)
        mv = byte_view(buf, file=file)
        if mv.nbytes - offset < 16:
            raise FormatError("too short for a TIDL network header", file=file, offset=offset,
                              expected="at least 16 bytes", found=f"{mv.nbytes - offset} bytes")
        value = struct.unpack_from("<I", mv, offset)[0]
        if value in NET_VERSIONS:  # a verified version asked for as "other": its own layout, no guess
            return super().from_buffer(mv, offset, file=file, gen=NET_VERSIONS[value])
        tried: list[str] = []
        for gen in nearest_layouts(value):
            label = f"{LAYOUTS[gen][0]} layout (netVersion {VERIFIED[gen].hex})"
            try:
                net = super().from_buffer(mv, offset, file=file, gen=gen)
                problems = structure_problems(net)
            except BinparseError as exc:
                problems = [exc.message]
            if problems:
                tried.append(f"{label}: {problems[0]}")
                continue
            net._unverified = _why(value, label, tried)  # type: ignore[attr-defined]
            warn(f"{file or 'buffer'}: {net.unverified}")
            return net
        raise FormatError(f"no known layout reads this TIDL network (netVersion 0x{value:08X}, {_sdk(value)})",
                          file=file, expected="a layout under which the layers, data ids, dims and sizes hold",
                          found="; ".join(f"tried {t}" for t in tried),
                          hint=f"the file is corrupt, or its SDK changed the layout; {command('schemas')} lists "
                               "the verified layouts, format=NAME reads it as one anyway")

    @property
    def version(self) -> str:
        known = BY_VALUE.get(self.net_version)
        return known.sdk if known else "unknown"


def _sdk(value: int) -> str:
    known = BY_VALUE.get(value)
    return f"TIDL {known.sdk}" if known else "a version binparse does not know"


def _why(value: int, label: str, tried: list[str]) -> str:
    rejected = f" Rejected before it: {'; '.join(tried)}." if tried else ""
    return (f"netVersion 0x{value:08X} ({_sdk(value)}) has no verified layout: read with the {label}, the "
            f"nearest under which the file holds together (known layer types, connected data ids, positive "
            f"dims, sizes and weight offsets inside the file); fields that moved since then read wrong.{rejected}")


def sniff(path: Path | None, head: bytes) -> Any:
    """`binparse.open` of a J7 net whose netVersion (a date 2018..2099) binparse has no format for."""
    if len(head) < 16:
        return None
    value, _, num_layers, weight_size = struct.unpack_from("<Iiii", head)
    if value >> 24 != 0x20:  # years 2018..2099 spell 0x20YY....: no date to work out (every open asks)
        return None
    day = as_date(value)
    if day is None or not 2018 <= day.year <= 2099 or value in NET_VERSIONS or value in BY_VALUE:
        return None
    if not (1 <= num_layers <= 4096 and weight_size in (1, 2, 4)) or is_text(head):
        return None  # a text file is never a net, whatever its first bytes spell

    def opener(source: Any) -> Any:
        from ....family import opening
        return opening.open(source, format=OTHER)
    return opener


__all__ = ["OTHER", "NetJ7Nearest", "sniff"]
