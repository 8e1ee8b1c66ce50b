"""Hypothesis strategies derived from binparse's schemas and layout descriptors.

For binparse's own tests and for users' tests of code that reads these formats:

    from hypothesis import given
    from binparse import testing
    from binparse.engine.schema import SCHEMAS_DIR, load_schema

    io = load_schema(SCHEMAS_DIR / "tidl/tidl_io_buf_desc.ksy")
    @given(testing.values(io.root, {"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80}))
    def test_reader(values): ...

`values(type, params)` draws plain field values (the shape of `to_dict`) that the construct
backend can build, respecting each field's type, `valid` rule, `if` and size; long arrays come
from a seeded numpy generator so that a draw stays cheap. The layout strategies draw a valid
descriptor together with a logical array of its shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

from .engine.backends.numpy_backend import resolve_enums
from .core.errors import BinparseError
from .engine.schema import TypeDef
from .engine import expr as ex
from .engine.schema.model import Attr

_LONG = 16  # arrays longer than this are drawn from a seeded numpy generator


def _ev(e: ex.Expr | None, t: TypeDef, values: dict[str, Any], params: dict[str, Any]) -> Any:
    r = resolve_enums(e, t)
    return None if r is None else ex.evaluate(r, ex.DictScope(values, params))


def _int_range(a: Attr, t: TypeDef, values: dict[str, Any], params: dict[str, Any]) -> tuple[int, int]:
    assert a.prim is not None
    bits = 8 * a.prim.size
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if a.prim.signed else (0, (1 << bits) - 1)
    v = a.valid
    if v is not None:
        if v.min is not None:
            lo = max(lo, int(_ev(v.min, t, values, params)))
        if v.max is not None:
            hi = min(hi, int(_ev(v.max, t, values, params)))
    if a.id in _sizing_names(t):  # a count or size of later fields: keep draws small
        lo, hi = max(lo, 0), min(hi, max(lo, 0) + 48)
    return lo, hi


def _sizing_names(t: TypeDef) -> set[str]:
    names: set[str] = set()
    for b in t.seq:
        for e in (b.size, b.count):
            r = resolve_enums(e, t)
            if r is not None:
                names |= ex.names(r)
    return names


def _one(draw: Any, a: Attr, t: TypeDef, values: dict[str, Any], params: dict[str, Any], count: int | None) -> Any:
    n = 1 if count is None else count
    if a.kind == "prim":
        assert a.prim is not None
        if a.valid is not None and a.valid.in_enum and a.enum:
            members = sorted(t.resolve_enum(a.enum).members)
            items = [draw(st.sampled_from(members)) for _ in range(n)]
        elif a.valid is not None and (a.valid.eq is not None or a.valid.any_of is not None):
            options = [_ev(a.valid.eq, t, values, params)] if a.valid.eq is not None else \
                [_ev(x, t, values, params) for x in a.valid.any_of or ()]
            items = [draw(st.sampled_from(options)) for _ in range(n)]
        elif a.prim.kind == "float":
            width = 32 if a.prim.size == 4 else 64
            if n > _LONG:
                rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
                dt = np.float32 if width == 32 else np.float64
                items = rng.standard_normal(n).astype(dt).astype(np.float64).tolist()
            else:
                floats = st.floats(width=32, allow_nan=False) if width == 32 else st.floats(allow_nan=False)
                items = [draw(floats) for _ in range(n)]
        else:
            lo, hi = _int_range(a, t, values, params)
            if n > _LONG:
                rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
                items = rng.integers(lo, hi, n, endpoint=True, dtype=np.int64 if lo < 0 else np.uint64).tolist()
            else:
                items = [draw(st.integers(lo, hi)) for _ in range(n)]
    elif a.kind == "str":
        size = int(_ev(a.size, t, values, params))
        alphabet = st.characters(min_codepoint=32 if a.zero_terminated else 1, max_codepoint=126)
        limit = min(size, 24)
        if a.zero_terminated:
            items = [draw(st.text(alphabet, max_size=limit)) for _ in range(n)] if n <= _LONG else \
                [draw(st.text(alphabet, max_size=8)) for _ in range(min(n, 4))] + [""] * (n - min(n, 4))
        else:
            items = [draw(st.text(alphabet, min_size=size, max_size=size)) for _ in range(n)]
    elif a.kind == "bytes":
        size = int(_ev(a.size, t, values, params))
        items = [draw(st.binary(min_size=size, max_size=size)) for _ in range(n)]
    elif a.kind == "contents":
        items = [a.contents] * n
    elif a.kind == "user" and a.user is not None:
        sub = t.resolve_type(a.user.name)
        sub_params = {p.id: _ev(x, t, values, params) for p, x in zip(sub.params, a.user.args)}
        drawn = n if n <= _LONG else 2  # long record arrays: two random records, the rest zero
        items = [draw(values_of(sub, sub_params)) for _ in range(drawn)]
        if drawn < n:
            from .engine.build import defaults
            items += [defaults(sub, sub_params) for _ in range(n - drawn)]
    else:
        raise BinparseError(f"no strategy for {a.kind} field {t.path}.{a.id}")
    return items if count is not None else items[0]


def values_of(t: TypeDef, params: dict[str, Any] | None = None) -> st.SearchStrategy[dict[str, Any]]:
    """Plain values of type `t` (with its params) that the construct backend can build."""
    params = params or {}

    @st.composite
    def draw_values(draw: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for a in t.seq:
            if a.cond is not None and not _ev(a.cond, t, out, params):
                out[a.id] = None
                continue
            count = _ev(a.count, t, out, params) if a.count is not None else None
            out[a.id] = _one(draw, a, t, out, params, None if count is None else int(count))
        return out

    return draw_values()


values = values_of


# -- layouts ------------------------------------------------------------------------------------------

def _small(n: int) -> st.SearchStrategy[int]:
    return st.integers(1, n)


@st.composite
def tidl_tensors(draw: Any) -> tuple[Any, Any]:
    """(TIDL Tensor, logical array) with random dims, pads, channel padding and element type."""
    from .formats.tidl.tensors import ELEMENT_DTYPES, Pads, Tensor
    shape = (draw(_small(2)), draw(_small(2)), draw(_small(2)), draw(_small(4)), draw(_small(5)), draw(_small(6)))
    pad = Pads(*(draw(st.integers(0, 3)) for _ in range(5)))
    minimum = (pad.top + shape[4] + pad.bottom) * (pad.left + shape[5] + pad.right)
    pitch = minimum + draw(st.integers(0, 7))
    et = draw(st.sampled_from(sorted(ELEMENT_DTYPES)))
    t = Tensor("output", 0, "t", et, shape, pad, pitch, 1.0, 0, "NCHW", 0, "computed", 0)
    return t, _array(draw, shape, t.dtype)


@st.composite
def espdl_tensors(draw: Any) -> tuple[Any, Any]:
    """(ESP-DL DlTensor, logical HWC array)."""
    from .formats.espdl import DlTensor
    t = DlTensor((draw(_small(5)), draw(_small(5)), draw(_small(6))),
                 tuple(draw(st.integers(0, 3)) for _ in range(4)),
                 draw(st.sampled_from(["int8", "int16", "uint8", "float32"])), draw(st.integers(-10, 10)))
    return t, _array(draw, t.shape, t.np_dtype)


@st.composite
def dlhdl_layouts(draw: Any) -> tuple[Any, Any]:
    """(dlhdl ConvLayout, logical (X, Y, Z) array)."""
    from .formats.dlhdl import DTYPES, THREAD_NUMBERS, ConvLayout
    lay = ConvLayout(draw(st.sampled_from(THREAD_NUMBERS)), (draw(_small(5)), draw(_small(5)), draw(_small(20))),
                     draw(st.sampled_from(sorted(DTYPES))))
    return lay, _array(draw, lay.shape, DTYPES[lay.dtype])


@st.composite
def intel_outputs(draw: Any) -> tuple[Any, Any]:
    """(FPGA AI Suite OutputConfiguration from layout parameters, logical float32 array)."""
    from .formats.intel_dla import OutputConfiguration
    c = draw(st.integers(1, 40))
    kvec = draw(st.sampled_from([4, 8, 16, 32]))
    cut = draw(st.integers(0, c - 1)) if c > 1 and draw(st.booleans()) else 0
    slices = [(0, cut), (cut, c)] if cut else None
    shape = (draw(_small(2)), c, 1, draw(_small(3)), draw(_small(3)))
    cfg = OutputConfiguration.from_layout(shape, kvec, slices)
    return cfg, _array(draw, shape, np.float16).astype(np.float32)


def _array(draw: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    dt = np.dtype(dtype)
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(int(info.min), int(info.max), shape, endpoint=True, dtype=dt)
    return rng.standard_normal(shape).astype(dt)


__all__ = ["dlhdl_layouts", "espdl_tensors", "intel_outputs", "tidl_tensors", "values", "values_of"]
