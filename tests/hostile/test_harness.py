"""The harness measures what it claims: a child that allocates 300 MB is seen over the bound of a
1-byte input, a quiet one under it, and a child that sleeps past its limit is killed."""

from __future__ import annotations

from .harness import bound, run_python, within


def test_peak_rss_is_the_childs_own() -> None:
    big = run_python("b = bytearray(300 << 20); b[::4096] = b'x' * len(b[::4096])")
    assert big.returncode == 0 and big.peak_rss >= 300 << 20
    assert not within(big, 1)
    quiet = run_python("pass")
    assert quiet.returncode == 0 and within(quiet, 1) and quiet.peak_rss < bound(1)


def test_a_large_parent_does_not_count() -> None:
    """Linux starts a forked child's peak RSS at its parent's: the harness measures the command alone."""
    ballast = bytearray(400 << 20)
    ballast[::4096] = b"x" * len(ballast[::4096])
    quiet = run_python("pass")
    assert quiet.returncode == 0 and quiet.peak_rss < 100 << 20, quiet.peak_rss
    del ballast


def test_time_limit_kills() -> None:
    slow = run_python("import time; time.sleep(30)", timeout=1.0)
    assert slow.killed and slow.seconds < 10
