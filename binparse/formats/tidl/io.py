"""TIDL io descriptors (`*_tidl_io_1.bin`): the generated accessors plus per-tensor objects.

`IoBufDesc` (J7 08.x / 09.02 / 10.x-11.x) and `IoBufDescTda2` extend the generated accessor
classes (never edited) with `inputs`, `outputs`, `tensor(...)` and the version they were read as.
Only the first `numInputBuf` / `numOutputBuf` entries become tensors.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ...accessors.tidl.tidl_io_buf_desc import TidlIoBufDesc
from ...accessors.tidl.tidl_io_buf_desc_tda2 import TidlIoBufDescTda2
from ...errors import FormatError
from ...runtime import Accessor
from .report import io_table
from .tensors import ENTRY_FIELDS, Tensor, make_tensors

VERSION_LABELS = {80: "08.x", 90: "09.00-09.01", 92: "09.02", 100: "10.x-11.x"}


class IoTensors(Accessor):
    """What both io classes add: tensors built from the struct-of-arrays fields."""

    __slots__ = ()
    #: Per-tensor fields this version has, without their in_/out_ prefix (what `_entry` takes).
    _COLUMNS: ClassVar[tuple[str, ...]] = ENTRY_FIELDS

    @property
    def version(self) -> str:
        raise NotImplementedError

    @property
    def cores(self) -> int:
        return 1

    def _entry(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        """One entry's values in `ENTRY_FIELDS` order (what `make_tensors` takes), from its
        `_COLUMNS` values."""
        raise NotImplementedError

    def _both(self) -> tuple[list[Tensor], list[Tensor]]:
        """(inputs, outputs), read together (one `to_row_blocks`) and kept per accessor when the
        buffer is read-only (a file or bytes cannot change); callers hand out copies of the lists."""
        hit: tuple[list[Tensor], list[Tensor]] | None = self._cache.get("tensors")
        if hit is None:
            cls = type(self)
            blocks = ((_prefixed(cls, "in_"), self._num(0)), (_prefixed(cls, "out_"), self._num(1)))
            rows_in, rows_out = self.to_row_blocks(blocks)
            entry = self._entry
            hit = make_tensors(map(entry, rows_in), map(entry, rows_out), root=self._path, file=self._file)
            if self._mv.readonly:
                self._cache["tensors"] = hit
        return hit

    def _tensors(self, direction: str) -> list[Tensor]:
        both = self._both()
        return list(both[0] if direction == "input" else both[1])

    @property
    def inputs(self) -> list[Tensor]:
        """The network's inputs (the first numInputBuf entries)."""
        return self._tensors("input")

    @property
    def outputs(self) -> list[Tensor]:
        """The network's outputs (the first numOutputBuf entries)."""
        return self._tensors("output")

    def tensor(self, which: str | int, direction: str = "output") -> Tensor:
        """An input or output by name or index; a name made of digits (ONNX names such as "625") is
        taken as a name before it is taken as an index."""
        tensors = self.inputs if direction == "input" else self.outputs
        for t in tensors:
            if t.name == str(which):
                return t
        for t in tensors:
            if isinstance(which, int) and t.index == which:
                return t
        raise FormatError(f"no {direction} {which!r}", file=self._file, path=self._path,
                          expected=[t.name or t.index for t in tensors] or f"no {direction}s")

    def buffer_layout(self, options: Any) -> Any:
        """The `LayoutSource` protocol: the tensor `--output/--input NAME|INDEX` names, as a `BufferLayout`."""
        from .buffer_layout import io_layout
        return io_layout(self, options)

    def summary(self) -> dict[str, Any]:
        """The JSON document of `binparse inspect --json`."""
        ins, outs = self._both()
        return {"family": "tidl", "kind": "io_bufdesc", "version": self.version, "cores": self.cores,
                "inputs": [t.to_json() for t in ins], "outputs": [t.to_json() for t in outs]}

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

    def _entry(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        if row[1] is None:  # DIM1 and DIM2 arrived in 09.02
            return row[:1] + (1, 1) + row[3:]
        return row


class IoBufDescTda2(TidlIoBufDescTda2, IoTensors):
    """A TDA2/TDA3 `sTIDL_IOBufDesc_t` (16/16) with its tensors: no names, scales or pitches."""

    __slots__ = ()

    @property
    def version(self) -> str:
        return "TDA2 01.xx"

    _COLUMNS = ("width", "height", "num_channels", "pad_l", "pad_t", "pad_r", "pad_b", "element_type", "data_id")

    def _entry(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        width, height, channels, pad_l, pad_t, pad_r, pad_b, et, data_id = row
        pitch = (pad_t + height + pad_b) * (pad_l + width + pad_r)
        return (1, 1, 1, channels, height, width, pad_l, pad_t, pad_r, pad_b, 0, pitch, et, "", None, 0, 0, None,
                data_id)


_PREFIXED: dict[tuple[type, str], tuple[str, ...]] = {}


def _prefixed(cls: type[IoTensors], prefix: str) -> tuple[str, ...]:
    """The field names of `cls._COLUMNS` for inputs (in_…) or outputs (out_…), made once."""
    names = _PREFIXED.get((cls, prefix))
    if names is None:
        names = _PREFIXED[(cls, prefix)] = tuple(prefix + c for c in cls._COLUMNS)
    return names
