"""The TIDL family's declaration: how its files look, its options, its companion folder (light: no imports)."""

from __future__ import annotations

from ...family import Family, Option, Signs

_BUFFER_COMMANDS = ("view", "pack", "draw")
TRACE_NAMES = ("*tidl_trace*.y", "*tidl_trace*_float.bin")  # the layer traces TIDL writes (debug_level >= 3)
RECORD_NAMES = ("param.yaml", "onnxrtMetaData.txt", "allowedNode.txt")  # what TI's tools record of a compile


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
    fixtures="binparse.formats.tidl.fixtures:write",
    load="binparse.formats.tidl.register",
    signs=(
        Signs("tidl", "net.bin", names=("*_tidl_net.bin", "tidl_net_*.bin")),
        Signs("tidl", "io_1.bin", names=("*_tidl_io_1.bin", "*_tidl_io_*.bin", "tidl_io_buff*.bin")),
        Signs("tidl", "param.bin", names=("tidl_param_*.bin",)),
        Signs("tidl", "config", names=("tidl_config_*.txt",), binary=False),
        Signs("tidl", "printout", names=("*_netLog.txt", "*.layer_info.txt", "*_paramDebug.csv"), binary=False),
        Signs("tidl", "net.bin", head=net_head),
        Signs("tidl", "layer trace", names=TRACE_NAMES),
        Signs("tidl", "record", names=RECORD_NAMES, binary=False),
    ),
    options=(
        Option(("--output",), _BUFFER_COMMANDS, "TIDL: output tensor name or index", {"dest": "name"}, group="side"),
        Option(("--input",), _BUFFER_COMMANDS, "TIDL: input tensor name or index", {"dest": "input_name"},
               group="side"),
        Option(("--subgraph",), ("inspect", "view", "pack", "draw", "traces", "compare"),
               "TIDL: subgraph N of a combined 11.x net or io (magic 0xFF00FF00)", {"type": int, "metavar": "N"}),
    ),
    companions=("tempDir",),
)
