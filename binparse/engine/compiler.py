"""A user's own Kaitai Struct schema as a typed, zero-copy reader: `binparse.compile(path)`.

    reader = binparse.compile("gif.ksy", import_path=["formats/"])
    gif = reader.parse("cat.gif")          # the root type's accessor: lazy, numpy views, no copies
    gif.logical_screen.image_width

`compile` loads the schema and every schema it imports, generates their typed accessor modules
(`binparse.engine.codegen`, the same generator as binparse's own schemas) and imports them. The modules
are kept in a cache folder keyed by the content of every schema involved and by binparse's own
code, so a second process pays only the loading: `$BINPARSE_CACHE`, else
`$XDG_CACHE_HOME/binparse/ksy`, else `~/.cache/binparse/ksy` (one sub-folder per schema set; see
`binparse.engine.ksycache` for what makes an entry usable: a folder of this user's alone, each entry
checked against its digest before it runs; a folder that cannot be used just means compiling in
memory every time).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from ..core.buffers import BufferLike, byte_view
from ..core.errors import BinparseError, SchemaError
from . import ksycache
from .expr.idents import module_name_of
from .ksycache import cache_root

_CODE_HASH: list[str] = []
_MEMO: dict[str, Any] = {}


def _code_hash() -> str:
    """A digest of the code that writes and runs generated modules (a new binparse: a new cache)."""
    if not _CODE_HASH:
        root = Path(__file__).parent
        h = hashlib.sha256()
        for sub in ("codegen", "backends", "schema", "expr", "runtime", "."):
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
        from .expr.idents import root_class_name
        self.root_class: Any = getattr(module, root_class_name(schema_id))
        self.id = schema_id
        self.import_path: list[Path] = []
        self._schema: Any = None

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
            return self.root_class._open(mv, file, params)  # (a field may be called from_buffer)
        except BinparseError as exc:
            raise exc.with_file(file) if file else exc

    def schema(self) -> Any:
        """The loaded schema (the model the writer works over), loaded on first use."""
        if self._schema is None:
            from .schema import load_schema
            self._schema = load_schema(self.path, import_path=self.import_path)
        return self._schema

    def build(self, values: dict[str, Any], original: Any = None, **params: Any) -> bytes:
        """The bytes of the root type holding `values` (a mapping of its fields, as `to_dict()` gives
        them): Kaitai's serialization with its consistency checks. With `original` (the parsed root
        the values came from), what did not change keeps the file's bytes, and sizes and counts the
        caller did not set follow the values (docs/ksy.md, "Writing back"). Raises
        `ConsistencyError` naming the field for values the schema would not read back."""
        from .serialize import build
        return build(self.schema(), values, params=params or None, original=original,
                     file=getattr(original, "_file", None))

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
    memo = f"{cache_root()}/{key}"
    hit = _MEMO.get(memo)
    if hit is not None and hit[0] == _deps_digest(hit[1]):
        return hit[2]  # type: ignore[no-any-return]
    folder = cache_root() / key
    found = ksycache.read(folder, _deps_digest)
    if found is not None:
        digest, schema_id, codes, deps = found
        compiled = Compiled(ksycache.load(f"binparse_ksy_{digest}", codes, module_name_of(schema_id)), schema_id, main)
    else:
        compiled, deps = _build(main, dirs, folder)
    compiled.import_path = dirs
    _MEMO[memo] = (_deps_digest(deps), deps, compiled)
    return compiled


def _deps_digest(deps: Sequence[Path]) -> str:
    try:
        return _digest(deps)
    except OSError:
        return ""


def _build(main: Path, dirs: list[Path], folder: Path) -> tuple[Compiled, list[Path]]:
    from .codegen.write import ask_compile, closure, package_of
    from .schema import load_schema
    schema = load_schema(main, import_path=dirs)
    schemas = closure([schema])
    deps = [Path(s.file) for s in schemas]
    digest = _digest(deps)
    files = package_of(schemas, folder, check=False)
    texts = {p.stem: t for p, t in files.items() if p.name != "__init__.py"}
    ask_compile(sum(map(len, texts.values())), str(main))
    try:
        codes = ksycache.codes_of(texts, folder)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise SchemaError(f"binparse wrote Python from this schema that does not compile ({type(exc).__name__}): "
                          "please report it", file=str(main)) from None
    ksycache.write(folder, schema.id, texts, codes, deps, digest)
    module = ksycache.load(f"binparse_ksy_{digest}", codes, module_name_of(schema.id))
    return Compiled(module, schema.id, main), deps


__all__ = ["Compiled", "cache_root", "compile"]
