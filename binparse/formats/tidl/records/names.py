"""The names TI's import writes into the io for the tensors a record names, under the run's options.

The records (param.yaml's `input_details`, onnxrtMetaData.txt's `inDataNames`) keep the ONNX graph's
names; the io descriptor holds the names of TIDL's data layers. They are the same, except where TI's
own tools put a Cast on a graph input:

- TI's import folds a Cast fed by a graph input into the input data layer (tidl_parse_onnx_cast.cpp:
  `TIDL_CastInputTerminal`), and the data layer takes the Cast's output name.
- With `input_optimization: true` (edgeai-benchmark's `_optimize_model`, edgeai-tidlrunner's surgery
  pipeline) the model's mean and scale go into the model and its input becomes uint8, by one of TI's
  two optimizers, each with fixed names:
  `tidlOnnxModelOptimize` (edgeai-tidl-tools osrt_model_tools `onnx_model_opt.py`): the graph input
  `<name>Net_IN` -> Cast -> `TIDL_cast_in` -> Add -> Mul -> `<name>` (input 0 only; its NV12 variant
  `<name>Net_Y_IN` / `<name>Net_UV_IN` -> `TIDL_cast_y_in` / `TIDL_cast_uv_in`);
  `tidl_onnx_model_optimizer`'s `add_input_normalization`: `<name>_net_in` -> Cast -> `<name>_cast_out`.
  So the record names `input.1Net_IN` where the io holds `TIDL_cast_in` (TI's midas and food-recognition
  demos, SDK 9.0 and 11.1, show both files so, the netLog naming the data layer `TIDL_cast_in`).
The order is TI's: the io lists outputs in the order of its output data layers, the records in the
ONNX graph's (TI's od-8220 compile: `labels,dets` against `dets,labels`), so names are compared as sets.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# (the record's suffix, the io's name or None for "<base> + io_suffix", io suffix, which optimizer names so)
OPTIMIZERS: tuple[tuple[str, str | None, str, str], ...] = (
    ("Net_IN", "TIDL_cast_in", "", "tidlOnnxModelOptimize"),
    ("Net_Y_IN", "TIDL_cast_y_in", "", "tidlOnnxModelOptimize"),
    ("Net_UV_IN", "TIDL_cast_uv_in", "", "tidlOnnxModelOptimize"),
    ("_net_in", None, "_cast_out", "tidl_onnx_model_optimizer"),
)


@dataclass(frozen=True)
class Renamed:
    """One input the record and the io name differently, as TI's optimizer and import name it."""

    record: str
    io: str
    by: str

    def describe(self) -> str:
        return f"{self.record} is {self.io} there"


def cast_name(record_name: str) -> tuple[str, str] | None:
    """(the io's name, the optimizer that names so) for a record's input TI's input optimization made."""
    for suffix, io_name, io_suffix, by in OPTIMIZERS:
        if record_name.endswith(suffix) and len(record_name) > len(suffix):
            return (io_name if io_name is not None else record_name[: -len(suffix)] + io_suffix), by
    return None


@dataclass(frozen=True)
class NameMatch:
    """How a record's names stand against the io's."""

    same: bool  # the io holds exactly the names TI's import writes for the record's (order aside)
    renamed: tuple[Renamed, ...] = ()
    reordered: bool = False

    def how(self) -> str:
        """What made the names differ, for an ok line (empty when they are the same, in the same order)."""
        parts = []
        if self.renamed:
            by = ", ".join(sorted({r.by for r in self.renamed}))
            parts.append(f"{', '.join(r.describe() for r in self.renamed)}: TI's input optimization ({by}) casts the "
                         "uint8 input, and TI's import folds that Cast into the data layer, named after its output")
        if self.reordered:
            parts.append("in TIDL's order of its data layers, not the ONNX graph's")
        return "; ".join(parts)


def match(record_inputs: Sequence[str], record_outputs: Sequence[str], io_inputs: Sequence[str],
          io_outputs: Sequence[str]) -> NameMatch:
    """The record's input and output names against the io's, as TI's tools write them."""
    renamed = []
    want_in = []
    io_in = set(io_inputs)
    for name in record_inputs:
        cast = cast_name(name)
        if name not in io_in and cast is not None and cast[0] in io_in:
            renamed.append(Renamed(name, cast[0], cast[1]))
            want_in.append(cast[0])
        else:
            want_in.append(name)
    same = sorted(want_in) == sorted(io_inputs) and sorted(record_outputs) == sorted(io_outputs)
    reordered = same and (list(want_in) != list(io_inputs) or list(record_outputs) != list(io_outputs))
    return NameMatch(same, tuple(renamed), reordered)


__all__ = ["NameMatch", "OPTIMIZERS", "Renamed", "cast_name", "match"]
