"""Export an .espdl model to ONNX and run it once in onnxruntime, in a fresh process each time (what
`binparse export MODEL -o M.onnx` then a first inference costs a user), against the floor of only
starting Python with onnx and onnxruntime imported. The target: export + run under 5 s.

    python bench/bench_espdl_onnx.py                      # the biggest real model of ../shared/real/espdl
    BINPARSE_ONNX_BENCH_MODEL=PATH python bench/bench_espdl_onnx.py   # e.g. esp-dl's yolo11n model zoo file
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from timing import report  # noqa: E402

REAL = REPO.parent / "shared" / "real" / "espdl" / "model-properties-info" / "pruned_keep14_v2.espdl"
LIMIT_S = 5.0
RUN = """
import sys, numpy as np
from binparse.formats.espdl import onnx as eo
from binparse.formats.espdl.onnx.verify import run
proto = eo.export(sys.argv[1])
feeds = {i.name: np.zeros([d.dim_value or 1 for d in i.type.tensor_type.shape.dim], np.float32)
         for i in proto.graph.input}
out = run(proto, feeds)
print(len(proto.graph.node), sum(v.size for v in out.values()))
"""
FLOOR = "import numpy, onnx, onnxruntime"


def main() -> int:
    model = Path(os.environ.get("BINPARSE_ONNX_BENCH_MODEL") or REAL)
    if not model.is_file():
        print(f"(no model at {model}: skipped)")
        return 0
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        print("(onnxruntime not installed: pip install 'binparse[onnx]'; skipped)")
        return 0
    first = subprocess.run([sys.executable, "-c", RUN, str(model)], capture_output=True, text=True, check=True)
    nodes, elements = first.stdout.split()
    print(f"{model.name}: {model.stat().st_size:,} bytes -> {nodes} ONNX nodes, {elements} output elements")
    cases = [("export + onnxruntime run", lambda: subprocess.run([sys.executable, "-c", RUN, str(model)], check=True,
                                                                 capture_output=True)),
             ("python -c 'import onnx, onnxruntime'", lambda: subprocess.run([sys.executable, "-c", FLOOR], check=True))]
    times = report(cases, cases[0][0], cases[1][0], budget=None, title="espdl_onnx", rounds=5)
    t = statistics.median([times[cases[0][0]]])
    ok = t < LIMIT_S
    target = f"export + run of {model.name} ≤ 1x a {LIMIT_S:g} s budget ({t:.2f} s)"
    print(f"  target {'met' if ok else 'MISSED'}: {target}")
    summary = os.environ.get("BINPARSE_BENCH_SUMMARY")  # bench/run.py's list of every target
    if summary:
        with open(summary, "a") as f:
            f.write(json.dumps({"bench": "espdl_onnx", "target": target, "ratio": round(t / LIMIT_S, 2), "ok": ok}) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
