"""C headers → .ksy: a vendor's struct (with what it depends on) as a schema of fixed layout.

Preprocessing is pcpp's (a C preprocessor in pure Python: `#define`, `#if defined(...)`, `#ifdef`,
`#include`), parsing is pycparser's (a maintained C99 parser). binparse computes the layout itself
with the C rules for a given pointer size (natural alignment, unions as their largest member,
arrays of structs, multi-dimensional arrays) and writes the schema with each field's C name in its
`doc`. Both packages are in the `headers` extra (and the test extra).
"""

from .layout import CLayout, Field, StructLayout, layout_struct
from .to_ksy import header_to_ksy

__all__ = ["CLayout", "Field", "StructLayout", "header_to_ksy", "layout_struct"]
