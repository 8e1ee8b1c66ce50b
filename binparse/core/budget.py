"""The one resource budget of a command (docs/contracts.md, "Resources").

Every allocation whose size comes from what a file claims (arrays sized by dims or counts,
decoded tables, expanded YAML or JSON, ONNX tensors, repeated subgraphs, an output about to be
written) asks `ask(nbytes, what)` first. Over budget is a `BudgetError` (exit code 2) that names
the claim and the budget: nothing is allocated.

The budget is ``FACTOR`` × the bytes of every input the command has opened (`binparse.core.inputs`:
every file read through `binparse.core.paths`, and what a library call's caller handed it:
`inputs.handed`) + ``ALLOWANCE``, or the limit the user set for the rare real giant: `--budget SIZE`
on any command; in Python `with binparse.budget(SIZE):` for a block or `binparse.set_budget(SIZE)`
for the process; or the environment variable ``BINPARSE_BUDGET`` (e.g. ``4GiB``), in that order.

Inside a command (`inputs.command()`, entered by the CLI for each run) the claims add up: what one
command asks for in all must fit (a `transient` claim, working memory freed before the next one,
must fit in what is left and is not added). Outside one (the Python API), each claim is checked on its own
against the budget of the inputs opened so far, since a long-running program frees what it read.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import re
from collections.abc import Iterator

from . import inputs
from .errors import BinparseError, UsageError

FACTOR = 8
ALLOWANCE = 256 * 2**20  # bytes
ENV = "BINPARSE_BUDGET"

_UNITS = {"": 1, "b": 1, "k": 2**10, "kb": 10**3, "kib": 2**10, "m": 2**20, "mb": 10**6, "mib": 2**20,
          "g": 2**30, "gb": 10**9, "gib": 2**30, "t": 2**40, "tb": 10**12, "tib": 2**40}
_BLOCK: contextvars.ContextVar[int | None] = contextvars.ContextVar("binparse_budget", default=None)
_PROCESS_LIMIT: list[int | None] = [None]  # set_budget's
_SIZE = re.compile(r"\s*(\d{1,15}(?:\.\d{1,6})?)\s*([a-zA-Z]{0,3})\s*")


class BudgetError(BinparseError):
    """A claim of a file over the command's resource budget: refused before anything is allocated
    (exit code 2: the file was not read, and nothing about it is proven)."""


def parse_size(text: str) -> int:
    """Bytes of a size as a user writes it: ``1000000``, ``512MiB``, ``4GiB``, ``2.5GB``.
    Raises `ValueError` for anything else."""
    m = _SIZE.fullmatch(text)
    if not m or m.group(2).lower() not in _UNITS:
        raise ValueError(f"not a size: {text!r} (write bytes, or a number with KiB, MiB, GiB, kB, MB, GB)")
    return int(float(m.group(1)) * _UNITS[m.group(2).lower()])


def _bytes(size: int | str | None) -> int | None:
    """A budget as the Python API takes it: bytes, a size as `parse_size` reads it, or None (the rule)."""
    if size is None:
        return None
    if isinstance(size, str):
        try:
            return parse_size(size)
        except ValueError as exc:
            raise UsageError(f"budget: {exc}", expected="bytes, or a size such as '4GiB'", found=size) from None
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise UsageError("budget: not a size", expected="bytes (an int >= 0), a size such as '4GiB', or None",
                         found=repr(size))
    return size


@contextlib.contextmanager
def budget(size: int | str | None) -> Iterator[None]:
    """`binparse.budget`: the budget of every claim in the block (`with binparse.budget("4GiB"):`), or the
    rule again with None. A command's `--budget` still decides inside a command."""
    token = _BLOCK.set(_bytes(size))
    try:
        yield
    finally:
        _BLOCK.reset(token)


def set_budget(size: int | str | None) -> None:
    """`binparse.set_budget`: the budget of every claim from now on in this process (None: the rule),
    where no `--budget` or `binparse.budget` block says otherwise."""
    _PROCESS_LIMIT[0] = _bytes(size)


def _set() -> tuple[int, str] | None:
    """(bytes, who set it) when the user set the budget, else None."""
    run = inputs.current()
    if run.limit is not None:
        return run.limit, "set by --budget"
    for value, who in ((_BLOCK.get(), "set by binparse.budget"), (_PROCESS_LIMIT[0], "set by binparse.set_budget")):
        if value is not None:
            return value, who
    return None


def limit() -> int:
    """The budget in bytes now: the user's limit when set, else FACTOR × the inputs + ALLOWANCE."""
    run = inputs.current()
    if (user := _set()) is not None:
        return user[0]
    env = env_limit()
    if env is not None:
        return env
    return FACTOR * (run.input_bytes + inputs.handed_bytes()) + ALLOWANCE


def env_limit() -> int | None:
    """The limit ``$BINPARSE_BUDGET`` sets, None when unset; a value that is no size is a `UsageError`
    (exit 3 on the command line, which asks before a command runs), never ignored."""
    env = os.environ.get(ENV)
    if not env:
        return None
    try:
        return parse_size(env)
    except ValueError as exc:
        raise UsageError(f"${ENV}: {exc}", hint=f"set {ENV} to a size such as 4GiB, or unset it") from None


def ask(nbytes: int, what: str, *, file: str | None = None, path: str | None = None,
        offset: int | None = None, transient: bool = False) -> None:
    """Ask for `nbytes` (an allocation or a write of that size that a file's claims decide) before
    making it. Raises `BudgetError` naming `what` (the claim, e.g. "tensor 'x' of 3×4000×4000
    float32"), the file, and the budget, when it does not fit. `transient`: working memory freed
    before the next claim (an index array, a run of onnxruntime): it must fit in what is left,
    and is not added to what the command holds."""
    if nbytes < 0:
        raise BudgetError(f"{what}: a negative size ({nbytes:,} bytes) is no size", file=file, path=path,
                          offset=offset)
    run = inputs.current()
    cap = limit()
    total = run.asked + nbytes if run.cumulative else nbytes
    if total > cap:
        already = f" after {run.asked:,} bytes already asked" if run.cumulative and run.asked else ""
        err = BudgetError(
            f"{what} needs {nbytes:,} bytes{already}, over the budget of {cap:,} bytes "
            f"({describe(run)}): refused before it was made", file=file, path=path, offset=offset,
            hint="if the file really is that large, raise the budget: " + (
                f"pass --budget SIZE (e.g. 4GiB) or set {ENV}" if run.cumulative else
                f"with binparse.budget(SIZE): (e.g. '4GiB'), binparse.set_budget(SIZE) or {ENV}"))
        run.refused.append(err)  # whoever catches it, the doctor knows something was not read (never a proof)
        del run.refused[:-64]
        raise err
    if run.cumulative and not transient:
        run.asked = total


def describe(run: inputs.Run | None = None) -> str:
    """How the budget is made, in words: "8 × 1,234 bytes of input + 256 MiB" or "set by --budget"."""
    run = run if run is not None else inputs.current()
    if (user := _set()) is not None:
        return user[1]
    if os.environ.get(ENV):
        return f"set by {ENV}"
    return f"{FACTOR} × {run.input_bytes + inputs.handed_bytes():,} bytes of input + {ALLOWANCE // 2**20} MiB"


__all__ = ["ALLOWANCE", "BudgetError", "ENV", "FACTOR", "ask", "budget", "describe", "env_limit", "limit",
           "parse_size", "set_budget"]
