"""Intel/Altera FPGA AI Suite: transform-report CSVs, the output configuration, IP layouts,
architecture files (`ArchFile`, .arch), the IP header (`IpHeader`), layer placement
(`LayerDevice`), JSON build records (`BuildRecord`), layouts from an .arch (`ArchLayout`).

The package is light: `plugin.py` declares the family; the names below are imported from their
modules on first use, after `register` (which registers the family's formats, sniffers, checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import api_of

if TYPE_CHECKING:
    from .arch import ArchFile as ArchFile
    from .arch_layout import ArchLayout as ArchLayout
    from .records import BuildRecord as BuildRecord
    from .ip_header import IpHeader as IpHeader
    from .layer_device import LayerDevice as LayerDevice
    from .folder import CompileFolder as CompileFolder
    from .dialects import Dialect as Dialect
    from .tables import DumpTable as DumpTable
    from .layout import Folding as Folding
    from .inputs import InputConfiguration as InputConfiguration
    from .tables import MappingTable as MappingTable
    from .config import OutputConfiguration as OutputConfiguration
    from .config import OutputSlice as OutputSlice
    from .dialects import detect as detect
    from .dialects import dialects as dialects
    from .layout import find_roles as find_roles
    from .layout import input_mapping as input_mapping
    from .inputs import offsets_of as offsets_of
    from .inputs import pack_inputs as pack_inputs
    from .layout import output_mapping as output_mapping
    from .tables import read_table as read_table
    from .tables import table_report as table_report
    from .tables import table_summary as table_summary
    from .tables import write_dump as write_dump
    from .tables import write_mapping as write_mapping

_API = {
    "ArchFile": "arch",
    "ArchLayout": "arch_layout",
    "BuildRecord": "records",
    "IpHeader": "ip_header",
    "LayerDevice": "layer_device",
    "CompileFolder": "folder",
    "Dialect": "dialects",
    "DumpTable": "tables",
    "Folding": "layout",
    "InputConfiguration": "inputs",
    "MappingTable": "tables",
    "OutputConfiguration": "config",
    "OutputSlice": "config",
    "detect": "dialects",
    "dialects": "dialects",
    "find_roles": "layout",
    "input_mapping": "layout",
    "offsets_of": "inputs",
    "pack_inputs": "inputs",
    "output_mapping": "layout",
    "read_table": "tables",
    "table_report": "tables",
    "table_summary": "tables",
    "write_dump": "tables",
    "write_mapping": "tables",
}
__getattr__ = api_of(__name__, _API)
__all__ = sorted(_API)
