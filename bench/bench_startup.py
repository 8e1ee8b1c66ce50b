"""CLI start-up: `binparse inspect FILE` against `python -c "import numpy"`, in fresh processes.

    python bench/bench_startup.py

A user looping `binparse inspect` over a model zoo pays the start-up of every call: the imports
(numpy, binparse's core, the one family whose signs the file shows, its accessors) and the read.
The floor is starting Python and importing numpy, which every binparse call needs. Both run as
installed code runs: with compiled bytecode (a warm-up call writes it into a private cache,
whatever PYTHONDONTWRITEBYTECODE says) and binparse's entry-point cache filled.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from timing import Target, report  # noqa: E402

FILES = {
    "TIDL io descriptor": REPO / "fixtures" / "tidl" / "io_08x" / "900_tidl_io_1.bin",
    "ESP-DL model": REPO / "fixtures" / "espdl" / "tensors_and_models" / "model_edl2.espdl",
    "TIDL net": REPO / "fixtures" / "tidl" / "net_10_01" / "914_tidl_net.bin",
}


def main() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = tempfile.mkdtemp(prefix="binparse-pyc-")
    env["BINPARSE_CACHE_DIR"] = tempfile.mkdtemp(prefix="binparse-cache-")

    def run(*argv: str) -> None:  # exit 2 is a read that says what it could not verify (the fixture model's payload)
        code = subprocess.run([sys.executable, *argv], env=env, stdout=subprocess.DEVNULL).returncode
        if code not in (0, 2):
            raise SystemExit(f"{' '.join(argv)} exited {code}")

    files = {what: path for what, path in FILES.items() if path.is_file()}
    run("-c", "import numpy")
    for path in files.values():
        run("-m", "binparse", "inspect", str(path))  # writes the bytecode and the entry-point cache
    floor = 'python -c "import numpy"'
    cases = [(floor, lambda: run("-c", "import numpy"))]
    cases += [(f"binparse inspect ({what})", lambda p=path: run("-m", "binparse", "inspect", str(p)))
              for what, path in files.items()]
    report(cases, base=floor, floor=floor, budget=None, rounds=21, title="CLI start-up",
           targets=tuple(Target(name, floor, 1.5) for name, _ in cases[1:]))


if __name__ == "__main__":
    main()
