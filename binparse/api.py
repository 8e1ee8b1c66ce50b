"""The front door: the functions `import binparse` gives, from where each lives.

`open` and `open_as` detect a file's format and return its typed accessor without reading it
(`binparse.family.opening`); `compile` reads a user's own Kaitai Struct schema
(`binparse.engine.compiler`, imported on first use: reading a vendor's file never loads it).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .family.opening import open, open_as

if TYPE_CHECKING:
    from .engine.compiler import Compiled


def compile(path: str | os.PathLike[str], import_path: Sequence[str | os.PathLike[str]] = ()) -> Compiled:  # noqa: A001
    """Compile a .ksy (and every schema it imports) into typed accessors: `binparse.engine.compiler.compile`.

    `import_path`: folders searched for absolute imports (`/common/vlq_base128_le`) and, after
    the importing file's own folder, for relative ones. Raises `SchemaError` (naming the file,
    line and key) for anything binparse cannot read.
    """
    from .engine.compiler import compile as compile_schema
    return compile_schema(path, import_path)


__all__ = ["compile", "open", "open_as"]
