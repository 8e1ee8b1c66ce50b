"""Run a binparse command (or a Python snippet) in a subprocess under a memory cap and a time
limit, and measure its peak RSS: the hostile-input suite's one tool (issue 27).

The resource contract: peak RSS <= FACTOR x input size + ALLOWANCE, whatever the input claims.
`bound(n)` is that number for an input of n bytes; `run_cli(...)` returns the exit code, the
output and the child's own peak RSS (os.wait4), and kills the child at the time limit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

FACTOR = 8
ALLOWANCE = 256 << 20
# What the process takes whatever the file: the interpreter, numpy, yaml, onnx and onnxruntime once
# loaded (measured 30-80 MB a command, about 120 MB running an export). bound() holds for the hand-written cases,
# whose claims are refused far below the budget; a case whose claims reach the budget itself may
# add this (tests/hostile/test_generated.py, docs/contracts.md "Resources").
INTERPRETER = 128 << 20
# The address-space cap is a backstop against a runaway child (it would otherwise take the
# machine); the assertion is on the measured peak RSS against bound().
ADDRESS_CAP = 3 << 30
REPO = Path(__file__).resolve().parents[2]


# The loop of a batch's child script (test_generated.py, test_schemas.py): each of JOBS run in a
# process forked from the batch's, `one(job)` its result (a list), `failed(text, seconds)` the result of
# one that said nothing; each result gets the job's own peak RSS (os.wait4) appended.
FORKED = r"""
results = []
for k, job in enumerate(JOBS):
    sys.__stderr__.write(f"START {k}\n")
    sys.__stderr__.flush()
    r, w = os.pipe()
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            got = json.dumps(one(job)).encode()
        except BaseException as exc:
            got = json.dumps(failed(f"harness: {type(exc).__name__}: {exc}", 0)).encode()
        os.write(w, got)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        got = f.read()
    _, status, usage = os.wait4(pid, 0)
    # nothing said: the watchdog ended it (or a signal), a hang or a crash, with where it was on stderr
    result = json.loads(got) if got else failed(f"ended (status {status})", round(time.monotonic() - start, 3))
    results.append(result + [usage.ru_maxrss * 1024])
with open(sys.argv[2], "w") as f:
    json.dump(results, f)
"""


def bound(input_size: int) -> int:
    """Peak-memory bound for an input of `input_size` bytes (bytes)."""
    return FACTOR * input_size + ALLOWANCE


@dataclass
class Result:
    returncode: int
    stdout: str
    stderr: str
    peak_rss: int          # bytes, the child's own maximum resident set
    seconds: float
    killed: bool           # the time limit ended it


# Linux keeps a process's peak RSS across exec and starts a forked child's at its parent's: a child
# forked straight from a large pytest process would report pytest's size. So a small launcher
# (python -I -S, ~10 MB) is forked instead; it forks and execs the command under the cap, waits for
# it, and writes the command's own wait status and peak RSS (KiB) to the pipe it is given.
LAUNCHER = """
import os, resource, sys
report, cap = int(sys.argv[1]), int(sys.argv[2])
pid = os.fork()
if pid == 0:
    os.close(report)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    try:
        os.execvp(sys.argv[3], sys.argv[3:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
os.write(report, b"%d %d" % (status, usage.ru_maxrss))
"""


def run(argv: Sequence[str], *, timeout: float = 60.0, cwd: str | Path | None = None,
        stdin: bytes | None = None, env: dict[str, str] | None = None) -> Result:
    """Run `argv` capped; never raises for the child's behaviour."""
    e = dict(os.environ)
    e.setdefault("PYTHONPATH", str(REPO))
    e.update(env or {})
    start = time.monotonic()
    report_r, report_w = os.pipe()
    p = subprocess.Popen([sys.executable, "-I", "-S", "-c", LAUNCHER, str(report_w), str(ADDRESS_CAP), *argv],
                         stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=e,
                         start_new_session=True, pass_fds=(report_w,))
    os.close(report_w)
    killed = threading.Event()

    def kill() -> None:
        killed.set()
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    timer = threading.Timer(timeout, kill)
    timer.start()
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [threading.Thread(target=lambda: out.append(p.stdout.read() if p.stdout else b"")),
               threading.Thread(target=lambda: err.append(p.stderr.read() if p.stderr else b""))]
    for r in readers:
        r.start()
    if stdin is not None and p.stdin is not None:
        try:
            p.stdin.write(stdin)
            p.stdin.close()
        except BrokenPipeError:
            pass
    p.wait()
    timer.cancel()
    with os.fdopen(report_r, "rb") as f:
        report = f.read().split()
    for r in readers:
        r.join()
    killed_early = len(report) != 2  # the launcher itself was killed (the time limit) before it reported
    maxrss = 0 if killed_early else int(report[1])
    code = -signal.SIGKILL if killed_early else os.waitstatus_to_exitcode(int(report[0]))
    return Result(code, (out[0] if out else b"").decode("utf-8", "replace"),
                  (err[0] if err else b"").decode("utf-8", "replace"), maxrss * 1024,
                  time.monotonic() - start, killed.is_set())


def run_cli(*args: str | Path, timeout: float = 60.0, cwd: str | Path | None = None) -> Result:
    """`python -m binparse ARGS...` capped (the CLI as a user runs it)."""
    return run([sys.executable, "-m", "binparse", *map(str, args)], timeout=timeout, cwd=cwd)


def run_python(code: str, timeout: float = 60.0, cwd: str | Path | None = None) -> Result:
    """A Python snippet capped (the Python API as a user calls it)."""
    return run([sys.executable, "-c", code], timeout=timeout, cwd=cwd)


def within(result: Result, input_size: int) -> bool:
    """True when the child stayed inside the resource contract for an input of that size."""
    return not result.killed and result.peak_rss <= bound(input_size)


__all__ = ["ALLOWANCE", "FACTOR", "FORKED", "Result", "bound", "run", "run_cli", "run_python", "within"]
