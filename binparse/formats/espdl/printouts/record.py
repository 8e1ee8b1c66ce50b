"""The `.json` quantization record esp-ppq writes beside a model (MODEL.json).

Three maps (read from the real files; esp-ppq's quantization settings as it dumps them): `configs`,
op name -> variable name -> its quantization (`bit_width`, `policy` flags such as POWER_OF_2 and
PER_CHANNEL, `state` such as ACTIVATED, PASSIVE, OVERLAPPED or FP32, `quant_min`/`quant_max`, and
`hash`/`dominator`: the keys of its values, an OVERLAPPED variable taking its dominator's);
`dispatchings`, op name -> the platform it runs on (ESPDL_INT8, ...); `values`, hash -> `scale` and
`zero_point` (a number, or one per channel). A POWER_OF_2 scale 2^e is ESP-DL's exponent e
(record_check.py compares it with the model's).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ....errors import FormatError
from ....text import shown
from ....hints import doctor_of_folder

MAX_BYTES = 16 << 20  # a real record of a 760 KB model is 1 MB; read in Python objects within 8 x + 256 MiB


@dataclass(frozen=True)
class QuantVar:
    """One variable's quantization as recorded (its first quantized config, by op order)."""

    name: str
    op: str
    bit_width: int
    policies: tuple[str, ...]  # the policy flags that are true
    state: str
    scale: tuple[float, ...] | None  # per tensor (one) or per channel; None when FP32 or absent

    def exponents(self) -> tuple[int, ...] | None:
        """The exponents of a POWER_OF_2 scale (2^e), None when it is not one."""
        if self.scale is None or "POWER_OF_2" not in self.policies or any(s <= 0 for s in self.scale):
            return None
        e = [math.log2(s) for s in self.scale]
        return tuple(int(x) for x in e) if all(x == int(x) for x in e) else None


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
        try:
            doc = json.loads(data)
        except (ValueError, RecursionError) as exc:
            raise FormatError("not JSON", file=file, found=str(exc)[:80]) from None
        configs, values = doc.get("configs") if isinstance(doc, dict) else None, \
            doc.get("values", {}) if isinstance(doc, dict) else None
        if not isinstance(configs, dict) or not isinstance(values, dict):
            raise FormatError("not esp-ppq's quantization record", file=file, path="configs",
                              expected="an object with 'configs' and 'values' objects", found=type(doc).__name__)
        out: dict[str, QuantVar] = {}
        for op, variables in configs.items():
            if not isinstance(variables, dict):
                raise FormatError("a config is not an object", file=file, path=f"configs.{op}")
            for name, c in variables.items():  # a quantized config before an FP32 one
                if name not in out or (out[name].state == "FP32" and isinstance(c, dict) and c.get("state") != "FP32"):
                    out[name] = _var(file, op, name, c, values)
        disp = doc.get("dispatchings", {})
        platforms: dict[str, int] = {}
        for p in (disp.values() if isinstance(disp, dict) else ()):
            platforms[str(p)] = platforms.get(str(p), 0) + 1
        return cls(file, out, len(configs), platforms)

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


def _var(file: str | None, op: str, name: str, c: Any, values: dict[str, Any]) -> QuantVar:
    if not isinstance(c, dict) or not isinstance(c.get("policy", {}), dict):
        raise FormatError("a variable's config is not an object", file=file, path=f"configs.{op}.{name}")
    val = values.get(str(c.get("dominator"))) or values.get(str(c.get("hash")))
    scale = None
    if isinstance(val, dict) and val.get("scale") is not None:
        raw = val["scale"] if isinstance(val["scale"], list) else [val["scale"]]
        try:
            scale = tuple(float(x) for x in raw)
        except (TypeError, ValueError):
            raise FormatError("a scale is not a number", file=file, path=f"values.{c.get('hash')}.scale") from None
    try:
        width = int(c.get("bit_width", 0))
    except (TypeError, ValueError):
        raise FormatError("bit_width is not a number", file=file, path=f"configs.{op}.{name}.bit_width") from None
    return QuantVar(name, op, width, tuple(k for k, v in c.get("policy", {}).items() if v is True),
                    str(c.get("state", "")), scale)


__all__ = ["MAX_BYTES", "QuantRecord", "QuantVar"]
