"""binparse: typed, zero-copy access to accelerator artifacts and device buffers, from schemas.

    import binparse
    io = binparse.open("201_tidl_io_1.bin")     # detected from its size, read-only
    io.in_width[: io.num_input_buf]             # numpy view of the file, no copy
"""

from typing import TYPE_CHECKING, Any

from .api import compile, open, open_as
from .core.budget import budget, set_budget
from .core.buffers import byte_view, view
from .core.errors import BinparseError, BinparseWarning, FormatError, LayoutError, SchemaError, ValidationError
from .family.registry import Format, detect, registered

if TYPE_CHECKING:
    from .engine.schema import load_schema


def __getattr__(name: str) -> Any:
    if name == "load_schema":  # the .ksy loader and PyYAML only when asked for (not to read a file)
        from .engine.schema import load_schema
        return load_schema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__version__ = "0.1.0"

__all__ = ["BinparseError", "BinparseWarning", "Format", "FormatError", "LayoutError", "SchemaError", "ValidationError", "budget",
           "compile", "byte_view", "detect", "registered", "load_schema", "open", "open_as", "set_budget", "view"]
