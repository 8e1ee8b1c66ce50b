"""The official Kaitai Struct compiler as an oracle: compile our .ksy files, load its parsers.

The compiler is the npm package `kaitai-struct-compiler` (JavaScript API, no CLI), driven by
`tools/ksc.js` under node. `.ci/run` installs it into `.kaitai/` (git-ignored); set
BINPARSE_KAITAI_DIR to use another folder holding `node_modules/kaitai-struct-compiler`.
Parsers it generates run on the `kaitaistruct` runtime. This module is for tests and benchmarks.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from enum import IntEnum
from pathlib import Path
from types import ModuleType
from typing import Any

from kaitaistruct import BytesIO, KaitaiStream

from .backends.numpy_backend import camel
from .schema import SCHEMAS_DIR, Schema, TypeDef

REPO = Path(__file__).resolve().parents[2]
__all__ = ["BytesIO", "KaitaiStream", "available", "compile_all", "compile_schemas", "load_module", "parse", "root_class", "to_plain"]


def compiler_dir() -> Path:
    return Path(os.environ.get("BINPARSE_KAITAI_DIR", REPO / ".kaitai"))


def available() -> bool:
    """True when node and the npm compiler package are both present."""
    return shutil.which("node") is not None and (compiler_dir() / "node_modules" / "kaitai-struct-compiler").is_dir()


def compile_schemas(paths: list[Path], out_dir: Path, import_path: list[Path] | None = None,
                    check: bool = True, read_write: bool = False, debug: bool = False) -> list[str]:
    """Compile .ksy files to Python in `out_dir`; returns the module files written.

    Absolute imports (`/name`) are looked up in `import_path`. Raises RuntimeError with the
    compiler's message when it rejects a schema (with `check=False`, the others are still written).
    `read_write`: classes that also write (`_check`, `_write`: Kaitai 0.11's serialization).
    `debug`: Kaitai's debug mode (each object's `_debug` holds where its fields start and end;
    `_read()` is called by the caller).
    """
    env = dict(os.environ, NODE_PATH=str(compiler_dir() / "node_modules"))
    flags = (["--read-write"] if read_write else []) + (["--debug"] if debug else []) + \
        [x for d in import_path or [] for x in ("--import-path", str(d))]
    run = subprocess.run(["node", str(REPO / "tools" / "ksc.js"), *flags, str(out_dir), *map(str, paths)],
                         capture_output=True, text=True, env=env, timeout=300)
    if run.returncode != 0 and check:
        raise RuntimeError(f"kaitai-struct-compiler failed:\n{run.stderr}")
    return run.stdout.split()


def compile_all(out_dir: Path, schemas_root: Path = SCHEMAS_DIR) -> list[str]:
    return compile_schemas(sorted(schemas_root.rglob("*.ksy")), out_dir)


def load_module(out_dir: Path, schema: Schema) -> ModuleType:
    """Import the compiler's module for `schema` from `out_dir`."""
    if str(out_dir) not in sys.path:
        sys.path.insert(0, str(out_dir))
    spec = importlib.util.spec_from_file_location(schema.id, out_dir / f"{schema.id}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def root_class(mod: ModuleType, schema: Schema) -> Any:
    return getattr(mod, camel(schema.id))


def parse(out_dir: Path, schema: Schema, data: bytes, params: dict[str, int] | None = None) -> Any:
    """Parse `data` with the compiler's parser for `schema` (params in declaration order)."""
    cls = root_class(load_module(out_dir, schema), schema)
    args = [(params or {})[p.id] for p in schema.root.params]
    return cls(*args, KaitaiStream(BytesIO(data)))


def to_plain(obj: Any, t: TypeDef) -> dict[str, Any]:
    """Plain values of a Kaitai-generated object (the shape of accessor `to_dict`)."""
    # An `if`-false field is not set at all on Kaitai objects: it reads as None, as in binparse.
    return {a.id: _plain(getattr(obj, a.id, None), t, a.user.name if a.user else None) for a in t.seq}


def _plain(v: Any, t: TypeDef, user: str | None) -> Any:
    if isinstance(v, list):
        return [_plain(x, t, user) for x in v]
    if isinstance(v, IntEnum):
        return int(v)
    if hasattr(v, "_io") and hasattr(v, "_read"):
        if user is None:  # a switch case: find the type by its class name
            sub = next(x for x in t.schema.root.all_types() if camel(x.name) == type(v).__name__)
        else:
            sub = t.resolve_type(user)
        return to_plain(v, sub)
    return v
