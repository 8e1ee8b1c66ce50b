"""A user's own Kaitai Struct schema as a typed, zero-copy reader: `binparse.compile(path)`.

    reader = binparse.compile("gif.ksy", import_path=["formats/"])
    gif = reader.parse("cat.gif")          # the root type's accessor: lazy, numpy views, no copies
    gif.logical_screen.image_width

`compile` loads the schema and every schema it imports, generates their typed accessor modules
(`binparse.engine.codegen`, the same generator as binparse's own schemas) and imports them. The modules
are kept in a cache folder keyed by the content of every schema involved and by binparse's own
code, so a second process pays only the import: `$BINPARSE_CACHE`, else
`$XDG_CACHE_HOME/binparse/ksy`, else `~/.cache/binparse/ksy` (one sub-folder per schema set; it
is written through `binparse.core.writes`, and a folder that cannot be written just means compiling
in memory every time).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from ..core.buffers import BufferLike, byte_view
from ..core.errors import BinparseError, SchemaError
from .expr.idents import module_name_of

_CODE_HASH: list[str] = []
_MEMO: dict[str, Any] = {}
MANIFEST = "manifest.txt"


def cache_root() -> Path:
    env = os.environ.get("BINPARSE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "binparse" / "ksy"


def _code_hash() -> str:
    """A digest of the code that writes and runs generated modules (a new binparse: a new cache)."""
    if not _CODE_HASH:
        root = Path(__file__).parent
        h = hashlib.sha256()
        for sub in ("codegen", "backends", "schema", "expr", "runtime"):
            for p in sorted((root / sub).glob("*.py")):
                h.update(p.name.encode())
                h.update(p.read_bytes())
        _CODE_HASH.append(h.hexdigest()[:16])
    return _CODE_HASH[0]


def _digest(paths: Sequence[Path]) -> str:
    h = hashlib.sha256(_code_hash().encode())
    for p in paths:
        h.update(str(p).encode() + b"\0")
        h.update(p.read_bytes())
    return h.hexdigest()[:24]


class Compiled:
    """A compiled schema: its generated module and the class of its root type."""

    def __init__(self, module: ModuleType, schema_id: str, path: Path) -> None:
        self.module = module
        self.path = path
        from .backends.numpy_backend import root_class_name
        self.root_class: Any = getattr(module, root_class_name(schema_id))
        self.id = schema_id

    def parse(self, source: str | os.PathLike[str] | BufferLike, **params: Any) -> Any:
        """The root type's accessor over a file path or a buffer (read lazily; views, no copies).

        A path is read whole when small and memory-mapped when larger, as `binparse.open` does;
        `params` are the root type's params, if it has any.
        """
        file: str | None = None
        if isinstance(source, (str, os.PathLike)):
            from ..core.filemap import map_file
            file = os.fspath(source)
            buf: Any = map_file(file)
        else:
            buf = source
        mv = byte_view(buf, file=file)
        try:
            return self.root_class.from_buffer(mv, file=file, **params)
        except BinparseError as exc:
            raise exc.with_file(file) if file else exc

    def __repr__(self) -> str:
        return f"<binparse.compile({str(self.path)!r}): {self.root_class.__name__}>"


def compile(path: str | os.PathLike[str], import_path: Sequence[str | os.PathLike[str]] = ()) -> Compiled:  # noqa: A001
    """Compile a .ksy (and every schema it imports) into typed accessors; see the module doc.

    `import_path`: folders searched for absolute imports (`/common/vlq_base128_le`) and, after
    the importing file's own folder, for relative ones. Raises `SchemaError` (naming the file,
    line and key) for anything binparse cannot read.
    """
    main = Path(path).resolve()
    dirs = [Path(d).resolve() for d in import_path]
    key = hashlib.sha256(("\0".join([str(main), *map(str, dirs)])).encode()).hexdigest()[:24]
    hit = _MEMO.get(f"{cache_root()}/{key}")
    if hit is not None and hit[0] == _deps_digest(hit[1]):
        return hit[2]  # type: ignore[no-any-return]
    folder = cache_root() / key
    compiled = _from_cache(folder, main)
    if compiled is None:
        compiled = _build(main, dirs, folder)
    found = _manifest(folder)
    deps = found[2] if found is not None else [main]
    _MEMO[f"{cache_root()}/{key}"] = (_deps_digest(deps), deps, compiled)
    return compiled


def _deps_digest(deps: Sequence[Path]) -> str:
    try:
        return _digest(deps)
    except OSError:
        return ""


def _manifest(folder: Path) -> tuple[str, str, list[Path]] | None:
    """(digest, root schema id, the schema files) a cache folder's manifest names, or None."""
    try:
        lines = (folder / MANIFEST).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 3:
        return None
    return lines[0], lines[1], [Path(p) for p in lines[2:]]


def _from_cache(folder: Path, main: Path) -> Compiled | None:
    """The compiled package in `folder`, if its manifest's schemas are unchanged (no YAML read)."""
    found = _manifest(folder)
    if found is None:
        return None
    digest, schema_id, deps = found
    if _deps_digest(deps) != digest:
        return None
    try:
        return Compiled(_import(folder, digest, schema_id), schema_id, main)
    except Exception:  # a cache someone changed or cut short: build it again
        return None


def _build(main: Path, dirs: list[Path], folder: Path) -> Compiled:
    from .codegen.write import closure, package_of
    from .schema import load_schema
    schema = load_schema(main, import_path=dirs)
    schemas = closure([schema])
    deps = [Path(s.file) for s in schemas]
    digest = _digest(deps)
    files = package_of(schemas, folder / f"pkg_{digest}")
    manifest = "\n".join([digest, schema.id, *map(str, deps)]) + "\n"
    try:
        from ..core.writes import confined, write_text
        with confined(cache_root()):
            for p, text in files.items():
                p.parent.mkdir(parents=True, exist_ok=True)
                write_text(p, text)
            write_text(folder / MANIFEST, manifest)
        importlib.invalidate_caches()
        return Compiled(_import(folder, digest, schema.id), schema.id, main)
    except (OSError, BinparseError):
        return Compiled(_import_texts(files, digest, schema.id), schema.id, main)


def _import(folder: Path, digest: str, schema_id: str) -> ModuleType:
    pkg_dir = folder / f"pkg_{digest}"
    name = f"binparse_ksy_{digest}"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, pkg_dir / "__init__.py",
                                                      submodule_search_locations=[str(pkg_dir)])
        if spec is None or spec.loader is None:
            raise SchemaError("cannot import the compiled schema", file=str(pkg_dir))
        pkg = importlib.util.module_from_spec(spec)
        sys.modules[name] = pkg
        spec.loader.exec_module(pkg)
    return importlib.import_module(f"{name}.{module_name_of(schema_id)}")


def _import_texts(files: dict[Path, str], digest: str, schema_id: str) -> ModuleType:
    """Import generated modules from their texts, without a cache folder (one that cannot be written)."""
    import types
    name = f"binparse_ksy_{digest}"
    pkg = types.ModuleType(name)
    pkg.__path__ = []
    sys.modules[name] = pkg
    texts = {p.stem: t for p, t in files.items() if p.name != "__init__.py"}

    class Finder:
        @staticmethod
        def find_spec(fullname: str, path: Any = None, target: Any = None) -> Any:
            prefix, _, mod = fullname.rpartition(".")
            if prefix != name or mod not in texts:
                return None
            return importlib.util.spec_from_loader(fullname, Loader())  # type: ignore[arg-type]

    class Loader:
        def create_module(self, spec: Any) -> None:
            return None

        def exec_module(self, module: ModuleType) -> None:
            exec(compile_text(texts[module.__name__.rpartition(".")[2]], module.__name__), module.__dict__)

    sys.meta_path.append(Finder())
    return importlib.import_module(f"{name}.{module_name_of(schema_id)}")


def compile_text(text: str, name: str) -> Any:
    import builtins
    return builtins.compile(text, f"<{name}>", "exec")


__all__ = ["Compiled", "cache_root", "compile"]
