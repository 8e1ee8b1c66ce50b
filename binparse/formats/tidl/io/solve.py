"""The io descriptor's size as a rule: which (generation, IN, OUT, cores) a size no table lists can be.

`sizeof(sTIDL_IOBufDesc_t)` follows from the field list of its generation (TDA2, 08.x,
09.00-09.01, 09.02, 10.x-11.x: the two schemas, parameterised) and the build constants
TIDL_MAX_ALG_IN_BUFS (IN), TIDL_MAX_ALG_OUT_BUFS (OUT) and TIDL_MAX_NUM_CORES (cores, which
multiplies every array of the generations that have a numCores field). Sizes binparse has seen
or a header documents are registered formats with their evidence (`register.py`); `solve` takes
any other size, lists every candidate over IN, OUT in {16, 32, 64, 128} and cores in {1, 2, 4}
whose computed size is the file's, and keeps those under which the content holds together
(`problems`). Candidates that differ only in how IN, OUT and cores multiply out (16/16 x 2 cores
lays out the bytes exactly as 32/32 x 1 core) are one reading: it is named by the candidate with
the generation's documented buffer counts, then the fewest cores, and its equivalents are said.
One reading: the file opens with it, `unverified` says what was assumed and a BinparseWarning
says it aloud. Several readings or none: a FormatError listing them.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ....core.errors import BinparseError, FormatError, warn
from ....family.hints import command
from ....core.text import is_text
from ....family.registry import Format, register_solved
from .desc import IoBufDesc, IoBufDescTda2, IoTensors, VERSION_LABELS
from ..tensors import ELEMENT_DTYPES

BUFS = (16, 32, 64, 128)
CORES = (1, 2, 4)


@dataclass(frozen=True)
class Generation:
    """One field list of sTIDL_IOBufDesc_t: its key (io_version, 0 for TDA2), label, documented counts."""

    io_version: int
    label: str
    documented: tuple[int, int]  # (IN, OUT) of the header that defines it
    cores: tuple[int, ...]  # 1 where the struct has no numCores (nothing multiplies its arrays)
    element_types: int  # element type codes 0 .. element_types-1 exist


GENERATIONS = (
    Generation(0, "TDA2 01.xx", (16, 16), (1,), 6),
    Generation(80, "08.x", (32, 32), (1,), 9),
    Generation(90, "09.00-09.01", (32, 32), CORES, 9),
    Generation(92, "09.02", (32, 128), CORES, 9),
    Generation(100, "10.x-11.x", (32, 128), CORES, 9),
)


@dataclass(frozen=True)
class Candidate:
    gen: Generation
    ins: int
    outs: int
    cores: int

    @property
    def params(self) -> dict[str, int]:
        if self.gen.io_version == 0:
            return {"max_alg_in_bufs": self.ins, "max_alg_out_bufs": self.outs}
        return {"max_num_cores": self.cores, "max_alg_in_bufs": self.ins, "max_alg_out_bufs": self.outs,
                "io_version": self.gen.io_version}

    @property
    def solved_class(self) -> type[IoTensors]:
        return SolvedIoTda2 if self.gen.io_version == 0 else SolvedIo

    @property
    def size(self) -> int:
        base = IoBufDescTda2 if self.gen.io_version == 0 else IoBufDesc
        lay = base._static_for(self.params)
        assert lay is not None  # every field's size and count follows from the params
        return int(lay.size)

    @property
    def layout_key(self) -> tuple[int, int, int]:
        """Candidates with the same key lay the bytes out identically (arrays of cores x IN, cores x OUT)."""
        return self.gen.io_version, self.cores * self.ins, self.cores * self.outs

    def preference(self) -> tuple[int, int]:
        return -int((self.ins, self.outs) == self.gen.documented) - int(self.ins == self.gen.documented[0]), self.cores

    def describe(self) -> str:
        cores = f", {self.cores} core{'s' if self.cores > 1 else ''}" if self.gen.io_version >= 90 else ""
        return f"{self.gen.label} layout with IN {self.ins}, OUT {self.outs}{cores}"


@lru_cache(maxsize=1)
def _by_size() -> dict[int, tuple[Candidate, ...]]:
    table: dict[int, list[Candidate]] = {}
    for gen in GENERATIONS:
        for ins in BUFS:
            for outs in BUFS:
                for cores in gen.cores:
                    c = Candidate(gen, ins, outs, cores)
                    table.setdefault(c.size, []).append(c)
    return {k: tuple(v) for k, v in table.items()}


def candidates(size: int) -> tuple[Candidate, ...]:
    """Every (generation, IN, OUT, cores) whose sizeof(sTIDL_IOBufDesc_t) is `size`."""
    return _by_size().get(size, ())


def _ints(acc: Any, name: str) -> np.ndarray[Any, Any]:
    return np.asarray(getattr(acc, name), dtype=np.int64)


def problems(acc: Any, gen: Generation) -> list[str]:
    """Why `acc` does not hold together as an io descriptor (empty when it does): counts within
    the slots, at least one input and one output, positive dims, no negative padding, channel
    pitches that fit a padded plane, known element types, printable names, and every entry past
    the used ones zero (TI's import tool clears the struct before filling it)."""
    try:
        n_in, n_out = struct.unpack_from("<ii", acc._mv, acc._off)  # raw: the accessor checks them against the slots
        slots_in, slots_out = len(acc.in_width), len(acc.out_width)
        if not (1 <= n_in <= slots_in and 1 <= n_out <= slots_out):
            return [f"numInputBuf {n_in} / numOutputBuf {n_out} not within 1..{slots_in} / 1..{slots_out}"]
        cores = struct.unpack_from("<i", acc._mv, acc._off + 8)[0] if gen.io_version >= 90 else 1
        if not 1 <= cores <= int(acc._params.get("max_num_cores", 1)):
            return [f"numCores {cores} not within 1..{int(acc._params.get('max_num_cores', 1))}"]
        found: list[str] = []
        for side, n in (("in", n_in), ("out", n_out)):
            found += _side_problems(acc, gen, side, n)
        return found
    except (BinparseError, UnicodeError, ValueError) as exc:
        return [f"unreadable: {getattr(exc, 'message', exc)}"]


def _side_problems(acc: Any, gen: Generation, side: str, n: int) -> list[str]:
    j7 = gen.io_version > 0
    fields = [f.name for f in type(acc)._FIELDS if f.name.startswith(f"{side}_") and f.count is not None]
    fields = [f for f in fields if getattr(acc, f, None) is not None]
    dims = ["width", "height", "num_channels"] + (["num_batches"] if j7 else []) + (
        ["dim1", "dim2"] if gen.io_version >= 92 else [])
    pads = ["pad_l", "pad_t", "pad_r", "pad_b"] + (["pad_ch"] if j7 else [])
    out = []
    for d in dims:
        if (_ints(acc, f"{side}_{d}")[:n] <= 0).any():
            out.append(f"{side}_{d}: a used entry is not positive")
    for d in pads:
        if (_ints(acc, f"{side}_{d}")[:n] < 0).any():
            out.append(f"{side}_{d}: a used entry is negative")
    et = _ints(acc, f"{side}_element_type")[:n]
    if ((et < 0) | (et >= gen.element_types)).any():
        out.append(f"{side}_element_type: not an element type (0..{gen.element_types - 1})")
    if j7:
        # the rows a channel's data reaches; its bottom padding may run into the next channel (TI's own
        # fastdepth io: padT 1, H 224, padB 34, W 224 in a channel pitch of 57,920 < 259 x 224)
        plane = ((_ints(acc, f"{side}_pad_t") + _ints(acc, f"{side}_height"))
                 * (_ints(acc, f"{side}_pad_l") + _ints(acc, f"{side}_width") + _ints(acc, f"{side}_pad_r")))[:n]
        if (_ints(acc, f"{side}_channel_pitch")[:n] < plane).any():
            out.append(f"{side}_channel_pitch: smaller than the rows a channel's data reaches (padT+H)*(padL+W+padR)")
        names = getattr(acc, f"{side}_data_name")
        if not all(names[i] and names[i].isprintable() for i in range(n)):
            out.append(f"{side}_data_name: a used name is empty or not printable")
        if any(names[i] for i in range(n, len(names))):
            out.append(f"{side}_data_name: a name past the used entries")
    for f in fields:
        if f.endswith("data_name"):
            continue
        values = np.asarray(getattr(acc, f))
        if values.ndim == 1 and np.count_nonzero(values[n:]):
            out.append(f"{f}: nonzero past the {n} used entries")
    return out


def _opened(c: Candidate, mv: memoryview, file: str | None) -> Any:
    return c.solved_class.from_buffer(mv, file=file, **c.params)


def solve(mv: memoryview, file: str | None) -> Format | None:
    """The registry solver: the Format of an io descriptor of a size no format lists (see the module doc)."""
    cands = candidates(mv.nbytes)
    if not cands or is_text(bytes(mv[:4096])):
        return None
    readings: dict[tuple[int, int, int], list[Candidate]] = {}
    rejected: list[str] = []
    for c in cands:
        why = problems(_opened(c, mv, file), c.gen)
        if why:
            rejected.append(f"{c.describe()}: {why[0]}")
        else:
            readings.setdefault(c.layout_key, []).append(c)
    size = f"{mv.nbytes:,} bytes"
    if not readings:
        raise FormatError(f"no TIDL io layout holds for this size ({size})", file=file,
                          expected="an sTIDL_IOBufDesc_t whose counts, dims, pitches, element types and names hold",
                          found="; ".join(rejected),
                          hint="the size fits the io struct rule, but under none of those layouts does the content "
                               "hold together: a corrupt file, or not an io descriptor")
    if len(readings) > 1:
        listed = "; ".join(" = ".join(x.describe() for x in group) for group in readings.values())
        raise FormatError(f"several TIDL io layouts hold for this size ({size})", file=file, found=listed,
                          hint=f"pass format=NAME ({command('schemas')}) or version=SDK to say which SDK wrote it")
    group = sorted(next(iter(readings.values())), key=Candidate.preference)
    chosen = group[0]
    fmt = register_solved(Format(
        name=f"tidl.io.solved.{chosen.gen.io_version or 'tda2'}_in{chosen.ins}_out{chosen.outs}_c{chosen.cores}",
        accessor=chosen.solved_class, family="tidl", kind="io_1.bin",
        version=f"J7 io solved from its size: the {chosen.describe()} (unverified; a field list names no SDK)", params=chosen.params,
        identified_by=f"size {size}: solved by the io struct rule", exact_size=False,
        describe="sTIDL_IOBufDesc_t of a size no SDK binparse knows writes, solved from its field list"))
    acc_text = unverified_text(chosen, mv.nbytes, group[1:], len(cands) - len(group))
    warn(f"{file or 'buffer'}: {acc_text}")
    return fmt


def unverified_text(c: Candidate, size: int, same: list[Candidate] | tuple[Candidate, ...] = (),
                    rejected: int = 0) -> str:
    alike = f" (the same bytes as {'; '.join(x.describe() for x in same)})" if same else ""
    others = f"; {rejected} other candidate(s) of this size did not hold" if rejected else ""
    return (f"{size:,} bytes is no io size binparse has seen: read as the {c.describe()}{alike}, the layout of "
            f"that size under which the counts, dims, pitches, element types and names hold{others}; "
            f"no file of this size was checked against TI's tools")


def _candidate_of(acc: Any) -> Candidate:
    p = acc._params
    io_version = int(p.get("io_version", 0))
    gen = next(g for g in GENERATIONS if g.io_version == io_version)
    return Candidate(gen, int(p["max_alg_in_bufs"]), int(p["max_alg_out_bufs"]), int(p.get("max_num_cores", 1)))


class _Solved:
    """What a solved io adds: `unverified`, said in `summary()` and `report()`."""

    __slots__ = ()

    @property
    def unverified(self) -> str:
        c = _candidate_of(self)
        size = int(self._mv.nbytes)  # type: ignore[attr-defined]
        return unverified_text(c, size, [x for x in candidates(size) if x.layout_key == c.layout_key and x != c])

    def summary(self) -> dict[str, Any]:
        doc: dict[str, Any] = super().summary()  # type: ignore[misc]
        c = _candidate_of(self)
        doc.update({"unverified": self.unverified, "max_alg_in_bufs": c.ins, "max_alg_out_bufs": c.outs})
        return doc

    def report(self) -> str:
        return f"UNVERIFIED: {self.unverified}\n{super().report()}"  # type: ignore[misc]


class SolvedIo(_Solved, IoBufDesc):
    """A J7 io descriptor of a size no format lists, read with the layout `solve` found."""

    __slots__ = ()


class SolvedIoTda2(_Solved, IoBufDescTda2):
    """A TDA2 io descriptor of a size no format lists (other IN/OUT than 16/16)."""

    __slots__ = ()


__all__ = ["BUFS", "CORES", "Candidate", "GENERATIONS", "Generation", "SolvedIo", "SolvedIoTda2", "VERSION_LABELS",
           "candidates", "problems", "solve"]
