"""The TIDL family's declaration: how its files look, its options, its companion folder (light: no imports)."""

from __future__ import annotations

from ...family import Example, Family, FileKind, Option, Signs

_BUFFER_COMMANDS = ("view", "pack", "draw")
TRACE_NAMES = ("*tidl_trace*.y", "*tidl_trace*_float.bin")  # the layer traces TIDL writes (debug_level >= 3)
RECORD_NAMES = ("param.yaml", "onnxrtMetaData.txt", "allowedNode.txt")  # what TI's tools record of a compile
# The io descriptors TI's tools write: the import numbers them after its "_tidl_io_" prefix (`*_tidl_io_1.bin`);
# the same prefix with a second "_" names its calibration files in tempDir/ (`*_tidl_io__stats_tool_out.bin`,
# `*_tidl_io__LayerPerChannelMean.bin`), which are no io descriptors.
IO_NAMES = ("*_tidl_io_1.bin", "*_tidl_io_[0-9]*.bin", "tidl_io_buff*.bin")


def net_head(head: bytes) -> str | None:
    """Why the first bytes look like a J7 net: the first word is a netVersion, a date 0x20YYMMDD in hex."""
    if len(head) < 4 or head[3] != 0x20:  # the top byte of 0x20YYMMDD (asked on every open: quick no)
        return None
    word = int.from_bytes(head[:4], "little")
    digits = f"{word:08X}"
    if not (digits.startswith("20") and digits.isdigit() and 1 <= int(digits[4:6]) <= 12 and 1 <= int(digits[6:]) <= 31):
        return None
    return f"first word 0x{word:08X} is a netVersion-like date"


FAMILY = Family(
    name="tidl",
    title="TI TIDL",
    fixtures="binparse.formats.tidl.fixtures:write",
    load="binparse.formats.tidl.register",
    signs=(
        Signs("tidl", "net.bin", names=("*_tidl_net.bin", "tidl_net_*.bin")),
        Signs("tidl", "io_1.bin", names=IO_NAMES),
        Signs("tidl", "param.bin", names=("tidl_param_*.bin",)),
        Signs("tidl", "config", names=("tidl_config_*.txt",), binary=False),
        Signs("tidl", "printout", names=("*_netLog.txt", "*.layer_info.txt", "*_paramDebug.csv"), binary=False),
        Signs("tidl", "net.bin", head=net_head),
        Signs("tidl", "layer trace", names=TRACE_NAMES),
        Signs("tidl", "record", names=RECORD_NAMES, binary=False),
    ),
    options=(
        Option(("--output",), _BUFFER_COMMANDS, "with an io descriptor SOURCE: the output tensor, by name or index",
               {"dest": "name", "metavar": "NAME"}, group="side"),
        Option(("--input",), _BUFFER_COMMANDS, "with an io descriptor SOURCE: the input tensor, by name or index",
               {"dest": "input_name", "metavar": "NAME"}, group="side"),
        Option(("--subgraph",), ("inspect", "view", "pack", "draw", "traces", "compare"),
               "with a combined TIDL 11.x net or io (magic 0xFF00FF00): read its subgraph N",
               {"type": int, "metavar": "N"}),
    ),
    companions=("tempDir",),
    kinds=(
        FileKind("io_1.bin", "io descriptor (sTIDL_IOBufDesc_t): a compiled net's inputs and outputs, their "
                             "element types, pads and pitches", "J7 08.x to 11.02 (1, 2, 4 cores); TDA2 01.xx",
                 "its size gives the release and core count; another size is solved from the struct rule "
                 "(not verified)"),
        FileKind("net.bin", "network (sTIDL_Network_t): layers, their tensors and scales; J7 nets carry the weights",
                 "J7 8.2 to 11.02.12; AM57x TIDL-API 1.3; TDA2 01.01.03 / TIDL-API 1.2",
                 "J7: its first word, the netVersion; TDA2 and AM57x: its size"),
        FileKind("combined", "combined subgraphs: the nets or io descriptors of several subgraphs in one file",
                 "J7 11.x", "the word 0xFF00FF00 after the first (net) or after one io descriptor (io)"),
        FileKind("param.bin", "AM57x / TDA2 parameters: every layer's weights, read with the net of the same name",
                 "AM57x TIDL-API 1.3; TDA2 TIDL-API 1.2", "a tidl_net_*.bin of the same name beside it"),
        FileKind("config", "TIDL-API inference configuration: which net and params, input sizes",
                 "AM57x TIDL-API"),
        FileKind("printout", "TI's printouts of an imported net: netLog, layer_info, paramDebug",
                 "J7 8.x to 10.x"),
        FileKind("layer trace", "a layer's output, dumped by the runtime (debug_level 3 and above)",
                 "J7 8.x to 11.x", "the layer's dataId and dims in its name"),
        FileKind("traces folder", "the layer traces of one run, or reference .npy files named by tensor",
                 "J7 8.x to 11.x", "a folder holding a layer trace, or only .npy files"),
        FileKind("record", "TI's records of a compile: param.yaml, onnxrtMetaData.txt, allowedNode.txt",
                 "edgeai-benchmark, edgeai-tidl-tools (OSRT)"),
        FileKind("artifacts folder", "a compile's folder as TI's tools leave it (its records, io, net, tempDir/)",
                 "edgeai-benchmark, edgeai-tidl-tools, TIDL-RT",
                 "a folder holding a record, a tempDir/ or TIDL artifacts"),
        FileKind("device buffer", "an input or output buffer of the device, padded as its io descriptor says",
                 "every io version", "no format of its own: read with its io descriptor (view IO BUFFER --output NAME)"),
    ),
    examples=(
        Example("inspect", "inspect fixtures/tidl/io_08x/900_tidl_io_1.bin",
                "a TIDL io descriptor: its inputs and outputs, with their padding"),
        Example("inspect", "inspect --fields fixtures/tidl/net_10_01/914_tidl_net.bin",
                "every raw field of a TIDL net, with offsets and types"),
        Example("view", "view fixtures/tidl/io_08x/900_tidl_io_1.bin fixtures/tidl/io_08x/output_1_seg_map.buffer.bin "
                        "--output seg_map --npy out/seg_map.npy",
                "a TIDL output buffer as the logical N,DIM1,DIM2,C,H,W array (padding removed)"),
        Example("view", "view fixtures/tidl/traces_10_01/tidl_trace_subgraph_0_0002_0001_0001_00001_00003_00005x00004.y "
                        "--net fixtures/tidl/net_10_01_traces/915_tidl_net.bin --dequantize --npy out/trace.npy",
                "one layer trace, dequantised with the scale the net gives"),
        Example("pack", "pack fixtures/tidl/io_08x/900_tidl_io_1.bin fixtures/tidl/io_08x/input_0_images.expected.npy "
                        "--input images --out out/images.buffer.bin", "a logical input into TIDL's padded input buffer"),
        Example("draw", "draw fixtures/tidl/io_08x/900_tidl_io_1.bin --output seg_map --svg out/seg_map.svg",
                "where a TIDL output's padding lies"),
        Example("traces", "traces fixtures/tidl/traces_10_01_old --net fixtures/tidl/net_10_01_traces/915_tidl_net.bin",
                "TIDL layer traces matched to their layers"),
        Example("compare", "compare fixtures/tidl/traces_10_01 fixtures/tidl/traces_10_01_old "
                           "--net fixtures/tidl/net_10_01_traces/915_tidl_net.bin",
                "two TIDL runs layer by layer: the first layer that diverges"),
        Example("doctor", "doctor fixtures/tidl/io_08x", "which TIDL release made a descriptor, which runtime loads it"),
        Example("fixture", "fixture fixtures/tidl/io_08x/spec.yaml -o out/io_08x",
                "the TIDL io fixture written anew into out/io_08x/"),
        Example("schema", "schema diff tidl.io.j7_08 tidl.io.j7_10.c1", "what changed in the io descriptor from 08 to 10"),
        Example("schema diff", "schema diff tidl.io.j7_08 tidl.io.j7_10.c1",
                "what changed in the io descriptor from 08 to 10"),
        Example("schema from-header", "schema from-header tests/data/headers/itidl_io_08_06.h --struct "
                                      "sTIDL_IOBufDesc_t --out out/io_08.ksy", "a schema from TI's header of 08.06"),
    ),
)
