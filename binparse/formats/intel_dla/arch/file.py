"""`ArchFile`: an FPGA AI Suite architecture description (.arch) read, checked and summarised.

The text is read by protobuf's text-format parser (text.py) against binparse's declaration
of Intel's documented parameters (schemas/intel_dla/arch.proto). `problems()` names absurd values
and contradictions, `manual()` values outside the IP Reference Manual's (doc 768974) wording (rules.py); `ip_values()` gives the values
`dla_create_ip` carries into the IP's fpga_arch_instantiator.h, for pairing an IP with its .arch.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from google.protobuf import json_format

from ....core.errors import FormatError
from ....core.text import shown
from . import rules
from .rules import MANUAL
from .text import Unknown, parse_arch_text, to_text

# The manual's list of families, and AGX3: Intel's own Agilex 3 examples name it (the 2025.1
# manual says AGX5 targets "Agilex 5 or Agilex 3").
FAMILIES = ("A10", "AGX3", "AGX5", "AGX7", "C10", "S10")
AUX_GROUPS = ("activation", "pool", "depthwise")

# header name in fpga_arch_instantiator.h -> the .arch field it equals (dotted path)
IP_HEADER_FIELDS = {
    "K_VECTOR": "k_vector",
    "C_VECTOR": "c_vector",
    "NUM_LANES": "num_lanes",
    "NUM_INTERLEAVED_FEATURES": "pe_array.num_interleaved_features",
    "NUM_INTERLEAVED_FILTERS": "pe_array.num_interleaved_filters",
    "FILTER_CACHE_DEPTH": "filter_scratchpad.filter_depth",
    "BIAS_SCALE_CACHE_DEPTH": "filter_scratchpad.bias_scale_depth",
    "STREAM_BUFFER_DEPTH": "stream_buffer_depth",
    "output_channels_max": "output_channels_max",
    "filter_size_width_max": "filter_size_width_max",
    "filter_size_height_max": "filter_size_height_max",
    "output_image_width_max": "output_image_width_max",
    "output_image_height_max": "output_image_height_max",
}


# The largest real .arch binparse has seen is 3.5 KB (Intel's examples and users' builds are 0.7-3.5 KB);
# protobuf's text parser takes ~50x a file's size in memory, so an .arch is read up to 1 MiB (300x the
# largest real one): past that it is refused before it is read, by its size.
MAX_ARCH_BYTES = 1 << 20


def _read_text(source: str | os.PathLike[str] | bytes, file: str | None) -> str:
    size = len(source) if isinstance(source, bytes) else os.stat(source).st_size
    if size > MAX_ARCH_BYTES:
        raise FormatError(f"an .arch file of {size:,} bytes: architecture descriptions are a few KB, binparse reads "
                          f"them up to {MAX_ARCH_BYTES:,} bytes", file=file, expected=f"<= {MAX_ARCH_BYTES:,} bytes",
                          found=f"{size:,} bytes")
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise FormatError("an .arch file is text (UTF-8)", file=file, offset=exc.start,
                          found=f"byte 0x{data[exc.start]:02x}") from None


class ArchFile:
    """One .arch file: the protobuf message, what it holds that binparse does not declare, checks."""

    def __init__(self, source: str | os.PathLike[str] | bytes, *, file: str | None = None) -> None:
        self.file = file if file is not None else (None if isinstance(source, bytes) else os.fspath(source))
        self.text = _read_text(source, self.file)
        self.message: Any  # binparse.intel_dla.Arch, a class built at run time (no generated stub)
        self.message, self.unknown = parse_arch_text(self.text, file=self.file)

    # -- values ------------------------------------------------------------------------------
    def get(self, path: str) -> Any:
        """The value at a dotted path, or None when the file does not set it (enums by name)."""
        msg: Any = self.message
        *groups, name = path.split(".")
        for g in groups:
            if not msg.HasField(g):
                return None
            msg = getattr(msg, g)
        if not msg.HasField(name):
            return None
        field = msg.DESCRIPTOR.fields_by_name[name]
        value = getattr(msg, name)
        return field.enum_type.values_by_number[value].name if field.enum_type is not None else value

    @property
    def name(self) -> str:
        return Path(self.file).name if self.file else "<arch>"

    @property
    def k_vector(self) -> int | None:
        v: int | None = self.get("k_vector")
        return v

    @property
    def c_vector(self) -> int | None:
        v: int | None = self.get("c_vector")
        return v

    def _aux_groups(self) -> list[tuple[str, Any]]:
        """(label, message) of each auxiliary module the file configures."""
        groups = [(g, getattr(self.message, g)) for g in AUX_GROUPS if self.message.HasField(g)]
        return groups + [(f"custom_aux_primitive '{p.name}'", p) for p in self.message.custom_aux_primitive]

    def aux_k_vectors(self) -> dict[str, int]:
        """Each auxiliary module's width: its `k_vector`, or the older `generic_aux_parameters` one."""
        out: dict[str, int] = {}
        for label, msg in self._aux_groups():
            if msg.HasField("k_vector"):
                out[label] = msg.k_vector
            elif msg.HasField("generic_aux_parameters") and msg.generic_aux_parameters.HasField("k_vector"):
                out[label] = msg.generic_aux_parameters.k_vector
        return out

    def ip_values(self) -> dict[str, int]:
        """The values of fpga_arch_instantiator.h this file determines (header name -> value).

        NUM_LANES is 1 when the file sets no num_lanes (manuals before 2024.3 have no lanes)."""
        out = {h: v for h, path in IP_HEADER_FIELDS.items() if (v := self.get(path)) is not None}
        out.setdefault("NUM_LANES", 1)
        return out

    # -- checks ------------------------------------------------------------------------------
    def problems(self) -> list[str]:
        """What no build could have: absurd values and contradictions, each with the rule it breaks (rules.py)."""
        return [text for kind, text, _ in rules.checks(self) if kind != "manual"]

    def manual(self) -> list[tuple[str, str]]:
        """(text, rule) of each value outside the manual's wording: notes, as no tool is known to refuse them."""
        return [(text, rule) for kind, text, rule in rules.checks(self) if kind == "manual"]

    def notes(self) -> list[str]:
        """What is worth knowing but not wrong: fields binparse does not declare, unset essentials."""
        out = [f"line {u.line}: {u.what} {u.path} = {u.value!r} is not in binparse's declaration of the "
               f"{MANUAL} parameters (a newer FPGA AI Suite, or a typo): kept, not checked" for u in self.unknown]
        fam = self.get("family")
        if fam is not None and fam not in FAMILIES:
            out.append(f"family '{fam}' is not one of the documented families {list(FAMILIES)}")
        for f in ("family", "k_vector", "c_vector", "arch_precision"):
            if self.get(f) is None and not any(u.path == f for u in self.unknown):
                out.append(f"sets no {f}")
        return out

    # -- Artifact --------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The whole message as plain JSON (field names as in the file, enums by name)."""
        doc: dict[str, Any] = json_format.MessageToDict(self.message, preserving_proto_field_name=True)
        return doc

    def to_text(self) -> str:
        """The declared fields as protobuf text format; fields binparse does not declare follow as
        `#` comments (so written text never drops them unsaid, and reads back as the same message)."""
        tail = "".join(f"# not declared by binparse (line {u.line}): {u.path} = {u.value!r}\n" for u in self.unknown)
        return to_text(self.message) + tail

    def summary(self) -> dict[str, Any]:
        return {"family": "intel_dla", "kind": "arch", "arch_family": self.get("family"),
                "k_vector": self.k_vector, "c_vector": self.c_vector,
                "arch_precision": self.get("arch_precision"), "stream_buffer_depth": self.get("stream_buffer_depth"),
                "aux_k_vectors": self.aux_k_vectors(), "arch": self.to_dict(),
                "unknown_fields": [u.to_json() for u in self.unknown],
                "problems": self.problems(), "manual": [text for text, _ in self.manual()], "notes": self.notes()}

    def interfaces(self) -> list[str]:
        """The IP's data paths as the file sets them: streaming, layout transforms, parameter ROM."""
        out = []
        for g, label in (("input_stream_interface", "input"), ("output_stream_interface", "output")):
            if self.get(f"{g}.enable"):
                out.append(f"{label} streamed ({self.get(f'{g}.data_width')}-bit AXI4-Stream, FIFO "
                           f"{self.get(f'{g}.fifo_depth')})")
        if self.get("enable_lightweight_layout_transform"):
            lw = "lightweight_layout_transform_params"
            out.append(f"lightweight layout transform ({self.get(f'{lw}.channels')} channel(s) of "
                       f"{self.get(f'{lw}.input_type') or 'F16'} on a {self.get(f'{lw}.input_bus_width')}-bit bus)")
        if self.get("enable_layout_transform"):
            out.append("full layout transform")
        if self.get("enable_parameter_rom") or any(u.path == "enable_on_chip_parameters" and u.value is True
                                                   for u in self.unknown):
            out.append("parameters in on-chip ROM (DDR-free)")
        return out or ["DDR (no streaming, no on-chip parameters)"]

    def limits(self) -> dict[str, int]:
        """The maxima and depths the file sets."""
        keys = ("output_channels_max", "filter_size_width_max", "filter_size_height_max", "output_image_width_max",
                "output_image_height_max", "filter_scratchpad.filter_depth", "filter_scratchpad.bias_scale_depth")
        return {k: v for k in keys if (v := self.get(k)) is not None}

    def report(self) -> str:
        """The few lines an engineer wants first; `details()` (inspect --fields) has the whole file."""
        s = self.summary()
        lines = [f"FPGA AI Suite architecture {shown(self.name)}: family {shown(s['arch_family'])}, KVEC {s['k_vector']}, "
                 f"CVEC {s['c_vector']}, {shown(s['arch_precision'])}, stream buffer depth {s['stream_buffer_depth']}"]
        if s["aux_k_vectors"]:
            lines.append("  auxiliary widths: " + ", ".join(f"{shown(k)} {v}" for k, v in s["aux_k_vectors"].items()))
        lines.append("  interfaces: " + "; ".join(self.interfaces()))
        if self.limits():
            lines.append("  limits: " + ", ".join(f"{k.split('.')[-1]} {v}" for k, v in self.limits().items()))
        lines += [f"  [problem] {shown(p)}" for p in s["problems"]] + [f"  [note] {shown(n)}" for n in s["manual"]]
        from ....family.hints import command
        fields = command("inspect", "--fields", self.file) if self.file else "inspect --fields"
        if s["notes"]:
            lines.append(f"  {len(s['notes'])} note(s) on fields binparse does not declare or the file does not "
                         f"set: {command('doctor', self.file) if self.file else 'the doctor'} or {fields} lists them")
        lines.append(f"  ({fields}: every field of the {len(self.text.splitlines())}-line file)")
        return "\n".join(lines)

    def details(self) -> str:
        """The summary's first line, then every declared field as protobuf text, then all findings."""
        s = self.summary()
        lines = [self.report().splitlines()[0]]
        lines += ["  " + line for line in self.to_text().rstrip().splitlines()]
        lines += [f"  [problem] {shown(p)}" for p in s["problems"]] + [f"  [note] {shown(n)}" for n in s["manual"] + s["notes"]]
        return "\n".join(lines)


__all__ = ["ArchFile", "IP_HEADER_FIELDS", "MAX_ARCH_BYTES", "Unknown"]
