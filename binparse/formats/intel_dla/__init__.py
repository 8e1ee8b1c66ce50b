"""Intel/Altera FPGA AI Suite: transform-report CSVs, the output configuration, IP layouts.

The package is light: `plugin.py` declares the family, and its API (the names below) is imported
from `register` on first use, which registers the family's formats, sniffers and doctor checks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...lazy import api_of

if TYPE_CHECKING:
    from .register import CompileFolder as CompileFolder
    from .register import Dialect as Dialect
    from .register import DumpTable as DumpTable
    from .register import Folding as Folding
    from .register import InputConfiguration as InputConfiguration
    from .register import MappingTable as MappingTable
    from .register import OutputConfiguration as OutputConfiguration
    from .register import OutputSlice as OutputSlice
    from .register import detect as detect
    from .register import dialects as dialects
    from .register import find_roles as find_roles
    from .register import input_mapping as input_mapping
    from .register import offsets_of as offsets_of
    from .register import pack_inputs as pack_inputs
    from .register import output_mapping as output_mapping
    from .register import read_table as read_table
    from .register import table_report as table_report
    from .register import table_summary as table_summary
    from .register import write_dump as write_dump
    from .register import write_mapping as write_mapping


__getattr__ = api_of(__name__)

__all__ = ['CompileFolder', 'Dialect', 'DumpTable', 'Folding', 'InputConfiguration', 'MappingTable', 'OutputConfiguration', 'OutputSlice', 'detect', 'dialects', 'find_roles', 'input_mapping', 'offsets_of', 'pack_inputs', 'output_mapping', 'read_table', 'table_report', 'table_summary', 'write_dump', 'write_mapping']
