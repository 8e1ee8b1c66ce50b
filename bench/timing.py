"""Shared timing helper for the benchmarks: per-call times side by side, printed as ratios.

Every case of a table is timed in the same run, and the repeats are interleaved (round 1 of every
case, then round 2, ...), so a slow patch of a shared machine hits all cases alike instead of one.
The best round counts. `report` prints the table and checks the table's targets; `bench/run.py`
collects every target of every benchmark into one summary (through BINPARSE_BENCH_SUMMARY).
"""

from __future__ import annotations

import json
import os
import timeit
from dataclasses import dataclass
from typing import Any, Callable

ROUNDS = 7


@dataclass(frozen=True)
class Target:
    """`case` must take at most `limit` times `peer` (`faster=False`), or `peer` must take at least
    `limit` times `case` (`faster=True`, "case is at least `limit`x faster than peer"). Several
    peers: the fastest of them counts."""

    case: str
    peer: str | tuple[str, ...]
    limit: float
    faster: bool = False

    def check(self, times: dict[str, float]) -> tuple[float, bool]:
        peers = (self.peer,) if isinstance(self.peer, str) else self.peer
        peer = min(times[p] for p in peers if p in times)
        ratio = peer / times[self.case] if self.faster else times[self.case] / peer
        return ratio, ratio >= self.limit if self.faster else ratio <= self.limit

    def describe(self) -> str:
        peer = self.peer if isinstance(self.peer, str) else "the fastest of " + ", ".join(self.peer)
        return (f"{self.case} ≥ {self.limit:g}x faster than {peer}" if self.faster
                else f"{self.case} ≤ {self.limit:g}x {peer}")


def _calibrate(fn: Callable[[], Any], budget: float) -> int:
    """Calls per round so that a round takes about budget / ROUNDS seconds."""
    n = 1
    while True:
        t = timeit.timeit(fn, number=n)
        if t > budget / 50:
            break
        n *= 4
    return max(1, int(n * (budget / ROUNDS) / max(t, 1e-9)))


def measure(cases: list[tuple[str, Callable[[], Any]]], budget: float | None = 0.4) -> dict[str, float]:
    """Best per-call time in seconds of each case over interleaved rounds (budget None: one call
    per round, for slow cases)."""
    numbers = {name: 1 if budget is None else _calibrate(fn, budget) for name, fn in cases}
    best = {name: float("inf") for name, _ in cases}
    for _ in range(ROUNDS):
        for name, fn in cases:
            n = numbers[name]
            best[name] = min(best[name], timeit.timeit(fn, number=n) / n)
    return best


def per_call(fn: Callable[[], Any], budget: float | None = 0.4) -> float:
    """Best per-call time in seconds of one function."""
    return measure([("", fn)], budget)[""]


def _fmt(t: float) -> str:
    if t >= 0.1:
        return f"{t:.2f} s"
    if t >= 1e-4:
        return f"{t * 1e3:.2f} ms"
    return f"{t * 1e6:.2f} µs"


def report(cases: list[tuple[str, Callable[[], Any]]], base: str, floor: str, budget: float | None = 0.4,
           targets: tuple[Target, ...] = (), title: str = "") -> dict[str, float]:
    """Time every case in one run, print per-call times with ratios to `base` and `floor`, then
    each target with its measured ratio."""
    times = measure(cases, budget)
    width = max(len(n) for n, _ in cases) + 2
    print(f"{'case':{width}s} {'per call':>12s} {'÷ ' + base[:18]:>22s} {'÷ ' + floor[:18]:>22s}")
    for name, t in times.items():
        print(f"{name:{width}s} {_fmt(t):>12s} {t / times[base]:21.2f}x {t / times[floor]:21.2f}x")
    results = []
    for target in targets:
        peers = (target.peer,) if isinstance(target.peer, str) else target.peer
        if not any(p in times for p in peers):
            print(f"  target not checked (peer not installed): {target.describe()}")
            continue
        ratio, ok = target.check(times)
        print(f"  target {'met' if ok else 'MISSED'}: {target.describe()}: {ratio:.2f}x")
        results.append({"bench": title, "target": target.describe(), "ratio": round(ratio, 2), "ok": ok})
    summary = os.environ.get("BINPARSE_BENCH_SUMMARY")
    if summary and results:
        with open(summary, "a") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
    return times
