"""Does a J7 network read as a given layout make sense? Structural checks, no vendor knowledge.

Used to decide whether a layout fits a file whose netVersion has no verified layout: a wrong
layout shifts every field, and then the layer types, the data ids, the dims or the sizes stop
adding up. Each check is vectorised over the layer table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ....core.errors import BinparseError
from .versions import LAYOUTS

if TYPE_CHECKING:
    from .model import NetJ7

ALIGN_NET_DATA = 64


def _align(n: int) -> int:
    return -(-n // ALIGN_NET_DATA) * ALIGN_NET_DATA


def _sizes(net: NetJ7, size: int) -> list[str]:
    """The header + layers block, and the netBufInfo blocks, against the file size."""
    start, _, layer = net.field_info("layers")
    n = int(net.num_layers)
    if n < 1:
        return [f"numLayers is {n}"]
    end = start + n * int(layer or 0)
    if end > size:
        return [f"{n} layers of {layer} bytes after a {start}-byte header need {end:,} bytes, the file has {size:,}"]
    out = []
    infos = net.net_buf_info
    if infos is not None:
        blocks = [(int(b.offset), int(b.size)) for b in infos]
        if blocks[0][1] and blocks[0][1] != _align(end):
            out.append(f"netBufInfo[0].size {blocks[0][1]:,} bytes is not the 64-aligned header + layers, {_align(end):,} bytes")
        for k, (off, sz) in enumerate(blocks):
            if off < 0 or sz < 0 or off + sz > size:
                out.append(f"netBufInfo[{k}] ({off:,} + {sz:,} bytes) lies outside the {size:,}-byte file")
    return out


def _graph(net: NetJ7, size: int) -> list[str]:
    """Layer types, buffer counts, data ids that connect, positive dims."""
    t = net.table()
    out = []
    known = np.array(sorted(int(m) for m in net.layer_types))
    bad = np.flatnonzero(~np.isin(t.layer_type, known))
    if bad.size:
        out.append(f"layer {int(bad[0])} has type {int(t.layer_type[bad[0]])}, not one of the "
                   f"{LAYOUTS[net.gen][0]} layer types ({bad.size} such layer{'s' if bad.size > 1 else ''})")
    slots_in, slots_out = t.in_ids.shape[1], t.out_ids.shape[1]
    bad = np.flatnonzero((t.num_in < -1) | (t.num_in > slots_in) | (t.num_out < -1) | (t.num_out > slots_out))
    if bad.size:
        i = int(bad[0])
        out.append(f"layer {i} has {int(t.num_in[i])} inputs and {int(t.num_out[i])} outputs "
                   f"(at most {slots_in} / {slots_out})")
        return out
    if not (t.num_in == -1).any() or not (t.num_out == -1).any():
        out.append("no input data layer (numInBufs -1) or no output data layer (numOutBufs -1)")
    written = t.out_ids[t.out_ids >= 0]
    if np.unique(written).size != written.size:
        out.append("two layers write the same data id")
    read = t.in_ids[t.in_ids >= 0]
    dangling = np.setdiff1d(read, written)
    if dangling.size:
        out.append(f"data id {int(dangling[0])} is read but no layer writes it")
    used = np.arange(slots_out)[None, :] < np.maximum(t.num_out, 0)[:, None]
    bad = np.flatnonzero(((t.out_shapes <= 0).any(axis=-1) & used).any(axis=1))
    if bad.size:
        i = int(bad[0])
        out.append(f"layer {i} has out dims {t.out_shapes[i, 0].tolist()} (not all positive)")
    return out


def _params(net: NetJ7, size: int) -> list[str]:
    """Every layer's weights, biases and scales lie inside the file."""
    for i in range(int(net.num_layers)):
        try:
            net.weights(i)
        except BinparseError as exc:
            return [f"layer {i}: {exc.message} ({exc.path})"]
    return []


def structure_problems(net: NetJ7) -> list[str]:
    """Why `net`, read as its layout, is not a plausible TIDL network (empty: it is)."""
    size = net._mv.nbytes
    problems: list[str] = []
    for check in (_sizes, _graph, _params):
        try:
            found = check(net, size)
        except BinparseError as exc:
            found = [exc.message + (f" ({exc.path})" if exc.path else "")]
        problems.extend(found)
        if problems:  # later checks read what earlier ones found broken
            break
    return problems


__all__ = ["structure_problems"]
