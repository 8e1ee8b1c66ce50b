"""TIDL io descriptors (`*_tidl_io_1.bin`): the generated accessors plus per-tensor objects.

`IoBufDesc` (J7 08.x / 09.02 / 10.x-11.x) and `IoBufDescTda2` extend the generated accessor
classes (never edited) with `inputs`, `outputs`, `tensor(...)` and the version they were read as.
Only the first `numInputBuf` / `numOutputBuf` entries become tensors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from ....engine.accessors.tidl.tidl_io_buf_desc import TidlIoBufDesc
from ....engine.accessors.tidl.tidl_io_buf_desc_tda2 import TidlIoBufDescTda2
from ....core.errors import FormatError
from ....engine.runtime import Accessor
from ..report import io_table
from ..tensors import ENTRY_FIELDS, Tensor, entries_json, make_tensors

VERSION_LABELS = {80: "08.x", 90: "09.00-09.01", 92: "09.02", 100: "10.x-11.x"}
_NO_DIMS = {f"{side}_{dim}": 1 for side in ("in", "out") for dim in ("dim1", "dim2")}  # DIM1/DIM2 before 09.02


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

    #: One entry's values in `ENTRY_FIELDS` order (what `make_tensors` takes) from its `_COLUMNS`
    #: values; None where `_COLUMNS` are `ENTRY_FIELDS`.
    _entry: ClassVar[Callable[[tuple[Any, ...]], tuple[Any, ...]] | None] = None

    #: `_COLUMNS` as the names of the input (in_…) and of the output (out_…) fields.
    _IN_NAMES: ClassVar[tuple[str, ...]] = ()
    _OUT_NAMES: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._IN_NAMES = tuple("in_" + c for c in cls._COLUMNS)
        cls._OUT_NAMES = tuple("out_" + c for c in cls._COLUMNS)

    def _entries(self) -> tuple[Iterable[tuple[Any, ...]], Iterable[tuple[Any, ...]]]:
        """The used entries of the inputs and of the outputs, read together (one `to_row_blocks`)."""
        cls = type(self)
        n_in, n_out = self._num(0), self._num(1)
        # the plan is kept under the counts (one class: the same names); DIM1 and DIM2 are 1 before 09.02
        rows_in, rows_out = self._row_blocks(((cls._IN_NAMES, n_in), (cls._OUT_NAMES, n_out)), (n_in, n_out),
                                             _NO_DIMS)
        entry = cls._entry
        if entry is None:
            return rows_in, rows_out
        return map(entry, rows_in), map(entry, rows_out)

    def _both(self) -> tuple[list[Tensor], list[Tensor]]:
        """(inputs, outputs), kept per accessor when the buffer is read-only (a file or bytes cannot
        change); callers hand out copies of the lists."""
        hit: tuple[list[Tensor], list[Tensor]] | None = self._cache.get("tensors")
        if hit is None:
            hit = make_tensors(*self._entries(), root=self._path, file=self._file)
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
        """The JSON document of `binparse inspect --json`: `to_json()` of every tensor, made from the
        entries without making the tensors (the same checks)."""
        rows_in, rows_out = self._entries()
        root, file = self._path, self._file
        return {"family": "tidl", "kind": "io_bufdesc", "version": self.version, "cores": self.cores,
                "inputs": entries_json("input", rows_in, 0, root, file),
                "outputs": entries_json("output", rows_out, 0, root, file)}

    def report(self) -> str:
        """The table of `binparse inspect`."""
        cores = f"{self.cores} core" + ("s" if self.cores > 1 else "")
        return io_table(f"TIDL io descriptor {self.version}, {cores}", self.inputs, self.outputs)


class IoBufDesc(TidlIoBufDesc, IoTensors):
    """A J7 `sTIDL_IOBufDesc_t` (08.x, 09.02, 10.x-11.x) with its tensors."""

    __slots__ = ()

    @property
    def version(self) -> str:
        v = self._params["io_version"]
        return VERSION_LABELS.get(v) or str(v)

    @property
    def cores(self) -> int:
        return int(self._params["max_num_cores"])


class IoBufDescTda2(TidlIoBufDescTda2, IoTensors):
    """A TDA2/TDA3 `sTIDL_IOBufDesc_t` (16/16) with its tensors: no names, scales or pitches."""

    __slots__ = ()

    @property
    def version(self) -> str:
        return "TDA2 01.xx"

    _COLUMNS = ("width", "height", "num_channels", "pad_l", "pad_t", "pad_r", "pad_b", "element_type", "data_id")

    @staticmethod
    def _entry(row: tuple[Any, ...]) -> tuple[Any, ...]:  # type: ignore[override]
        width, height, channels, pad_l, pad_t, pad_r, pad_b, et, data_id = row
        pitch = (pad_t + height + pad_b) * (pad_l + width + pad_r)
        return (1, 1, 1, channels, height, width, pad_l, pad_t, pad_r, pad_b, 0, pitch, et, "", None, 0, 0, None,
                data_id)

