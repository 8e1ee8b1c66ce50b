"""The FPGA AI Suite family's declaration: how its files look and its options (light: no imports)."""

from __future__ import annotations

from ...family import Example, Family, FileKind, LayoutKind, Option, Signs

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
    title="Intel/Altera FPGA AI Suite",
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
    options=(Option(("--cvec",), ("pack",), "with --intel-dla: CVEC, when the input dump does not tell it",
                    {"type": int, "metavar": "N"}),
             Option(("--arch",), _LAYOUT, "with --intel-dla and no compile folder: lay the tensor out from this "
                                          "architecture file (input padded to CVEC, output to KVEC; the raw HWC "
                                          "stream when it enables the lightweight layout transform)",
                    {"metavar": "FILE.arch"}),
             Option(("--shape",), _LAYOUT, "with --arch: the tensor's N,C,H,W or N,C,D,H,W",
                    {"metavar": "N,C,H,W"}),
             Option(("--side",), _LAYOUT, "with --arch: the IP input or output (default: pack an input, view/draw "
                                          "an output)", {"choices": ("input", "output")})),
    layouts=(LayoutKind("--intel-dla", "FPGA AI Suite IP buffer (FP16); SOURCE: a compile folder, a saved "
                                       "output configuration (.json) or an .arch (with --shape); none with --arch",
                        "binparse.formats.intel_dla.layouts.buffer_layout:make", sources=1, min_sources=0),),
    kinds=(
        FileKind("compile folder", "dla_compiler's transform reports of one graph (input and output dumps and "
                                   "mappings)", "2023.x to 2025.x",
                 "a folder of CSVs named input_transform_*, output_transform_*"),
        FileKind("transform report", "one of dla_compiler's four transform reports (a dump or a mapping)",
                 "2023.x to 2025.x", "its CSV header (the dialect of its release)"),
        FileKind("output configuration", "binparse's saved model of an output's layout (DlaRuntimeOutputConfiguration)",
                 "binparse", "SOURCE of --intel-dla named *.json"),
        FileKind("arch", "architecture description (.arch): KVEC, CVEC, precision, interfaces, limits",
                 "2023.x to 2025.x"),
        FileKind("ip header", "the IP's parameters as dla_create_ip writes them (fpga_arch_instantiator.h)",
                 "2023.x to 2025.x"),
        FileKind("layer placement", "which device runs each layer (dla_compiler's *_dla_layer_device.csv)",
                 "2023.x to 2025.x"),
        FileKind("build record", "a build's JSON record (dla_compile_report.json, *.build.json)", "2023.x to 2025.x"),
        FileKind("ip rom", "the IP's ROMs (Quartus MIF): CSR discovery, DDR-free parameters", "2023.x to 2025.x"),
        FileKind("ip parameters", "the IP's DMA parameters (dla_dma_param*.svh)", "2023.x to 2025.x"),
        FileKind("ip folder", "an IP folder as dla_create_ip writes it (its header, ROMs, parameters)",
                 "2023.x to 2025.x", "a folder holding the IP header or its ROMs"),
        FileKind("ip buffer", "the IP's input or output buffer: FP16 vectors of CVEC or KVEC lanes (streamed inputs: "
                              "raw HWC words)", "2023.x to 2025.x",
                 "no format of its own: read with --intel-dla and a compile folder, or --arch FILE.arch --shape"),
    ),
    examples=(
        Example("inspect", "inspect fixtures/intel_dla/testnet_2025", "a compile folder: its transform reports"),
        Example("inspect", "inspect fixtures/intel_dla/placement/SmallNet.arch",
                "an architecture file: family, vectors, precision"),
        Example("view", "view --intel-dla fixtures/intel_dla/testnet_2025 "
                        "fixtures/intel_dla/testnet_2025/output_ip.buffer.bin --npy out/output.npy",
                "an IP output buffer (FP16, padded to KVEC) as the logical N,C,D,H,W array"),
        Example("pack", "pack --intel-dla fixtures/intel_dla/testnet_2025 "
                        "fixtures/intel_dla/testnet_2025/input_ip.expected.npy --out out/input_ip.bin",
                "a logical input into the IP's input buffer (folding included)"),
        Example("draw", "draw --intel-dla --arch fixtures/intel_dla/placement/SmallNet.arch --shape 1,3,4,4 "
                        "--svg out/output.svg", "an IP output laid out from an .arch alone"),
        Example("doctor", "doctor fixtures/intel_dla/testnet_2025", "a compile folder's reports checked together"),
    ),
)
