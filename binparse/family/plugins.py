"""Which families are installed, and importing each only when a file needs it.

Families are found through the `binparse.families` entry point group (the ecosystem's plug-in
mechanism; binparse's own families are registered the same way in its pyproject.toml). Each entry
point names a light `Family` declaration; its `load` module, which imports numpy tables, generated
accessors and vendor libraries, is imported only when a file shows one of the family's signs, or
when every family is needed (`binparse schemas`, a file no family's signs claim).

Reading the installed distributions' metadata costs ~60 ms (importing `importlib.metadata`
alone ~50 ms), a third of a CLI call, so the entry points found are cached in one small text
file per Python environment (its interpreter and `sys.path`), valid while the modification times
of the folders on `sys.path` are those it was written with (installing or removing a distribution
changes its folder's): `$BINPARSE_CACHE_DIR`, else `$XDG_CACHE_HOME/binparse`, else
`~/.cache/binparse`. A cache that cannot be written is skipped; one cut short, edited, or naming
a module no installed distribution declares is rebuilt (`binparse.family.plugin_cache`).
A checkout that is not installed (no metadata of binparse itself) finds the built-in families
by their `binparse/formats/*/plugin.py` files.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
import zlib
from pathlib import Path
from typing import Any, Callable

from ..core.errors import BinparseWarning
from . import Family, Signs, registered_signs
from ..core.text import is_text, matches_any, name_matches

GROUP = "binparse.families"
_FAMILIES: list[Family] | None = None
_LOADED: set[str] = set()
# (families(), those of them not imported, the head tests of their binary signs, their signs' names)
_PENDING: tuple[list[Family], list[Family], tuple[Callable[[bytes], Any], ...], tuple[str, ...]] | None = None


def _environment() -> tuple[str, str]:
    """(which environment, its state): this Python and the folders on sys.path, and their
    modification times (installing or removing a distribution changes its folder's). The working
    folder is left out: it changes all the time and holds no installs."""
    cwd = os.getcwd()
    where = [sys.executable, sys.version]
    state = []
    for entry in sys.path:
        if entry in ("", ".", cwd):
            continue
        where.append(entry)
        try:
            state.append(str(os.stat(entry).st_mtime_ns))
        except OSError:
            state.append("-")
    text = "\n".join(where).encode()
    return f"{zlib.crc32(text):08x}{zlib.adler32(text):08x}", ",".join(state)


def _cache_file(key: str) -> Path:
    base = os.environ.get("BINPARSE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "binparse")
    return Path(base) / f"families-{key}.txt"


def _scan_entry_points() -> list[tuple[str, str, str]]:
    """(name, "module:attribute", the entry_points.txt declaring it) of every installed family,
    from the distributions' metadata."""
    from importlib.metadata import entry_points
    found = []
    for ep in entry_points(group=GROUP):
        where = getattr(ep.dist, "_path", None)  # a PathDistribution's .dist-info folder
        found.append((ep.name, ep.value, os.path.abspath(Path(where) / "entry_points.txt") if where is not None else "-"))
    if not any(value.startswith("binparse.formats.") for _, value, _ in found):  # an uninstalled checkout
        formats = Path(__file__).parents[1] / "formats"
        found += [(p.parent.name, f"binparse.formats.{p.parent.name}.plugin:FAMILY", "builtin")
                  for p in sorted(formats.glob("*/plugin.py"))]
    return found


def entry_point_refs() -> list[tuple[str, str]]:
    """The installed families' entry points, from this environment's cache file while it is current
    and valid as a whole (`binparse.family.plugin_cache`), else from the distributions' metadata."""
    from . import plugin_cache
    key, state = _environment()
    cache = _cache_file(key)
    rows = plugin_cache.read(cache, state)
    if rows is None:
        rows = _scan_entry_points()
        plugin_cache.write(cache, state, rows)
    return [(name, ref) for name, ref, _ in rows]


_RESOLVED: dict[str, Any] = {}


def resolve(ref: str) -> Any:
    """The object "module:attribute" names (an entry point's value, a lazy accessor class, a sniffer,
    a `LayoutKind.make`), imported the first time and kept: opening a file may ask every time."""
    obj = _RESOLVED.get(ref)
    if obj is None:
        module, _, attr = ref.partition(":")
        obj = importlib.import_module(module)
        for part in attr.split(".") if attr else ():
            obj = getattr(obj, part)
        _RESOLVED[ref] = obj
    return obj


def families() -> list[Family]:
    """Every installed family's declaration (imports only the light plug-in modules)."""
    global _FAMILIES
    if _FAMILIES is None:
        found: dict[str, Family] = {}
        for name, ref in entry_point_refs():
            try:
                fam = resolve(ref)
            except Exception as exc:  # one broken plug-in must not stop the others
                warnings.warn(BinparseWarning(f"the binparse family plug-in {name!r} ({ref}) could not be "
                                              f"imported: {type(exc).__name__}: {exc}"), stacklevel=2)
                continue
            if not isinstance(fam, Family):
                warnings.warn(BinparseWarning(f"the binparse family plug-in {name!r} ({ref}) is not a "
                                              f"binparse.family.Family"), stacklevel=2)
                continue
            found.setdefault(fam.name, fam)
        _FAMILIES = list(found.values())
    return _FAMILIES


def family(name: str) -> Family | None:
    return next((f for f in families() if f.name == name), None)


def load(fam: Family) -> None:
    """Import a family's module (which registers its formats, sniffers and checks), once."""
    global _PENDING
    if fam.name not in _LOADED:
        _LOADED.add(fam.name)
        _PENDING = None
        try:
            importlib.import_module(fam.load)
        except BaseException:
            _LOADED.discard(fam.name)
            raise


def load_all() -> None:
    """Import every installed family (to list all formats, or to try all on an unknown file)."""
    for fam in families():
        load(fam)


def all_loaded() -> bool:
    """Whether every installed family is imported (kept: one look-up on every open)."""
    return not _pending()


def matching(path: Path | None, head: bytes, among: list[Family] | None = None) -> list[Family]:
    """The families (of `among`, default every installed one) whose signs the file (or, for a
    folder, a file inside it) shows."""
    fams = families() if among is None else among
    if not fams:
        return []
    if path is not None and not head and path.is_dir():  # (a file's first bytes: not a folder)
        try:
            names = [p.name for p in path.iterdir()]
        except OSError:
            names = []
        return [f for f in fams if any(name_matches(n, pat) for s in f.signs for pat in s.names for n in names)]
    text: bool | None = None  # worked out when a sign is shown (most binary files show none)
    name = path.name if path is not None else None
    out = []
    for fam in fams:
        for s in fam.signs:
            by_name = name is not None and matches_any(name, s.names)
            # a head test counts for a binary file only (`lookalike`'s rule), so a text format's sign
            # is matched by its names: its head test is not run (every open of a binary file asks)
            by_head = s.binary and s.head is not None and bool(head) and bool(s.head(head))
            if not (by_name or by_head):
                continue
            if text is None:
                text = is_text(head) if head else False
            if (by_name and (s.binary != text or not head)) or (by_head and not text):
                out.append(fam)
                break
    return out


def signs() -> list[Signs]:
    """Every family's `Signs` (declared, then registered at run time), in family order."""
    declared = [s for fam in families() for s in fam.signs]
    return declared + [s for s in registered_signs() if s not in declared]


def load_for(path: str | Path | None, head: bytes) -> list[Family]:
    """Import the families a file shows the signs of; the ones imported now. Families imported
    before are not asked again (every `binparse.open` comes here: their signs would change nothing)."""
    left = _pending()
    if not left:
        return []
    if head and not (path is not None and matches_any(os.path.basename(path), _names())) and \
            not any(test(head) for test in pending_heads()):
        return []  # a file that shows no sign of a family not imported (most opens: one look, not one a sign)
    fams = matching(Path(path) if isinstance(path, str) else path, head, among=left)
    for fam in fams:
        load(fam)
    return fams


def _pending() -> list[Family]:
    """The families not imported yet (kept until one is imported, or the families are found anew)."""
    global _PENDING
    fams = families()
    if _PENDING is None or _PENDING[0] is not fams:
        for fam in fams:
            if fam.load in sys.modules:  # imported already (its modules imported directly)
                _LOADED.add(fam.name)
        left = [f for f in fams if f.name not in _LOADED]
        _PENDING = (fams, left, tuple(s.head for f in left for s in f.signs if s.binary and s.head is not None),
                    tuple(dict.fromkeys(p for f in left for s in f.signs for p in s.names)))
    return _PENDING[1]


def _names() -> tuple[str, ...]:
    """The name patterns of the signs of the families not imported yet."""
    _pending()
    assert _PENDING is not None
    return _PENDING[3]


def pending_heads() -> tuple[Callable[[bytes], Any], ...]:
    """The head tests of the binary signs of the families not imported yet: a nameless binary
    buffer that passes none of them shows none of their signs (`load_for` would import none)."""
    _pending()
    assert _PENDING is not None
    return _PENDING[2]


def load_family_of_format(name: str) -> None:
    """Import the family a format name belongs to (names start with the family: `<family>.<kind>...`)."""
    fam = family(name.partition(".")[0])
    if fam is not None:
        load(fam)
    else:
        load_all()


def reset() -> None:
    """Forget the found families (tests that install a plug-in)."""
    global _FAMILIES
    _FAMILIES = None


__all__ = ["GROUP", "entry_point_refs", "resolve", "families", "family", "load", "load_all", "load_for",
           "load_family_of_format", "all_loaded", "matching", "reset", "signs"]
