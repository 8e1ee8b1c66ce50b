"""The FPGA AI Suite family's declaration: how its files look and its options (light: no imports)."""

from __future__ import annotations

from ...family import Family, LayoutKind, Option, Signs

_LAYOUT = ("view", "pack", "draw")
# the Quartus MIF ROMs dla_create_ip and dla_compiler write (arch/roms.py)
ROM_NAMES = ("dla_dma_csr_discovery_rom*.mif", "ddrfree_*.mif", "memoryless_*.mif")


def ip_header_head(head: bytes) -> str | None:
    """Why the first bytes look like the IP header dla_create_ip writes: its include guard."""
    if b"\0" in head[:64]:  # a binary file, at once: every open of one asks
        return None
    return "include guard __FPGA_ARCH_GEN_H__" if b"__FPGA_ARCH_GEN_H__" in head else None


def layer_device_head(head: bytes) -> str | None:
    """Why the first bytes look like a layer placement table: its header."""
    return "header 'Node name,Device,...'" if head.lstrip(b"\xef\xbb\xbf").startswith(b"Node name,Device,") else None


FAMILY = Family(
    name="intel_dla",
    fixtures="binparse.formats.intel_dla.fixtures:write",
    load="binparse.formats.intel_dla.register",
    signs=(Signs("intel_dla", "transform report", names=("*transform*.csv",), binary=False),
           Signs("intel_dla", "arch", names=("*.arch",), binary=False),
           Signs("intel_dla", "ip header", names=("*fpga_arch_instantiator*.h",), binary=False,
                 head=ip_header_head),
           Signs("intel_dla", "layer placement", names=("*_dla_layer_device.csv",), binary=False,
                 head=layer_device_head),
           Signs("intel_dla", "build record", names=("*.build.json", "*dla_compile_report.json"), binary=False),
           Signs("intel_dla", "ip rom", names=ROM_NAMES, binary=False),
           Signs("intel_dla", "ip parameters", names=("dla_dma_param*.svh",), binary=False)),
    options=(Option(("--cvec",), ("pack",), "FPGA AI Suite CVEC when the input dump does not tell it",
                    {"type": int}),
             Option(("--arch",), _LAYOUT, "FPGA AI Suite architecture file (.arch): with --intel-dla and no compile "
                                          "folder, lay the tensor out from it (input padded to CVEC, output to KVEC; "
                                          "the raw HWC stream when it enables the lightweight layout transform)"),
             Option(("--shape",), _LAYOUT, "FPGA AI Suite (with --arch) N,C,H,W or N,C,D,H,W"),
             Option(("--side",), _LAYOUT, "FPGA AI Suite (with --arch): the IP input or output (default: pack an "
                                          "input, view/draw an output)", {"choices": ("input", "output")})),
    layouts=(LayoutKind("--intel-dla", "FPGA AI Suite IP buffer (FP16); SOURCE: a compile folder, a saved "
                                       "output configuration (.json) or an .arch (with --shape); none with --arch",
                        "binparse.formats.intel_dla.layouts.buffer_layout:make", sources=1, min_sources=0),),
)
