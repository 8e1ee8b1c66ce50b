"""The `.json` quantization record esp-ppq writes beside a model (MODEL.json).

esp-ppq's `EspdlExporter.export_quantization_config` (esp_ppq/parser/espdl_exporter.py, the same
from its first espdl exporter of 2024-08 to 1.3.x) dumps, from the graph it exports, three maps:
`configs`, op name -> variable name -> the op's quantization of it (`bit_width`, `policy` flags such
as POWER_OF_2 and PER_CHANNEL, `state` such as ACTIVATED, PASSIVE, OVERLAPPED or FP32,
`quant_min`/`quant_max`, and `hash`/`dominator`: an OVERLAPPED config takes its dominator's values);
`dispatchings`, op name -> the platform it runs on (ESPDL_INT8, ESPDL_S3_INT8, ...); `values`, hash
-> `scale` and `zero_point` (a number, or one per channel), written for every dominating config that
is not FP32. All three are empty when no op was quantized. A variable an op shares with another has
one config per op (`QuantVar.configs`, in the record's order).

Which configs the exporter applied (`QuantConfig.exported`), by esp-ppq's own rule
(`EspdlQuantHelper.TQC_Exportable_Check` and `TensorQuantizationConfig.can_export` of
esp_ppq/core/quant.py): a LINEAR config whose state is ACTIVATED, PASSIVE, BAKED, PASSIVE_BAKED or
OVERLAPPED and that has a scale. A POWER_OF_2 scale 2^e is the exponent e the exporter writes into
the model (`QuantVariableToIntPattern.calculate_exponent`); an FP32 variable is not quantized at all
(record_check.py compares the rest with the model).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....core.documents import load_json
from ....core.errors import FormatError
from ....core.text import shown
from ....family.hints import doctor_of_folder

MAX_BYTES = 16 << 20  # a real record of a 760 KB model is 1 MB; read in Python objects within 8 x + 256 MiB
EXPORTED_STATES = frozenset({"ACTIVATED", "PASSIVE", "BAKED", "PASSIVE_BAKED", "OVERLAPPED"})


@dataclass(frozen=True)
class QuantConfig:
    """One op's quantization of a variable, as recorded."""

    op: str
    bit_width: int
    policies: tuple[str, ...]  # the policy flags that are true
    state: str
    scale: tuple[float, ...] | None  # per tensor (one) or per channel; None when FP32 or absent
    quant_min: int | None = None
    quant_max: int | None = None

    @property
    def exported(self) -> bool:
        """Whether esp-ppq's exporter quantizes the variable with this config (see the module's doc)."""
        return self.state in EXPORTED_STATES and self.scale is not None and "LINEAR" in self.policies

    def exponents(self) -> tuple[int, ...] | None:
        """The exponents of a POWER_OF_2 scale (2^e), None when it is not one."""
        if self.scale is None or "POWER_OF_2" not in self.policies or \
                any(not math.isfinite(s) or s <= 0 for s in self.scale):
            return None
        e = [math.log2(s) for s in self.scale]
        return tuple(int(x) for x in e) if all(x == int(x) for x in e) else None


@dataclass(frozen=True)
class QuantVar:
    """A variable's configs, one per op that quantizes it (in the record's order); its first
    exported config (else its first) gives `bit_width`, `state`, `scale`, `exponents()`."""

    name: str
    configs: tuple[QuantConfig, ...]

    @property
    def main(self) -> QuantConfig:
        return next((c for c in self.configs if c.exported), self.configs[0])

    @property
    def exported(self) -> list[QuantConfig]:
        return [c for c in self.configs if c.exported]

    @property
    def op(self) -> str:
        return self.main.op

    @property
    def bit_width(self) -> int:
        return self.main.bit_width

    @property
    def policies(self) -> tuple[str, ...]:
        return self.main.policies

    @property
    def state(self) -> str:
        return self.main.state

    @property
    def scale(self) -> tuple[float, ...] | None:
        return self.main.scale

    def exponents(self) -> tuple[int, ...] | None:
        return self.main.exponents()


@dataclass
class QuantRecord:
    """A `.json` quantization record read (the `Artifact` protocol: summary(), report())."""

    file: str | None
    variables: dict[str, QuantVar]
    ops: int
    platforms: dict[str, int]

    @classmethod
    def read(cls, source: Any) -> QuantRecord:
        file = None if isinstance(source, (bytes, bytearray, memoryview)) else str(source)
        size = len(source) if file is None else Path(str(source)).stat().st_size
        if size > MAX_BYTES:  # Python's objects of a JSON document take up to ~20x its bytes
            raise FormatError("larger than any quantization record esp-ppq writes: not read", file=file,
                              expected=f"at most {MAX_BYTES:,} bytes", found=f"{size:,} bytes")
        data = bytes(source) if file is None else Path(str(source)).read_bytes()
        doc = load_json(data, file=file, what="the quantization record")  # within the budget, bounded
        configs, values = doc.get("configs") if isinstance(doc, dict) else None, \
            doc.get("values", {}) if isinstance(doc, dict) else None
        if not isinstance(configs, dict) or not isinstance(values, dict):
            raise FormatError("not esp-ppq's quantization record", file=file, path="configs",
                              expected="an object with 'configs' and 'values' objects", found=type(doc).__name__)
        found: dict[str, list[QuantConfig]] = {}
        for op, variables in configs.items():
            if not isinstance(variables, dict):
                raise FormatError("a config is not an object", file=file, path=f"configs.{op}")
            for name, c in variables.items():
                found.setdefault(name, []).append(_config(file, op, name, c, values))
        disp = doc.get("dispatchings", {})
        platforms: dict[str, int] = {}
        for p in (disp.values() if isinstance(disp, dict) else ()):
            platforms[str(p)] = platforms.get(str(p), 0) + 1
        return cls(file, {k: QuantVar(k, tuple(v)) for k, v in found.items()}, len(configs), platforms)

    def summary(self) -> dict[str, Any]:
        widths: dict[str, int] = {}
        for v in self.variables.values():
            widths[str(v.bit_width)] = widths.get(str(v.bit_width), 0) + 1
        return {"family": "espdl", "kind": "quantization_record", "ops": self.ops,
                "variables": len(self.variables), "bit_widths": widths, "platforms": self.platforms,
                "power_of_2": sum(v.exponents() is not None for v in self.variables.values())}

    def report(self) -> str:
        s = self.summary()
        return (f"esp-ppq quantization record: {s['ops']} ops ({', '.join(f'{shown(k)} x{v}' for k, v in sorted(self.platforms.items())) or 'no platforms'}), "
                f"{s['variables']} variables (bit widths " + ", ".join(f"{k}: {v}" for k, v in sorted(s["bit_widths"].items()))
                + f"), {s['power_of_2']} with power-of-2 scales (ESP-DL exponents); {doctor_of_folder(self.file)} "
                "compares them with the .espdl of the same name")


def _int(c: dict[str, Any], key: str, file: str | None, path: str) -> int | None:
    v = c.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != int(v):
        raise FormatError(f"{key} is not an integer", file=file, path=f"{path}.{key}", found=repr(v)[:40])
    return int(v)


def _config(file: str | None, op: str, name: str, c: Any, values: dict[str, Any]) -> QuantConfig:
    path = f"configs.{op}.{name}"
    if not isinstance(c, dict) or not isinstance(c.get("policy", {}), dict):
        raise FormatError("a variable's config is not an object", file=file, path=path)
    val = values.get(str(c.get("dominator"))) or values.get(str(c.get("hash")))
    scale = None
    if isinstance(val, dict) and val.get("scale") is not None:
        raw = val["scale"] if isinstance(val["scale"], list) else [val["scale"]]
        try:
            scale = tuple(float(x) for x in raw)
        except (TypeError, ValueError):
            raise FormatError("a scale is not a number", file=file, path=f"values.{c.get('hash')}.scale") from None
    width = _int(c, "bit_width", file, path) or 0
    return QuantConfig(op, width, tuple(k for k, v in c.get("policy", {}).items() if v is True),
                       str(c.get("state", "")), scale, _int(c, "quant_min", file, path), _int(c, "quant_max", file, path))


__all__ = ["EXPORTED_STATES", "MAX_BYTES", "QuantConfig", "QuantRecord", "QuantVar"]
