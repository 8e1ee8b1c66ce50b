"""The FPGA AI Suite family loaded (`plugin.FAMILY.load`): transform-report CSVs, the output configuration, IP layouts.

`read_table` reads any of the four reports (dialect from the header); `OutputConfiguration` is
binparse's model of the compiler's DlaRuntimeOutputConfiguration (not Intel's binary);
`InputConfiguration` packs logical inputs into IP input buffers; `CompileFolder` reads a compile's
reports together. `ArchFile` reads an architecture description (.arch, protobuf text format),
`IpHeader` the IP's fpga_arch_instantiator.h, `LayerDevice` a `*_dla_layer_device.csv`,
`BuildRecord` the tools' JSON records; `ArchLayout` lays a tensor out from an .arch alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...registry import register_sniffer
from .arch import ArchFile
from .arch_layout import ArchLayout
from .config import OutputConfiguration, OutputSlice
from .dialects import Dialect, detect, dialects
from .folder import KINDS, CompileFolder, table_report, table_summary
from .inputs import InputConfiguration, offsets_of, pack_inputs
from .layout import Folding, find_roles, input_mapping, output_mapping
from .tables import DumpTable, MappingTable, read_table, write_dump, write_mapping
from .ip_header import IpHeader, looks_like_ip_header
from .layer_device import LayerDevice, looks_like_layer_device
from .records import BuildRecord, is_record_name
from . import doctor as _doctor  # noqa: F401  (registers the family's doctor checks)
from . import arch_doctor as _arch_doctor  # noqa: F401  (the .arch / IP header / placement checks)


def _sniff_text(path: Path | None, head: bytes) -> Any:
    """binparse.open() of an .arch file, an IP header, a layer placement table or a JSON record."""
    if path is None or Path(path).is_dir():
        return None
    name = Path(path).name
    if name.endswith(".arch"):
        return lambda source: ArchFile(source)
    if looks_like_ip_header(head) or (name.endswith(".h") and "fpga_arch_instantiator" in name):
        return lambda source: IpHeader(source)
    if looks_like_layer_device(head):
        return lambda source: LayerDevice(source)
    if is_record_name(name):
        return lambda source: BuildRecord(source)
    return None


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


register_sniffer(_sniff_text)
register_sniffer(_sniff)

__all__ = ["ArchFile", "ArchLayout", "BuildRecord", "IpHeader", "LayerDevice", "CompileFolder", "Dialect", "DumpTable", "Folding", "InputConfiguration", "MappingTable",
           "OutputConfiguration", "OutputSlice", "detect", "dialects", "find_roles", "input_mapping", "offsets_of",
           "pack_inputs",
           "output_mapping", "read_table", "table_report", "table_summary", "write_dump", "write_mapping"]
