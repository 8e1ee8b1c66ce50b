"""What a format family gives the CLI and `binparse doctor`: a small typed protocol, no branching.

Each family module (`binparse.formats.<family>`) registers its formats with `binparse.registry`
and its doctor checks here. The CLI and the doctor only ask an opened artifact for the protocol
below, so a new family touches its own module, not a chain of `hasattr` branches.

- `Artifact`: anything `binparse.open` returns that `inspect` can show: `summary()` is the
  `inspect --json` body (plain JSON types), `report()` the readable text.
- `TensorSource`: an artifact that names tensors `view --tensor NAME` can write.
- `Check`: a doctor check; it reads the identified files of one folder and returns findings.
- `Signs`: the names and first bytes by which a family's file is recognised even when it cannot
  be read, so the doctor names it instead of passing over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Artifact(Protocol):
    """An opened artifact as `inspect` and `doctor` see it."""

    def summary(self) -> dict[str, Any]:
        """The `inspect --json` body: plain JSON types, with at least `family` and `kind`."""

    def report(self) -> str:
        """The text `inspect` prints (a table like the vendor's own printout)."""


@runtime_checkable
class TensorSource(Protocol):
    """An artifact whose tensors `view SOURCE [BUFFER] --tensor NAME` can write as .npy."""

    def tensor_array(self, name: str, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[Any, str]:
        """The named tensor as a numpy array, and a few words saying what it is.

        Descriptors (a TIDL io file) find the tensor in `buffer`; models that carry their tensors
        (an .espdl file) read it from the file and take no buffer. Logical order by default;
        `stored`: the elements as the device reads them; `dequantize`: float32 real values.
        """


@dataclass
class Finding:
    """One line of a doctor report: `ok`, `note` (worth knowing) or `problem` (exit code 1)."""

    level: str
    text: str
    files: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"level": self.level, "text": self.text, "files": self.files}


@dataclass
class FileReport:
    """What the doctor knows of one file: what made it, with the evidence, and the opened object."""

    name: str
    family: str = "unknown"
    kind: str = ""
    version: str = ""
    format: str = ""
    evidence: str = ""
    runtime: str = ""
    obj: Any = None
    error: str = ""  # set when the file looks like an artifact but could not be read

    def to_json(self) -> dict[str, Any]:
        doc = {"file": self.name, "family": self.family, "kind": self.kind, "version": self.version,
               "format": self.format, "evidence": self.evidence, "runtime": self.runtime}
        if self.error:
            doc["error"] = self.error
        return doc


@dataclass(frozen=True)
class Signs:
    """How a file of a family looks when binparse cannot read it, so `doctor` names it.

    `names`: the name patterns the vendor tools write (fnmatch); `binary`: whether such a file is
    binary (a text file is then never taken for it, whatever its name); `head`: a test on the
    first bytes that returns why they look like this kind of file, or None.
    """

    family: str
    kind: str
    names: tuple[str, ...] = ()
    binary: bool = True
    head: Callable[[bytes], str | None] | None = None


_SIGNS: list[Signs] = []


def register_signs(signs: Signs) -> Signs:
    """Add what a family's artifacts look like (a family module calls this at import)."""
    if signs not in _SIGNS:
        _SIGNS.append(signs)
    return signs


def signs() -> list[Signs]:
    """Every registered `Signs`, in registration order."""
    return list(_SIGNS)


Check = Callable[[list[FileReport], Path], list[Finding]]
_CHECKS: list[Check] = []


def register_check(fn: Check) -> Check:
    """Add a doctor check (a family module calls this at import, as it registers its formats)."""
    if fn not in _CHECKS:
        _CHECKS.append(fn)
    return fn


def checks() -> list[Check]:
    """Every registered doctor check, in registration order."""
    return list(_CHECKS)


__all__ = ["Artifact", "Check", "Signs", "TensorSource", "register_signs", "signs", "FileReport", "Finding", "checks", "register_check"]
