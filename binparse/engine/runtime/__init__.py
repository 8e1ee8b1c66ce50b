"""What generated accessor classes stand on (the one import of every generated module).

`specs` holds the plain data a generated class is made of; `layout` computes where fields lie;
`accessor` is the base class (making accessors, locating fields), `getters` its typed getters,
`whole` validation, rows and copies (`rows`: many entries in one read), `kept` what is worked out
once per class and params; `sequences` the zero-copy sequences.
"""

from .accessor import Accessor
from .whole import to_plain
from .layout import record_dtype, static_eval, static_layout, static_prefix
from .sequences import RecordArray, StrArray
from .specs import ABSENT, FieldSpec, StaticLayout, ValidSpec, _kdiv

__all__ = ["ABSENT", "Accessor", "FieldSpec", "RecordArray", "StaticLayout", "StrArray", "ValidSpec",
           "_kdiv", "record_dtype", "static_eval", "static_layout", "static_prefix", "to_plain"]
