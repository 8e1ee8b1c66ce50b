"""Make small ESP-DL models of single ops and small nets with Espressif's own quantizer, esp-ppq, as
test cases of `binparse export --check` (each model carries esp-ppq's test input and the outputs its
simulation of the chip computes).

Runs outside CI, in its own venv (esp-ppq needs torch; never the project's venv):

    python3 -m venv /work/venv-ppq && . /work/venv-ppq/bin/activate
    pip install torch==2.13.0 esp-ppq==1.3.12     # torch: the CPU wheel
    python tools/espppq_models.py OUT_FOLDER [--only NAME,...] [--targets esp32p4,esp32s3,c] [--bits 8,16]

Writes OUT_FOLDER/TARGET/NAME_sBITS.espdl (+ .info, .json) and OUT_FOLDER/MANIFEST.txt (esp-ppq's and
torch's versions). Models are small (inputs of a few hundred elements) so that some can be committed
as fixtures (fixtures/espdl/espppq/).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from pathlib import Path
from typing import Any, Callable

import torch
from torch import nn
from torch.utils.data import DataLoader


class Fn(nn.Module):
    """One function of the input(s) as a module."""

    def __init__(self, fn: Callable[..., Any], params: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.fn = fn
        for k, v in (params or {}).items():
            setattr(self, k, v)

    def forward(self, *xs: Any) -> Any:
        return self.fn(self, *xs)


def _p(*shape: int) -> nn.Parameter:
    return nn.Parameter(torch.randn(*shape) * 0.5)


class Recurrent(nn.Module):
    """As esp-dl's tools/ops_test (LSTM_TEST, GRU_TEST): (seq, batch, input), every output returned."""

    def __init__(self, cell: type) -> None:
        super().__init__()
        self.rnn = cell(input_size=8, hidden_size=8)

    def forward(self, x: Any, *state: Any) -> Any:  # esp-ppq needs the initial states as inputs
        out, last = self.rnn(x, tuple(state) if len(state) > 1 else state[0])
        return (out, *last) if isinstance(last, tuple) else (out, last)


# name -> (module factory, input shape(s))
MODELS: dict[str, tuple[Callable[[], nn.Module], list[list[int]]]] = {
    "conv_relu": (lambda: nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.ReLU()), [[1, 4, 8, 8]]),
    "conv_grouped": (lambda: nn.Conv2d(8, 8, 3, padding=1, groups=4), [[1, 8, 6, 6]]),
    # issue 47: 16 output channels (one aligned block) of 2 input channels a group
    "conv_grouped_n16": (lambda: nn.Conv2d(8, 16, 3, padding=1, groups=4), [[1, 8, 8, 6]]),
    "conv_depthwise": (lambda: nn.Conv2d(16, 16, 3, padding=1, groups=16), [[1, 16, 6, 6]]),
    "conv_unaligned": (lambda: nn.Conv2d(4, 3, 3), [[1, 4, 6, 6]]),
    "conv1d": (lambda: nn.Conv1d(4, 16, 3, padding=1), [[1, 4, 12]]),
    "gemm_n2": (lambda: nn.Linear(24, 2), [[1, 24]]),
    "gemm_n3": (lambda: nn.Linear(24, 3), [[1, 24]]),
    "gemm_n20": (lambda: nn.Linear(24, 20), [[1, 24]]),
    "matmul_const": (lambda: Fn(lambda m, x: torch.matmul(x, m.w), {"w": _p(24, 40)}), [[1, 5, 24]]),
    "matmul_dynamic": (lambda: Fn(lambda m, x, y: torch.matmul(x, y)), [[1, 5, 24], [1, 24, 20]]),
    "matmul_const_n3": (lambda: Fn(lambda m, x: torch.matmul(x, m.w), {"w": _p(24, 3)}), [[1, 5, 24]]),
    "pad": (lambda: Fn(lambda m, x: nn.functional.pad(x, (1, 2, 0, 1))), [[1, 4, 5, 5]]),
    "pad_reflect": (lambda: Fn(lambda m, x: nn.functional.pad(x, (1, 1, 1, 1), mode="reflect")), [[1, 4, 5, 5]]),
    "gather": (lambda: Fn(lambda m, x: x[:, torch.tensor([2, 0, 1])]), [[1, 4, 6]]),
    "reduce_max": (lambda: Fn(lambda m, x: torch.amax(x, dim=1, keepdim=True)), [[1, 4, 5, 5]]),
    "reduce_sum": (lambda: Fn(lambda m, x: torch.sum(x, dim=[2, 3], keepdim=True)), [[1, 4, 5, 5]]),
    "reduce_min": (lambda: Fn(lambda m, x: torch.amin(x, dim=2, keepdim=True)), [[1, 4, 5, 5]]),
    "max": (lambda: Fn(lambda m, x, y: torch.maximum(x, y)), [[1, 4, 5, 5], [1, 4, 5, 5]]),
    "min": (lambda: Fn(lambda m, x, y: torch.minimum(x, y)), [[1, 4, 5, 5], [1, 4, 5, 5]]),
    "exp": (lambda: Fn(lambda m, x: torch.exp(x)), [[1, 4, 5, 5]]),
    "abs": (lambda: Fn(lambda m, x: torch.abs(x)), [[1, 4, 5, 5]]),
    "neg": (lambda: Fn(lambda m, x: -x), [[1, 4, 5, 5]]),
    "elu": (lambda: nn.ELU(0.8), [[1, 4, 5, 5]]),
    "softplus": (lambda: nn.Softplus(), [[1, 4, 5, 5]]),
    "gelu": (lambda: nn.GELU(), [[1, 4, 5, 5]]),
    "sqrt": (lambda: Fn(lambda m, x: torch.sqrt(torch.abs(x) + 0.1)), [[1, 4, 5, 5]]),
    "log": (lambda: Fn(lambda m, x: torch.log(torch.abs(x) + 0.5)), [[1, 4, 5, 5]]),
    "softmax": (lambda: nn.Softmax(dim=-1), [[1, 4, 10]]),
    "log_softmax": (lambda: nn.LogSoftmax(dim=-1), [[1, 4, 10]]),
    "clip": (lambda: Fn(lambda m, x: torch.clamp(x, -0.5, 0.75)), [[1, 4, 5, 5]]),
    "relu6": (lambda: nn.ReLU6(), [[1, 4, 5, 5]]),
    "sigmoid": (lambda: nn.Sigmoid(), [[1, 4, 5, 5]]),
    "tanh": (lambda: nn.Tanh(), [[1, 4, 5, 5]]),
    "hardswish": (lambda: nn.Hardswish(), [[1, 4, 5, 5]]),
    "hardsigmoid": (lambda: nn.Hardsigmoid(), [[1, 4, 5, 5]]),
    "leaky_relu": (lambda: nn.LeakyReLU(0.1), [[1, 4, 5, 5]]),
    "prelu": (lambda: nn.PReLU(4), [[1, 4, 5, 5]]),
    "silu": (lambda: nn.SiLU(), [[1, 4, 5, 5]]),
    "depth_to_space": (lambda: nn.PixelShuffle(2), [[1, 16, 3, 3]]),
    "space_to_depth": (lambda: nn.PixelUnshuffle(2), [[1, 4, 4, 4]]),
    "layer_norm": (lambda: nn.LayerNorm(10), [[1, 4, 10]]),
    "lstm": (lambda: Recurrent(nn.LSTM), [[3, 1, 8], [1, 1, 8], [1, 1, 8]]),
    "gru": (lambda: Recurrent(nn.GRU), [[3, 1, 8], [1, 1, 8]]),
    "rms_norm": (lambda: Fn(lambda m, x: x * torch.rsqrt(torch.mean(x * x, dim=-1, keepdim=True) + 1e-6) * m.w,
                            {"w": _p(10)}), [[1, 4, 10]]),
    "lp_norm": (lambda: Fn(lambda m, x: nn.functional.normalize(x, dim=-1)), [[1, 4, 10]]),
    "add_mul": (lambda: Fn(lambda m, x, y: x * y + x - y / 2), [[1, 4, 5, 5], [1, 4, 5, 5]]),
    "div": (lambda: Fn(lambda m, x, y: x / (torch.abs(y) + 0.5)), [[1, 4, 5, 5], [1, 4, 5, 5]]),
    "pool": (lambda: nn.Sequential(nn.MaxPool2d(2), nn.AvgPool2d(2, ceil_mode=True)), [[1, 4, 8, 8]]),
    "global_pool": (lambda: nn.AdaptiveAvgPool2d(1), [[1, 4, 5, 5]]),
    "resize": (lambda: nn.Upsample(scale_factor=2, mode="nearest"), [[1, 4, 3, 3]]),
    "concat_split": (lambda: Fn(lambda m, x, y: torch.cat(torch.split(torch.cat([x, y], 1), [3, 5], 1)[::-1], 1)),
                     [[1, 4, 5, 5], [1, 4, 5, 5]]),
    "transpose_reshape": (lambda: Fn(lambda m, x: x.permute(0, 2, 1, 3).reshape(1, 5, 20)), [[1, 4, 5, 5]]),
    "slice": (lambda: Fn(lambda m, x: x[:, 1:3, ::2, 1:]), [[1, 4, 5, 5]]),
    "reduce_mean": (lambda: Fn(lambda m, x: torch.mean(x, dim=[2, 3], keepdim=True)), [[1, 4, 5, 5]]),
    "pow": (lambda: Fn(lambda m, x: torch.pow(x, 2)), [[1, 4, 5, 5]]),
    "small_cnn": (lambda: nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(),
                                        nn.Conv2d(8, 8, 3, padding=1, groups=8), nn.Hardswish(),
                                        nn.Conv2d(8, 16, 1), nn.Sigmoid(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                                        nn.Linear(16, 3)), [[1, 3, 12, 12]]),
}
# issue 47: the same net (the same seed, so the same float weights) exported at another input size, whose
# printout beside the 12 x 12 model describes another model (fixtures/espdl/other_export)
MODELS["small_cnn_16x16"] = (MODELS["small_cnn"][0], [[1, 3, 16, 16]])


def make(name: str, target: str, bits: int, out: Path) -> str:
    from esp_ppq.api import espdl_quantize_torch
    factory, shapes = MODELS[name]
    torch.manual_seed(0)
    model = factory().eval()
    multi = len(shapes) > 1
    data = [[torch.randn(*s) for s in shapes] if multi else torch.randn(*shapes[0]) for _ in range(8)]
    loader = DataLoader(data, batch_size=1, shuffle=False)  # batches of one: the model's own shapes are x[0]
    collate = (lambda x: [t[0].to("cpu") for t in x]) if multi else (lambda x: x[0].to("cpu"))
    folder = out / target
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}_s{bits}.espdl"
    log = io.StringIO()
    with contextlib.redirect_stdout(log), contextlib.redirect_stderr(log):
        espdl_quantize_torch(model=model, espdl_export_file=str(path), calib_dataloader=loader, calib_steps=8,
                             input_shape=shapes if multi else shapes[0], target=target, num_of_bits=bits,
                             collate_fn=collate, device="cpu", error_report=False, skip_export=False,
                             export_test_values=True, export_config=True, verbose=0)
    return str(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    ap.add_argument("--targets", default="esp32p4,esp32s3,c")
    ap.add_argument("--bits", default="8,16")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    import esp_ppq  # noqa: F401
    from importlib.metadata import version
    (out / "MANIFEST.txt").write_text(f"esp-ppq {version('esp-ppq')}\ntorch {torch.__version__}\n"
                                      f"made by tools/espppq_models.py\n")
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    failed = 0
    for target in args.targets.split(","):
        for bits in (int(b) for b in args.bits.split(",")):
            for name in names:
                try:
                    print("made", make(name, target, bits, out), flush=True)
                except Exception as exc:  # noqa: BLE001  (esp-ppq refuses some op/target pairs: said, not fatal)
                    failed += 1
                    print(f"FAILED {target} {name} s{bits}: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
    print(f"{failed} failed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    sys.exit(main())
