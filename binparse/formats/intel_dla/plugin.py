"""The FPGA AI Suite family's declaration: how its files look and its options (light: no imports)."""

from __future__ import annotations

from ...family import Family, LayoutKind, Option, Signs

FAMILY = Family(
    name="intel_dla",
    fixtures="binparse.formats.intel_dla.fixtures:write",
    load="binparse.formats.intel_dla.register",
    signs=(Signs("intel_dla", "transform report", names=("*transform*.csv",), binary=False),),
    options=(Option(("--cvec",), ("pack",), "FPGA AI Suite CVEC when the input dump does not tell it",
                    {"type": int}),),
    layouts=(LayoutKind("--intel-dla", "FPGA AI Suite IP buffer (FP16); SOURCE: a compile folder or a saved "
                                       "output configuration (.json)",
                        "binparse.formats.intel_dla.buffer_layout:make", sources=1),),
)
