"""Which rounding an export computes with: chosen per model from evidence, and said.

The chip: esp-dl rounds half to even on the ESP32-P4 (and S31) and half up on the ESP32-S3 and the
plain-C targets (`dl_tool.hpp`, `CONFIG_ROUND_HALF_EVEN_ENABLED` in `dl_define_private.hpp`).
esp-ppq computes the test values it stores beside a model with its quantizer's `rounding_policy`
(`esp_ppq/quantization/quantizer/EspdlQuantizer.py`): half to even for the ESPDL_INT8/INT16/H_PRE
platforms (ESP32-P4), half up for ESPDL_S3_* (since its commit "Modify s3 rounding policy",
2024-09-26, before esp-ppq 1.0) and ESPDL_C_* (since the C target was added, 2025-06); older
releases rounded half to even on every target (the EDL1 face detector of the PDL1 pack, an S3
model, reproduces only with half to even).

Evidence, strongest first (`auto`, the default):
1. the model's own test values: the export run with both roundings; the one that reproduces more
   elements (within one step, then exactly) is used (`verify.check_model`, `decide`);
2. the `.json` record esp-ppq wrote beside the model: the platforms its ops are dispatched to;
3. the weight layouts: the unblocked layouts only esp-ppq's C target writes (half up);
4. none of these: half to even (ESP32-P4, and every target of esp-ppq before 2024-09).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any


AUTO = "auto"
HALF_EVEN, HALF_UP = "half-even", "half-up"
UNBLOCKED = {"NHWC", "HWCN", "NWC", "WCN"}


@dataclass(frozen=True)
class Choice:
    """The rounding used for one model and why."""

    rounding: str
    evidence: str  # the evidence in words (the --check report, the export's model properties)
    source: str = ""  # which evidence, in a few words (the export's summary line)


def record_beside(model: Any) -> Path | None:
    """The `.json` record esp-ppq writes beside MODEL.espdl (MODEL.json), when there is one."""
    file = getattr(model, "file", None)
    if not file or not isinstance(file, (str, Path)) or str(getattr(model, "name", None) or ""):  # a pack's model
        return None
    path = Path(file).with_suffix(".json")
    return path if path.is_file() else None


def platform_rounding(platform: str) -> str | None:
    """The rounding esp-ppq's quantizer of an ESPDL platform uses (None: not an ESPDL platform)."""
    if platform.startswith(("ESPDL_S3_", "ESPDL_C_")):
        return HALF_UP
    if platform.startswith("ESPDL_"):
        return HALF_EVEN
    return None


def from_record(model: Any) -> Choice | None:
    platforms = record_platforms(model)
    found = {platform_rounding(p) for p in platforms} - {None}
    if len(found) != 1:
        return None
    rounding = found.pop()
    assert rounding is not None
    names = ", ".join(sorted(platforms))
    return Choice(rounding, f"the .json record's platforms {names}: esp-ppq rounds {rounding} there", ".json record")


def record_platforms(model: Any) -> dict[str, int]:
    """The platforms of the `.json` record beside the model ({} without one)."""
    path = record_beside(model)
    if path is None:
        return {}
    from ....core.errors import BinparseError
    from ..printouts.record import QuantRecord
    try:
        return dict(QuantRecord.read(path).platforms)
    except (BinparseError, OSError):
        return {}


def c_target(model: Any) -> bool:
    """True when the model says it was made for esp-ppq's C target: its weights in the unblocked
    layouts, or its record's platforms ESPDL_C_*."""
    try:
        names = {t.layout for t in model.graph.initializers if t.layout}
    except Exception:  # noqa: BLE001
        names = set()
    platforms = record_platforms(model)
    return bool(names & UNBLOCKED) or (bool(platforms) and all(p.startswith("ESPDL_C_") for p in platforms))


def from_layouts(model: Any) -> Choice | None:
    try:
        names = {t.layout for t in model.graph.initializers if t.layout}
    except Exception:  # noqa: BLE001  (an unreadable graph: the export says why)
        return None
    if names and names <= UNBLOCKED | {"UNK"} and names & UNBLOCKED:
        return Choice(HALF_UP, "the C target's unblocked weight layouts: esp-ppq rounds half-up there", "C layouts")
    return None


def without_tests(model: Any) -> Choice:
    """The rounding the record or the layouts imply, else half to even."""
    return from_record(model) or from_layouts(model) or Choice(
        HALF_EVEN, "no record or layout names the target: half-even", "default")


def requested(rounding: str) -> Choice | None:
    """The rounding a caller fixed (None for `auto`)."""
    return None if rounding == AUTO else Choice(rounding, "as asked (--rounding)", "--rounding")


def by_tests(model: Any, counts: dict[str, tuple[int, int, int]]) -> Choice:
    """The rounding whose run reproduces more test elements; `counts`: rounding -> (elements, within, exact)."""
    even, up = counts[HALF_EVEN], counts[HALF_UP]
    said = (f"test values: half-up {up[1]:,}/{up[0]:,} within one step ({up[2]:,} exact), half-even "
            f"{even[1]:,} ({even[2]:,} exact)")
    if (up[1], up[2]) > (even[1], even[2]):
        return Choice(HALF_UP, said, "test values")
    if (up[1], up[2]) < (even[1], even[2]):
        return Choice(HALF_EVEN, said, "test values")
    other = without_tests(model)
    return Choice(other.rounding, f"{said}; alike, so: {other.evidence}", f"test values alike, {other.source}")


__all__ = ["AUTO", "Choice", "c_target", "record_platforms", "HALF_EVEN", "HALF_UP", "by_tests", "from_layouts", "from_record",
           "platform_rounding", "record_beside", "requested", "without_tests"]
