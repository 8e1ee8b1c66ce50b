"""Sniffers of the family's text artifacts beside the transform reports, each asked only about
the names or first bytes `register.py` gives it, and importing its reader only then (protobuf
is imported to open an .arch, not to open a CSV)."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def _file(path: Any) -> bool:
    return path is not None and not Path(path).is_dir()


def arch(path: Any, head: bytes) -> Any:
    """An architecture description (*.arch); protobuf reads it (a BinparseError if it is missing)."""
    from ...core.deps import dependency
    dependency("google.protobuf.text_format", "protobuf", purpose="reading an FPGA AI Suite .arch file",
               file=str(path) if path is not None else None)
    from .arch.file import ArchFile
    return (lambda source: ArchFile(source)) if _file(path) else None


def ip_header(path: Any, head: bytes) -> Any:
    """The IP's fpga_arch_instantiator.h."""
    from .arch.ip_header import IpHeader
    return (lambda source: IpHeader(source)) if _file(path) else None


def layer_device(path: Any, head: bytes) -> Any:
    """A layer placement table (*_dla_layer_device.csv)."""
    from .compile.layer_device import LayerDevice
    return (lambda source: LayerDevice(source)) if _file(path) else None


def record(path: Any, head: bytes) -> Any:
    """A JSON build record (*.build.json, dla_compile_report.json)."""
    from .compile.records import BuildRecord
    return (lambda source: BuildRecord(source)) if _file(path) else None


def rom(path: Any, head: bytes) -> Any:
    """A Quartus MIF ROM of an IP (discovery, filter, bias/scale, config)."""
    from .arch.roms import IpRom
    return (lambda source: IpRom(source)) if _file(path) else None


def params(path: Any, head: bytes) -> Any:
    """The IP's dla_dma_param.svh."""
    from .arch.svh import IpParams
    return (lambda source: IpParams(source)) if _file(path) else None


def ip_folder(path: Any, head: bytes) -> Any:
    """A folder dla_create_ip wrote (IP header, parameters, ROMs)."""
    if path is None or not Path(path).is_dir():
        return None
    from .arch.ip_folder import IpFolder, is_ip_folder
    return (lambda source: IpFolder(source)) if is_ip_folder(path) else None


__all__ = ["arch", "ip_folder", "ip_header", "layer_device", "params", "record", "rom"]
