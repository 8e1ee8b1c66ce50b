"""The FPGA AI Suite family loaded (`plugin.FAMILY.load`): transform-report CSVs, the output configuration, IP layouts.

`read_table` reads any of the four reports (dialect from the header); `OutputConfiguration` is
binparse's model of the compiler's DlaRuntimeOutputConfiguration (not Intel's binary);
`InputConfiguration` packs logical inputs into IP input buffers; `CompileFolder` reads a compile's
reports together. The .arch files, the IP header, the layer placement table and the JSON
records are opened by the sniffers of `sniff_text.py`, asked only about their names (or headers).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...family import register_checks_in
from ...family.registry import register_buffer_hint, register_sniffer
from .plugin import ROM_NAMES, ip_header_head, layer_device_head
from .layouts.config import OutputConfiguration, OutputSlice
from .compile.dialects import Dialect, detect, dialects
from .compile.folder import KINDS, CompileFolder
from .compile.tables import table_report, table_summary
from .layouts.inputs import InputConfiguration, offsets_of, pack_inputs
from .layouts.folding import Folding, find_roles, input_mapping, output_mapping
from .compile.tables import DumpTable, MappingTable, read_table, write_dump, write_mapping


def _sniff(path: Path | None, head: bytes) -> Any:
    """binparse.open() of a transform-report CSV or of a compile folder."""
    if path is not None and Path(path).is_dir():
        if any(p.name.startswith(KINDS) for p in Path(path).glob("*.csv")):
            return lambda source: CompileFolder(source)
        return None
    end = head.find(b"\n")
    if head.find(b"\0", 0, end if end >= 0 else len(head)) >= 0:  # binary: a header line has no NUL
        return None
    line = head[:end] if end >= 0 else head
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not any(sep in text for sep in (";", ",")):
        return None
    try:
        detect(text)
    except Exception:
        return None
    return lambda source: read_table(source)


register_sniffer("binparse.formats.intel_dla.sniff_text:arch", names=("*.arch",))
register_sniffer("binparse.formats.intel_dla.sniff_text:ip_header", names=("*fpga_arch_instantiator*.h",),
                 head=ip_header_head, text=True)
register_sniffer("binparse.formats.intel_dla.sniff_text:layer_device", names=("*_dla_layer_device.csv",),
                 head=layer_device_head, text=True)
register_sniffer("binparse.formats.intel_dla.sniff_text:record", names=("*.build.json", "dla_compile_report.json",
                                                                       "*_dla_compile_report.json"))
register_sniffer("binparse.formats.intel_dla.sniff_text:rom", names=ROM_NAMES)
register_sniffer("binparse.formats.intel_dla.sniff_text:params", names=("dla_dma_param*.svh",))
register_sniffer("binparse.formats.intel_dla.sniff_text:ip_folder", folders=True)
register_sniffer(_sniff, text=True)  # transform reports (text with a known header) and compile folders
register_buffer_hint("binparse.formats.intel_dla.layouts.buffer_hint:hint")  # a raw IP buffer beside what describes it

register_checks_in("binparse.formats.intel_dla.compile.doctor")
register_checks_in("binparse.formats.intel_dla.arch.doctor")
register_checks_in("binparse.formats.intel_dla.arch.ip_doctor")

__all__ = ["CompileFolder", "Dialect", "DumpTable", "Folding", "InputConfiguration", "MappingTable",
           "OutputConfiguration", "OutputSlice", "detect", "dialects", "find_roles", "input_mapping", "offsets_of",
           "pack_inputs",
           "output_mapping", "read_table", "table_report", "table_summary", "write_dump", "write_mapping"]
