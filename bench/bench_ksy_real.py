"""Kaitai's own gallery schemas on real files: binparse beside the Python the official Kaitai compiler
writes, every value read through the Python API, in one run.

    python bench/bench_ksy_real.py       # needs ../shared/conformance (the gallery) and the Kaitai compiler
    python bench/bench_ksy_real.py elf   # the cases whose schema names it

The schemas are the gallery's own (../shared/conformance/kaitai_struct_formats), tuned for nobody;
the files are ones any Debian machine with Python has, or that a standard tool makes here:

- executable/elf: libstdc++.so.6 (libstdc++6);
- archive/zip: the pip wheel Python bundles (ensurepip/_bundled);
- font/ttf: DejaVuSans.ttf (fonts-dejavu-core; left out with a note when absent);
- database/gettext_mo: dpkg's German messages (/usr/share/locale/de/LC_MESSAGES/dpkg.mo);
- serialization/google_protobuf: an ONNX model `onnx` makes here (a chain of 300 convolutions with
  their weights): the graph message inside it, whose fields are its nodes and weights (the model's
  own top level is 4 fields).

Each case is timed in interleaved rounds (CPU time) four ways: binparse (parse from the bytes, then
a walk that reads every value: seq fields, then instances, records reached through instances two
deep; `binparse.engine.valuewalk`), Kaitai's Python (the same), and the same walk over plain Python
objects holding each parser's values: the walk's own cost, which no reader can go under. Printed
per case: the whole run (Kaitai's time over binparse's) and the readers alone (each run minus its
walk over plain objects). Before timing, both parsers' value trees are checked equal. Target: the
readers alone at least 2x Kaitai's on every case. Then `binparse.compile` of a cached schema in a
fresh process against importing the generated module by itself (≤ 1.5x).
"""

from __future__ import annotations

import glob
import importlib
import os
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import binparse  # noqa: E402
from binparse.engine import kaitai_ref, valuewalk  # noqa: E402
from binparse.engine.backends.numpy_backend import camel  # noqa: E402
from timing import CPU, Spread, _fmt, measure, spread, summarize  # noqa: E402

FORMATS = REPO.parent / "shared" / "conformance" / "kaitai_struct_formats"
TARGET = 2.0  # binparse's readers at least this many times faster than Kaitai's


def real_files(tmp: Path) -> list[tuple[str, Path | None, str]]:
    """(gallery schema, file or None, what the file is / why it is missing)."""
    libstdcxx = sorted(glob.glob("/usr/lib/*/libstdc++.so.6") + glob.glob("/usr/lib*/libstdc++.so.6"))
    import ensurepip
    wheels = sorted(Path(ensurepip.__file__).parent.glob("_bundled/pip-*.whl"))
    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    mo = Path("/usr/share/locale/de/LC_MESSAGES/dpkg.mo")
    return [
        ("executable/elf", Path(libstdcxx[0]).resolve() if libstdcxx else None, "libstdc++.so.6"),
        ("archive/zip", wheels[-1] if wheels else None, "the pip wheel Python bundles"),
        ("font/ttf", font if font.exists() else None, "DejaVuSans.ttf (fonts-dejavu-core)"),
        ("database/gettext_mo", mo if mo.exists() else None, "dpkg's German messages"),
        ("serialization/google_protobuf", onnx_graph(tmp), "the graph of an ONNX model onnx makes"),
    ]


def onnx_graph(tmp: Path) -> Path | None:
    """The GraphProto of an ONNX model made with `onnx`: 300 convolutions (4x4 weights) and their ReLUs."""
    try:
        import numpy as np
        from onnx import TensorProto, helper, numpy_helper
    except ImportError:
        return None
    rng = np.random.default_rng(45)
    nodes, weights, prev = [], [], "x"
    for i in range(300):
        weights.append(numpy_helper.from_array(rng.random((4, 4, 1, 1), dtype=np.float32), f"w{i}"))
        nodes += [helper.make_node("Conv", [prev, f"w{i}"], [f"c{i}"], name=f"conv{i}"),
                  helper.make_node("Relu", [f"c{i}"], [f"r{i}"], name=f"relu{i}")]
        prev = f"r{i}"
    graph = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])],
                              [helper.make_tensor_value_info(prev, TensorProto.FLOAT, [1, 4, 8, 8])], weights)
    model = helper.make_model(graph, producer_name="binparse bench")
    path = tmp / "chain.graph.pb"
    path.write_bytes(model.graph.SerializeToString())
    return path


class Case:
    """One schema on one file: the four timed runs."""

    def __init__(self, schema: str, path: Path, kaitai_dir: Path) -> None:
        ksy = FORMATS / f"{schema}.ksy"
        self.name = f"{schema} on {path.name}"
        self.data = path.read_bytes()
        self.compiled = binparse.compile(ksy, import_path=[FORMATS])
        package = self.compiled.module.__name__.rpartition(".")[0]
        modules = [m for n, m in list(sys.modules.items()) if n.startswith(package + ".")]
        self.names = valuewalk.binparse_names(valuewalk.generated_classes(modules))
        files = kaitai_ref.compile_schemas([ksy], kaitai_dir, import_path=[FORMATS])
        importlib.invalidate_caches()  # the modules just written
        kmods = [importlib.import_module(Path(f).stem) for f in files]
        self.kroot = getattr(importlib.import_module(ksy.stem), camel(ksy.stem))
        self.knames = valuewalk.kaitai_names(kmods, self.names)

    def binparse(self) -> Any:
        return self.compiled.parse(self.data)

    def kaitai(self) -> Any:
        return self.kroot(kaitai_ref.KaitaiStream(kaitai_ref.BytesIO(self.data)))

    def check(self) -> None:
        ours, theirs = valuewalk.tree(self.binparse(), self.names), valuewalk.tree(self.kaitai(), self.knames)
        where = valuewalk.difference(theirs, ours)
        if where is not None:
            raise SystemExit(f"{self.name}: binparse and Kaitai's Python read different values at {where}")

    def runs(self) -> list[tuple[str, Callable[[], Any]]]:
        bp, bp_names = valuewalk.plain_copy(self.binparse(), self.names)
        kp, kp_names = valuewalk.plain_copy(self.kaitai(), self.knames)
        walk = valuewalk.walk
        return [("binparse", lambda: walk(self.binparse(), self.names)),
                ("kaitai", lambda: walk(self.kaitai(), self.knames)),
                ("walk: binparse's values", lambda: walk(bp, bp_names)),
                ("walk: Kaitai's values", lambda: walk(kp, kp_names))]


def main() -> None:
    if not FORMATS.is_dir() or not kaitai_ref.available():
        print("(the Kaitai gallery ../shared/conformance or the Kaitai compiler (.kaitai/) is missing: nothing to time)")
        return
    tmp = Path(tempfile.mkdtemp(prefix="binparse-bench-real-"))
    os.environ["BINPARSE_CACHE"] = str(tmp / "cache")
    sys.setrecursionlimit(10_000)
    (tmp / "kaitai").mkdir()  # before it is on the path: a folder missing then is not looked in again
    sys.path.insert(0, str(tmp / "kaitai"))
    print(f"Python {sys.version.split()[0]}; the gallery's schemas on real files; every value read through the API")
    print("(15 interleaved rounds, CPU time; ratios: Kaitai's time over binparse's, the median of the per-round "
          "ratios, then its min-max)")
    print(f"{'case':58s} {'binparse':>10s} {'Kaitai':>10s} {'whole run':>20s} {'readers alone':>20s}")
    results = []
    only = sys.argv[1:]
    for schema, path, what in real_files(tmp):
        if only and not any(o in schema for o in only):
            continue
        if path is None:
            print(f"{schema}: left out ({what} is not on this machine)")
            continue
        case = Case(schema, path, tmp / "kaitai")
        case.check()
        rounds = measure(case.runs(), budget=1.0, clock=CPU)
        b, k, bw, kw = (rounds[n] for n in ("binparse", "kaitai", "walk: binparse's values", "walk: Kaitai's values"))
        whole: Spread = spread([kt / bt for kt, bt in zip(k, b)])
        readers: Spread = spread([(kt - kwt) / max(bt - bwt, 1e-9) for kt, kwt, bt, bwt in zip(k, kw, b, bw)])
        label = f"{case.name} ({len(case.data) / 1e6:.1f} MB)"
        print(f"{label:58s} {_fmt(statistics.median(b)):>10s} {_fmt(statistics.median(k)):>10s} "
              f"{str(whole):>20s} {str(readers):>20s}")
        ok = readers.median >= TARGET
        results.append({"bench": "ksy_real", "target": f"{case.name}: binparse's readers ≥ {TARGET:g}x faster than "
                        "Kaitai's Python (each run minus its walk over plain objects)", "ratio": round(readers.median, 2),
                        "low": round(readers.low, 2), "high": round(readers.high, 2), "ok": ok})
    for r in results:
        print(f"  target {'met' if r['ok'] else 'MISSED'}: {r['target']}: {r['ratio']:.2f}x "
              f"({r['low']:.2f}-{r['high']:.2f})")
    summarize(results)
    if only:
        return
    from bench_ksy import second_process
    second_process(tmp, FORMATS / "executable" / "elf.ksy")


if __name__ == "__main__":
    main()
