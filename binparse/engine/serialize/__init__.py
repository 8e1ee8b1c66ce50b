"""Values to bytes with a schema: Kaitai's serialization (`ReadWriteKaitaiStruct`'s `_write` and
`_check`), over the engine's model, for the whole language the reader reads.

    reader = binparse.compile("wav.ksy")
    tone = reader.parse("tone.wav")
    values = tone.to_dict()                            # plain values, a copy
    values["chunks"][0]["body"]["sample_rate"] = 16000
    data = reader.build(values, original=tone)         # bytes; `original`: unchanged bytes kept

How it is built (docs/ksy.md, "Writing back"): `stream` (bytes and bits), `records` (a record being
written and what its expressions see), `frame` (one value to bytes), `writer` (records and fields
in Kaitai's order, with its consistency checks), `fixes` (sizes and counts that follow the
values), `edit` (the original's bytes where nothing changed), `setpath` (`--set path=value`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..schema.model import Schema, TypeDef
from .fixes import ConsistencyError


def build(schema: Schema, values: dict[str, Any], *, params: dict[str, Any] | None = None,
          original: Any = None, file: str | None = None, notes: list[str] | None = None,
          type_def: TypeDef | None = None) -> bytes:
    """The bytes of the root type of `schema` holding `values` (a mapping of its seq fields, as
    `to_dict()` gives them). `original`: the parsed root the values were read from (its unchanged
    bytes are kept, and only lengths the caller did not set follow the values); `params`: the
    root type's params (by default the original's); `notes`: a list that gets what was written
    other than a file may have had it, no value holding it (bytes after a terminator, unused bits,
    zlib compressed again: why a build without `original` may differ from the file); `type_def`: a
    type of the schema to build instead of the root (with `params` its params). Raises `ConsistencyError` naming the field for
    values the schema would not read back as they are."""
    from .writer import Writer
    if not isinstance(values, dict):
        raise ConsistencyError("the values are a mapping of the root's fields", file=file,
                               found=type(values).__name__)
    if params is None:
        params = dict(getattr(original, "_params", {}) or {})
    values = _records_as_dicts(values)
    w = Writer(schema, file=file, original=original)
    data = w.build(values, params, type_def)
    if notes is not None:
        notes.extend(w.notes.values())
    return data


def _records_as_dicts(v: Any) -> Any:
    """Values with any record given as a parsed accessor (`values["header"] = other.header`) made a dict
    (`to_dict()`); lists of numbers are not gone through."""
    from ..runtime.whole import Whole
    if isinstance(v, Whole):
        return v.to_dict()
    if isinstance(v, dict):
        return {k: _records_as_dicts(x) for k, x in v.items()}
    if isinstance(v, (list, tuple, Sequence)) and not isinstance(v, (str, bytes)) and len(v) and \
            isinstance(v[0], (Whole, dict, list)):
        return [_records_as_dicts(x) for x in v]
    return v


__all__ = ["ConsistencyError", "build"]
