"""A dump of a big real file: `binparse inspect BIG.so --schema elf.ksy --json` beside Kaitai's Python
parsing the same file with the gallery's own `elf.ksy`, walking every value and writing it as JSON.

    python bench/bench_ksy_dump.py            # the smallest shared library of 50 MB or more under /usr/lib
    python bench/bench_ksy_dump.py FILE       # another ELF file

Each side runs in a fresh process, three rounds, one after the other: binparse's command line as a
user runs it (`> /dev/null`, the default budget), and Kaitai's generated parser (`Elf.from_file`), then
the same walk over every value as `bench_ksy_real.py` (`binparse.engine.valuewalk.tree`: seq fields,
instances, records reached through instances two deep) and `json.dump` to `/dev/null`. Printed: the
CPU time of each process (user + system) and its peak RSS. Targets (issue 45): binparse's dump takes
no more time than Kaitai's run, and its peak RSS stays under 512 MB.
"""

from __future__ import annotations

import glob
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from binparse.engine import kaitai_ref  # noqa: E402
from timing import summarize  # noqa: E402

FORMATS = REPO.parent / "shared" / "conformance" / "kaitai_struct_formats"
ELF = FORMATS / "executable" / "elf.ksy"
ROUNDS = 3

KAITAI = """
import importlib, json, os, sys
sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])
import binparse
from binparse.engine import valuewalk
ours = binparse.compile(sys.argv[3])
names = valuewalk.kaitai_names([importlib.import_module("elf")], valuewalk.binparse_names(
    valuewalk.generated_classes([sys.modules[ours.root_class.__module__]])))
mod = importlib.import_module("elf")
tree = valuewalk.tree(mod.Elf.from_file(sys.argv[4]), names)
with open(os.devnull, "w") as f:
    json.dump(tree, f, default=lambda v: v.hex() if isinstance(v, (bytes, bytearray)) else str(v))
"""


def big_library() -> Path | None:
    found = [Path(p) for pattern in ("/usr/lib/*.so*", "/usr/lib/*/*.so*", "/usr/lib/*/lib/*.so*")
             for p in glob.glob(pattern)]
    big = [p for p in found if p.is_file() and not p.is_symlink() and p.stat().st_size >= 50_000_000]
    elf = [p for p in big if p.open("rb").read(4) == b"\x7fELF"]
    return min(elf, key=lambda p: p.stat().st_size) if elf else None


PEAK = """
import resource, runpy, sys
code = sys.argv.pop(1)
sys.argv[0] = "-c"
try:
    exec(compile(code, "<bench>", "exec"), {"__name__": "__main__"})
finally:
    r = resource.getrusage(resource.RUSAGE_SELF)
    print(r.ru_utime + r.ru_stime, r.ru_maxrss, file=sys.stderr)
"""


def run(code: str, args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(CPU seconds, peak RSS in MB) of `code` run with `args` in a fresh process (Linux: ru_maxrss in KB)."""
    with open(os.devnull, "w") as out:
        r = subprocess.run([sys.executable, "-c", PEAK, code, *args], stdout=out, stderr=subprocess.PIPE,
                           text=True, check=True, env=env)
    cpu, kb = r.stderr.split()[-2:]
    return float(cpu), int(kb) / 1024


def main() -> None:
    if not FORMATS.is_dir() or not kaitai_ref.available():
        print("(the Kaitai gallery ../shared/conformance or the Kaitai compiler (.kaitai/) is missing: nothing to time)")
        return
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else big_library()
    if path is None:
        print("(no shared library of 50 MB or more under /usr/lib: nothing to time)")
        return
    tmp = Path(tempfile.mkdtemp(prefix="binparse-bench-dump-"))
    env = {**os.environ, "BINPARSE_CACHE": str(tmp / "cache")}
    kaitai_ref.compile_schemas([ELF], tmp / "kaitai")
    cli = "import sys; from binparse.cli import main; sys.exit(main(sys.argv[1:]))"
    ours = (cli, ["inspect", str(path), "--schema", str(ELF), "--json"])
    theirs = (KAITAI, [str(tmp / "kaitai"), str(REPO), str(ELF), str(path)])
    run(*ours, env)  # the schema compiled and cached once, as a user's second run finds it
    print(f"{path} ({path.stat().st_size / 1e6:.0f} MB), the gallery's elf.ksy; {ROUNDS} rounds, each in a fresh process",
          flush=True)
    b_cpu, k_cpu, b_rss, k_rss = [], [], [], []
    for _ in range(ROUNDS):
        cpu, rss = run(*ours, env)
        b_cpu.append(cpu)
        b_rss.append(rss)
    for _ in range(ROUNDS):
        cpu, rss = run(*theirs, env)
        k_cpu.append(cpu)
        k_rss.append(rss)
    b, k = statistics.median(b_cpu), statistics.median(k_cpu)
    print(f"  binparse inspect --json          {b:7.1f} s CPU  peak RSS {max(b_rss):6.0f} MB")
    print(f"  Kaitai's Python: parse+walk+JSON {k:7.1f} s CPU  peak RSS {max(k_rss):6.0f} MB")
    ratio = k / b
    lows = [kt / bt for kt, bt in zip(k_cpu, b_cpu)]
    results = [
        {"bench": "ksy_dump", "target": f"inspect --json of {path.name}: no slower than Kaitai's Python (parse, walk, "
         "JSON)", "ratio": round(ratio, 2), "low": round(min(lows), 2), "high": round(max(lows), 2), "ok": ratio >= 1.0},
        {"bench": "ksy_dump", "target": f"inspect --json of {path.name}: peak RSS under 512 MB (MB measured)",
         "ratio": round(max(b_rss)), "low": round(min(b_rss)), "high": round(max(b_rss)), "ok": max(b_rss) < 512},
    ]
    for r in results:
        print(f"  target {'met' if r['ok'] else 'MISSED'}: {r['target']}: {r['ratio']}")
    summarize(results)


if __name__ == "__main__":
    main()
