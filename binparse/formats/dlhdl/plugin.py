"""The MATLAB DL HDL family's declaration: its buffer layouts and options (light: no imports)."""

from __future__ import annotations

from ...family import Family, LayoutKind, Option

_LAYOUT = ("view", "pack", "draw")

FAMILY = Family(
    name="dlhdl",
    fixtures="binparse.formats.dlhdl.fixtures:write",
    load="binparse.formats.dlhdl.layouts",
    options=(
        Option(("--shape",), _LAYOUT, "dlhdl X,Y,Z"),
        Option(("--dtype",), _LAYOUT, "dlhdl float32|int8"),
        Option(("--thread-number",), _LAYOUT, "dlhdl ConvThreadNumber (4, 9, 16, 25, 36, 49, 64)", {"type": int}),
        Option(("--size",), _LAYOUT, "dlhdl FC output size", {"type": int}),
    ),
    layouts=(LayoutKind("--dlhdl", "MATLAB DL HDL conv or FC module buffer",
                        "binparse.formats.dlhdl.buffer_layout:make", choices=("conv", "fc")),),
)
