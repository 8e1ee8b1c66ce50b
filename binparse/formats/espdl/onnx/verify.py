"""The export run in onnxruntime on a model's own test inputs, against its own test outputs.

esp-ppq writes, beside a model, test inputs and the outputs its simulation of the chip computes from
them: the reference of what the chip must produce. Per output: the share of elements within one
quantization step (2^exponent) of the stored value, and the largest difference. A model reproduces
its test values when every output has at least `THRESHOLD` of its elements within one step.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ....core import budget, inputs
from ....core.exitcodes import OK, PROBLEM, UNVERIFIED
from ....core.text import shown
from .rounding import AUTO, HALF_EVEN, HALF_UP, Choice, by_tests, requested, without_tests

THRESHOLD = 0.99


@dataclass(frozen=True)
class OutputCheck:
    """One output: elements compared, how many within one step, the largest difference."""

    name: str
    count: int
    within: int
    exact: int
    max_diff: float
    step: float

    @property
    def share(self) -> float:
        return self.within / self.count if self.count else 1.0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "elements": self.count, "within_one_step": self.within, "exact": self.exact,
                "share": round(self.share, 6), "max_diff": self.max_diff, "step": self.step}


@dataclass
class ModelCheck:
    """One model of the file: its outputs compared, or why they could not be (`reason`); the rounding
    used and the evidence it was chosen on (`rounding.py`)."""

    name: str
    outputs: list[OutputCheck] = field(default_factory=list)
    reason: str = ""
    choice: Choice | None = None

    @property
    def status(self) -> str:
        if self.reason or not self.outputs:
            return "not verified"
        return "ok" if all(o.share >= THRESHOLD for o in self.outputs) else "problem"


@dataclass
class ExportCheck:
    """`binparse export --check`: every model of a file run on its test inputs (an `Artifact`)."""

    file: str
    rounding: str
    models: list[ModelCheck]

    @property
    def status(self) -> str:
        states = {m.status for m in self.models}
        return "problem" if "problem" in states else "not verified" if "not verified" in states else "ok"

    @property
    def exit_code(self) -> int:
        return {"ok": OK, "problem": PROBLEM}.get(self.status, UNVERIFIED)

    def summary(self) -> dict[str, Any]:
        return {"family": "espdl", "kind": "export_check", "file": self.file, "rounding": self.rounding,
                "status": self.status, "threshold": THRESHOLD,
                "models": [{"name": m.name, "status": m.status, "reason": m.reason,
                            "rounding": m.choice.rounding if m.choice else None,
                            "rounding_evidence": m.choice.evidence if m.choice else None,
                            "outputs": [o.to_json() for o in m.outputs]} for m in self.models]}

    def report(self) -> str:
        how = "rounding chosen per model from evidence" if self.rounding == AUTO else f"rounding {self.rounding}"
        lines = [f"{shown(self.file)}: the ONNX export run in onnxruntime on the model's own test inputs ({how})"]
        for m in self.models:
            label = shown(m.name) or "model"
            if m.choice is not None and self.rounding == AUTO:
                lines.append(f"{label}: rounding {m.choice.rounding}: {shown(m.choice.evidence)}")
            if m.reason:
                lines.append(f"{label}: not verified: {shown(m.reason)}")
                continue
            for o in m.outputs:
                lines.append(f"{label}: output {o.name!r}: {o.within}/{o.count} elements within one step "
                             f"({100 * o.share:.2f} %, {o.exact} exact), largest difference {o.max_diff:g} "
                             f"(step {o.step:g})")
        verdict = {"ok": f"the export reproduces its test outputs (>= {100 * THRESHOLD:g} % within one step)",
                   "problem": f"the export does not reproduce its test outputs (< {100 * THRESHOLD:g} % within one "
                              "step)",
                   "not verified": "nothing to run the export on"}[self.status]
        lines.append(f"{self.status}: {verdict}")
        return "\n".join(lines)


def bound_tensors(proto: Any, file: str | None = None) -> None:
    """Ask the budget (`binparse.core.budget`) for the export's tensors whose shapes onnx infers, before
    running it: a Resize whose scales or a Reshape whose shape the file sets to huge sizes would make
    onnxruntime allocate them. (What onnx cannot infer, a Resize whose scales are computed as it runs,
    is held by the arena `run` caps at the budget.)"""
    from ....core.errors import BinparseError
    from .deps import need
    onnx = need("onnx", purpose="running an ONNX export", file=file)
    try:
        inferred = onnx.shape_inference.infer_shapes(proto)
    except Exception as exc:  # onnx's InferenceError and others: the model's shapes do not fit together
        raise BinparseError(f"the export's shapes do not fit together: {str(exc).splitlines()[0][:300]}", file=file,
                            hint="the model's dims, shapes or attributes contradict each other; not run") from None
    largest = ("", 0)
    for v in (*inferred.graph.value_info, *inferred.graph.output):
        dims = [d.dim_value if d.HasField("dim_value") else 1 for d in v.type.tensor_type.shape.dim]
        largest = max(largest, (v.name, 4 * int(np.prod(dims, dtype=object))), key=lambda x: x[1])
    # a node's input and output live together; what runs at once beyond is held by the arena's cap
    budget.ask(2 * largest[1], f"running the export in onnxruntime: its largest tensor {largest[0]!r} "
                               f"({largest[1]:,} bytes) with its input", file=file, transient=True)


_ARENA: list[int] = []  # onnxruntime's CPU arena, registered once a process: its cap in bytes (0: none)


def _capped_options(ort: Any) -> Any:
    """Session options whose CPU allocations go through one arena capped at the budget left: a tensor
    over it fails in onnxruntime (said as the budget's refusal), never an allocation of it."""
    options = ort.SessionOptions()
    options.log_severity_level = 4
    if not _ARENA:
        try:
            ort.set_default_logger_severity(4)  # onnxruntime's own error lines: binparse says them once
            cap = max(budget.limit() - inputs.current().asked, 64 << 20)
            mem = ort.OrtMemoryInfo("Cpu", ort.OrtAllocatorType.ORT_ARENA_ALLOCATOR, 0, ort.OrtMemType.DEFAULT)
            ort.create_and_register_allocator(mem, ort.OrtArenaCfg({"max_mem": cap, "arena_extend_strategy": 1}))
            _ARENA.append(cap)
        except Exception:  # noqa: BLE001  (an onnxruntime without env allocators: the inferred shapes bound it)
            _ARENA.append(0)
    if _ARENA[0]:
        options.add_session_config_entry("session.use_env_allocators", "1")
    return options


def run(proto: Any, feeds: dict[str, Any], *, file: str | None = None) -> dict[str, Any]:
    """Outputs of `proto` run in onnxruntime on `feeds` (name -> float32 array), within the budget:
    the tensors onnx infers asked first (`bound_tensors`), every allocation in an arena capped at it."""
    from ....core.errors import BinparseError
    from .deps import need
    bound_tensors(proto, file)
    ort = need("onnxruntime", purpose="running an ONNX export", file=file)
    options = _capped_options(ort)
    try:
        session = ort.InferenceSession(proto.SerializeToString(), options, providers=["CPUExecutionProvider"])
        names = [o.name for o in session.get_outputs()]
        return dict(zip(names, session.run(names, feeds)))
    except Exception as exc:  # onnxruntime's Fail, InvalidArgument, ...: one line, not a traceback
        said = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        if "Available memory of" in said:  # the arena's cap: a tensor the file's values make larger than the budget
            err = budget.BudgetError(f"running the export in onnxruntime needs more than the {_ARENA[0]:,} bytes the "
                                     f"budget left it ({budget.describe()}): stopped, nothing allocated past it",
                                     file=file, hint="if the model really is that large, raise the budget: pass "
                                                     f"--budget SIZE (e.g. 4GiB) or set {budget.ENV}")
            inputs.current().refused.append(err)
            raise err from None
        raise BinparseError(f"onnxruntime refused to run the export: {said[:300]}", file=file,
                            hint="the model's shapes or values contradict each other") from None


def compare(name: str, got: Any, want: Any, step: float) -> OutputCheck:
    """`got` (the export's output) against `want` (the stored test output, real values); `step` is
    2^exponent of a quantized output, or the float tolerance of a float one (`float_step`)."""
    g = np.asarray(got, dtype=np.float64).reshape(-1)
    w = np.asarray(want, dtype=np.float64).reshape(-1)
    if g.size != w.size:
        return OutputCheck(name, int(w.size), 0, 0, float("inf"), step)
    diff = np.abs(g - w)
    return OutputCheck(name, int(w.size), int(np.count_nonzero(diff <= step * (1 + 1e-6))),
                       int(np.count_nonzero(diff == 0)), float(diff.max()) if diff.size else 0.0, step)


def first_call_state(proto: Any) -> dict[str, Any]:
    """Zeros for each state input of an export (a StreamingCache's kept frames: `NAME:cache`), as the chip
    starts with; each asked of the budget first (its window_size is the file's claim)."""
    out = {}
    for i in proto.graph.input:
        if i.name.endswith(":cache"):
            dims = [d.dim_value for d in i.type.tensor_type.shape.dim]
            budget.ask(4 * int(np.prod(dims, dtype=object)), f"the kept frames of {shown(i.name)} ({dims} float32: "
                                                             "the StreamingCache's window_size)", transient=True)
            out[i.name] = np.zeros(dims, np.float32)
    return out


FLOAT_RTOL = 1e-3  # a float output: within 1e-3 of its magnitude (and of the output's largest), not a "step" of 1


def float_step(want: Any) -> float:
    """The tolerance of a float output (Softmax, Sqrt, Log... computed in float by esp-dl): 1e-3 of the
    output's largest magnitude, at least 1e-6. esp-ppq's float32 and onnxruntime's differ by float32
    rounding of the same function, far below it."""
    w = np.abs(np.asarray(want, dtype=np.float64))
    return float(max(FLOAT_RTOL * (float(w.max()) if w.size else 0.0), 1e-6))


def _run_once(model: Any, rounding: str, shared: dict[Any, Any]) -> list[OutputCheck]:
    from .convert import to_onnx
    g = model.graph
    proto = to_onnx(model, rounding=rounding, shared=shared)
    graph_inputs = {v.name for v in g.inputs}  # esp-dl's Model::test feeds the graph's inputs, by name, alone
    feeds = {t.name: model.tensor(t.name).dequantize() for t in g.test_inputs if t.name in graph_inputs}
    feeds.update(first_call_state(proto))
    got = run(proto, feeds, file=model.file)
    out = []
    for t in g.test_outputs:
        want = model.tensor(t.name).dequantize()
        quantized = bool(t.exponents) and t.dtype in ("int8", "int16")
        step = float(2.0 ** t.exponents[0]) if quantized else float_step(want)
        if t.name not in got:
            out.append(OutputCheck(t.name, int(np.prod(t.dims)), 0, 0, float("inf"), step))
            continue
        out.append(compare(t.name, got[t.name], want, step))
    return out


def _totals(outputs: list[OutputCheck]) -> tuple[int, int, int]:
    return sum(o.count for o in outputs), sum(o.within for o in outputs), sum(o.exact for o in outputs)


def check_model(model: Any, *, rounding: str = AUTO, shared: dict[Any, Any] | None = None) -> ModelCheck:
    """One model's export run on its test inputs and compared with its test outputs; with `auto`, run
    with both roundings and reported with the one that reproduces more (`rounding.by_tests`)."""
    from .convert import need_key
    need_key(model)
    g = model.graph
    if not g.test_inputs or not g.test_outputs:
        return ModelCheck(model.name, reason="the model carries no test inputs/outputs",
                          choice=requested(rounding) or without_tests(model))
    shared = {} if shared is None else shared  # the constants of both runs made (and budgeted) once
    fixed = requested(rounding)
    if fixed is not None:
        return ModelCheck(model.name, _run_once(model, fixed.rounding, shared), choice=fixed)
    runs = {r: _run_once(model, r, shared) for r in (HALF_EVEN, HALF_UP)}
    choice = by_tests(model, {r: _totals(o) for r, o in runs.items()})
    return ModelCheck(model.name, runs[choice.rounding], choice=choice)


def decide(model: Any, rounding: str = AUTO, shared: dict[Any, Any] | None = None) -> Choice:
    """The rounding to export `model` with (`rounding.py`): `rounding` when fixed, else from the evidence,
    running the export on the model's test values when it has them and onnxruntime is installed."""
    from ....core.budget import BudgetError
    from ....core.errors import BinparseError
    from .deps import available
    fixed = requested(rounding)
    if fixed is not None:
        return fixed
    try:
        has_tests = bool(model.graph.test_inputs and model.graph.test_outputs)
    except BinparseError:
        has_tests = False
    other = without_tests(model)
    if not has_tests:
        return Choice(other.rounding, f"no test values; {other.evidence}", other.source)
    if not available():
        return other
    try:
        choice = check_model(model, rounding=AUTO, shared=shared).choice
    except BudgetError:
        raise
    except BinparseError as exc:  # the export is still made; --check says why it cannot run
        return Choice(other.rounding, f"its test values could not be run ({exc.message}); {other.evidence}",
                      f"test values not run, {other.source}")
    assert choice is not None
    return choice


__all__ = ["FLOAT_RTOL", "THRESHOLD", "ExportCheck", "decide", "float_step", "ModelCheck", "OutputCheck", "bound_tensors", "check_model", "compare", "first_call_state",
           "run"]
