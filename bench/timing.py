"""Shared timing helper for the benchmarks: best per-call time, printed as ratio tables."""

from __future__ import annotations

import timeit
from typing import Any, Callable


def per_call(fn: Callable[[], Any], budget: float | None = 0.4) -> float:
    """Best per-call time in seconds over 5 repeats of a loop sized to about budget/5 seconds
    (budget None: one call per repeat, for slow cases)."""
    if budget is None:
        return min(timeit.repeat(fn, number=1, repeat=5))
    n = 1
    while True:
        t = timeit.timeit(fn, number=n)
        if t > budget / 25:
            break
        n *= 4
    n = max(1, int(n * (budget / 5) / max(t, 1e-9)))
    return min(timeit.repeat(fn, number=n, repeat=5)) / n


def report(cases: list[tuple[str, Callable[[], Any]]], base: str, floor: str,
           budget: float | None = 0.4) -> dict[str, float]:
    """Time every case in one run and print per-call times with ratios to `base` and `floor`."""
    times = {name: per_call(fn, budget) for name, fn in cases}
    print(f"{'parser':52s} {'per call':>12s} {'÷ ' + base[:14]:>16s} {'÷ ' + floor[:14]:>16s}")
    for name, t in times.items():
        print(f"{name:52s} {t * 1e6:10.2f} µs {t / times[base]:15.1f}× {t / times[floor]:15.1f}×")
    return times
