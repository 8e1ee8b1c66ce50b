"""TI TIDL (TDA2/AM57x and J7 TDA4/AM6x): io descriptors, networks, tensors, detections.

The io file is exactly one `sTIDL_IOBufDesc_t`, whose size differs per SDK version and core
count, so the size identifies the version (TIDL-RT itself refuses a file of any other size).
"""

from __future__ import annotations

from ...registry import Format, register
from .io import IoBufDesc, IoBufDescTda2
from .tensors import ELEMENT_DTYPES, Pads, Tensor

IO_FORMATS = [
    register(Format(name="tidl.io.tda2", accessor=IoBufDescTda2, family="tidl", kind="io_1.bin",
                    version="TDA2 TIDL 01.xx (16/16)", size=1160,
                    describe="sTIDL_IOBufDesc_t, 16 inputs / 16 outputs (computed from the header)")),
    register(Format(name="tidl.io.j7_08", accessor=IoBufDesc, family="tidl", kind="io_1.bin",
                    version="J7 TIDL 08.x (08_00 … 08_06)", size=37256,
                    params={"max_num_cores": 1, "max_alg_in_bufs": 32, "max_alg_out_bufs": 32, "io_version": 8},
                    describe="sTIDL_IOBufDesc_t, 32 inputs / 32 outputs")),
]
for _cores, _size in ((1, 93976), (2, 187928), (4, 375832)):
    IO_FORMATS.append(register(Format(
        name=f"tidl.io.j7_09_02.c{_cores}", accessor=IoBufDesc, family="tidl", kind="io_1.bin",
        version=f"J7 TIDL 09.02, {_cores} core{'s' if _cores > 1 else ''}", size=_size,
        params={"max_num_cores": _cores, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 9},
        describe=f"sTIDL_IOBufDesc_t, {_cores} x (32 inputs / 128 outputs)")))
for _cores, _size in ((1, 94616), (2, 189208), (4, 378392)):
    IO_FORMATS.append(register(Format(
        name=f"tidl.io.j7_10.c{_cores}", accessor=IoBufDesc, family="tidl", kind="io_1.bin",
        version=f"J7 TIDL 10.00-11.x, {_cores} core{'s' if _cores > 1 else ''}", size=_size,
        params={"max_num_cores": _cores, "max_alg_in_bufs": 32, "max_alg_out_bufs": 128, "io_version": 10},
        describe=f"sTIDL_IOBufDesc_t with buffer sizes, {_cores} x (32 inputs / 128 outputs)")))

__all__ = ["ELEMENT_DTYPES", "IO_FORMATS", "IoBufDesc", "IoBufDescTda2", "Pads", "Tensor"]
