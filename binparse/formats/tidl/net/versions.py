"""Every released J7 TIDL netVersion, the SDK that writes it, and how binparse knows its layout.

Declarations only (plus the rule that orders layouts for a version without its own). netVersion
is TIDL_NET_VERSION, a date spelled in hex (0x20241120 = 2024-11-20). Sources: the 08.06 and
09.02 itidl_ti.h headers; real files with TI's printouts (shared/real/tidl); the model-zoo
table of a Yocto bbappend for the versions no file or header shows (facts/tidl.md 2.2).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from ....engine.accessors.tidl.tidl_enums import TidlEnums

OTHER = "tidl.net.j7_other"  # the format of netVersions the table does not list


@dataclass(frozen=True)
class NetVersion:
    """One released netVersion: the SDK, its layout generation (None: no verified layout), the evidence."""

    value: int
    sdk: str
    key: str  # in the format name, tidl.net.j7_<key>
    gen: int | None
    evidence: str

    @property
    def hex(self) -> str:
        return f"0x{self.value:08X}"

    @property
    def major(self) -> int:
        return int(self.sdk.split(".")[0])


# gen (the `gen` param of tidl_net_j7.ksy) → the SDK label of that layout and its layer-type numbering
LAYOUTS: dict[int, tuple[str, type[TidlEnums.LayerTypeJ708] | type[TidlEnums.LayerTypeJ709]]] = {
    82: ("8.2", TidlEnums.LayerTypeJ708), 86: ("08.06", TidlEnums.LayerTypeJ708),
    90: ("9.0/9.1", TidlEnums.LayerTypeJ709), 92: ("09.02", TidlEnums.LayerTypeJ709),
    101: ("10.01", TidlEnums.LayerTypeJ709), 112: ("11.02", TidlEnums.LayerTypeJ709),
    113: ("11.02.12", TidlEnums.LayerTypeJ709)}

NONE = "no verified layout: nearest, with a warning"
# 11.00-11.01 publish no header; TI's 11.02 source reads every net from TIDL_NET_VERSION_FW_11_00_00_00
# (0x20250429) on through the one sTIDL_Network_t, branching only kernel behaviour on the netVersion
# (tidl_rt_ovx.c, tidl_batchNorm_ref.c, tidl_layerNorm_ref.c, tidl_transpose.c): the 11.02 layout is nearest.
ELEVEN = "no header of its own: the nearest verified layout that holds, 11.02 first, with a warning"
RELEASED: tuple[NetVersion, ...] = (
    NetVersion(0x20211201, "8.2", "08_2", 82, "layout inferred: real files + netLog"),
    NetVersion(0x20230208, "08.06", "08_06", 86, "layout: 08.06 header"),
    NetVersion(0x20230802, "9.0/9.1", "09_01", 90, "layout inferred: real files + netLog, paramDebug"),
    NetVersion(0x20240401, "09.02", "09_02", 92, "layout: 09.02 header"),
    NetVersion(0x20240719, "10.00", "10_00", None, "no header or net file: the nearest verified layout that holds, 10.01 first, with a warning"),
    NetVersion(0x20241120, "10.01", "10_01", 101, "layout inferred: a real file of a known model"),
    NetVersion(0x20250429, "11.00.04", "11_00_04", None, ELEVEN),
    NetVersion(0x20250630, "11.00", "11_00", None, ELEVEN),
    NetVersion(0x20250821, "11.01", "11_01", None, ELEVEN),
    NetVersion(0x20251208, "11.02", "11_02", 112, "layout: 11.02 header (11_02_04_00) through schema from-header"),
    # the 11_02_12_00 header (Processor-SDK-TDA) adds dynDimMask to sTIDL_DataParams_t: 1,856-byte layers
    NetVersion(0x20260423, "11.02.12", "11_02_12", 113, "layout: 11_02_12_00 header, 11.02's with dynDimMask"),
)
BY_VALUE = {v.value: v for v in RELEASED}
VERIFIED = {v.gen: v for v in RELEASED if v.gen is not None}


def as_date(value: int) -> datetime.date | None:
    """The date a netVersion spells (0x20241120 → 2024-11-20), None if it is not one."""
    digits = f"{value:08X}"
    if not digits.isdigit():
        return None
    try:
        return datetime.date(int(digits[:4]), int(digits[4:6]), int(digits[6:]))
    except ValueError:
        return None


def net_version_like(value: int) -> bool:
    """True when a 32-bit word reads as a TIDL netVersion: a date 0x20YYMMDD spelled in hex digits."""
    return f"{value:08X}".startswith("20") and as_date(value) is not None


def nearest_layouts(value: int) -> list[int]:
    """The verified layouts (gens) to try for a netVersion without its own, nearest first.

    Nearest = a layout of the same SDK major version if the table names the version (10.00 →
    10.01), then by distance between the netVersion dates (a newer version than all → the newest
    layout first); a value that is no date is ordered by numeric distance.
    """
    known = BY_VALUE.get(value)
    day = as_date(value)

    def key(gen: int) -> tuple[int, int]:
        v = VERIFIED[gen]
        other_major = int(known is None or known.major != v.major)
        vday = as_date(v.value)
        dist = abs((day - vday).days) if day and vday else abs(value - v.value)
        return other_major, dist

    return sorted(VERIFIED, key=key)


__all__ = ["BY_VALUE", "LAYOUTS", "NetVersion", "RELEASED", "VERIFIED", "as_date", "nearest_layouts"]
