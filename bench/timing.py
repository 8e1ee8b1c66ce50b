"""Shared timing helper for the benchmarks: per-call times side by side, printed as ratios with
their spread.

Every case of a table is timed in the same run, and the repeats are interleaved (round 1 of every
case, then round 2, ...), so a slow patch of a shared machine hits all cases alike instead of one.
A round times many calls of one case (about budget / ROUNDS seconds); a ratio is taken round by
round (case and peer of the same round), and reported as the median over the rounds with its
minimum and maximum. Targets are checked on the median. `report` prints the table and checks the
table's targets; `bench/run.py` collects every target of every benchmark into one summary
(through BINPARSE_BENCH_SUMMARY).

The clock is the wall clock by default. A table whose cases all run on one thread passes
`clock=CPU` (the process's CPU time): on a shared machine the wall clock also counts the time
other processes hold the cores, which swings a round by several times, while the CPU time of
single-threaded code does not (on an idle machine the two agree). Cases that use several threads
(pyarrow, polars, binparse's mapping reader) need the wall clock: CPU time would add up their
threads.
"""

from __future__ import annotations

import json
import os
import statistics
import time
import timeit
from dataclasses import dataclass
from typing import Any, Callable

ROUNDS = 15
WALL, CPU = time.perf_counter, time.process_time

Rounds = dict[str, list[float]]  # case -> per-call seconds in each round


@dataclass(frozen=True)
class Spread:
    """A ratio over the rounds: median, minimum, maximum."""

    median: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.median:.2f}x ({self.low:.2f}-{self.high:.2f})"


def spread(values: list[float]) -> Spread:
    return Spread(statistics.median(values), min(values), max(values))


@dataclass(frozen=True)
class Target:
    """`case` must take at most `limit` times `peer` (`faster=False`), or `peer` must take at least
    `limit` times `case` (`faster=True`, "case is at least `limit`x faster than peer"). Several
    peers: the fastest of them counts, round by round. Met when the median over the rounds is."""

    case: str
    peer: str | tuple[str, ...]
    limit: float
    faster: bool = False

    def check(self, rounds: Rounds) -> tuple[Spread, bool]:
        peers = [rounds[p] for p in ((self.peer,) if isinstance(self.peer, str) else self.peer) if p in rounds]
        ratios = []
        for r, t in enumerate(rounds[self.case]):
            peer = min(p[r] for p in peers)
            ratios.append(peer / t if self.faster else t / peer)
        s = spread(ratios)
        return s, s.median >= self.limit if self.faster else s.median <= self.limit

    def describe(self) -> str:
        peer = self.peer if isinstance(self.peer, str) else "the fastest of " + ", ".join(self.peer)
        return (f"{self.case} ≥ {self.limit:g}x faster than {peer}" if self.faster
                else f"{self.case} ≤ {self.limit:g}x {peer}")


def _calibrate(fn: Callable[[], Any], budget: float, clock: Callable[[], float], rounds: int) -> int:
    """Calls per round so that a round takes about budget / rounds seconds."""
    n = 1
    while True:
        t = timeit.Timer(fn, timer=clock).timeit(number=n)
        if t > budget / 50:
            break
        n *= 4
    return max(1, int(n * (budget / rounds) / max(t, 1e-9)))


def measure(cases: list[tuple[str, Callable[[], Any]]], budget: float | None = 0.4,
            clock: Callable[[], float] = WALL, rounds: int = ROUNDS) -> Rounds:
    """Per-call time in seconds of each case in each of `rounds` interleaved rounds (budget None:
    one call per round, for slow cases)."""
    numbers = {name: 1 if budget is None else _calibrate(fn, budget, clock, rounds) for name, fn in cases}
    timers = {name: timeit.Timer(fn, timer=clock) for name, fn in cases}
    out: Rounds = {name: [] for name, _ in cases}
    for _ in range(rounds):
        for name, _ in cases:
            n = numbers[name]
            out[name].append(timers[name].timeit(number=n) / n)
    return out


def per_call(fn: Callable[[], Any], budget: float | None = 0.4, clock: Callable[[], float] = WALL) -> float:
    """Median per-call time in seconds of one function."""
    return statistics.median(measure([("", fn)], budget, clock)[""])


def _fmt(t: float) -> str:
    if t >= 0.1:
        return f"{t:.2f} s"
    if t >= 1e-4:
        return f"{t * 1e3:.2f} ms"
    return f"{t * 1e6:.2f} µs"


def report(cases: list[tuple[str, Callable[[], Any]]], base: str, floor: str, budget: float | None = 0.4,
           targets: tuple[Target, ...] = (), title: str = "", clock: Callable[[], float] = WALL,
           rounds: int = ROUNDS) -> dict[str, float]:
    """Time every case in one run, print median per-call times with the ratios to `base` and
    `floor` (median over the rounds), then each target with its ratio's median and spread.
    Returns the median per-call times."""
    times_of = measure(cases, budget, clock, rounds)
    times = {name: statistics.median(ts) for name, ts in times_of.items()}
    width = max(len(n) for n, _ in cases) + 2
    print(f"({rounds} interleaved rounds, {'CPU time' if clock is CPU else 'wall clock'}; per call: the median "
          f"round; ratios: the median of the per-round ratios)")
    print(f"{'case':{width}s} {'per call':>12s} {'÷ ' + base[:18]:>22s} {'÷ ' + floor[:18]:>22s}")
    for name, ts in times_of.items():
        to_base = statistics.median(t / b for t, b in zip(ts, times_of[base]))
        to_floor = statistics.median(t / f for t, f in zip(ts, times_of[floor]))
        print(f"{name:{width}s} {_fmt(times[name]):>12s} {to_base:21.2f}x {to_floor:21.2f}x")
    results = []
    for target in targets:
        peers = (target.peer,) if isinstance(target.peer, str) else target.peer
        if not any(p in times_of for p in peers):
            print(f"  target not checked (peer not installed): {target.describe()}")
            continue
        s, ok = target.check(times_of)
        print(f"  target {'met' if ok else 'MISSED'}: {target.describe()}: {s}")
        results.append({"bench": title, "target": target.describe(), "ratio": round(s.median, 2),
                        "low": round(s.low, 2), "high": round(s.high, 2), "ok": ok})
    summarize(results)
    return times


def summarize(results: list[dict[str, Any]]) -> None:
    """Hand the targets' results to `bench/run.py`'s summary (when run by it)."""
    summary = os.environ.get("BINPARSE_BENCH_SUMMARY")
    if summary and results:
        with open(summary, "a") as f:
            for r in results:
                f.write(json.dumps(r) + "\n")
