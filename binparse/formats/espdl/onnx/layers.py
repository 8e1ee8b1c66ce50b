"""`binparse compare MODEL.espdl DUMPS/`: the chip's tensors, dumped layer by layer as .npy, against the
export run on the PC (`--all-outputs`), to find the first layer where they part.

A dump is named by its tensor (`name_key`: every character but letters, digits, `.`, `-` and `_`
becomes `_`, so `/model.0/conv/Conv_output_0` is `_model.0_conv_Conv_output_0.npy`); an integer dump
holds the chip's q (real value q x 2^exponent, the tensor's exponent), a float one real values. The
run's input is the folder's dump of each graph input when it has one, else the model's test input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ....core.errors import FormatError, UsageError
from ....core.filemap import map_npy
from ....core.text import shown

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def name_key(name: str) -> str:
    """A tensor name as a file stem."""
    return _UNSAFE.sub("_", name)


@dataclass(frozen=True)
class Layer:
    name: str
    op: str
    count: int
    snr_db: float
    within: int
    max_diff: float
    step: float

    @property
    def share(self) -> float:
        return self.within / self.count if self.count else 1.0

    def to_json(self) -> dict[str, Any]:
        return {"tensor": self.name, "op": self.op, "elements": self.count, "snr_db": round(self.snr_db, 2),
                "within_one_step": self.within, "max_diff": self.max_diff, "step": self.step}


@dataclass
class LayerComparison:
    """Per dumped tensor, in the order the graph computes them: SNR of the dump against the export."""

    model: str
    folder: str
    layers: list[Layer]
    unmatched: list[str]
    min_snr_db: float

    @property
    def first_divergence(self) -> Layer | None:
        for layer in self.layers:
            if layer.snr_db < self.min_snr_db or layer.share < 0.99:
                return layer
        return None

    def summary(self) -> dict[str, Any]:
        first = self.first_divergence
        return {"family": "espdl", "kind": "layer_comparison", "model": self.model, "folder": self.folder,
                "min_snr_db": self.min_snr_db, "layers": [x.to_json() for x in self.layers],
                "unmatched": {"files": self.unmatched}, "first_divergence": first.name if first else None}

    def report(self) -> str:
        lines = [f"{len(self.layers)} dumped tensors of {shown(self.folder)} against the ONNX export of {shown(self.model)} "
                 "(SNR of the dump, the export as reference; share within one quantization step)"]
        for x in self.layers:
            snr = "inf" if x.snr_db == float("inf") else f"{x.snr_db:.1f}"
            lines.append(f"  {shown(x.op):<18} {shown(x.name):<40} SNR {snr:>6} dB  {100 * x.share:6.2f} % within one step  "
                         f"largest difference {x.max_diff:g}")
        if self.unmatched:
            lines.append(f"files naming no tensor of the model: {', '.join(map(shown, self.unmatched))}")
        first = self.first_divergence
        lines.append(f"first divergence: {shown(first.op)} {first.name!r}" if first else
                     f"no divergence (every layer >= {self.min_snr_db:g} dB and >= 99 % within one step)")
        return "\n".join(lines)


def _load(path: Path) -> Any:
    try:
        return map_npy(path)
    except (OSError, ValueError) as exc:
        raise FormatError(f"not a .npy array: {exc}", file=str(path), expected="a .npy of numbers (numpy.save)") from None


def _real(arr: Any, exponent: int | None) -> Any:
    a = np.asarray(arr)
    if a.dtype.kind in "iu" and exponent is not None:
        return a.astype(np.float64) * 2.0 ** exponent
    return a.astype(np.float64)


def folder_of(other: Any) -> Path:
    """The folder `compare` was given as B (a path, or what binparse opened it as: anything with `path`)."""
    path = Path(other) if isinstance(other, (str, Path)) else getattr(other, "path", None)
    if path is None or not Path(path).is_dir():
        from ....family.hints import command
        raise UsageError("compare an ESP-DL model with a folder of .npy dumps, one per tensor",
                         found=type(other).__name__,
                         hint=f"give the folder of the chip's dumps as REFERENCE ({command('compare', '--help')})")
    return Path(path)


def compare_layers(model: Any, folder: Path, *, min_snr_db: float = 30.0, rounding: str | None = None) -> LayerComparison:
    from .convert import DEFAULT_ROUNDING, to_onnx
    from .verify import decide, first_call_state, run
    files = {name_key(p.stem): p for p in sorted(folder.glob("*.npy")) if p.is_file()}
    g = model.graph
    info = {v.name: v for v in (*g.value_info, *g.inputs, *g.outputs)}

    def exponent(name: str) -> int | None:
        v = info.get(name)
        return int(v.exponents[0]) if v is not None and len(v.exponents) == 1 else None

    choice = decide(model, rounding or DEFAULT_ROUNDING)
    proto = to_onnx(model, all_outputs=True, rounding=choice.rounding, choice=choice)
    dims = {i.name: [d.dim_value for d in i.type.tensor_type.shape.dim] for i in proto.graph.input}
    tests = {t.name for t in g.test_inputs}
    feeds = {}
    for v in g.inputs:
        p = files.get(name_key(v.name))
        if p is not None:
            feeds[v.name] = _real(_load(p), exponent(v.name)).astype(np.float32).reshape(dims[v.name])
        elif v.name in tests:
            feeds[v.name] = model.tensor(v.name).dequantize()
        else:
            raise FormatError(f"no input for {v.name!r}: the folder has no {name_key(v.name)}.npy and the model no test "
                              "input", file=str(folder), expected=f"{name_key(v.name)}.npy")
    feeds.update(first_call_state(proto))
    got = run(proto, feeds, file=model.file)
    layers, used = [], {name_key(v.name) for v in g.inputs}
    for node in g.nodes:
        for out in node.outputs:
            p = files.get(name_key(out))
            if p is None or out not in got:
                continue
            used.add(name_key(out))
            ref = np.asarray(got[out], dtype=np.float64).reshape(-1)
            dump = _real(_load(p), exponent(out)).reshape(-1)
            e = exponent(out)
            step = 2.0 ** e if e is not None else 0.0
            if dump.size != ref.size:
                raise FormatError(f"dump of {out!r} holds {dump.size} elements, the tensor {ref.size}", file=str(p),
                                  expected=ref.size, found=dump.size)
            diff = np.abs(dump - ref)
            noise, signal = float(np.sum(diff ** 2)), float(np.sum(ref ** 2))
            snr = float("inf") if noise == 0 else 10 * np.log10(signal / noise) if signal > 0 else -float("inf")
            layers.append(Layer(out, node.op_type, int(ref.size), snr,
                                int(np.count_nonzero(diff <= step * (1 + 1e-6))), float(diff.max(initial=0.0)), step))
    return LayerComparison(model.name or str(model.file), str(folder), layers,
                           sorted(p.name for k, p in files.items() if k not in used), min_snr_db)


__all__ = ["Layer", "LayerComparison", "compare_layers", "folder_of", "name_key"]
