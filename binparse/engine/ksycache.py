"""The compile cache of `binparse.compile`: generated modules kept as compiled code, used only when
nobody else could have put them there (docs/contracts.md, "Schemas are data").

Where: `$BINPARSE_CACHE`, else `$XDG_CACHE_HOME/binparse/ksy`, else `~/.cache/binparse/ksy`; one
folder per schema set (a key of the main schema's path and the import path). The rules:

- the cache folder is made `0700`; it, the schema set's folder and every entry are looked at with
  `lstat`, and one that is a link, is owned by another user, or that group or others may write, is not
  used (the schema is compiled in memory instead, and nothing is written there);
- each module is kept as its code (`marshal`, by this Python's version) beside the generated source (for
  people to read; never run), and the manifest keeps the sha256 of each code file: an entry is read
  through a descriptor opened without following links, checked (owner, mode, a regular file) and
  compared with its digest before it is run; anything that does not match means building anew;
- modules are run from those checked bytes (`load`), never imported by path: no `.pyc` beside them is
  ever looked at;
- writes go through `binparse.core.writes` (a temporary file, then a rename), confined to the folder.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import marshal
import os
import stat
import sys
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from ..core.errors import BinparseError

MANIFEST = "manifest.json"
FORMAT = 2  # of the manifest


def cache_root() -> Path:
    env = os.environ.get("BINPARSE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "binparse" / "ksy"


def _mine(st: os.stat_result, kind: int) -> bool:
    """A folder or file of this user (not a link: `st` is an lstat), that no one else may write."""
    uid = os.getuid() if hasattr(os, "getuid") else st.st_uid
    return stat.S_IFMT(st.st_mode) == kind and st.st_uid == uid and not st.st_mode & 0o022


def trusted_folder(path: Path, make: bool = False) -> bool:
    """Whether `path` is a folder of this user that no one else may write (made `0700` when missing
    and `make`)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if not make:
            return False
        try:
            os.makedirs(path, mode=0o700, exist_ok=True)
            os.chmod(path, 0o700)  # made here: whatever the umask, this user's alone (a link is caught below)
            st = os.lstat(path)
        except OSError:
            return False
    except OSError:
        return False
    return _mine(st, stat.S_IFDIR)


def read_trusted(path: Path) -> bytes | None:
    """The bytes of a regular file of this user no one else may write, read through a descriptor
    opened without following a link; None for anything else."""
    from ..core.paths import read_unlinked
    got = read_unlinked(path, 1 << 28)
    return got[1] if got is not None and _mine(got[0], stat.S_IFREG) else None


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def codes_of(texts: dict[str, str], where: Path) -> dict[str, CodeType]:
    """The code of each generated module (by its module name), compiled from its text."""
    import builtins
    return {name: builtins.compile(text, str(where / f"{name}.py"), "exec", dont_inherit=True)
            for name, text in texts.items()}


def read(folder: Path, digest_of: Any) -> tuple[str, str, dict[str, CodeType], list[Path]] | None:
    """(digest, root schema id, the code of each module, the schema files) kept in `folder`, when the cache
    folder and every entry pass the checks and the schemas are those the entry was made from
    (`digest_of(files)` gives the digest of their content); else None."""
    root = cache_root()
    if not trusted_folder(root) or not trusted_folder(folder) or folder.parent != root:
        return None
    raw = read_trusted(folder / MANIFEST)
    if raw is None:
        return None
    try:
        m = json.loads(raw)
        deps = [Path(p) for p in m["schemas"]]
        if m["format"] != FORMAT or m["python"] != _python() or digest_of(deps) != m["digest"]:
            return None
        codes: dict[str, CodeType] = {}
        for name, sha in m["modules"].items():
            if not isinstance(name, str) or not name.isidentifier():
                return None
            data = read_trusted(folder / f"{name}.code")
            if data is None or _sha(data) != sha:
                return None
            code = marshal.loads(data)
            if not isinstance(code, CodeType):
                return None
            codes[name] = code
        return str(m["digest"]), str(m["root"]), codes, deps
    except (ValueError, KeyError, TypeError, EOFError, OSError):
        return None


def write(folder: Path, schema_id: str, texts: dict[str, str], codes: dict[str, CodeType], deps: list[Path],
          digest: str) -> None:
    """Keep the modules in `folder` (a no-op when the cache folder may not be used or written)."""
    root = cache_root()
    if not trusted_folder(root, make=True):
        return
    from ..core.writes import confined, write_bytes
    try:
        with confined(root):
            if not trusted_folder(folder, make=True):
                return
            modules = {}
            for name, code in codes.items():
                data = marshal.dumps(code)
                write_bytes(folder / f"{name}.py", texts[name].encode("utf-8"))  # for people to read: never run
                write_bytes(folder / f"{name}.code", data)
                modules[name] = _sha(data)
            manifest = {"format": FORMAT, "python": _python(), "digest": digest, "root": schema_id,
                        "schemas": [str(p) for p in deps], "modules": modules}
            write_bytes(folder / MANIFEST, json.dumps(manifest, indent=1).encode("utf-8"))
    except (OSError, BinparseError):
        return  # a folder that cannot be written: compiled in memory every time


def _python() -> str:
    return importlib.util.MAGIC_NUMBER.hex()


class _Finder:
    """Runs the modules of compiled packages from their checked code (one finder for all of them)."""

    packages: dict[str, dict[str, CodeType]] = {}

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        prefix, _, mod = fullname.rpartition(".")
        codes = self.packages.get(prefix)
        if codes is None or mod not in codes:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)  # type: ignore[arg-type]  # (a loader by duck typing)

    def create_module(self, spec: Any) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        prefix, _, mod = module.__name__.rpartition(".")
        exec(self.packages[prefix][mod], module.__dict__)  # noqa: S102  (code binparse generated and checked)


_FINDER = _Finder()


def load(package: str, codes: dict[str, CodeType], module: str) -> ModuleType:
    """Module `module` of a package of generated modules run from their code (made and checked)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.append(_FINDER)
    if package not in sys.modules:
        pkg = ModuleType(package)
        pkg.__path__ = []
        pkg.__package__ = package
        sys.modules[package] = pkg
    _FINDER.packages.setdefault(package, codes)
    import importlib
    return importlib.import_module(f"{package}.{module}")


__all__ = ["MANIFEST", "cache_root", "codes_of", "load", "read", "read_trusted", "trusted_folder", "write"]
