"""Which TIDL_MAX_NUM_CORES an 11.02 network was built for, from its own header.

From 10.01 on `sTIDL_Network_t` holds `netInitBackupDataOffset[TIDL_MAX_NUM_CORES]`, a per-SoC
define (TI's itidl_ti.h: 1 on J721E, J721S2, AM62A; 2 on J722S; 4 on J784S4, J742S2), so every
later header field moves with the SoC and the file does not say which. Each core count is tried in
turn; the one under which the header holds is kept:
numCores (what the import wrote from the device config) is within 1..cores, the one-core header's
padding before netBufInfo is zero, and netBufInfo[0] is the structure block as TI's import writes
it (offset 0, size = header + numLayers layers, 64-byte aligned: `TIDL_getNetworkStructDataSize`).
Under a wrong count these fields are read from their neighbours and disagree.
"""

from __future__ import annotations

import struct
from typing import Any

from ....core.buffers import byte_view
from ....core.errors import FormatError

SOC_CORES = {"J721E": 1, "J721S2": 1, "AM62A": 1, "AM68A": 1, "AM68PA": 1, "TDA4VM": 1, "J722S": 2, "AM67A": 2,
             "J784S4": 4, "J742S2": 4, "AM69A": 4}  # TIDL_MAX_NUM_CORES per SoC define (itidl_ti.h)
LAYER_BYTES = {101: 1824, 112: 1848, 113: 1856}


def header_offsets(cores: int) -> dict[str, int]:
    """Byte offsets of the header fields that move with the core count (11.02 header, LP64)."""
    quant = 72 + 4 * cores
    num_cores = quant + 20
    buf_info = -(-(num_cores + 4) // 8) * 8
    return {"num_cores": num_cores, "net_buf_info": buf_info, "layers": buf_info + 64 + 8}


def why_not(mv: memoryview, offset: int, gen: int, cores: int) -> str | None:
    """Why the header does not hold with `cores` (None: it holds)."""
    at = header_offsets(cores)
    if mv.nbytes - offset < at["layers"]:
        return f"{mv.nbytes - offset} bytes are shorter than the {at['layers']}-byte header"
    n = struct.unpack_from("<i", mv, offset + 8)[0]
    num_cores = struct.unpack_from("<I", mv, offset + at["num_cores"])[0]
    if not 1 <= num_cores <= cores:
        return f"numCores reads {num_cores}, not within 1..{cores}"
    if cores == 1 and bytes(mv[offset + 100:offset + 104]) != bytes(4):
        return "the padding before netBufInfo is not zero"
    size, off = struct.unpack_from("<ii", mv, offset + at["net_buf_info"] + 8)
    want = -(-(at["layers"] + n * LAYER_BYTES[gen]) // 64) * 64
    if (off, size) != (0, want):
        return f"netBufInfo[0] reads (offset {off}, size {size}), not the structure block (0, {want})"
    return None


def resolve(buf: Any, offset: int, file: str | None, gen: int) -> int:
    """The core count under which the header holds; a FormatError naming every count tried."""
    mv = byte_view(buf, file=file)
    tried = []
    for cores in (1, 2, 4):
        reason = why_not(mv, offset, gen, cores)
        if reason is None:
            return cores
        tried.append(f"{cores} core{'s' if cores > 1 else ''}: {reason}")
    raise FormatError("the TIDL network header holds for no SoC's core count", file=file, offset=offset,
                      expected="a header read with TIDL_MAX_NUM_CORES 1, 2 or 4 whose numCores and netBufInfo agree",
                      found="; ".join(tried), hint="pass cores=N to read it with one count anyway")


__all__ = ["SOC_CORES", "header_offsets", "resolve", "why_not"]
