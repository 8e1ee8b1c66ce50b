"""The hostile suite that grows by itself (issue 37, docs/contracts.md "The hostile-input suite"):
the cases of `generator.py` for every reader binparse has, each run through every command that
takes it, in capped subprocesses. Every command must:

- exit with a code of the contract for that command (never a traceback, never "binparse failed");
  the commands: `inspect`, `inspect -v --json`, `doctor --json`, `export --check --json`, `repair`,
  `view`, `draw`, `pack` (a small array), `fixture` (the case as a spec), and `traces` and `compare`
  of a folder;
- take at most 10 s (`SECONDS`) on these 2-core machines;
- stay within the stated budget and the interpreter's own: each command runs in a child forked
  from the batch's process and its peak RSS <= 8 x the case's input + 256 MiB + 128 MiB
  (`command_bound`);
- print strict JSON with `--json` (no NaN or Infinity, no lone surrogate).

CI runs a sample: `CASES` cases of each reader (default 3), chosen by `BINPARSE_HOSTILE_SEED`. The
long run is one command: `BINPARSE_HOSTILE=all python -m pytest tests/hostile/test_generated.py`
(every case of every reader; `BINPARSE_FULL=1` too), or `BINPARSE_HOSTILE_CASES=N` for N of each.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from ..conftest import FULL
from . import generator
from .harness import FORKED, INTERPRETER, Result, bound, run

SECONDS = 10.0
EVERY = os.environ.get("BINPARSE_HOSTILE", "") == "all" or FULL  # the whole run (CONTRIBUTING.md "Slow tests")
CASES = int(os.environ.get("BINPARSE_HOSTILE_CASES", "3"))
SEED = os.environ.get("BINPARSE_HOSTILE_SEED", "issue-37")
GROUPS = 8 if not EVERY and "BINPARSE_HOSTILE_CASES" not in os.environ else None  # CI: 8 subprocesses

# the exit codes each command may give on any input (docs/contracts.md, "Exit codes")
ALLOWED = {"inspect": {0, 2}, "doctor": {0, 1, 2}, "export": {0, 1, 2, 3}, "repair": {0, 2, 3}, "view": {0, 2, 3},
           "draw": {0, 2, 3}, "pack": {0, 2, 3}, "fixture": {0, 2, 3}, "traces": {0, 2, 3}, "compare": {0, 1, 2, 3}}

CHILD = r"""
import contextlib, faulthandler, io, json, os, sys, time, warnings
warnings.simplefilter("ignore")
LIMIT = float(sys.argv[3])
from binparse.cli import main

def strict(text):
    def refuse(c):
        raise ValueError(f"not JSON: {c}")
    todo = [json.loads(text, parse_constant=refuse)]
    while todo:
        v = todo.pop()
        if isinstance(v, str):
            v.encode("utf-8")  # a lone surrogate raises
        elif isinstance(v, dict):
            todo += list(v.keys()) + list(v.values())
        elif isinstance(v, list):
            todo += v

def one(args):
    # one command, run in a forked child: [code, seconds, stderr, bad JSON, one-line errors, bug path]
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    # a watchdog thread of C (it needs no GIL: a hang in a regular expression holds it): past twice
    # the limit the child prints where it is and ends, so the parent names the case and the line
    faulthandler.dump_traceback_later(2 * LIMIT, exit=True, file=sys.__stderr__)
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(args)
        except SystemExit as exc:
            code = exc.code
        except BaseException as exc:
            code = f"raised {type(exc).__name__}: {exc}"
    seconds = time.monotonic() - start
    faulthandler.cancel_dump_traceback_later()
    bad_json = ""
    if "--json" in args and code in (0, 1, 2) and out.getvalue().strip():
        try:
            strict(out.getvalue())
        except Exception as exc:
            bad_json = f"{type(exc).__name__}: {exc}"[:300]
    said = err.getvalue()
    lines_ok = all(line.startswith(("binparse: error: ", "binparse: warning: ")) for line in said.splitlines())
    return [code, round(seconds, 3), said[:1500], bad_json, lines_ok, "binparse failed (" in said]

# each command in a child forked from this small process (binparse.cli imported, nothing run): its own
# peak RSS (os.wait4) is the command's, as a command started alone would have it with binparse loaded
given = json.load(open(sys.argv[1]))
for args in given["warm"]:  # each reader's own sample first, here: what the children import and cache is loaded once
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(args)
        except BaseException:
            pass
JOBS = given["jobs"]


def failed(text, seconds):
    return [text, seconds, "", "", False, False]
""" + FORKED


ONE = generator.REPO / "fixtures" / "tidl" / "io_08x" / "input_1_im_info.expected.npy"  # a small array to pack


def commands(case: generator.Case, where: Path, out: Path) -> list[list[str]]:
    """Every command that takes the case, pointed at it (outputs into `out`)."""
    target = str(where / case.target) if case.target else str(where)
    fmt = ["--format", case.format] if case.format else []
    argv = [["inspect", *fmt, target], ["inspect", "-v", "--json", *fmt, target], ["doctor", "--json", str(where)],
            ["export", "--check", "--json", target], ["repair", target, "-o", str(out / "fixed")],
            ["view", *fmt, target, "--npy", str(out / "x.npy")], ["draw", *fmt, target, "--svg", str(out / "x.svg")],
            ["pack", *fmt, target, str(ONE), "--out", str(out / "x.bin")], ["fixture", target, "-o", str(out / "fx")]]
    if not case.target:
        argv += [["traces", "--json", target], ["compare", "--json", target, target]]
    return argv


WARM_FOLDERS = ("tidl/io_08x", "tidl/traces_10_01", "espdl/int32_defect", "intel_dla/testnet_manual", "dlhdl/conv_and_fc")


def warm_up(cases: list[generator.Case], out: Path) -> list[list[str]]:
    """Commands on the batch's readers' own samples (and `doctor` of a small fixture folder of each
    family), run in the batch's process before the cases: the modules and caches every forked child
    would otherwise load again."""
    out.mkdir()
    samples, specs = generator.readers(), generator.spec_samples()
    argv = [["doctor", "--json", str(generator.REPO / "fixtures" / f)] for f in WARM_FOLDERS]
    for reader in sorted({c.reader for c in cases}):
        if reader in specs:
            argv.append(["fixture", str(specs[reader]), "-o", str(out / "fx")])
        elif reader in samples and samples[reader].path.is_file():
            sample = samples[reader]
            argv += [a for a in commands(generator.Case(reader, "sample", dict, "x", sample.format), sample.path.parent, out)
                     if a[0] not in ("doctor", "repair", "fixture")]
            argv = [[str(sample.path) if x == str(sample.path.parent / "x") else x for x in a] for a in argv]
    return argv


def batches() -> list[tuple[str, list[generator.Case]]]:
    """(name, cases) of each subprocess: the sample in GROUPS groups, or every reader's own."""
    per_reader = [(r, generator.cases(r, every=EVERY)) for r in generator.every_reader()]
    if EVERY:
        return per_reader
    picked = [(r, generator.pick(cs, CASES, SEED)) for r, cs in per_reader]
    if GROUPS is None:
        return picked
    flat = [c for _, cs in picked for c in cs]
    return [(f"sample {g + 1} of {GROUPS}", flat[g::GROUPS]) for g in range(GROUPS)]


def _ids() -> list[str]:
    if EVERY or GROUPS is None:
        return generator.every_reader()
    return [f"sample {g + 1} of {GROUPS}" for g in range(GROUPS)]


@pytest.mark.parametrize("batch", _ids())
def test_generated_hostile_cases(batch: str, tmp_path: Path) -> None:
    cases = dict(batches())[batch]
    jobs: list[list[str]] = []
    owner: list[tuple[generator.Case, str]] = []
    for k, case in enumerate(cases):
        where = tmp_path / f"c{k:04d}"
        where.mkdir()
        for rel, data in case.files.items():
            (where / rel).parent.mkdir(parents=True, exist_ok=True)
            (where / rel).write_bytes(data)
        out = tmp_path / f"o{k:04d}"
        out.mkdir()
        for argv in commands(case, where, out):
            jobs.append(argv)
            owner.append((case, argv[0]))
    (tmp_path / "jobs.json").write_text(json.dumps({"warm": warm_up(cases, tmp_path / "warm"), "jobs": jobs}))
    largest = max((c.size for c in cases), default=0)
    r = _run(tmp_path, len(jobs))
    started = [int(line.split()[1]) for line in r.stderr.splitlines() if line.startswith("START ")]
    if r.killed or r.returncode != 0:
        k = started[-1] if started else 0
        case, cmd = owner[k]
        pytest.fail(f"{case.key}: `{' '.join(jobs[k][:1])}` ended the batch (killed {r.killed}, exit {r.returncode}, "
                    f"after {r.seconds:.0f} s): {r.stderr[-3000:]}")
    results = json.loads((tmp_path / "results.json").read_text())
    failures = []
    assert len(results) == len(jobs)
    for (case, cmd), argv, (code, seconds, err, bad_json, lines_ok, bug, peak) in zip(owner, jobs, results):
        why = []
        if peak > command_bound(case.size):
            why.append(f"peak RSS {peak:,} bytes over {command_bound(case.size):,}")
        if code not in ALLOWED[cmd]:
            why.append(f"exit {code}, not one of {sorted(ALLOWED[cmd])}")
        if bug:
            why.append("the bug path")
        if not lines_ok:
            why.append("stderr not one-line errors")
        if seconds > SECONDS:
            why.append(f"{seconds:.1f} s")
        if bad_json:
            why.append(f"--json is not strict JSON ({bad_json})")
        if why:
            failures.append(f"{case.key}: {' '.join(argv[:1] + [a for a in argv[1:] if a.startswith('-')])}: "
                            f"{'; '.join(why)}: {err[-600:]}")
    report = os.environ.get("BINPARSE_HOSTILE_REPORT")
    if report:  # the long run's numbers, a line a batch: cases, commands, peak RSS against the bound, times
        with open(report, "a") as f:
            worst = max(range(len(results)), key=lambda k: results[k][6] - command_bound(owner[k][0].size))
            f.write(json.dumps({"batch": batch, "cases": len(cases), "commands": len(jobs),
                                "peak_rss": max(x[6] for x in results), "worst_peak": results[worst][6],
                                "its_bound": command_bound(owner[worst][0].size), "largest_input": largest,
                                "seconds": round(r.seconds, 1), "slowest": max((x[1] for x in results), default=0),
                                "failures": len(failures)}) + "\n")
    assert failures == []


def command_bound(input_size: int) -> int:
    """A command's peak RSS: the budget of its input (what the file's claims may allocate) and the
    interpreter's own (Python, numpy, onnx and onnxruntime when an export runs)."""
    return bound(input_size) + INTERPRETER


def _run(tmp_path: Path, njobs: int) -> Result:
    """The batch's child: one capped process running every job, each timed in it."""
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    return run([sys.executable, str(script), str(tmp_path / "jobs.json"), str(tmp_path / "results.json"), str(SECONDS)],
               timeout=SECONDS * njobs + 60)


def test_every_reader_has_cases() -> None:
    """The generator asks the registry and the families: every registered format has a reader with cases."""
    from binparse.family import registry
    names = generator.readers()
    assert sorted(f.name for f in registry.registered() if f.name not in names) == []
    assert all(generator.cases(r) for r in generator.every_reader()[:3])
