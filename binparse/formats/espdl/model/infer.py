"""The layout of a weight whose doc_string names none, where the model itself says which it is.

Older esp-ppq (the EDL1 generation) wrote "layout ==> " with an empty name on most weights. When the
model's named weights of a dtype all use blocks of one width b (a target of esp32s3/esp32p4), its
unnamed Conv and Gemm weights of that dtype follow esp-ppq's rule for that target:
`(N/b)HWC{b}` (`(N/b)WC{b}` for 1-D), `_UNALIGNED` when the blocked channel count (the output
channels; a depthwise weight's channels) is not a multiple of b. Evidence: the PDL1 face detector's
msr01 names 2 of its 62 initializers; its 38 unnamed Conv weights read this way give the names
the EDL2 build of the same model (face-detect-msr, byte-identical weights) spells out. A model
whose named weights do not settle it (none named, unblocked `c` names, two block widths) infers
nothing: those weights stay in their stored dims, and `doctor` says so.
"""

from __future__ import annotations

from .graph import Graph
from .weights import ALIASES, LAYOUTS


def blocks_by_dtype(g: Graph) -> dict[str, int]:
    """dtype -> block width, from the weights that name a layout (only where one width, no `c` name)."""
    seen: dict[str, set[int]] = {}
    for t in g.initializers:
        spec = LAYOUTS.get(ALIASES.get(t.layout or "", t.layout or ""))
        if spec is not None and int(spec["rank"]):  # type: ignore[call-overload]
            seen.setdefault(t.dtype, set()).add(int(spec["block"]))  # type: ignore[call-overload]
    return {dt: next(iter(b)) for dt, b in seen.items() if len(b) == 1 and 0 not in b}


def inferred_layouts(g: Graph) -> dict[str, str]:
    """Weight name -> the layout name its model implies, for unnamed Conv/Gemm weights."""
    blocks = blocks_by_dtype(g)
    unnamed = {t.name: t for t in g.initializers if not t.layout}
    out: dict[str, str] = {}
    for n in g.nodes:
        if n.op_type not in ("Conv", "Gemm") or len(n.inputs) < 2 or n.inputs[1] not in unnamed:
            continue
        t = unnamed[n.inputs[1]]
        b = blocks.get(t.dtype)
        if b is None or len(t.dims) not in (3, 4):
            continue
        k = t.dims[-2] if g.depthwise(t.name) else t.dims[-1]
        out[t.name] = f"(N/{b}){'HWC' if len(t.dims) == 4 else 'WC'}{b}" + ("_UNALIGNED" if k % b else "")
    return out


__all__ = ["blocks_by_dtype", "inferred_layouts"]
