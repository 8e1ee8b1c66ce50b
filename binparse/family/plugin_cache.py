"""The entry-point cache of `binparse.family.plugins`, validated as a whole before anything it names is imported.

One small text file per Python environment:

    binparse families 2
    state<TAB><the environment's state>
    <family><TAB><module:attribute><TAB><the entry_points.txt that declares it, or "builtin">
    ...
    digest<TAB><CRC-32, Adler-32 and length of every line above>

It is used only when the header, the state and the digest all hold (a cache cut short, edited or
written by another version is rebuilt, never read in part: no family is dropped by it), and only
for rows that an installed distribution still declares: each row names the `entry_points.txt` of
its distribution (a `.dist-info` or `.egg-info` folder in a folder on `sys.path`), which must hold
`family = module:attribute` (a third of a millisecond per
distribution, against ~60 ms for `importlib.metadata`); "builtin" rows (a checkout that is not
installed) must name `binparse.formats.<family>.plugin:FAMILY` with that file present. Anything
else, and the whole cache is rebuilt from the distributions' metadata. The file is read only when
it is a regular file of at most 1 MiB (never a link, FIFO or device), and written through
`binparse.core.writes` (a temporary file and a rename).
"""

from __future__ import annotations

import os
from pathlib import Path

HEADER = "binparse families 2"
MAX_BYTES = 1 << 20
_FORMATS = Path(__file__).parents[1] / "formats"

Row = tuple[str, str, str]  # (family name, "module:attribute", where it is declared)


def _digest(text: str) -> str:
    """CRC-32 and Adler-32 of the body and its length: a cut or a changed byte shows (not a secret:
    what the rows may name is checked against the distributions themselves)."""
    import zlib
    data = text.encode("utf-8")
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}{len(data):x}"


def render(state: str, rows: list[Row]) -> str:
    body = f"{HEADER}\nstate\t{state}\n" + "".join(f"{a}\t{b}\t{c}\n" for a, b, c in rows)
    return body + f"digest\t{_digest(body)}\n"


def _read(path: Path) -> str | None:
    from ..core.paths import read_unlinked
    got = read_unlinked(path, MAX_BYTES)
    try:
        return None if got is None else got[1].decode("utf-8")
    except UnicodeDecodeError:
        return None


def _installed(source: str) -> bool:
    """Whether `source` is the entry_points.txt of a distribution on sys.path (a `.dist-info` or
    `.egg-info` folder in one of its folders), not a file anywhere."""
    import sys
    p = Path(source)
    if not p.is_absolute() or p.name != "entry_points.txt" or not p.parent.name.endswith((".dist-info", ".egg-info")):
        return False
    where = os.path.realpath(p.parent.parent)
    return any(os.path.realpath(entry or ".") == where for entry in sys.path)


def _declared(row: Row, sources: dict[str, str | None]) -> bool:
    """Whether the distribution the row names still declares this entry point."""
    name, ref, source = row
    module, colon, attr = ref.partition(":")
    if not colon or not all(part.isidentifier() for part in [*module.split("."), *attr.split(".")]):
        return False
    if source == "builtin":
        return ref == f"binparse.formats.{name}.plugin:FAMILY" and (_FORMATS / name / "plugin.py").is_file()
    if source not in sources:
        sources[source] = _read(Path(source)) if _installed(source) else None
    text = sources[source]
    if text is None:
        return False
    return any(line.split("=", 1)[0].strip() == name and line.split("=", 1)[-1].strip() == ref
               for line in text.splitlines() if "=" in line)


def read(path: Path, state: str) -> list[Row] | None:
    """The rows of a valid cache for `state`, or None (then the caller rebuilds it)."""
    text = _read(path)
    if text is None or not text.endswith("\n"):
        return None
    *lines, last = text[:-1].split("\n")
    body = "".join(line + "\n" for line in lines)
    if last != f"digest\t{_digest(body)}" or lines[:2] != [HEADER, f"state\t{state}"]:
        return None
    rows = [tuple(line.split("\t")) for line in lines[2:]]
    if not all(len(r) == 3 for r in rows):
        return None
    out: list[Row] = [(r[0], r[1], r[2]) for r in rows]
    sources: dict[str, str | None] = {}
    return out if all(_declared(r, sources) for r in out) else None


def write(path: Path, state: str, rows: list[Row]) -> None:
    """Write the cache (skipped quietly when it cannot be: a read-only home, a link in its place)."""
    from ..core.errors import BinparseError
    from ..core.writes import write_text
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, render(state, rows))
    except (OSError, BinparseError):
        pass


__all__ = ["HEADER", "Row", "read", "render", "write"]
