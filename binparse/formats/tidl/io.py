"""TIDL io descriptors (`*_tidl_io_1.bin`): the generated accessors plus per-tensor objects.

`IoBufDesc` (J7 08.x / 09.02 / 10.x-11.x) and `IoBufDescTda2` extend the generated accessor
classes (never edited) with `inputs`, `outputs`, `tensor(...)` and the version they were read as.
Only the first `numInputBuf` / `numOutputBuf` entries become tensors.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...accessors.tidl.tidl_io_buf_desc import TidlIoBufDesc
from ...accessors.tidl.tidl_io_buf_desc_tda2 import TidlIoBufDescTda2
from ...errors import FormatError
from ...runtime import Accessor
from .report import io_table
from .tensors import Tensor, make_tensor

VERSION_LABELS = {8: "08.x", 9: "09.02", 10: "10.x-11.x"}


class IoTensors(Accessor):
    """What both io classes add: tensors built from the struct-of-arrays fields."""

    __slots__ = ()

    @property
    def version(self) -> str:
        raise NotImplementedError

    @property
    def cores(self) -> int:
        return 1

    def _entry(self, direction: str, k: int) -> dict[str, Any]:
        raise NotImplementedError

    def _col(self, field: str, k: int) -> Any:
        """Entry k of a struct-of-arrays field (None for a field this version lacks)."""
        arr = getattr(self, field)
        return None if arr is None else arr[k].item() if isinstance(arr, np.ndarray) else arr[k]

    def _tensors(self, direction: str) -> list[Tensor]:
        count = self._num(0 if direction == "input" else 1)
        return [make_tensor(direction, k, self._entry(direction, k), root=self._path, file=self._file)
                for k in range(count)]

    @property
    def inputs(self) -> list[Tensor]:
        """The network's inputs (the first numInputBuf entries)."""
        return self._tensors("input")

    @property
    def outputs(self) -> list[Tensor]:
        """The network's outputs (the first numOutputBuf entries)."""
        return self._tensors("output")

    def tensor(self, which: str | int, direction: str = "output") -> Tensor:
        """An input or output by name or index."""
        tensors = self.inputs if direction == "input" else self.outputs
        for t in tensors:
            if t.name == which or (isinstance(which, int) and t.index == which):
                return t
        raise FormatError(f"no {direction} {which!r}", file=self._file, path=self._path,
                          expected=[t.name or t.index for t in tensors] or f"no {direction}s")

    def summary(self) -> dict[str, Any]:
        """The JSON document of `binparse inspect --json`."""
        return {"family": "tidl", "kind": "io_bufdesc", "version": self.version, "cores": self.cores,
                "inputs": [t.to_json() for t in self.inputs], "outputs": [t.to_json() for t in self.outputs]}

    def report(self) -> str:
        """The table of `binparse inspect`."""
        cores = f"{self.cores} core" + ("s" if self.cores > 1 else "")
        return io_table(f"TIDL io descriptor {self.version}, {cores}", self.inputs, self.outputs)


class IoBufDesc(TidlIoBufDesc, IoTensors):
    """A J7 `sTIDL_IOBufDesc_t` (08.x, 09.02, 10.x-11.x) with its tensors."""

    __slots__ = ()

    @property
    def version(self) -> str:
        return VERSION_LABELS.get(self.io_version, str(self.io_version))

    @property
    def cores(self) -> int:
        return self.max_num_cores

    def _entry(self, direction: str, k: int) -> dict[str, Any]:
        p = "in" if direction == "input" else "out"

        def g(name: str) -> Any:
            return self._col(f"{p}_{name}", k)
        dims = (g("dim1"), g("dim2"))
        return {"width": g("width"), "height": g("height"), "num_channels": g("num_channels"),
                "num_batches": g("num_batches"), "dim1": 1 if dims[0] is None else dims[0],
                "dim2": 1 if dims[1] is None else dims[1], "pad_l": g("pad_l"), "pad_t": g("pad_t"),
                "pad_r": g("pad_r"), "pad_b": g("pad_b"), "pad_ch": g("pad_ch"),
                "channel_pitch": g("channel_pitch"), "element_type": g("element_type"),
                "name": g("data_name"), "scale": float(g("tensor_scale")), "zero_point": g("zero_point"),
                "layout": g("layout"),
                "buf_size": g("buf_size"), "data_id": g("data_id")}


class IoBufDescTda2(TidlIoBufDescTda2, IoTensors):
    """A TDA2/TDA3 `sTIDL_IOBufDesc_t` (16/16) with its tensors: no names, scales or pitches."""

    __slots__ = ()

    @property
    def version(self) -> str:
        return "TDA2 01.xx"

    def _entry(self, direction: str, k: int) -> dict[str, Any]:
        p = "in" if direction == "input" else "out"

        def g(name: str) -> Any:
            return self._col(f"{p}_{name}", k)
        width, height = g("width"), g("height")
        pitch = (g("pad_t") + height + g("pad_b")) * (g("pad_l") + width + g("pad_r"))
        return {"width": width, "height": height, "num_channels": g("num_channels"), "num_batches": 1,
                "dim1": 1, "dim2": 1, "pad_l": g("pad_l"), "pad_t": g("pad_t"), "pad_r": g("pad_r"),
                "pad_b": g("pad_b"), "pad_ch": 0, "channel_pitch": pitch, "element_type": g("element_type"),
                "name": "", "scale": None, "zero_point": 0, "layout": 0, "buf_size": None,
                "data_id": g("data_id")}
