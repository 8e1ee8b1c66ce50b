"""What a format family gives the commands: a small typed protocol, no branching on family names.

A family is a plug-in around the core. Its light declaration (`Family`, found through the
`binparse.families` entry point group, see `binparse.family.plugins`) says how its files look (`Signs`),
which command-line options and buffer layouts it adds (`Option`, `LayoutKind`), which sub-folders
hold files that belong with a folder (`companions`), and which module to import when one of its
files is met (`load`): that module registers the family's formats, sniffers and doctor checks.

The commands only ask an opened object for the protocols below:
- `Artifact`: `summary()` is the `inspect --json` body, `report()` the readable text.
- `TensorSource`: tensors `view SOURCE [BUFFER] [--tensor NAME]` can write as .npy.
- `LayoutSource`: an artifact that describes a device buffer (`view/pack/draw SOURCE ...`).
- `BufferLayout`: a device buffer's layout: the logical view, packing, and a memory map to draw.
- `Described`: an artifact read fully only with another beside it (`--net NET`).
- `Comparable`: two artifacts of a kind compared (`compare A B`).
- `Exportable`: an artifact written as a model another runtime runs (`export A -o OUT`, `--check`).
- `Repairable`: an artifact with a defect its family can undo (`repair FILE -o FIXED`).
- `Check`: a doctor check over the identified files of one folder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol, overload, runtime_checkable


@runtime_checkable
class Artifact(Protocol):
    """An opened artifact as `inspect` and `doctor` see it."""

    def summary(self) -> dict[str, Any]:
        """The `inspect --json` body: plain JSON types, with at least `family` and `kind`."""

    def report(self) -> str:
        """The text `inspect` prints (a table like the vendor's own printout)."""


@runtime_checkable
class TensorSource(Protocol):
    """An artifact whose tensors `view SOURCE [BUFFER] [--tensor NAME]` can write as .npy."""

    def tensor_array(self, name: str | None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[Any, str]:
        """The named tensor as a numpy array, and a few words saying what it is.

        Descriptors (a TIDL io file) find the tensor in `buffer`; models that carry their tensors
        (an .espdl file) read it from the file and take no buffer; `name` is None when the command
        names none (a source of one tensor returns it, others ask for a name). Logical order by
        default; `stored`: the elements as the device reads them; `dequantize`: float32 values.
        """


@runtime_checkable
class BufferLayout(Protocol):
    """How a device buffer holds one logical tensor (`view`, `pack` and `draw` speak only this)."""

    def view_array(self, buffer: Any, *, dequantize: bool = False) -> tuple[Any, str]:
        """The logical tensor of `buffer` (a view where the layout has strides), and what it is."""

    def pack_bytes(self, logical: Any, *, quantize: bool = False) -> tuple[bytes, str]:
        """A device buffer holding `logical` (padding zero), and what it is."""

    def memory_map(self) -> Any:
        """The buffer as a `binparse.family.draw.MemoryMap` (roles of every element) for `draw`."""


@runtime_checkable
class LayoutSource(Protocol):
    """An opened artifact that describes device buffers (a TIDL io descriptor, a compile folder)."""

    def buffer_layout(self, options: Any) -> BufferLayout:
        """The layout the command-line `options` (an argparse Namespace) pick, e.g. `--output NAME`."""


@runtime_checkable
class Described(Protocol):
    """An artifact read fully only with another that describes it (`--net NET`: element types, scales)."""

    def described_by(self, other: Any) -> Any:
        """This artifact read with `other` (a new object; self is unchanged)."""


@runtime_checkable
class Comparable(Protocol):
    """Two artifacts of one kind compared (`compare A B`): a result that is itself an `Artifact`."""

    def compare(self, other: Any, *, min_snr_db: float) -> Artifact:
        """The comparison; it may also have `svg() -> str` (`compare --svg`)."""


@runtime_checkable
class Exportable(Protocol):
    """An artifact exported as a model another runtime runs (`export A -o OUT [--check]`)."""

    def export_model(self, options: Any) -> tuple[bytes, str]:
        """The exported model's bytes and a few words saying what it is (`options`: the command line's)."""

    def check_export(self, options: Any) -> Any:
        """The export run on the artifact's own test inputs against its test outputs: an `Artifact`
        with an `exit_code` (0 reproduced, 1 not reproduced, 2 nothing to check it with)."""


@runtime_checkable
class Repairable(Protocol):
    """An artifact with a defect its family can undo (`repair FILE -o FIXED`)."""

    def repaired(self, options: Any) -> tuple[bytes, str]:
        """The repaired file's bytes and what was changed; `BinparseError` when nothing needs it or it cannot be."""


@dataclass
class Finding:
    """One line of a doctor report: `ok`, `note` (worth knowing) or `problem` (exit code 1)."""

    level: str
    text: str
    files: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)  # what one line sums up (`doctor -v` lists it; JSON always)

    def to_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"level": self.level, "text": self.text, "files": self.files}
        if self.details:
            doc["details"] = self.details
        return doc


@dataclass
class FileReport:
    """What the doctor knows of one file: what made it, with the evidence, and the opened object.

    `name` is the file name, or `SUBFOLDER/name` for a file of a companion folder (`Family.companions`).
    """

    name: str
    family: str = "unknown"
    kind: str = ""
    version: str = ""
    format: str = ""
    evidence: str = ""
    runtime: str = ""
    obj: Any = None
    error: str = ""  # set when the file looks like an artifact but could not be read
    # set by a check when vendor evidence beside the file (a printout, a record) confirms what its own
    # layout could not: the file is then verified by that evidence, named here
    verified_by: str = ""

    def to_json(self) -> dict[str, Any]:
        """The file's JSON; its keys mean what they mean in `inspect --json` (docs/cli-conventions.md):
        `format` the registered format, `format_version` the registry's label of it, `version` the
        artifact's own version as its family names it (the label where the object names none)."""
        own = getattr(self.obj, "version", None) if self.obj is not None else None
        doc = {"file": self.name, "family": self.family, "kind": self.kind,
               "version": own if isinstance(own, str) and self.format else self.version,
               "format": self.format, "format_version": self.version if self.format else "",
               "evidence": self.evidence, "runtime": self.runtime}
        if self.error:
            doc["error"] = self.error
        if self.verified_by:
            doc["verified_by"] = self.verified_by
        return doc


# The declarations (Signs, Option, LayoutKind, Family) are NamedTuples: immutable records like frozen
# dataclasses, but made ~5x quicker at import, and every family's are made on every start-up.
class Signs(NamedTuple):
    """How a file of a family looks, before and without reading it.

    `names`: the name patterns the vendor tools write (fnmatch); `binary`: whether such a file is
    binary (a text file is then never taken for it, whatever its name); `head`: a cheap test on
    the first bytes that returns why they look like this kind of file, or None. Signs choose which
    family to import for a file, and let `doctor` name a file it could not read.
    """

    family: str
    kind: str
    names: tuple[str, ...] = ()
    binary: bool = True
    head: Callable[[bytes], str | None] | None = None


class Option(NamedTuple):
    """A command-line option a family adds to some commands (argparse's `add_argument` arguments).

    Two families may declare the same flag (`--shape`): it is added once, with both helps.
    """

    flags: tuple[str, ...]
    commands: tuple[str, ...]
    help: str = ""
    kwargs: dict[str, Any] = {}  # noqa: RUF012  (never changed: argparse's keyword arguments)
    group: str = ""  # options of one non-empty group are mutually exclusive (`--input` / `--output`)

    @property
    def dest(self) -> str:
        return str(self.kwargs.get("dest") or self.flags[0].lstrip("-").replace("-", "_"))


class LayoutKind(NamedTuple):
    """A device-buffer layout chosen by a flag (`view/pack/draw --espdl ...`).

    `make` ("module:function") is called as `make(options, sources)` and returns a `BufferLayout`;
    `sources` are the file arguments before the buffer or array (`sources` of them: 0 or 1;
    `min_sources`, when set, lets fewer be given, e.g. a layout made from options alone).
    `choices`: the flag takes one of these values (`--dlhdl conv`), else it is a switch.
    """

    flag: str
    help: str
    make: str
    sources: int = 0
    choices: tuple[str, ...] = ()
    min_sources: int | None = None

    @property
    def dest(self) -> str:
        return self.flag.lstrip("-").replace("-", "_")


class Example(NamedTuple):
    """A command line shown in a command's `--help` (its `Examples:` section).

    `command`: the command it belongs to (`view`, or `schema diff` for a sub-command); `line`: what
    follows `binparse ` (it must run as written from the repository root, on the bundled fixtures:
    a test runs every one); `note`: one line saying what it shows.
    """

    command: str
    line: str
    note: str = ""


class Usage(NamedTuple):
    """A form of a command a family adds to the command's usage line: `command` its name, `line`
    what follows `binparse COMMAND ` (e.g. `MODEL.espdl DUMPS/ [--model NAME]` for `compare`)."""

    command: str
    line: str


class FileKind(NamedTuple):
    """A kind of file, folder or device buffer a family reads, as `binparse schemas` lists it.

    `kind`: its name in the family's formats and signs (`Format.kind`, `Signs.kind`); `what`: what
    it is, in the vendor's words; `versions`: the releases that write it; `recognised`: how
    binparse knows one, beyond what the registry and the signs already say (its formats' sizes
    and magics, the names it is asked about): e.g. "its size gives the release and core count".
    """

    kind: str
    what: str
    versions: str = ""
    recognised: str = ""


class Family(NamedTuple):
    """A format family's declaration: light (no imports of its own), read at start-up.

    `title`: how the family is named to users (its options are grouped under it in `--help`);
    `examples`: the family's lines in the commands' `Examples:` sections.

    `load`: the module that registers the family's formats, sniffers and doctor checks, imported
    when a file shows one of the `signs` (or when every family is needed). `companions`: names of
    sub-folders whose files belong with their folder's (TI's tools write printouts to `tempDir/`).
    `fixtures`: the writer of the family's fixture specs, `write(spec, spec_path, out_dir) -> paths`.
    `kinds`: every kind of file, folder and buffer it reads (`binparse schemas` lists them with their
    formats; each format's and sign's `kind` is one of them). `usages`: the forms of a command it
    adds (`Usage`), shown in that command's usage line.
    (A file of any family that looks like an artifact but could not be read is "not verified" in
    `doctor`, exit code 2, as `inspect` says of it: a reader's failure proves nothing of the file.)
    """

    name: str
    load: str
    signs: tuple[Signs, ...] = ()
    options: tuple[Option, ...] = ()
    layouts: tuple[LayoutKind, ...] = ()
    companions: tuple[str, ...] = ()
    fixtures: str = ""  # "module:function": writes a fixture spec of `family: <name>` (`binparse fixture`)
    title: str = ""  # e.g. the vendor and product; default: `name`
    examples: tuple[Example, ...] = ()
    kinds: tuple[FileKind, ...] = ()
    usages: tuple[Usage, ...] = ()


_SIGNS: list[Signs] = []


def register_signs(signs: Signs) -> Signs:
    """Add signs at run time (a family's `load` module may; declarations belong in `Family.signs`)."""
    if signs not in _SIGNS:
        _SIGNS.append(signs)
    return signs


def registered_signs() -> list[Signs]:
    """The `Signs` registered at run time (`binparse.family.plugins.signs` adds the declared ones)."""
    return list(_SIGNS)


Check = Callable[[list[FileReport], Path], list[Finding]]
_CHECKS: list[Check] = []
_CHECK_MODULES: list[str] = []
_READS: dict[tuple[str, str], str] = {}  # (family, kind): the module of the check that reads every such file


@overload
def register_check(fn: Check) -> Check: ...
@overload
def register_check(*, reads: tuple[tuple[str, str], ...]) -> Callable[[Check], Check]: ...
def register_check(fn: Check | None = None, *, reads: tuple[tuple[str, str], ...] = ()) -> Any:
    """Add a doctor check (a decorator in a family's checks module: `@register_check`, or
    `@register_check(reads=((family, kind), ...))` for a check that reads every file of those
    kinds: the doctor then holds it to a finding naming each one, and says of a file it passed
    over "not verified: ... no check read it" (`read_by_checks`)."""
    def add(f: Check) -> Check:
        if f not in _CHECKS:
            _CHECKS.append(f)
        for k in reads:
            _READS[k] = f.__module__
        return f
    return add(fn) if fn is not None else add


def read_by_checks() -> dict[tuple[str, str], str]:
    """{(family, kind): the check's module} of the kinds a registered check reads every file of
    (`register_check(reads=...)`); ask after `checks()`, which imports the check modules."""
    return dict(_READS)


def register_checks_in(module: str) -> None:
    """Name a module whose `@register_check` functions the doctor needs: imported when it runs,
    not when the family loads to open a file."""
    if module not in _CHECK_MODULES:
        _CHECK_MODULES.append(module)


def checks() -> list[Check]:
    """Every registered doctor check, in registration order (importing the modules named for them)."""
    import importlib
    for module in _CHECK_MODULES:
        importlib.import_module(module)
    return list(_CHECKS)


__all__ = ["Artifact", "BufferLayout", "Check", "Comparable", "Described", "Example", "Exportable", "Family",
           "FileKind", "FileReport", "Finding", "LayoutKind", "LayoutSource", "Option", "Repairable", "Signs", "TensorSource", "Usage",
           "checks", "read_by_checks", "register_check", "register_checks_in", "register_signs", "registered_signs"]
