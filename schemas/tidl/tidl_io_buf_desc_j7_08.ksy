meta:
  id: tidl_io_buf_desc_j7_08
  title: TIDL sTIDL_IOBufDesc_t, J7 TIDL 08.x (the *_tidl_io_1.bin file)
  file-extension: bin
  endian: le
doc: |
  Input and output tensor descriptor that the TIDL import tool of J7 TIDL 08.x (PSDK-RTOS 08_00 to
  08_06, edgeai-tidl-tools 08_xx) writes as `<subgraph>_tidl_io_1.bin`. The file is exactly one
  struct (37,256 bytes): TIDL-RT refuses any other size. The struct is a struct of arrays: every
  per-tensor field is an array of TIDL_MAX_ALG_IN_BUFS (32) or TIDL_MAX_ALG_OUT_BUFS (32) entries,
  of which the first numInputBuf / numOutputBuf are used. All numbers are 32-bit little-endian.
  Note the order in the output part: outDataName comes before outTensorScale.
doc-ref: TI itidl_ti.h (PSDK-RTOS j721e 08_06), sTIDL_IOBufDesc_t; edgeai-tidl-tools docs/tidl_fsg_io_tensors_format.md
seq:
  - id: num_input_buf
    type: s4
    valid:
      min: 0
      max: max_alg_in_bufs
    doc: numInputBuf. Number of input tensors (used entries of every in* array).
  - id: num_output_buf
    type: s4
    valid:
      min: 0
      max: max_alg_out_bufs
    doc: numOutputBuf. Number of output tensors (used entries of every out* array).
  - id: in_data_format
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    enum: tidl_in_data_format
    doc: inDataFormat[TIDL_MAX_ALG_IN_BUFS]. Input data format of the raw input (eTIDL_inDataFormat).
  - id: in_resize_type
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    enum: tidl_in_resize_type
    doc: inResizeType[TIDL_MAX_ALG_IN_BUFS]. Resize type applied to the raw input (eTIDL_inResizeType).
  - id: resize_width
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: resizeWidth[TIDL_MAX_ALG_IN_BUFS]. Width the raw input is resized to.
  - id: resize_height
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: resizeHeight[TIDL_MAX_ALG_IN_BUFS]. Height the raw input is resized to.
  - id: in_width
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inWidth[TIDL_MAX_ALG_IN_BUFS]. Width W of the input tensor, in elements.
  - id: in_height
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inHeight[TIDL_MAX_ALG_IN_BUFS]. Height H of the input tensor, in lines.
  - id: in_num_channels
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inNumChannels[TIDL_MAX_ALG_IN_BUFS]. Channels C of the input tensor.
  - id: in_channel_pitch
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inChannelPitch[TIDL_MAX_ALG_IN_BUFS]. Elements from one channel to the next in the padded buffer.
  - id: in_num_batches
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inNumBatches[TIDL_MAX_ALG_IN_BUFS]. Batches N of the input tensor.
  - id: in_pad_l
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inPadL[TIDL_MAX_ALG_IN_BUFS]. Padding columns left of each line.
  - id: in_pad_t
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inPadT[TIDL_MAX_ALG_IN_BUFS]. Padding lines above each channel.
  - id: in_pad_r
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inPadR[TIDL_MAX_ALG_IN_BUFS]. Padding columns right of each line.
  - id: in_pad_b
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inPadB[TIDL_MAX_ALG_IN_BUFS]. Padding lines below each channel.
  - id: in_pad_ch
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inPadCh[TIDL_MAX_ALG_IN_BUFS]. Padding channels after the last channel.
  - id: raw_data_in_element_type
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    enum: tidl_element_type
    doc: rawDataInElementType[TIDL_MAX_ALG_IN_BUFS]. Element type of the raw data the application feeds (before any conversion).
  - id: in_element_type
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    enum: tidl_element_type
    doc: inElementType[TIDL_MAX_ALG_IN_BUFS]. Element type of the input tensor in the buffer.
  - id: in_zero_point
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inZeroPoint[TIDL_MAX_ALG_IN_BUFS]. Zero point of the input tensor.
  - id: in_layout
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    enum: tidl_layout
    doc: inLayout[TIDL_MAX_ALG_IN_BUFS]. Layout of the input tensor (TIDL_LT_NCHW 0, TIDL_LT_NHWC 1).
  - id: in_data_id
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inDataId[TIDL_MAX_ALG_IN_BUFS]. Id of the network data buffer this input feeds.
  - id: in_tensor_scale
    type: f4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inTensorScale[TIDL_MAX_ALG_IN_BUFS]. Scale of the quantised input; real = (q - zero point) / scale.
  - id: in_data_name
    type: strz
    size: string_size
    encoding: UTF-8
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inDataName[TIDL_MAX_ALG_IN_BUFS][TIDL_STRING_SIZE]. Name of the input tensor in the original model, NUL-padded.
  - id: out_width
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outWidth[TIDL_MAX_ALG_OUT_BUFS]. Width W of the output tensor, in elements.
  - id: out_height
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outHeight[TIDL_MAX_ALG_OUT_BUFS]. Height H of the output tensor, in lines.
  - id: out_num_channels
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outNumChannels[TIDL_MAX_ALG_OUT_BUFS]. Channels C of the output tensor.
  - id: out_channel_pitch
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outChannelPitch[TIDL_MAX_ALG_OUT_BUFS]. Elements from one channel to the next in the padded buffer.
  - id: out_num_batches
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outNumBatches[TIDL_MAX_ALG_OUT_BUFS]. Batches N of the output tensor.
  - id: out_pad_l
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outPadL[TIDL_MAX_ALG_OUT_BUFS]. Padding columns left of each line.
  - id: out_pad_t
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outPadT[TIDL_MAX_ALG_OUT_BUFS]. Padding lines above each channel.
  - id: out_pad_r
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outPadR[TIDL_MAX_ALG_OUT_BUFS]. Padding columns right of each line.
  - id: out_pad_b
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outPadB[TIDL_MAX_ALG_OUT_BUFS]. Padding lines below each channel.
  - id: out_pad_ch
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outPadCh[TIDL_MAX_ALG_OUT_BUFS]. Padding channels after the last channel.
  - id: out_element_type
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    enum: tidl_element_type
    doc: outElementType[TIDL_MAX_ALG_OUT_BUFS]. Element type of the output tensor in the buffer.
  - id: out_data_id
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outDataId[TIDL_MAX_ALG_OUT_BUFS]. Id of the network data buffer this output comes from.
  - id: out_data_name
    type: strz
    size: string_size
    encoding: UTF-8
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outDataName[TIDL_MAX_ALG_OUT_BUFS][TIDL_STRING_SIZE]. Name of the output tensor in the original model, NUL-padded.
  - id: out_tensor_scale
    type: f4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outTensorScale[TIDL_MAX_ALG_OUT_BUFS]. Scale of the quantised output; real = (q - zero point) / scale.
  - id: out_zero_point
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outZeroPoint[TIDL_MAX_ALG_OUT_BUFS]. Zero point of the output tensor.
  - id: out_layout
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    enum: tidl_layout
    doc: outLayout[TIDL_MAX_ALG_OUT_BUFS]. Layout of the output tensor (TIDL_LT_NCHW 0, TIDL_LT_NHWC 1).
instances:
  max_alg_in_bufs:
    value: 32
    doc: TIDL_MAX_ALG_IN_BUFS in J7 08.x.
  max_alg_out_bufs:
    value: 32
    doc: TIDL_MAX_ALG_OUT_BUFS in J7 08.x.
  string_size:
    value: 512
    doc: TIDL_STRING_SIZE.
enums:
  tidl_element_type:
    0: unsigned_char
    1: signed_char
    2: unsigned_short
    3: signed_short
    4: unsigned_word
    5: signed_word
    6: single_prec_float
    7: unsigned_double_word
    8: signed_double_word
  tidl_layout:
    0: nchw
    1: nhwc
  tidl_in_data_format:
    0: bgr_planar
    1: rgb_planar
    2: rgb_max
  tidl_in_resize_type:
    0:
      id: default
      doc: TIDL_inResizeTypeDefault
    1: keep_ar
    2: max
