"""Two runs of a TIDL net compared layer by layer, in dequantized float: where does accuracy go?

A run is a folder of layer traces (`.y` dequantized with the net's scale and zero point, or
`_float.bin`) or a folder of reference `.npy` named by tensor name (`trace_reference`). B is the
reference: SNR = 10·log10(Σb² / Σ(a−b)²) dB, None when the two are identical; an all-zero reference
that A differs from counts as power `tiny` (a very negative, finite SNR). Layers are taken one at a
time and each in chunks of CHUNK elements, so a run of many GB is never held in memory.
`first_divergence` is the first layer, in the net's topological order, below `min_snr_db` whose
input buffers are not (an input not traced in both runs does not count against a layer).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ....core.errors import FormatError
from ....core.progress import steps
from ....core.render import columns
from .net import DataInfo, net_data, topological_ids
from .plot import snr_svg

CHUNK = 1 << 20  # elements per step (8 MB as float64)
_TINY = float(np.finfo(np.float64).tiny)

Chunks = Callable[[], Iterator[NDArray[Any]]]


@dataclass(frozen=True)
class LayerDiff:
    data_id: int
    layer: int | None
    layer_type: str | None
    shape: list[int]
    snr_db: float | None
    max_abs_diff: float
    mean_abs_diff: float

    def to_json(self) -> dict[str, Any]:
        return {"data_id": self.data_id, "layer": self.layer, "layer_type": self.layer_type, "shape": self.shape,
                "snr_db": self.snr_db, "max_abs_diff": self.max_abs_diff, "mean_abs_diff": self.mean_abs_diff}


def below(snr: float | None, limit: float) -> bool:
    return snr is not None and snr < limit


def first_divergence(layers: list[LayerDiff], data: dict[int, DataInfo], limit: float) -> LayerDiff | None:
    """The first layer below `limit` whose compared inputs are all at or above it."""
    snr = {d.data_id: d.snr_db for d in layers}
    for d in layers:
        if below(d.snr_db, limit):
            inputs = data[d.data_id].inputs if d.data_id in data else ()
            if not any(below(snr.get(i), limit) for i in inputs):
                return d
    return None


def stats(a: Iterator[NDArray[Any]], b: Iterator[NDArray[Any]]) -> tuple[float | None, float, float]:
    """(SNR dB, max |a−b|, mean |a−b|) over matching chunks (float64 sums)."""
    ps = pn = sabs = 0.0
    mx, n = 0.0, 0
    for ca, cb in zip(a, b):  # two float64 buffers per chunk, reused in place
        fb = cb.astype(np.float64)
        d = ca.astype(np.float64)
        d -= fb
        ps += float(np.einsum("i,i->", fb, fb))  # single-threaded: BLAS dot threads fight for 2 cores
        pn += float(np.einsum("i,i->", d, d))
        np.abs(d, out=d)
        sabs += float(d.sum())
        if d.size:
            mx = max(mx, float(d.max()))
        n += d.size
    snr = None if pn == 0 else 10.0 * math.log10(max(ps, _TINY) / pn)
    return snr, mx, (sabs / n if n else 0.0)


@dataclass(frozen=True)
class Source:
    """One buffer of a run, as a run offers it for comparing (`run.buffers(data)`)."""

    count: int  # elements
    shape: list[int] | None  # (N, D1, D2, C, H, W) when known
    chunks: Chunks  # float32 chunks of the dequantized elements, in order
    file: str


def chunked(flat: Callable[[], NDArray[Any]], convert: Callable[[NDArray[Any]], NDArray[Any]]) -> Chunks:
    """Chunks of CHUNK elements (as set when read) of a flat array, each converted to float32."""
    def gen() -> Iterator[NDArray[Any]]:
        arr = flat()
        step = CHUNK
        for s in range(0, arr.size, step):
            yield convert(arr[s:s + step])
    return gen


def _side(run: Any, data: dict[int, DataInfo]) -> dict[int, Source]:
    """dataId → Source of one run (a trace folder, a folder of reference arrays: anything with `buffers`)."""
    buffers = getattr(run, "buffers", None)
    if not callable(buffers):
        raise FormatError("cannot compare TIDL traces with this", found=type(run).__name__,
                          expected="a folder of TIDL traces or of reference .npy files")
    out: dict[int, Source] = buffers(data)
    return out


def compare_runs(a: Any, b: Any, *, min_snr_db: float = 30.0) -> TraceComparison:
    """Compare run `a` with the reference run `b`, layer by layer (see the module doc)."""
    net_a, net_b = getattr(a, "net", None), getattr(b, "net", None)
    net = net_a if net_a is not None else net_b
    if net is not None:  # one --net describes both runs
        a = a if net_a is not None else a.described_by(net)
        b = b if net_b is not None else b.described_by(net)
    data = net_data(net) if net is not None else {}
    sa, sb = _side(a, data), _side(b, data)
    common = set(sa) & set(sb)
    order = [d for d in topological_ids(net, data) if d in common] if net is not None else []
    order += sorted(common - set(order))
    layers = []
    for k, did in enumerate(order, 1):
        x, y = sa[did], sb[did]
        if x.count != y.count:
            raise FormatError("the two runs' buffers differ in size", file=str(x.file), path=f"dataId {did}",
                              expected=f"{x.count:,} elements ({x.file})", found=f"{y.count:,} elements ({y.file})",
                              hint="the runs come from different nets, or the reference is not this tensor")
        snr, mx, mean = stats(x.chunks(), y.chunks())
        info = data.get(did)
        shape = x.shape or y.shape or (list(info.shape) if info else [x.count])
        layers.append(LayerDiff(did, info.layer if info else None, info.layer_type if info else None, shape,
                                snr, mx, mean))
        steps("comparing layer traces", len(order), k)
    first = first_divergence(layers, data, min_snr_db)
    return TraceComparison(layers, first, min_snr_db, sorted(set(sa) - common), sorted(set(sb) - common),
                           "the net's topological order" if net is not None else "dataId order (no net)")


@dataclass
class TraceComparison:
    """The per-layer comparison of two runs (`compare A B`)."""

    layers: list[LayerDiff]
    first: LayerDiff | None
    min_snr_db: float
    only_a: list[int]
    only_b: list[int]
    ordered_by: str

    def summary(self) -> dict[str, Any]:
        first = None if self.first is None else {"data_id": self.first.data_id, "layer": self.first.layer}
        return {"family": "tidl", "kind": "trace_comparison", "layers": [d.to_json() for d in self.layers],
                "first_divergence": first, "min_snr_db": self.min_snr_db,
                "unmatched": {"a": self.only_a, "b": self.only_b}}

    def report(self) -> str:
        f = self.first
        lines = [f"{len(self.layers)} layers compared in {self.ordered_by}; SNR of A against the reference B; "
                 f"divergence below {self.min_snr_db:g} dB",
                 "first divergence: " + ("none" if f is None else
                                         f"dataId {f.data_id}, layer {f.layer} {f.layer_type or ''}".rstrip())]
        for side, ids in (("A", self.only_a), ("B", self.only_b)):
            if ids:
                lines.append(f"only in {side} (not compared): dataIds {', '.join(map(str, ids))}")
        rows = [[d.data_id, "-" if d.layer is None else d.layer, d.layer_type or "-", ",".join(map(str, d.shape)),
                 "identical" if d.snr_db is None else f"{d.snr_db:.2f}", f"{d.max_abs_diff:.6g}",
                 f"{d.mean_abs_diff:.6g}",
                 "FIRST" if d is f else ("below" if below(d.snr_db, self.min_snr_db) else "")] for d in self.layers]
        if rows:
            lines.extend(columns(["dataId", "layer", "layer type", "N,D1,D2,C,H,W", "SNR dB", "max |diff|",
                                  "mean |diff|", ""], rows))
        return "\n".join(lines)

    def svg(self) -> str:
        return snr_svg(self)


__all__ = ["CHUNK", "LayerDiff", "Source", "TraceComparison", "chunked", "compare_runs", "first_divergence", "stats"]
