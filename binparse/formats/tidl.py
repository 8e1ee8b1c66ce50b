"""TI TIDL (TDA4/AM6x J7 family): the `*_tidl_io_1.bin` tensor descriptor.

The io file is exactly one `sTIDL_IOBufDesc_t`, whose size differs per SDK version, so the size
identifies the version (TIDL-RT itself refuses a file of any other size).
"""

from __future__ import annotations

from ..accessors.tidl.tidl_io_buf_desc_j7_08 import TidlIoBufDescJ708
from ..registry import Format, register

IO_J7_08 = register(Format(
    name="tidl.io.j7_08", accessor=TidlIoBufDescJ708, family="tidl", kind="io_1.bin",
    version="J7 TIDL 08.x (08_00 … 08_06)", size=37256,
    describe="sTIDL_IOBufDesc_t, 32 inputs / 32 outputs"))
