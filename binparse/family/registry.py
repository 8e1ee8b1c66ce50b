"""Which formats binparse knows and how a file is recognised (size, magic), filled by each family.

A family's `load` module calls `register(Format(...))` at import; `detect` and `binparse.open` read
the registry. Detection never guesses between two matches: it reports them. The registry imports
no family: `binparse.family.plugins` imports a family when a file shows its signs, or every family when
the whole list is asked for (`registered()`), so the registry is filled one direction only.
"""

from __future__ import annotations

from typing import Any, Callable, NamedTuple

from . import plugins
from ..core.errors import FormatError
from .hints import command
from ..engine.runtime import Accessor
from .sniffers import _binary_sniffers
from .sniffers import Sniffer as Sniffer, register_sniffer as register_sniffer, sniff as sniff  # re-exported
from ..core.text import is_text


class Format(NamedTuple):
    """A kind of file: its accessor class and what identifies it.

    `size`: the file is exactly this many bytes (one struct, as TIDL io files are);
    `magic`: the file starts with these bytes; `version`: the vendor versions that write it.
    `accessor`: the class, or "module:Class" to import it only when a file of the format is opened
    (a family with many large generated accessors stays quick to load).
    """

    name: str
    accessor: type[Accessor] | str
    family: str
    kind: str
    version: str
    size: int | None = None
    magic: bytes | None = None
    params: dict[str, int] = {}  # noqa: RUF012  (never changed)
    describe: str = ""
    exact_size: bool = True
    identified_by: str = ""  # how to say what `magic` is, e.g. "netVersion 0x20211201"

    @property
    def accessor_class(self) -> type[Accessor]:
        """The accessor class (imported now when `accessor` names it)."""
        if isinstance(self.accessor, str):
            cls: type[Accessor] = plugins.resolve(self.accessor)
            return cls
        return self.accessor

    def opened_as(self, acc: Accessor) -> bool:
        """Whether `acc` is of this format's class (without importing a class nothing was opened as)."""
        cls = type(acc)
        if isinstance(self.accessor, str):
            return self.accessor == f"{cls.__module__}:{cls.__qualname__}"
        return cls is self.accessor

    def identifies(self) -> str:
        if self.identified_by:
            return self.identified_by
        if self.size is not None:
            return f"{self.size:,} bytes"
        if self.magic is not None:
            return f"magic {self.magic!r}"
        return "by request only (--format)"


_FORMATS: dict[str, Format] = {}
#: A family whose file sizes follow a rule rather than a table works out a size no format lists:
#: fn(buffer, file) -> the Format it found (recorded with `register_solved`, so `format_of` knows
#: it while `registered()` and the size index do not: the next file of that size is solved again,
#: checks and warning included), or None when the file is not of its kind. It raises FormatError
#: when the size fits its rule but the content does not settle it.
#: `fn` may be "module:function", imported the first time a size needs solving.
Solver = Callable[[memoryview, Any], "Format | None"]
_SOLVERS: list[Solver | str] = []


def register_solver(fn: Solver | str) -> Solver | str:
    if fn not in _SOLVERS:
        _SOLVERS.append(fn)
    return fn


_SOLVED: dict[str, Format] = {}

#: A family that describes device buffers by another file (a descriptor, a compile folder) says how to
#: read a binary file no format matches when it finds that file beside it: fn(path as given, size) ->
#: a hint that names the command (`binparse.family.hints`), or None. `fn` may be "module:function".
BufferHint = Callable[[str, int], "str | None"]
_BUFFER_HINTS: list[BufferHint | str] = []


def register_buffer_hint(fn: BufferHint | str) -> BufferHint | str:
    if fn not in _BUFFER_HINTS:
        _BUFFER_HINTS.append(fn)
    return fn


def _buffer_hint(file: str, size: int) -> str | None:
    """The first family's hint for reading `file` as one of its device buffers, or None (a family
    that cannot tell, or fails to, says nothing: this only words an error). A hint opens the files
    beside `file`: one of them no format matches is given no hint of its own (no recursion through a
    folder of unreadable files), and an empty file is no buffer."""
    if size == 0 or _HINTING:
        return None
    _HINTING.append(file)
    try:
        return _first_hint(file, size)
    finally:
        _HINTING.pop()


_HINTING: list[str] = []  # the file a buffer hint is being made for (none: no hint under way)


def _first_hint(file: str, size: int) -> str | None:
    for entry in list(_BUFFER_HINTS):
        fn: BufferHint = plugins.resolve(entry) if isinstance(entry, str) else entry
        try:
            hint = fn(file, size)
        except Exception:  # noqa: BLE001 - a hint that cannot be made is no hint, never a second error
            continue
        if hint:
            return hint
    return None


def register_solved(fmt: Format) -> Format:
    """Record a format a solver found (known to `format_of` and `get`, not a listed format)."""
    _SOLVED[fmt.name] = fmt
    return fmt


def register(fmt: Format) -> Format:
    global _SORTED
    if fmt.name in _FORMATS and _FORMATS[fmt.name] != fmt:
        raise ValueError(f"format {fmt.name} registered twice")
    _FORMATS[fmt.name] = fmt
    _SORTED = None
    return fmt


_SORTED: list[Format] | None = None  # registered(), kept until the next register()


def registered() -> list[Format]:
    """Every format of every installed family, sorted by name (a fresh list; sorted once per registration)."""
    plugins.load_all()
    return list(_loaded())


def _loaded() -> list[Format]:
    """The formats of the families imported so far, sorted by name (kept until the next register())."""
    global _SORTED
    if _SORTED is None:
        _SORTED = [f for _, f in sorted(_FORMATS.items())]
    return _SORTED


_Index = tuple[dict[int, list[Format]], dict[bytes, list[Format]], tuple[int, ...]]
_INDEX: tuple[list[Format] | None, _Index] = (None, ({}, {}, ()))


def _index() -> _Index:
    """(formats by size, formats by magic, the magics' lengths), in name order; rebuilt when
    `register()` has changed the sorted list since."""
    global _INDEX
    if _SORTED is None or _INDEX[0] is not _SORTED:
        loaded = _loaded()
        by_size: dict[int, list[Format]] = {}
        by_magic: dict[bytes, list[Format]] = {}
        for f in loaded:
            if f.size is not None:
                by_size.setdefault(f.size, []).append(f)
            if f.magic is not None:
                by_magic.setdefault(f.magic, []).append(f)
        _INDEX = (loaded, (by_size, by_magic, tuple(sorted({len(m) for m in by_magic}))))
    return _INDEX[1]


def get(name: str) -> Format:
    if name in _SOLVED:
        return _SOLVED[name]
    if name not in _FORMATS:
        plugins.load_family_of_format(name)
    if name not in _FORMATS:
        raise FormatError(f"unknown format '{name}'", expected=f"one of {sorted(_FORMATS)}", found=name,
                          hint=f"{command('schemas')} lists the formats")
    return _FORMATS[name]


def format_of(acc: Accessor) -> Format:
    """The registered format an accessor was opened as (its class and params; its family is loaded)."""
    for f in [*_loaded(), *_SOLVED.values()]:
        if f.opened_as(acc) and all(acc._params.get(k) == v for k, v in f.params.items()):
            if f.magic is not None and bytes(acc._mv[acc._off:acc._off + len(f.magic)]) != f.magic:
                continue
            return f
    raise FormatError("accessor of no registered format", found=type(acc).__name__)


def of_version(version: str) -> list[Format]:
    """Formats whose name carries `version` ("09.02" → *_09_02*, "08.x" → *_08*, "tda2")."""
    token = version.lower().replace(".x", "").replace(".", "_").replace("-", "_")
    return [f for f in registered() if token in f.name]


def _of_size_or_magic(size: int, head: bytes) -> list[Format]:
    """The formats imported so far of this size or whose magic `head` starts with, in name order
    (looked up in the index, so no scan per file)."""
    by_size, by_magic, lengths = _index()
    found = by_size.get(size, [])
    for n in lengths:
        hits = by_magic.get(head[:n])
        if hits:
            found = sorted(found + [f for f in hits if f not in found], key=lambda f: f.name)
    return found


def has_candidate(size: int, head: bytes) -> bool:
    """Whether a format loaded so far is of this size or magic (else `binparse.open` loads every family)."""
    return bool(_of_size_or_magic(size, head))


def quick_detect(size: int, head: bytes) -> Format | None:
    """The format of a nameless binary buffer (a NUL in its first 64 bytes) when nothing is in
    question: no sniffer's head test and no sign of a family not imported yet claims the buffer,
    and one format imported so far has its size or magic. None otherwise, and then `sniff` and
    `detect` answer in full (openers, solvers, several matches, errors). The same answer as
    theirs without their general steps: `binparse.open(bytes)` asks this first (a test holds the
    two to the same answers)."""
    if head.find(0, 0, 64) < 0:  # text: its sniffers decide
        return None
    heads = _binary_sniffers()[1]
    if heads is None:
        return None
    for test in heads:  # a sniffer would be asked
        if test(head):
            return None
    for test in plugins.pending_heads():  # a family not imported yet shows its sign
        if test(head):
            return None
    found = _of_size_or_magic(size, head)
    return found[0] if len(found) == 1 else None


def detect(size: int, head: bytes, *, file: str | None = None, version: str | None = None,
           buf: memoryview | None = None) -> Format:
    """The one format a file of `size` bytes starting with `head` matches (FormatError otherwise).

    `head` may hold more than the magics (`binparse.open` gives the first 4 KiB, which the text
    test then reads without another copy). With `version`, only that version's formats are
    candidates. With `buf` (the whole file), a size no format lists is offered to the families'
    solvers (`register_solver`) before giving up.
    """
    if version:
        pool = of_version(version)
        if not pool:
            raise FormatError(f"no format of version {version!r}", file=file,
                              expected=sorted({f.version for f in registered()}))
        found = [f for f in pool
                 if (f.size is not None and f.size == size) or (f.magic is not None and head.startswith(f.magic))]
    else:  # every format imported, by size and by magic
        found = _of_size_or_magic(size, head)
        pool = registered() if len(found) != 1 else found
    if found and buf is not None and (found[0].magic is None if len(found) == 1 else
                                      all(f.magic is None for f in found)):
        first = (head if len(head) <= 4096 else head[:4096]) if len(head) >= min(size, 4096) else bytes(buf[:4096])
        if is_text(first):  # a text file is never a binary struct known by its size alone
            found, pool = [], registered()
    if len(found) == 1:
        return found[0]
    if not found and buf is not None and not version:
        for entry in list(_SOLVERS):
            solver: Solver = plugins.resolve(entry) if isinstance(entry, str) else entry
            solved = solver(buf, file)
            if solved is not None:
                return solved
    if not found:  # the first 4 KiB when known, so a text file's header line is shown whole
        raise _no_match(pool, size, head if buf is None else bytes(buf[:4096]), file)
    raise FormatError("several formats match this file", file=file,
                      found=", ".join(f.name for f in found), hint="choose one with format=NAME")


def _no_match(pool: list[Format], size: int, head: bytes, file: str | None) -> FormatError:
    """The error for an unrecognised file, narrowed to the family it resembles.

    A text file is answered in its own terms (what it looks like, the text formats binparse reads),
    never with binary layouts whose first bytes it happens to spell.
    """
    from .lookalike import describe_text, text_kinds
    if head and is_text(head):
        return FormatError("no known format matches this file", file=file, found=f"{describe_text(head)}, "
                           f"{size:,} bytes", expected=f"a text format binparse reads: {text_kinds()}",
                           hint=f"binary artifacts are never read from text; {command('schemas')} lists every format")
    seen = f"{size:,} bytes starting {head[:8].hex(' ') or '(empty)'}"
    hint = (f"pass format=NAME if you know what it is ({command('schemas')} lists them); a device buffer has no "
            f"format of its own: its descriptor or a layout flag reads it ({command('view', '--help')})")
    similar = []
    for f in pool:
        m = f.magic
        if m is None or len(head) < 4:
            continue
        # the same magic stem (EDL1 / EDL9), or the same "0x20…" year byte of a date-like version number
        if head[:3] == m[:3] or (f.identified_by.startswith("netVersion") and head[3] == m[3]):
            similar.append(f)
    if similar:  # a known kind of file with a version binparse does not know: say so
        known = "; ".join(f"{f.identifies()} = {f.name}" for f in similar)
        seen_as = (f"netVersion 0x{int.from_bytes(head[:4], 'little'):08X}"
                   if similar[0].identified_by.startswith("netVersion") else repr(head[:4]))
        return FormatError(f"unknown {similar[0].family} {similar[0].kind} version", file=file, expected=known,
                           found=seen_as, hint="pass format=NAME to read it as the closest known version "
                                               f"(fields may have moved); {command('schemas')} lists them")
    buffer = _buffer_hint(file, size) if file is not None else None
    if buffer:  # a device buffer, described by a file beside it: the command that reads it
        return FormatError("no known format matches this file", file=file, found=seen,
                           hint=f"a device buffer has no format of its own; {buffer}")
    sized = sorted((f for f in pool if f.size is not None), key=lambda f: abs(f.size - size))  # type: ignore[operator]
    known = "; ".join(f"{f.size:,} bytes = {f.name} ({f.version})" for f in sized[:4]) + ("; …" if len(sized) > 4 else "")
    if sized and abs(sized[0].size - size) <= 64:  # type: ignore[operator]
        near = sized[0]
        hint = (f"it is {size - near.size:+,} bytes from {near.name} ({near.version}): a file from another SDK "  # type: ignore[operator]
                f"version, or a truncated or padded one; pass format=NAME to read it as one anyway")
    return FormatError("no known format matches this file", file=file, expected=f"one of: {known}", found=seen,
                       hint=hint)
