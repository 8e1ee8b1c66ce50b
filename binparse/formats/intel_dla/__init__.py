"""Intel/Altera FPGA AI Suite: transform-report CSVs, the output configuration, IP layouts,
architecture files (`ArchFile`, .arch), the IP header (`IpHeader`), layer placement
(`LayerDevice`), JSON build records (`BuildRecord`), layouts from an .arch (`ArchLayout`), streamed
inputs (`StreamedInput`), Quartus MIF ROMs (`MifFile`, `IpRom`), dla_dma_param.svh (`IpParams`), IP
folders (`IpFolder`).

The package is light: `plugin.py` declares the family; the names below are imported from their
modules on first use, after `register` (which registers the family's formats, sniffers, checks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.lazy import api_of

if TYPE_CHECKING:
    from .arch.file import ArchFile as ArchFile
    from .layouts.arch_layout import ArchLayout as ArchLayout
    from .compile.records import BuildRecord as BuildRecord
    from .arch.ip_header import IpHeader as IpHeader
    from .arch.ip_folder import IpFolder as IpFolder
    from .arch.mif import MifFile as MifFile
    from .arch.roms import IpRom as IpRom
    from .arch.svh import IpParams as IpParams
    from .layouts.streaming import StreamedInput as StreamedInput
    from .compile.layer_device import LayerDevice as LayerDevice
    from .compile.folder import CompileFolder as CompileFolder
    from .compile.dialects import Dialect as Dialect
    from .compile.tables import DumpTable as DumpTable
    from .layouts.folding import Folding as Folding
    from .layouts.inputs import InputConfiguration as InputConfiguration
    from .compile.tables import MappingTable as MappingTable
    from .layouts.config import OutputConfiguration as OutputConfiguration
    from .layouts.config import OutputSlice as OutputSlice
    from .compile.dialects import detect as detect
    from .compile.dialects import dialects as dialects
    from .layouts.folding import find_roles as find_roles
    from .layouts.folding import input_mapping as input_mapping
    from .layouts.inputs import offsets_of as offsets_of
    from .layouts.inputs import pack_inputs as pack_inputs
    from .layouts.folding import output_mapping as output_mapping
    from .compile.tables import read_table as read_table
    from .compile.tables import table_report as table_report
    from .compile.tables import table_summary as table_summary
    from .compile.tables import write_dump as write_dump
    from .compile.tables import write_mapping as write_mapping

_API = {
    "ArchFile": "arch.file",
    "ArchLayout": "layouts.arch_layout",
    "BuildRecord": "compile.records",
    "IpHeader": "arch.ip_header",
    "IpFolder": "arch.ip_folder",
    "IpParams": "arch.svh",
    "IpRom": "arch.roms",
    "MifFile": "arch.mif",
    "StreamedInput": "layouts.streaming",
    "LayerDevice": "compile.layer_device",
    "CompileFolder": "compile.folder",
    "Dialect": "compile.dialects",
    "DumpTable": "compile.tables",
    "Folding": "layouts.folding",
    "InputConfiguration": "layouts.inputs",
    "MappingTable": "compile.tables",
    "OutputConfiguration": "layouts.config",
    "OutputSlice": "layouts.config",
    "detect": "compile.dialects",
    "dialects": "compile.dialects",
    "find_roles": "layouts.folding",
    "input_mapping": "layouts.folding",
    "offsets_of": "layouts.inputs",
    "pack_inputs": "layouts.inputs",
    "output_mapping": "layouts.folding",
    "read_table": "compile.tables",
    "table_report": "compile.tables",
    "table_summary": "compile.tables",
    "write_dump": "compile.tables",
    "write_mapping": "compile.tables",
}
__getattr__ = api_of(__name__, _API)
__all__ = sorted(_API)
