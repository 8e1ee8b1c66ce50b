"""What a J7 TIDL net says about each data buffer a layer trace holds: layer, type, element type,
scale, zero point, dims, name and the buffers the layer reads.

A trace file names only its dataId and dims; TIDL writes it in the element type of the layer's
outData, and its float trace as `(q - tensorZeroPoint) / tensorScale`. 8.2 data params have no
tensorZeroPoint (the field came with 08.06): their zero point is 0. Names come from TI's
`<net>.layer_info.txt` beside the net or in `tempDir/` beside it (where OSRT compiles leave it) when
it is there (the net itself stores no names).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ....core.errors import FormatError
from ..tensors import DTYPE_NAMES, ELEMENT_DTYPES


@dataclass(frozen=True)
class DataInfo:
    """One data buffer of the net, as the layer that writes it declares it."""

    data_id: int
    layer: int
    layer_type: str
    element_type: int
    scale: float
    zero_point: int
    shape: tuple[int, int, int, int, int, int]  # (N, D1, D2, C, H, W)
    name: str | None
    inputs: tuple[int, ...]  # dataIds the writing layer reads

    @property
    def dtype(self) -> np.dtype[Any]:
        return ELEMENT_DTYPES[self.element_type]

    @property
    def dtype_name(self) -> str:
        return str(DTYPE_NAMES[self.element_type])

    @property
    def is_float(self) -> bool:
        return self.dtype.kind == "f"


def shape6(dims: list[int]) -> tuple[int, int, int, int, int, int]:
    """(N, D1, D2, C, H, W) of stored dims: 4 (N, C, H, W; D1 = D2 = 1) or 6."""
    d = [int(v) for v in dims]
    if len(d) == 4:
        d = [d[0], 1, 1, d[1], d[2], d[3]]
    return (d[0], d[1], d[2], d[3], d[4], d[5])


def _names(net: Any) -> dict[tuple[int, int], str]:
    """(layer index, dataId) → name from `<net>.layer_info.txt` beside the net, if there is one."""
    from ..printouts.parse import read_layer_info  # only when a net is read with its printout
    file = getattr(net, "_file", None)
    if not file:
        return {}
    net = Path(file)
    for info in (net.parent / f"{net.name}.layer_info.txt", net.parent / "tempDir" / f"{net.name}.layer_info.txt"):
        if info.is_file():
            return {(r.index, r.data_id): r.name for r in read_layer_info(info)}
    return {}


def net_data(net: Any) -> dict[int, DataInfo]:
    """dataId → DataInfo for every buffer a layer of `net` writes (the graph's output data
    layers write none). Raises FormatError for a net that is not a J7 net."""
    from ..net.model import NetJ7
    if not isinstance(net, NetJ7):
        raise FormatError("layer traces are read with a J7 TIDL net", file=getattr(net, "_file", None),
                          expected="a J7 *_tidl_net.bin (8.2, 08.06, 9.x, 10.x)", found=type(net).__name__,
                          hint="TDA2 / AM57x nets store Q formats, not the tensor scales J7 traces need")
    a = net.used_layers
    t = net.table()
    params = a["out_data_params"] if net.gen == 82 else a["out_data"][:, None]
    has_zp = "tensor_zero_point" in (params.dtype.names or ())
    names = _names(net)
    out: dict[int, DataInfo] = {}
    for i in range(len(t)):  # one row per layer (hundreds), not per element
        inputs = tuple(int(d) for d in t.in_ids[i] if d >= 0)
        type_name = net.type_name(int(t.layer_type[i]))
        for k in range(max(int(t.num_out[i]), 0)):
            p = params[i, k]
            did = int(p["data_id"])
            et = int(p["element_type"])
            if et not in ELEMENT_DTYPES:
                raise FormatError("unknown TIDL element type", file=net._file,
                                  path=f"layers[{i}].out_data.element_type", expected="0..8", found=et)
            out.setdefault(did, DataInfo(
                data_id=did, layer=i, layer_type=type_name, element_type=et, scale=float(p["tensor_scale"]),
                zero_point=int(p["tensor_zero_point"]) if has_zp else 0, shape=shape6(p["dim_values"].tolist()),
                name=names.get((i, did)), inputs=inputs))
    return out


def topological_ids(net: Any, data: dict[int, DataInfo]) -> list[int]:
    """The dataIds of `data` in the net's topological layer order (slot order within a layer)."""
    by_layer: dict[int, list[int]] = {}
    for d in data.values():
        by_layer.setdefault(d.layer, []).append(d.data_id)
    return [did for i in net.topological_order() for did in by_layer.get(i, [])]


__all__ = ["DataInfo", "net_data", "shape6", "topological_ids"]
