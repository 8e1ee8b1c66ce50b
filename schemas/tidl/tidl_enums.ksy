meta:
  id: tidl_enums
  title: TIDL enumerations shared by the io and network schemas
  endian: le
doc: |
  Enumerations of TI's itidl_ti.h / itidl_io.h that several TIDL structs use. This file has no
  fields of its own; the io and net schemas import it.
doc-ref: TI itidl_ti.h (TDA2 01.01.03, J7 08.06, J7 09.02), itidl_io.h (TIDL 10/11)
enums:
  element_type:
    0:
      id: unsigned_char
      doc: TIDL_UnsignedChar, uint8
    1:
      id: signed_char
      doc: TIDL_SignedChar, int8
    2:
      id: unsigned_short
      doc: TIDL_UnsignedShort, uint16
    3:
      id: signed_short
      doc: TIDL_SignedShort, int16
    4:
      id: unsigned_word
      doc: TIDL_UnsignedWord, uint32
    5:
      id: signed_word
      doc: TIDL_SignedWord, int32 (the last type on TDA2)
    6:
      id: single_prec_float
      doc: TIDL_SinglePrecFloat, float32 (J7)
    7:
      id: unsigned_double_word
      doc: TIDL_UnsignedDoubleWord, uint64 (J7)
    8:
      id: signed_double_word
      doc: TIDL_SignedDoubleWord, int64 (J7)
  layout:
    0: nchw
    1: nhwc
  in_data_format:
    0: bgr_planar
    1: rgb_planar
    2: rgb_max
  in_resize_type:
    0:
      id: default
      doc: TIDL_inResizeTypeDefault
    1: keep_ar
    2: max
  inference_mode:
    0: default
    1: high_throughput
    2: low_latency
