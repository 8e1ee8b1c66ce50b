"""The MATLAB DL HDL family's declaration: its buffer layouts and options (light: no imports)."""

from __future__ import annotations

from ...family import Example, Family, FileKind, LayoutKind, Option

_LAYOUT = ("view", "pack", "draw")

FAMILY = Family(
    name="dlhdl",
    title="MATLAB Deep Learning HDL",
    fixtures="binparse.formats.dlhdl.fixtures:write",
    load="binparse.formats.dlhdl.layouts",
    options=(
        Option(("--shape",), _LAYOUT, "with --dlhdl conv: the tensor's X,Y,Z", {"metavar": "X,Y,Z"}),
        Option(("--dtype",), _LAYOUT, "with --dlhdl: the element type, float32 or int8", {"metavar": "TYPE"}),
        Option(("--thread-number",), _LAYOUT, "with --dlhdl conv: ConvThreadNumber (4, 9, 16, 25, 36, 49, 64)",
               {"type": int, "metavar": "T"}),
        Option(("--size",), _LAYOUT, "with --dlhdl fc: the FC output size", {"type": int, "metavar": "K"}),
    ),
    layouts=(LayoutKind("--dlhdl", "MATLAB DL HDL conv or FC module buffer",
                        "binparse.formats.dlhdl.buffer_layout:make", choices=("conv", "fc")),),
    kinds=(
        FileKind("conv buffer", "the conv module's activations in external memory: blocks of N lanes by "
                                "ConvThreadNumber, C of them used", "Deep Learning HDL Toolbox",
                 "no format of its own: read with --dlhdl conv and its --thread-number, --shape, --dtype"),
        FileKind("fc buffer", "the FC module's outputs in external memory, frame after frame",
                 "Deep Learning HDL Toolbox", "no format of its own: read with --dlhdl fc --size K"),
    ),
    examples=(
        Example("view", "view --dlhdl conv --thread-number 9 --shape 3,3,4 --dtype float32 "
                        "fixtures/dlhdl/conv_and_fc/t9_3x3x4.buffer.bin --npy out/t9.npy",
                "a conv-module buffer of ConvThreadNumber 9 as the logical X,Y,Z array"),
        Example("pack", "pack --dlhdl conv --thread-number 9 --shape 3,3,4 --dtype float32 "
                        "fixtures/dlhdl/conv_and_fc/t9_3x3x4.expected.npy --out out/t9.buffer.bin",
                "the inverse: a logical array into the conv module's buffer"),
        Example("draw", "draw --dlhdl conv --thread-number 9 --shape 3,3,4 --dtype float32 --svg out/t9.svg",
                "where each element of a conv-module buffer lies"),
    ),
)
