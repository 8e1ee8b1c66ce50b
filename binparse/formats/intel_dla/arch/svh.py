"""`IpParams`: the SystemVerilog parameters `dla_create_ip` writes beside the IP (`dla_dma_param.svh`).

Each line `localparam|parameter <type> NAME [dims] = value;` is read: decimal integers, strings,
sized literals (`928'h...`, `1'b0`) as integers; arrays (`{...}`, `'{0:..., default: 0}`) are kept
as their text with their element count. Lines of any other form are listed, not guessed at.

`ARCH_FIELDS` pairs the parameters with the .arch fields they carry, by name and by value in the
real AGX5 IP (`../shared/real/intel_dla/arch/agx5-generic-ip`, whose fpga_arch_instantiator.h
gives the same depths); `HEADER_FIELDS` with fpga_arch_instantiator.h's names.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ....core.errors import FormatError
from ....core.text import MAX_DIGITS, shown, statement_value

# the head of a parameter line, up to its `=`; the value after it is cut by `statement_value` (an
# expression with a lazy value before optional spaces and a comment tries every split: quadratic)
_PARAM = re.compile(r"(localparam|parameter)\s+(?:(\w+(?:\s*\[[^\]]*\])?)\s+)?(\w+)\s*((?:\[[^\]]*\]\s*)*)=")
_SIZED = re.compile(r"(\d+)?'([sS]?)([bBoOdDhH])([0-9a-fA-F_xXzZ]+)$")
_SKIP = re.compile(r"`(ifndef|ifdef|define|endif|else|include)\b|//|$")
_BASES = {"b": 2, "o": 8, "d": 10, "h": 16}

# .svh parameter -> (.arch dotted path, how the .arch value becomes the parameter's)
ARCH_FIELDS: dict[str, tuple[str, str]] = {
    "DEVICE": ("family", "same"),
    "C_CSR_AXI_ADDR_WIDTH": ("dma.csr_addr_width", "same"),
    "C_DDR_AXI_ADDR_WIDTH": ("dma.ddr_addr_width", "same"),
    "C_DDR_AXI_BURST_WIDTH": ("dma.ddr_burst_width", "same"),
    "C_DDR_AXI_READ_ID_WIDTH": ("dma.ddr_read_id_width", "same"),
    "C_DDR_AXI_DATA_WIDTH": ("dma.ddr_data_bytes", "bytes"),
    "STREAM_BUFFER_DEPTH": ("stream_buffer_depth", "same"),
    "SCRATCHPAD_FILTER_DEPTH": ("filter_scratchpad.filter_depth", "same"),
    "SCRATCHPAD_BIAS_SCALE_DEPTH": ("filter_scratchpad.bias_scale_depth", "same"),
    "PE_ARRAY_EXIT_FIFO_DEPTH": ("pe_array.exit_fifo_depth", "same"),
    "CONFIG_CACHE_DEPTH": ("config_network.config_cache_depth", "same"),
    "ENABLE_INPUT_STREAMING": ("input_stream_interface.enable", "bool"),
    "AXI_ISTREAM_DATA_WIDTH": ("input_stream_interface.data_width", "same"),
    "AXI_ISTREAM_FIFO_DEPTH": ("input_stream_interface.fifo_depth", "same"),
    "ENABLE_ON_CHIP_PARAMETERS": ("enable_parameter_rom", "bool"),
    "MAX_XBAR_INPUT_INTERFACES": ("xbar.max_input_interfaces", "same"),
    "MAX_XBAR_OUTPUT_INTERFACES": ("xbar.max_output_interfaces", "same"),
    "POOL_MAX_WINDOW_HEIGHT": ("pool.max_window_height", "same"),
    "POOL_MAX_WINDOW_WIDTH": ("pool.max_window_width", "same"),
    "POOL_MAX_STRIDE_VERTICAL": ("pool.max_stride_vertical", "same"),
    "POOL_MAX_STRIDE_HORIZONTAL": ("pool.max_stride_horizontal", "same"),
}
# .svh parameter -> fpga_arch_instantiator.h name (same value in the real AGX5 IP)
HEADER_FIELDS = {"STREAM_BUFFER_DEPTH": "STREAM_BUFFER_DEPTH", "SCRATCHPAD_FILTER_DEPTH": "FILTER_CACHE_DEPTH",
                 "SCRATCHPAD_BIAS_SCALE_DEPTH": "BIAS_SCALE_CACHE_DEPTH"}


def _value(raw: str) -> Any:
    raw = raw.strip()
    if raw.startswith('"') and raw.endswith('"'):
        return raw[1:-1]
    if re.fullmatch(r"-?\d+", raw) and len(raw) <= MAX_DIGITS:  # a longer one is kept as its text
        return int(raw)
    if m := _SIZED.match(raw.replace(" ", "")):
        digits = m.group(4).replace("_", "")
        try:
            return int(digits, _BASES[m.group(3).lower()]) if len(digits) <= 4096 else raw  # 16 Kibit at most
        except ValueError:
            return raw  # x/z bits: kept as text
    return raw


class IpParams:
    """The parameters of one dla_dma_param.svh."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.file = os.fspath(path)
        try:
            text = Path(path).read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise FormatError("the IP parameters are not UTF-8 text", file=self.file, offset=exc.start) from None
        self.params: dict[str, Any] = {}
        self.types: dict[str, str] = {}
        self.arrays: dict[str, int] = {}  # name -> element count of an array value
        self.other_lines: list[str] = []
        for line in (s.strip() for s in text.splitlines()):
            m = _PARAM.match(line)
            raw = statement_value(line[m.end():]) if m else None
            if m and raw is not None:
                name, dims = m.group(3), m.group(4)
                self.types[name] = (m.group(2) or "") + (" " + dims.strip() if dims.strip() else "")
                if raw.lstrip().startswith(("{", "'{")):
                    self.params[name] = raw
                    self.arrays[name] = raw.count(",") + 1
                else:
                    self.params[name] = _value(raw)
            elif not _SKIP.match(line):
                self.other_lines.append(line)
        if not self.params:
            raise FormatError("no SystemVerilog parameter in this file", file=self.file,
                              expected="localparam int NAME = value;")

    @property
    def name(self) -> str:
        return Path(self.file).name

    def scalars(self) -> dict[str, Any]:
        return {k: v for k, v in self.params.items() if k not in self.arrays}

    def compare_arch(self, arch: Any) -> tuple[list[str], list[str]]:
        """(parameters compared, differences) against an ArchFile."""
        names, diffs = [], []
        for p, (path, how) in ARCH_FIELDS.items():
            mine, theirs = self.params.get(p), arch.get(path)
            if mine is None or theirs is None:
                continue
            want = theirs * 8 if how == "bytes" else int(theirs) if how == "bool" else theirs
            names.append(p)
            if mine != want:
                diffs.append(f"{p} {mine} but {path} {theirs}")
        k, c, kc = arch.k_vector, arch.c_vector, self.params.get("KVEC_OVER_CVEC")
        if k and c and kc is not None:
            names.append("KVEC_OVER_CVEC")
            if kc * c != k:
                diffs.append(f"KVEC_OVER_CVEC {kc} but k_vector {k} / c_vector {c}")
        return names, diffs

    def compare_header(self, header: Any) -> tuple[list[str], list[str]]:
        """(parameters compared, differences) against an IpHeader."""
        names, diffs = [], []
        theirs = header.values()
        for p, h in HEADER_FIELDS.items():
            if p in self.params and h in theirs:
                names.append(p)
                if self.params[p] != theirs[h]:
                    diffs.append(f"{p} {self.params[p]} but {h} {theirs[h]}")
        k, c, kc = theirs.get("K_VECTOR"), theirs.get("C_VECTOR"), self.params.get("KVEC_OVER_CVEC")
        if isinstance(k, int) and isinstance(c, int) and c > 0 and kc is not None:
            names.append("KVEC_OVER_CVEC")
            if kc * c != k:
                diffs.append(f"KVEC_OVER_CVEC {kc} but K_VECTOR {k} / C_VECTOR {c}")
        return names, diffs

    def summary(self) -> dict[str, Any]:
        return {"family": "intel_dla", "kind": "ip parameters", "parameters": len(self.params),
                "scalars": self.scalars(), "arrays": self.arrays, "other_lines": self.other_lines}

    def report(self) -> str:
        s = self.scalars()
        key = ", ".join(f"{k} {shown(s[k])}" for k in ("DEVICE", "KVEC_OVER_CVEC", "STREAM_BUFFER_DEPTH",
                                                 "SCRATCHPAD_FILTER_DEPTH", "SCRATCHPAD_BIAS_SCALE_DEPTH",
                                                 "ENABLE_INPUT_STREAMING", "ENABLE_ON_CHIP_PARAMETERS") if k in s)
        lines = [f"FPGA AI Suite IP parameters {shown(self.name)} (SystemVerilog, written by dla_create_ip): "
                 f"{len(self.params)} parameters ({len(self.arrays)} arrays)", f"  {key}"]
        lines += [f"  not read: {shown(line)}" for line in self.other_lines]
        return "\n".join(lines)


__all__ = ["ARCH_FIELDS", "HEADER_FIELDS", "IpParams"]
