"""The TIDL family loaded: its formats, sniffers and doctor checks registered (`plugin.FAMILY.load`).

The io file is exactly one `sTIDL_IOBufDesc_t`, whose size differs per SDK version and core
count, so the size identifies the version (TIDL-RT itself refuses a file of any other size). The
sizes below are those seen in real files or computed from a header; any other size is solved
from the struct rule (`io_solve.py`) and read with `unverified` set.
"""

from __future__ import annotations

import struct

from ...family import register_checks_in
from ...family.registry import Format, register, register_buffer_hint, register_sniffer, register_solver
from .combined import COMBINED_IO_MIN, is_combined_net
from .io.desc import IoBufDesc, IoBufDescTda2
from .plugin import IO_NAMES, RECORD_NAMES, TRACE_NAMES, net_head
from .net.versions import OTHER, RELEASED

# Nets, params, configs and printouts import their (large) modules only when such a file is opened:
# accessors and sniffers are named "module:attribute", each sniffer asked only about its names or heads.
_NET = "binparse.formats.tidl.net.model"

IO_FORMATS = [
    register(Format(name="tidl.io.tda2", accessor=IoBufDescTda2, family="tidl", kind="io_1.bin",
                    version="TDA2 TIDL 01.xx (16/16)", size=1160,
                    params={"max_alg_in_bufs": 16, "max_alg_out_bufs": 16},
                    describe="sTIDL_IOBufDesc_t, 16 inputs / 16 outputs (computed from the header)")),
    register(Format(name="tidl.io.j7_08", accessor=IoBufDesc, family="tidl", kind="io_1.bin",
                    version="J7 TIDL 08.x (08_00 … 08_06)", size=37256,
                    params={"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 80},
                    describe="sTIDL_IOBufDesc_t, 32 inputs / 32 outputs")),
    # No header published: inferred from real 9.0/9.1 files and TI's netLogs (schema doc).
    register(Format(name="tidl.io.j7_09_00", accessor=IoBufDesc, family="tidl", kind="io_1.bin",
                    version="J7 TIDL 09.00–09.01", size=37272,
                    params={"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 90},
                    describe="sTIDL_IOBufDesc_t, 4 header ints + 32 inputs / 32 outputs (inferred)")),
]
# 09.02 and 10.00-11.x: TIDL_MAX_NUM_CORES (1, 2, 4 per SoC) multiplies every array.
for _io_version, _name, _label, _sizes in (
        (92, "j7_09_02", "J7 TIDL 09.02", (93976, 187928, 375832)),
        (100, "j7_10", "J7 TIDL 10.00-11.01", (94616, 189208, 378392))):
    for _cores, _size in zip((1, 2, 4), _sizes):
        IO_FORMATS.append(register(Format(
            name=f"tidl.io.{_name}.c{_cores}", accessor=IoBufDesc, family="tidl", kind="io_1.bin",
            version=(f"{_label}, {_cores} core{'s' if _cores > 1 else ''}" if (_io_version, _cores) != (100, 4) else
                     "J7 TIDL 10.00-11.01, 4 cores, and 11.02 on every SoC (itidl_io.h: TIDL_IO_MAX_NUM_CORES 4)"),
            size=_size,
            params={"max_num_cores": _cores, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128,
                    "io_version": _io_version},
            describe=f"sTIDL_IOBufDesc_t, {_cores} x (32 inputs / 128 outputs)"
                     + (" with buffer sizes" if _io_version >= 100 else ""))))

_NEAREST = "binparse.formats.tidl.net.nearest:NetJ7Nearest"
NET_FORMATS = [
    register(Format(name="tidl.net.tda2", accessor=f"{_NET}:NetTda2", family="tidl", kind="net.bin",
                    version="TDA2 TIDL 01.01.03 / TIDL-API 1.2", size=483364, params={"api": 12},
                    describe="sTIDL_Network_t, 256 layer slots (32-bit), weights in tidl_param_*.bin")),
    register(Format(name="tidl.net.am57x", accessor=f"{_NET}:NetTda2", family="tidl", kind="net.bin",
                    version="AM57x TIDL-API 1.3", size=484384, params={"api": 13},
                    describe="sTIDL_Network_t, 256 layer slots (32-bit), weights in tidl_param_*.bin")),
]
for _v in RELEASED:  # every released netVersion; those without a verified layout read as the nearest
    NET_FORMATS.append(register(Format(
        name=f"tidl.net.j7_{_v.key}", accessor=f"{_NET}:NetJ7" if _v.gen else _NEAREST, family="tidl", kind="net.bin",
        version=f"J7 TIDL {_v.sdk} ({_v.evidence})", magic=struct.pack("<I", _v.value),
        params={"gen": _v.gen, **({"cores": 1} if _v.gen < 112 else {})} if _v.gen else {}, exact_size=False, identified_by=f"netVersion {_v.hex}",
        describe="sTIDL_Network_t header + numLayers layers, then parameters")))
NET_FORMATS.append(register(Format(
    name=OTHER, accessor=_NEAREST, family="tidl", kind="net.bin",
    version="J7 TIDL, a netVersion not listed here (no verified layout: nearest, with a warning)",
    exact_size=False, identified_by="a date-like netVersion 0x20YYMMDD not listed (sniffed)",
    describe="sTIDL_Network_t of an SDK binparse does not know")))
_LISTED = frozenset(v.value for v in RELEASED)  # netVersions with a format of their own (found by their magic)


def _unlisted_net_head(head: bytes) -> str | None:
    """`net_head` for a netVersion that is not listed: only such a net is the nearest sniffer's (every
    open of a J7 net asks: a listed one is answered here, without calling the sniffer)."""
    return None if head[:4] and int.from_bytes(head[:4], "little") in _LISTED else net_head(head)


register_sniffer("binparse.formats.tidl.combined:sniff", names=IO_NAMES[:2],
                 head=is_combined_net, min_size=COMBINED_IO_MIN)  # 11.x combined subgraphs: before any reading of one net
register_sniffer("binparse.formats.tidl.net.nearest:sniff", head=_unlisted_net_head)
register_sniffer("binparse.formats.tidl.am57x:sniff", names=("tidl_param_*.bin", "tidl_config_*.txt"))
register_sniffer("binparse.formats.tidl.printouts.files:sniff", names=("*_netLog.txt", "*.layer_info.txt",
                                                                       "*_paramDebug.csv"))
register_sniffer("binparse.formats.tidl.traces.read:sniff", names=TRACE_NAMES)  # one layer trace
register_sniffer("binparse.formats.tidl.records.read:sniff", names=RECORD_NAMES)  # param.yaml, OSRT records
register_sniffer("binparse.formats.tidl.traces.sniff:sniff_folder", folders=True)  # traces or reference .npy
register_sniffer("binparse.formats.tidl.records.folder:sniff_folder", folders=True)  # an artifacts folder
register_solver("binparse.formats.tidl.io.solve:solve")  # io sizes no format above lists: the struct rule
register_buffer_hint("binparse.formats.tidl.io.buffer_hint:hint")  # a raw buffer beside its io descriptor
register_checks_in("binparse.formats.tidl.doctor")
register_checks_in("binparse.formats.tidl.traces.doctor")
register_checks_in("binparse.formats.tidl.printouts.checks")
register_checks_in("binparse.formats.tidl.records.checks")
register_checks_in("binparse.formats.tidl.sdk")


__all__ = ["IO_FORMATS", "NET_FORMATS"]
