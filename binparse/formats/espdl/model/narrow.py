"""int32 values in int64 vectors: the defect esp-ppq's FlatBuffers object API leaves, found by rule.

esp-ppq's generated `TensorT.Pack` / `AttributeT.Pack` (esp_ppq/parser/espdl/FlatBuffers/Dl/) write a
`dims`, `exponents` or attribute `ints` field with `builder.CreateNumpyVector(array)` when it holds a
numpy array: the vector takes the array's own element size and its element count. An int32 array
(numpy's default integer on Windows before numpy 2, or any int32 array) so fills an `[int64]` field
with 4-byte values: a reader that follows espdl.fbs (the chip, flatc's classes) reads 8-byte values
that pair two of them and then run into whatever follows (dims `[1, 1, 3136, 128]` read as
`[4294967297, 549755817024, ...]`).

The rule, per vector declared int64 (`classify`): its values read as int64 are implausible for the
field (dims outside 0..2^31-1, exponents outside -64..64, attribute ints outside the int32 range, or
the 8-byte elements run past the payload) within its own first `count x 4` bytes (their int64 pairs),
and those bytes read as int32 are plausible.
Then the vector is read as meant (the int32 values) and recorded as a `Narrow`; `check` then tests
the reading against the rest of the model (a tensor's meant dims against the bytes its data vector
holds, a test tensor's against the graph's inputs/outputs), and the model must show the defect
(`evident`: a vector of two values or more, or three vectors): a reading that does not fit, or a lone
single-value vector, is no defect but a damaged vector (Graph.read refuses the model: a FormatError naming it, and so does
`binparse repair`).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from math import prod
from typing import Any

import numpy as np

from ....family import Finding

# the range each field's values must fall in to be plausible (either reading)
RANGES = {"dims": (0, (1 << 31) - 1), "exponents": (-64, 64), "ints": (-(1 << 31), (1 << 31) - 1)}


@dataclass
class Narrow:
    """One int64 vector that holds int32 values."""

    path: str  # schema path of the field, e.g. Model.graph.initializer[3].dims
    kind: str  # dims, exponents, ints
    at: int  # payload position of the field's uoffset (what `repair` repoints)
    start: int  # payload position of the first element
    count: int
    read: tuple[int, ...] | None  # what a reader that follows the schema reads (None: runs past the payload)
    meant: tuple[int, ...]
    inconsistent: list[str] = field(default_factory=list)  # why the meant reading does not fit the model

    def read_text(self) -> str:
        return "(past the end of the model)" if self.read is None else _short(self.read)

    def meant_text(self) -> str:
        return _short(self.meant)


def _short(v: tuple[int, ...], n: int = 4) -> str:
    return "[" + ", ".join(map(str, v[:n])) + (", ...]" if len(v) > n else "]")


def _plausible(vals: tuple[int, ...], kind: str) -> bool:
    lo, hi = RANGES[kind]
    return not vals or (lo <= min(vals) and max(vals) <= hi)


def classify(buf: Any, n: int, at: int, start: int, count: int, kind: str, path: str,
             found: list[Narrow], limit: int | None = None) -> tuple[int, ...] | None:
    """The values of the int64 vector at `start` (`count` elements, its uoffset at `at`) as meant:
    the int64 reading when plausible and inside `limit` (where the next object of the vector's
    table begins), else the int32 one when that is plausible (recorded in `found`); None when
    neither is (the caller reports the int64 reading or its overrun).

    Every element decides, not the first ones: a vector whose 8-byte elements would run into the
    next object of its own table (its name string, a sibling vector: FlatBuffers never shares bytes)
    cannot hold 8-byte elements, whatever its first values read as (esp-ppq's MaxPool `pads`
    [0, 0, 0, 0] as int32 read as [0, 0, then the attribute's name "pads"]); otherwise the int64
    reading must be implausible within the vector's own first `count x 4` bytes (what lies past
    them may be damage, not the defect)."""
    end = n if limit is None else min(n, limit)
    wide: tuple[int, ...] | None = None
    if start + 8 * count <= n:
        wide = struct.unpack_from(f"<{count}q", buf, start)
        if _plausible(wide, kind) and start + 8 * count <= end:
            return wide
    if start + 4 * count > end:
        return None
    narrow: tuple[int, ...] = struct.unpack_from(f"<{count}i", buf, start)
    if not _plausible(narrow, kind):
        return None
    overlaps = start + 8 * count > end  # 8-byte elements would run into the next object: impossible
    if not overlaps and count >= 2 and _plausible(struct.unpack_from(f"<{count // 2}q", buf, start), kind):
        return None  # the vector's own bytes read fine as int64: what is wrong lies past them (damage)
    found.append(Narrow(path, kind, at, start, count, wide, narrow))
    return narrow


def evident(found: list[Narrow]) -> bool:
    """Whether the vectors found show the writer's defect, not a damaged value: a vector of two or more
    int32 values (their int64 pairs fit nothing, the int32 values fit), or three vectors or more. One
    single-value vector whose high word is wrong is what a flipped bit makes too."""
    return any(n.count >= 2 for n in found) or len(found) >= 3


def data_fits(dims: tuple[int, ...], itemsize: int, nbytes: int, field_name: str, generation: str) -> bool:
    """Whether `dims` of `itemsize`-byte elements match the bytes their data vector holds (EDL2's
    raw_data: whole 16-byte blocks; EDL1's raw_data and the typed vectors: exactly)."""
    need = prod(dims) * itemsize
    if field_name == "raw_data" and generation == "edl2":
        return -(-need // 16) * 16 == nbytes
    return need == nbytes


def _same_or_hwc(dims: tuple[int, ...], graph: tuple[int | None, ...]) -> bool:
    """The test tensor's dims are the graph's, or (H, W, C) of its (1, C, H, W)."""
    return dims == graph or (len(dims) == 3 and len(graph) == 4 and graph[0] == 1
                             and dims == (graph[2], graph[3], graph[1]))


def check(g: Any, generation: str) -> None:
    """Test the meant dims against the rest of the model `g` (a `Graph`): the bytes each tensor's data
    vector holds, and a test tensor's graph input/output; what does not fit goes to `inconsistent`."""
    by_path = {t.path: t for t in g.tensors}
    io = {v.name: v for v in [*g.inputs, *g.outputs]}
    for n in g.narrow:
        t = by_path.get(n.path.rpartition(".")[0])
        if n.kind != "dims" or t is None or t.dims != n.meant:
            continue
        if t.data_field and not t.dtype.startswith("code"):
            size = int(np.dtype(t.dtype).itemsize)
            if not data_fits(t.dims, size, t.data_nbytes, t.data_field, generation):
                n.inconsistent.append(f"{t.name}: dims {list(t.dims)} of {size}-byte elements need "
                                      f"{prod(t.dims) * size:,} bytes, its {t.data_field} holds {t.data_nbytes:,}")
        v = io.get(t.name)
        if t.role != "initializer" and v is not None and v.dims is not None and None not in v.dims \
                and not _same_or_hwc(t.dims, tuple(v.dims)):
            n.inconsistent.append(f"{t.role.replace('_', ' ')} {t.name}: dims {list(t.dims)}, the graph's "
                                  f"{list(v.dims)}")


def summary(found: list[Narrow]) -> str:
    """'dims of 3 tensors, exponents of 3 tensors, ints of 2 attributes'."""
    what = {"dims": "tensors", "exponents": "tensors or values", "ints": "attributes"}
    counts: dict[str, int] = {}
    for f in found:
        counts[f.kind] = counts.get(f.kind, 0) + 1
    return ", ".join(f"{k} of {v} {what[k]}" for k, v in counts.items())


CAUSE = ("esp-ppq wrote 32-bit numpy integers into 64-bit fields (its FlatBuffers builder gives a numpy "
         "array's own element size to the vector; numpy's default integer is 32-bit on Windows before numpy 2)")
FIX = ("re-export with 64-bit arrays (numpy 2, or np.int64 dims/exponents/attributes), "
       "or repair it with binparse (repair MODEL -o FIXED.espdl)")


def fix_text(path: str | None) -> str:
    """FIX, with the command that repairs the model at `path` (as the caller named it) when known."""
    if path is None:
        return FIX
    from ....family.hints import command, stem_output
    return ("re-export with 64-bit arrays (numpy 2, or np.int64 dims/exponents/attributes), or "
            + command("repair", path, "-o", stem_output(path, ".fixed.espdl")))

__all__ = ["CAUSE", "FIX", "Narrow", "fix_text", "RANGES", "check", "classify", "data_fits", "evident", "narrow_findings", "summary"]


def narrow_findings(label: str, g: Any, files: list[str], path: str | None = None) -> list[Finding]:
    """The doctor's words for a model `g` (a `Graph`) with the defect: what the chip reads, what was
    meant, the cause and the fix (one problem), and a reading as meant that does not fit the model."""
    found: list[Narrow] = g.narrow
    if not found:
        return []
    first = sorted(found, key=lambda n: list(RANGES).index(n.kind))  # dims first: the chip's memory follows them
    shown = "; ".join(f"{n.path.removeprefix('Model.graph.')} {n.meant_text()} reads as {n.read_text()}"
                      for n in first[:3]) + (f"; and {len(found) - 3} more" if len(found) > 3 else "")
    out = [Finding("problem", f"{label}: {len(found)} int64 vectors hold int32 values ({summary(found)}): the chip "
                              f"(and any reader that follows espdl.fbs) reads them wrong: {shown}. Cause: {CAUSE}. "
                              f"Fix: {fix_text(path)}. binparse reads them as meant", files)]
    return out
