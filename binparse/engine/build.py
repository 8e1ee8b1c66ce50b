"""Build artifact bytes from a values spec with the schema (the writer, `binparse.engine.serialize`).

A spec is YAML::

    schema: tidl/tidl_io_buf_desc_j7_08     # schema name below schemas/
    params: {}                              # the root type's params, if any
    output: 900_tidl_io_1.bin               # written beside the spec
    values:                                 # fields by id; anything not named is zero
      num_input_buf: 1
      in_width: [224]                       # a short list fills the first entries, the rest stay zero
      layer_params_raw: {type: conv_params, args: {gen: 86}, values: {...}}   # a raw slot as a type
    patches:                                # arrays written at absolute offsets after the struct
      - {offset: 5568, dtype: int8, values: [1, -2, 3]}
    size: 5760                              # zero-pad the file to this size

The defaults are zero numbers, empty strings, zero bytes and each `contents` magic, so a spec
says only what matters. Outputs are written atomically (temp file, then rename).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from ..core import budget
from ..core.documents import load_yaml
from ..core.errors import FormatError
from .schema import SCHEMAS_DIR, TypeDef, load_schema
from . import expr as ex
from .schema.model import Attr
from .backends.numpy_backend import resolve_enums


# a built entry: its Python value and list slot (an estimate, not measured: the claims it refuses,
# such as 2^32 buffers, are orders of magnitude past any spec binparse bundles)
ENTRY_BYTES = 64


def _one_default(a: Attr, t: TypeDef, size: int | None, sub_params: dict[str, Any]) -> Any:
    if a.kind == "prim":
        assert a.prim is not None
        return 0.0 if a.prim.kind == "float" else 0
    if a.kind == "str":
        return ""
    if a.kind == "contents":
        return a.contents
    if a.kind == "bytes":
        return bytes(size or 0)
    if a.kind == "user" and a.user is not None:
        return defaults(t.resolve_type(a.user.name), sub_params)
    raise FormatError(f"no default for switch field {a.id}: give its value in the spec", path=f"{t.path}.{a.id}")


def defaults(t: TypeDef, params: dict[str, Any], given: dict[str, Any] | None = None) -> dict[str, Any]:
    """Complete plain values for `t`: `given` where named, zero elsewhere (short lists padded)."""
    given = dict(given or {})
    values: dict[str, Any] = {}
    scope = ex.DictScope(values, params)
    for a in t.seq:
        def ev(e: ex.Expr | None) -> Any:
            e2 = resolve_enums(e, t)
            return None if e2 is None else ex.evaluate(e2, scope)
        if a.cond is not None and not ev(a.cond):
            values[a.id] = given.pop(a.id, None)
            continue
        size = ev(a.size) if a.size is not None and a.kind in ("bytes", "str") else None
        count = ev(a.count) if a.count is not None else None
        if count is not None or size is not None:  # the spec's params and values decide both
            budget.ask(ENTRY_BYTES * int(count or 1) + int(size or 0) * int(count or 1),
                       f"{t.path}.{a.id}: {int(count or 1):,} entries"
                       f"{f' of {int(size):,} bytes' if size is not None else ''} built from the spec")
        sub_params: dict[str, Any] = {}
        if a.kind == "user" and a.user is not None:
            sub = t.resolve_type(a.user.name)
            sub_params = {p.id: ev(x) for p, x in zip(sub.params, a.user.args)}
        if a.id in given:
            v = given.pop(a.id)
            if a.kind == "bytes" and isinstance(v, dict) and "type" in v:
                v = _typed_bytes(t, v, scope)  # e.g. a union slot filled with one member type
            if a.kind == "user" and a.user is not None:
                if count is not None:
                    v = [defaults(sub, sub_params, x) for x in v]
                    v += [defaults(sub, sub_params) for _ in range(int(count) - len(v))]
                else:
                    v = defaults(sub, sub_params, v)
            elif count is not None and isinstance(v, list) and len(v) < count:
                v = v + [_one_default(a, t, size, sub_params) for _ in range(count - len(v))]
            elif a.kind == "bytes" and isinstance(v, (bytes, bytearray)) and size is not None:
                v = bytes(v).ljust(size, b"\0")
        elif count is not None:
            v = [_one_default(a, t, size, sub_params) for _ in range(int(count))]
        else:
            v = _one_default(a, t, size, sub_params)
        values[a.id] = v
    if given:
        raise FormatError(f"spec names fields the schema does not have: {sorted(given)}",
                          path=t.path, expected=[a.id for a in t.seq])
    return values


def _typed_bytes(t: TypeDef, spec: dict[str, Any], scope: ex.DictScope) -> bytes:
    """Bytes of a named type (with its params) for a raw-bytes field: `{type: conv_params, args: {gen: 86}, values: {...}}`."""
    sub = t.resolve_type(spec["type"])
    params = dict(spec.get("args", {}))
    values = defaults(sub, params, spec.get("values", {}))
    from .serialize import build
    return build(t.schema, values, params=params, type_def=sub)


def fill(schema_name: str, values: dict[str, Any], params: dict[str, Any] | None = None) -> bytes:
    """Bytes of the schema's root type from (partial) values. `schema_name` names one of binparse's own
    schemas (below schemas/): a name leading out of that folder is refused, never read."""
    path = SCHEMAS_DIR / f"{schema_name}.ksy"
    from ..core.paths import within
    if not isinstance(schema_name, str) or not within(path, SCHEMAS_DIR):
        raise FormatError("a struct fixture spec names one of binparse's schemas (below schemas/)",
                          path="schema", expected="a name such as tidl/tidl_io_buf_desc_j7_08", found=schema_name)
    schema = load_schema(path)
    params = params or {}
    from .serialize import build
    return build(schema, defaults(schema.root, params, values), params=params)


MAX_SPEC_BYTES = 1 << 28  # a struct spec's artifact: the resource contract's allowance (docs/contracts.md)


def _size(value: Any, path: Path, field: str) -> int:
    """A size or offset a spec gives, checked before anything that large is allocated."""
    if not isinstance(value, int) or not 0 <= value <= MAX_SPEC_BYTES:
        raise FormatError("a size or offset a struct fixture spec may give", file=str(path), path=field,
                          expected=f"an integer 0..{MAX_SPEC_BYTES:,}", found=value)
    return value


def build_spec(spec_path: str | os.PathLike[str]) -> tuple[Path, bytes]:
    """(output path, bytes) of a values spec."""
    path = Path(spec_path)
    spec = load_yaml(path.read_text(encoding="utf-8"), file=path, what="the fixture spec")
    if not isinstance(spec, dict):
        raise FormatError("a fixture spec is a YAML mapping", file=str(path))
    if "size" in spec:  # claims checked before anything is built
        _size(spec["size"], path, "size")
    for patch in spec.get("patches", []):
        _size(patch.get("offset"), path, "patches/offset")
    try:
        data = bytearray(fill(spec["schema"], spec.get("values", {}), spec.get("params", {})))
        for patch in spec.get("patches", []):  # arrays at absolute offsets after the struct (e.g. weights)
            raw = np.asarray(patch["values"], dtype=patch["dtype"]).tobytes()
            end = patch["offset"] + len(raw)
            data.extend(bytes(max(0, end - len(data))))
            data[patch["offset"]:end] = raw
    except FormatError as exc:  # (about the spec: named so)
        raise exc.with_file(str(path)) from None
    except KeyError as exc:  # a field, parameter or key the schema needs and the spec does not give
        raise FormatError(f"the spec gives no {exc.args[0]!r}, which the schema needs", file=str(path),
                          hint="give it under values: or params:") from None
    except (TypeError, ValueError) as exc:
        raise FormatError(f"a value of the spec does not fit the schema: {exc}", file=str(path)) from None
    if "size" in spec:
        data.extend(bytes(spec["size"] - len(data)))
    return path.parent / str(spec["output"]), bytes(data)


def write_spec(spec_path: str | os.PathLike[str]) -> Path:
    """Build a spec and write its output beside it; returns the output path."""
    out, data = build_spec(spec_path)
    from ..core.writes import confined, write_bytes
    with confined(Path(spec_path).parent):  # beside the spec, never where its `output:` escapes to
        write_bytes(out, data)
    return out
