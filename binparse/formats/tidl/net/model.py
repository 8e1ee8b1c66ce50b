"""TIDL network files (`*_tidl_net.bin`, `tidl_net_*.bin`): layers, graph, weights.

`NetJ7` (8.2, 08.06, 9.0/9.1, 09.02, 10.01, 11.02) and `NetTda2` (TDA2 / AM57x TIDL-API) extend the generated accessor
classes with what a user of the network wants: a vectorised layer table (types, buffer counts,
data ids, out dims, read as columns of the structured layer array, no per-layer parsing), TI's
layer-type names, producers/consumers by dataId, a topological order, and the weight views
(`weights.py`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from ....engine.accessors.tidl.tidl_enums import TidlEnums
from ....engine.accessors.tidl.tidl_net_j7 import TidlNetJ7
from ....engine.accessors.tidl.tidl_net_tda2 import TidlNetTda2
from ....core.buffers import BufferLike
from ....core.errors import FormatError
from ....core.filemap import read_range
from ....engine.runtime import Accessor
from ..report import net_table
from .versions import LAYOUTS, RELEASED
from .cores import SOC_CORES
from .cores import resolve as resolve_cores
from .weights import j7_weights, tda2_weights

J = TypeVar("J", bound="NetJ7")
J7_GENERATIONS = LAYOUTS  # gen → (SDK label, layer-type numbering)
NET_VERSIONS = {v.value: v.gen for v in RELEASED if v.gen is not None}  # netVersion → its verified layout


@dataclass(frozen=True)
class LayerTable:
    """Columns over the used layers (one row per layer, in file order).

    `in_ids`/`out_ids` hold every slot's dataId (-1 where the slot is unused, that is beyond
    max(num_in, 0) / max(num_out, 0)); `out_shapes` holds each out slot's dims as stored (4 or 6).
    """

    layer_type: NDArray[np.int32]
    num_in: NDArray[np.int32]
    num_out: NDArray[np.int32]
    in_ids: NDArray[np.int32]
    out_ids: NDArray[np.int32]
    out_shapes: NDArray[np.int32]

    def __len__(self) -> int:
        return int(self.layer_type.shape[0])


_RECORDS: dict[tuple[Any, ...], tuple[int, np.dtype[Any]]] = {}  # (class, params) -> layers field, record dtype
_SLOTS: dict[int, NDArray[np.int32]] = {}  # slot count -> 0, 1, ..., count - 1 (made once)


def _mask(ids: NDArray[Any], counts: NDArray[Any]) -> NDArray[np.int32]:
    """Slot ids with unused slots (k >= count; every slot when count < 0) set to -1; a copy."""
    slots = _SLOTS.get(ids.shape[1])
    if slots is None:
        slots = _SLOTS[ids.shape[1]] = np.arange(ids.shape[1], dtype=np.int32)
    out: NDArray[np.int32] = np.where(slots < counts[:, None], ids, np.int32(-1)).astype(np.int32, copy=False)
    return out


class _Network(Accessor):
    """What both network classes add to their generated accessor."""

    __slots__ = ()

    @property
    def version(self) -> str:
        raise NotImplementedError

    @property
    def net_version_hex(self) -> str | None:
        return None

    @property
    def unverified(self) -> str | None:
        """Why this file was read with a layout not verified for its version (None: verified)."""
        return None

    @property
    def layer_types(self) -> type[IntEnum]:
        raise NotImplementedError

    @property
    def used_layers(self) -> NDArray[Any]:
        """Structured view of the used layers (zero-copy)."""
        n = self._num(0 if isinstance(self, TidlNetTda2) else 2)
        arr: NDArray[Any] = self.layers.array[:n]  # type: ignore[attr-defined]
        return arr

    def table(self) -> LayerTable:
        raise NotImplementedError

    def type_name(self, layer_type: int) -> str:
        """TI's name of a layer type in this version's numbering (e.g. 'TIDL_ConvolutionLayer')."""
        try:
            return str(self.layer_types(layer_type).doc)  # type: ignore[attr-defined]
        except ValueError:
            return f"unknown layer type {layer_type}"

    # -- graph -------------------------------------------------------------------------------------
    def producers(self) -> dict[int, int]:
        """dataId → index of the layer that writes it."""
        t = self.table()
        out: dict[int, int] = {}
        for i, ids in enumerate(t.out_ids.tolist()):
            for d in ids:
                if d >= 0:
                    out.setdefault(d, i)
        return out

    def consumers(self) -> dict[int, list[int]]:
        """dataId → indices of the layers that read it."""
        t = self.table()
        out: dict[int, list[int]] = {}
        for i, ids in enumerate(t.in_ids.tolist()):
            for d in ids:
                if d >= 0:
                    out.setdefault(d, []).append(i)
        return out

    def input_layers(self) -> list[int]:
        """Data layers that feed the network (numInBufs = -1)."""
        return [int(i) for i in np.flatnonzero(self.table().num_in == -1)]

    def output_layers(self) -> list[int]:
        """Data layers that take the network's outputs (numOutBufs = -1)."""
        return [int(i) for i in np.flatnonzero(self.table().num_out == -1)]

    def topological_order(self) -> list[int]:
        """Layer indices such that every layer comes after the producers of its inputs."""
        t = self.table()
        prod = self.producers()
        deps = [{prod[d] for d in ids if d >= 0 and d in prod and prod[d] != i}
                for i, ids in enumerate(t.in_ids.tolist())]
        users: dict[int, list[int]] = {}
        for i, ds in enumerate(deps):
            for d in ds:
                users.setdefault(d, []).append(i)
        waiting = [len(ds) for ds in deps]
        ready = deque(i for i, w in enumerate(waiting) if w == 0)
        order: list[int] = []
        while ready:
            i = ready.popleft()
            order.append(i)
            for j in users.get(i, []):
                waiting[j] -= 1
                if waiting[j] == 0:
                    ready.append(j)
        if len(order) != len(deps):
            raise FormatError("the layers' data ids form a cycle", file=self._file, path=self._path)
        return order

    # -- output ------------------------------------------------------------------------------------
    def summary(self) -> dict[str, Any]:
        t = self.table()
        layers = []
        for i in range(len(t)):
            nin, nout = int(t.num_in[i]), int(t.num_out[i])
            layers.append({
                "index": i, "type": self.type_name(int(t.layer_type[i])), "num_in": nin, "num_out": nout,
                "in_ids": t.in_ids[i, :max(nin, 0)].tolist(), "out_ids": t.out_ids[i, :max(nout, 0)].tolist(),
                "out_shapes": t.out_shapes[i, :max(nout, 0)].tolist()})
        return {"family": "tidl", "kind": "network", "version": self.version,
                "net_version": self.net_version_hex, "unverified": self.unverified, "layers": layers}

    def with_options(self, options: Any) -> _Network:
        """The command line's `-v`: `report()` lists every layer, not only the summary."""
        self._cache["tidl.verbose"] = bool(getattr(options, "verbose", False))
        return self

    def report(self) -> str:
        return net_table(self, layers=self._cache.get("tidl.verbose", True))


class NetJ7(TidlNetJ7, _Network):
    """A J7 network file (8.2, 08.06, 9.0/9.1, 09.02, 10.01 or 11.02)."""

    __slots__ = ("_unverified",)

    @classmethod
    def from_buffer(cls: type[J], buf: BufferLike, offset: int = 0, *, file: str | None = None,
                    **params: int) -> J:
        """`gen=` picks the layout; `cores=` the SoC's TIDL_MAX_NUM_CORES (11.02: read from the header if not given)."""
        if "gen" in params and "cores" not in params:
            params["cores"] = resolve_cores(buf, offset, file, params["gen"]) if params["gen"] >= 112 else 1
        return super().from_buffer(buf, offset, file=file, **params)

    @property
    def gen_label(self) -> str:
        """The layout this net was read with ("9.0/9.1"), whatever its netVersion says."""
        return J7_GENERATIONS[self.gen][0]

    @property
    def soc_cores(self) -> int | None:
        """TIDL_MAX_NUM_CORES of the SoC the header was laid out for (10.01 and later)."""
        return int(self.cores) if self.gen >= 100 else None

    @property
    def soc_names(self) -> str:
        """The SoCs built with this header's core count ("J784S4, J742S2, AM69A")."""
        return ", ".join(s for s, c in SOC_CORES.items() if c == self.soc_cores and s.startswith(("J7", "AM6")))

    @property
    def unverified(self) -> str | None:
        return getattr(self, "_unverified", None)

    @property
    def version(self) -> str:
        return J7_GENERATIONS[self.gen][0]

    @property
    def net_version_hex(self) -> str | None:
        return f"0x{self.net_version:08X}"

    @property
    def layer_types(self) -> type[IntEnum]:
        return J7_GENERATIONS[self.gen][1]

    def weights(self, index: int) -> dict[str, NDArray[Any]]:
        """Zero-copy views of layer `index`'s weights, bias (and scales) in this file."""
        return j7_weights(self, index)

    def tensor_array(self, name: str | None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """The `TensorSource` protocol: parameter array LAYER.NAME ("2.weights") as stored, a view of the file."""
        layer, _, array = (name or "").partition(".")
        n = int(self.num_layers)
        found = self.weights(int(layer)) if layer.isdigit() and int(layer) < n else {}
        if array not in found:
            listed = [f"{i}.{k}" for i in range(n) for k in self.weights(i)][:8]
            raise FormatError(f"no parameter array {name!r}" if name else "name a parameter array with --tensor",
                              file=self._file, expected=[*listed, "…"] if listed else "a layer with parameters",
                              hint="arrays are LAYER.NAME: weights, bias, weight_scales, prior_box")
        if dequantize:
            raise FormatError("parameters are shown as stored", file=self._file,
                              hint="the layer's scales are the arrays LAYER.weight_scales (or its params)")
        arr: NDArray[Any] = found[array]
        return arr, f"layer {layer} {array} as stored"

    def table(self) -> LayerTable:
        """The columns, over a private copy of the used layer records (`filemap.read_range`: a dense
        read of a mapped file is quicker by pread than by page faults); views of that copy."""
        key = (type(self), self._pkey)
        known = _RECORDS.get(key)  # (the layers field's index, the record dtype): the same for every file of a layout
        if known is None:
            index = next(i for i, spec in enumerate(self._FIELDS) if spec.name == "layers")
            known = _RECORDS[key] = (index, self.layers.array.dtype)
        (index, dt), n = known, self._num(2)
        start = self._loc(index)[0]
        if n > 0 and start + n * dt.itemsize <= self._mv.nbytes:
            a = np.frombuffer(read_range(self._mv, start, n * dt.itemsize), dt, n)
        else:  # none, or records cut short: the accessor's own reading names what is wrong
            a = self.used_layers.copy()
        nin, nout = a["num_in_bufs"], a["num_out_bufs"]
        if self.gen == 82:
            in_ids, out_ids = a["in_data_params"]["data_id"], a["out_data_params"]["data_id"]
            shapes = a["out_data_params"]["dim_values"]
        else:
            in_ids, out_ids = a["in_data"], a["out_data"]["data_id"][:, None]
            shapes = a["out_data"]["dim_values"][:, None, :]
        return LayerTable(a["layer_type"], nin, nout, _mask(in_ids, nin), _mask(out_ids, nout), shapes)


def param_hint(net_file: str | None, name: str | None) -> str:
    """Where a TDA2/AM57x net's arrays are: the command that views `name` (or the array it means:
    "3" is layer 3's weights, `3.weights`) in the tidl_param_*.bin beside the net, when it is there."""
    import os
    from ....core.errors import BinparseError
    from ....family.hints import command
    if net_file is None or "tidl_net_" not in os.path.basename(net_file):
        return "its tidl_param_*.bin holds them: view that file with --tensor LAYER.NAME (e.g. 2.weights)"
    folder, base = os.path.split(net_file)
    param = os.path.join(folder, base.replace("tidl_net_", "tidl_param_", 1))
    try:
        from ....family import opening  # the param file's reader (am57x.ParamFile) reads this net: opened by name, no import circle
        names = [f"{i}.{n}" for i, n, _, _ in opening.open(param).arrays()]
    except (BinparseError, OSError, AttributeError):  # none there, or no param file
        return f"its {os.path.basename(param)} holds them, when it is beside it: view that file with --tensor LAYER.NAME"
    pick = next((n for n in (name, f"{name}.weights") if n in names), names[0] if names else None)
    if pick is None:
        return f"{os.path.basename(param)} holds no arrays"
    return (f"its {os.path.basename(param)} holds them ({len(names)} arrays, LAYER.NAME): "
            + command("view", param, "--tensor", pick, "--npy", pick.replace(".", "_") + ".npy"))


class NetTda2(TidlNetTda2, _Network):
    """A TDA2 / AM57x TIDL-API network file (all 256 layer slots; weights in a separate file)."""

    __slots__ = ()

    @property
    def version(self) -> str:
        return "TIDL-API 1.3 (AM57x)" if self.api == 13 else "TDA2 01.01.03 / TIDL-API 1.2"

    @property
    def layer_types(self) -> type[IntEnum]:
        return TidlEnums.LayerTypeTda2

    def weights(self, params: BufferLike, *, file: str | None = None) -> list[dict[str, NDArray[Any]]]:
        """Zero-copy views of every used layer's parameters in the matching tidl_param_*.bin."""
        return tda2_weights(self, params, file=file)

    def tensor_array(self, name: str | None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[NDArray[Any], str]:
        """The `TensorSource` protocol: a TDA2/AM57x net holds no arrays; its param file does."""
        raise FormatError("a TDA2/AM57x network holds no parameter arrays", file=self._file,
                          hint=param_hint(self._file, name))

    def table(self) -> LayerTable:
        a = self.used_layers
        nin, nout = a["num_in_bufs"], a["num_out_bufs"]
        return LayerTable(a["layer_type"].copy(), nin.copy(), nout.copy(), _mask(a["in_data"]["data_id"], nin),
                          _mask(a["out_data"]["data_id"], nout), a["out_data"]["dim_values"].copy())
