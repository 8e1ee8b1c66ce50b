meta:
  id: tidl_io_buf_desc
  title: TIDL sTIDL_IOBufDesc_t, J7 TIDL 08.x, 09.00-09.01, 09.02 and 10.00-11.x (the *_tidl_io_1.bin file)
  file-extension: bin
  endian: le
  imports:
    - tidl_enums
doc: |
  Input and output tensor descriptor that the J7 TIDL import tool writes as
  `<subgraph>_tidl_io_1.bin` (TIDL-RT: `tidl_io_buff1.bin`). The file is exactly one struct:
  TIDL-RT refuses any other size. The struct is a struct of arrays: every per-tensor field is an
  array of TIDL_MAX_ALG_IN_BUFS or TIDL_MAX_ALG_OUT_BUFS entries (times TIDL_MAX_NUM_CORES from
  09.02 on), of which the first numInputBuf / numOutputBuf are used. All numbers are 32-bit
  little-endian. One declaration serves four layouts through params (io_version is the TIDL
  release the layout first appeared in: 80, 90, 92, 100):
  08.x (io_version 80, 32/32, 1 core): 37,256 bytes;
  09.00-09.01 (io_version 90, 32/32, 1 core): the 08.x arrays after the 4 header ints
  numCores, numVirtualCores, numSuperBatches, inferenceMode: 37,272 bytes;
  09.02 (io_version 92, 32/128, 1/2/4 cores): adds DIM1/DIM2 and numValidTensorDims:
  93,976 / 187,928 / 375,832 bytes;
  10.00-11.x (io_version 100): adds inBufSize and outBufSize: 94,616 / 189,208 / 378,392 bytes.
  Note the order in the output part: outDataName comes before outTensorScale.

  The 09.00-09.01 layout has no published header; it is inferred from three real io files of
  TIDL 9.0/9.1 tools (netVersion 0x20230802 beside them; ../shared/real/tidl/j7-09.x) and
  TI's own printout of the same networks (`*_netLog.txt`). The file is 16 bytes (4 int32)
  longer than 08.x. With the 4 ints placed where 09.02 has them (after numOutputBuf), every
  field lands where its value makes sense in all three files: the header reads
  numCores 1, numVirtualCores 1, numSuperBatches 1, inferenceMode 0; each name starts on its
  512-byte slot ('onnx::Concat_616', 'input', 'images', '625', 'detections', ...); unused
  slots are zero; and width, height, channels and batches of every input and output equal
  the Out NCHW of the netLog's data layer with the same dataId (1x4x176x320 and 1x1x176x320
  in, 1x5x176x320 out; 1x1x32x100 in, 1x256x8x25 out; 1x3x448x448 in, 1x1x300x6 out).
  Placed anywhere else (after the input part, at the end), names and dims are shifted by 16
  bytes and no longer agree. issue #66 of edgeai-tidl-tools shows the same size refused by
  an 08.06 runtime ("Config file size (37272 bytes) does not match ... (37256 bytes)").
doc-ref: TI itidl_ti.h (PSDK-RTOS j721e 08_06, J7 09.02), itidl_io.h (2025); edgeai-tidl-tools docs/tidl_fsg_io_tensors_format.md; 09.00-09.01 inferred from real files with TI netLogs
params:
  - id: max_num_cores
    type: u1
    doc: TIDL_MAX_NUM_CORES the artifacts were built with (1 before 09.02; 1, 2 or 4 after, per SoC).
  - id: max_alg_in_bufs
    type: u2
    doc: TIDL_MAX_ALG_IN_BUFS (32 on J7).
  - id: max_alg_out_bufs
    type: u2
    doc: TIDL_MAX_ALG_OUT_BUFS (32 in 08.x, 128 from 09.02).
  - id: io_version
    type: u1
    doc: |
      Layout generation, named by the TIDL release it first appeared in: 80 (08.x), 90 (09.00 and
      09.01: header ints, no DIM1/DIM2), 92 (09.02: DIM1/DIM2, numValidTensorDims, 128 outputs) or
      100 (10.00 to 11.x: buffer sizes).
seq:
  - id: num_input_buf
    type: s4
    valid:
      min: 0
      max: in_slots
    doc: numInputBuf. Number of input tensors (used entries of every in* array).
  - id: num_output_buf
    type: s4
    valid:
      min: 0
      max: out_slots
    doc: numOutputBuf. Number of output tensors (used entries of every out* array).
  - id: num_cores
    type: s4
    if: io_version >= 90
    valid:
      min: 1
      max: max_num_cores
    doc: numCores. Cores the network was compiled for (09.00 and later; 09.00-09.01 inferred, see the top).
      At least 1 and at most TIDL_MAX_NUM_CORES, so an 8.x file padded by 16 bytes is not taken for 09.00.
  - id: num_virtual_cores
    type: s4
    if: io_version >= 90
    doc: numVirtualCores (09.00 and later; 09.00-09.01 inferred).
  - id: num_super_batches
    type: s4
    if: io_version >= 90
    doc: numSuperBatches (09.00 and later; 09.00-09.01 inferred).
  - id: inference_mode
    type: s4
    enum: tidl_enums::inference_mode
    if: io_version >= 90
    doc: inferenceMode, eTIDL_inferenceMode (09.00 and later; 09.00-09.01 inferred).
  - id: in_data_format
    type: s4
    repeat: expr
    repeat-expr: in_slots
    enum: tidl_enums::in_data_format
    doc: inDataFormat[TIDL_MAX_ALG_IN_BUFS]. Input data format of the raw input (eTIDL_inDataFormat).
  - id: in_resize_type
    type: s4
    repeat: expr
    repeat-expr: in_slots
    enum: tidl_enums::in_resize_type
    doc: inResizeType[TIDL_MAX_ALG_IN_BUFS]. Resize type applied to the raw input (eTIDL_inResizeType).
  - id: resize_width
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: resizeWidth[TIDL_MAX_ALG_IN_BUFS]. Width the raw input is resized to.
  - id: resize_height
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: resizeHeight[TIDL_MAX_ALG_IN_BUFS]. Height the raw input is resized to.
  - id: in_width
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inWidth[TIDL_MAX_ALG_IN_BUFS]. Width W of the input tensor, in elements.
  - id: in_height
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inHeight[TIDL_MAX_ALG_IN_BUFS]. Height H of the input tensor, in lines.
  - id: in_num_channels
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inNumChannels[TIDL_MAX_ALG_IN_BUFS]. Channels C of the input tensor.
  - id: in_dim2
    type: s4
    repeat: expr
    repeat-expr: in_slots
    if: io_version >= 92
    doc: inDIM2[TIDL_MAX_ALG_IN_BUFS]. Second extra dimension DIM2 (09.02 and later).
  - id: in_dim1
    type: s4
    repeat: expr
    repeat-expr: in_slots
    if: io_version >= 92
    doc: inDIM1[TIDL_MAX_ALG_IN_BUFS]. First extra dimension DIM1 (09.02 and later).
  - id: in_channel_pitch
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inChannelPitch[TIDL_MAX_ALG_IN_BUFS]. Elements from one channel to the next in the padded buffer.
  - id: in_num_batches
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inNumBatches[TIDL_MAX_ALG_IN_BUFS]. Batches N of the input tensor.
  - id: in_pad_l
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inPadL[TIDL_MAX_ALG_IN_BUFS]. Padding columns left of each line.
  - id: in_pad_t
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inPadT[TIDL_MAX_ALG_IN_BUFS]. Padding lines above each channel.
  - id: in_pad_r
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inPadR[TIDL_MAX_ALG_IN_BUFS]. Padding columns right of each line.
  - id: in_pad_b
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inPadB[TIDL_MAX_ALG_IN_BUFS]. Padding lines below each channel.
  - id: in_pad_ch
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inPadCh[TIDL_MAX_ALG_IN_BUFS]. Padding channels after the last channel.
  - id: raw_data_in_element_type
    type: s4
    repeat: expr
    repeat-expr: in_slots
    enum: tidl_enums::element_type
    doc: rawDataInElementType[TIDL_MAX_ALG_IN_BUFS]. Element type of the raw data the application feeds, before conversion.
  - id: in_element_type
    type: s4
    repeat: expr
    repeat-expr: in_slots
    enum: tidl_enums::element_type
    doc: inElementType[TIDL_MAX_ALG_IN_BUFS]. Element type of the input tensor in the buffer.
  - id: in_zero_point
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inZeroPoint[TIDL_MAX_ALG_IN_BUFS]. Zero point of the input tensor.
  - id: in_layout
    type: s4
    repeat: expr
    repeat-expr: in_slots
    enum: tidl_enums::layout
    doc: inLayout[TIDL_MAX_ALG_IN_BUFS]. Layout flag of the input tensor (TIDL_LT_NCHW 0, TIDL_LT_NHWC 1).
  - id: in_data_id
    type: s4
    repeat: expr
    repeat-expr: in_slots
    doc: inDataId[TIDL_MAX_ALG_IN_BUFS]. Id of the network data buffer this input feeds.
  - id: in_tensor_scale
    type: f4
    repeat: expr
    repeat-expr: in_slots
    doc: inTensorScale[TIDL_MAX_ALG_IN_BUFS]. Scale of the quantised input; real = (q - zero point) / scale.
  - id: in_data_name
    type: strz
    size: 512
    encoding: UTF-8
    repeat: expr
    repeat-expr: in_slots
    doc: inDataName[TIDL_MAX_ALG_IN_BUFS][TIDL_STRING_SIZE = 512]. Name of the input tensor in the original model, NUL-padded.
  - id: in_buf_size
    type: s4
    repeat: expr
    repeat-expr: in_slots
    if: io_version >= 100
    doc: inBufSize[TIDL_MAX_ALG_IN_BUFS]. Memory to allocate for the input buffer (10.00 and later; unit not documented).
  - id: out_width
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outWidth[TIDL_MAX_ALG_OUT_BUFS]. Width W of the output tensor, in elements.
  - id: out_height
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outHeight[TIDL_MAX_ALG_OUT_BUFS]. Height H of the output tensor, in lines.
  - id: out_dim2
    type: s4
    repeat: expr
    repeat-expr: out_slots
    if: io_version >= 92
    doc: outDIM2[TIDL_MAX_ALG_OUT_BUFS]. Second extra dimension DIM2 (09.02 and later).
  - id: out_dim1
    type: s4
    repeat: expr
    repeat-expr: out_slots
    if: io_version >= 92
    doc: outDIM1[TIDL_MAX_ALG_OUT_BUFS]. First extra dimension DIM1 (09.02 and later).
  - id: out_num_channels
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outNumChannels[TIDL_MAX_ALG_OUT_BUFS]. Channels C of the output tensor.
  - id: out_channel_pitch
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outChannelPitch[TIDL_MAX_ALG_OUT_BUFS]. Elements from one channel to the next in the padded buffer.
  - id: out_num_batches
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outNumBatches[TIDL_MAX_ALG_OUT_BUFS]. Batches N of the output tensor.
  - id: out_pad_l
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outPadL[TIDL_MAX_ALG_OUT_BUFS]. Padding columns left of each line.
  - id: out_pad_t
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outPadT[TIDL_MAX_ALG_OUT_BUFS]. Padding lines above each channel.
  - id: out_pad_r
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outPadR[TIDL_MAX_ALG_OUT_BUFS]. Padding columns right of each line.
  - id: out_pad_b
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outPadB[TIDL_MAX_ALG_OUT_BUFS]. Padding lines below each channel.
  - id: out_pad_ch
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outPadCh[TIDL_MAX_ALG_OUT_BUFS]. Padding channels after the last channel.
  - id: out_element_type
    type: s4
    repeat: expr
    repeat-expr: out_slots
    enum: tidl_enums::element_type
    doc: outElementType[TIDL_MAX_ALG_OUT_BUFS]. Element type of the output tensor in the buffer.
  - id: out_data_id
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outDataId[TIDL_MAX_ALG_OUT_BUFS]. Id of the network data buffer this output comes from.
  - id: out_data_name
    type: strz
    size: 512
    encoding: UTF-8
    repeat: expr
    repeat-expr: out_slots
    doc: outDataName[TIDL_MAX_ALG_OUT_BUFS][TIDL_STRING_SIZE = 512]. Name of the output tensor in the original model, NUL-padded.
  - id: out_tensor_scale
    type: f4
    repeat: expr
    repeat-expr: out_slots
    doc: outTensorScale[TIDL_MAX_ALG_OUT_BUFS]. Scale of the quantised output; real = (q - zero point) / scale.
  - id: out_zero_point
    type: s4
    repeat: expr
    repeat-expr: out_slots
    doc: outZeroPoint[TIDL_MAX_ALG_OUT_BUFS]. Zero point of the output tensor.
  - id: out_layout
    type: s4
    repeat: expr
    repeat-expr: out_slots
    enum: tidl_enums::layout
    doc: outLayout[TIDL_MAX_ALG_OUT_BUFS]. Layout flag of the output tensor (TIDL_LT_NCHW 0, TIDL_LT_NHWC 1).
  - id: out_buf_size
    type: s4
    repeat: expr
    repeat-expr: out_slots
    if: io_version >= 100
    doc: outBufSize[TIDL_MAX_ALG_OUT_BUFS]. Memory to allocate for the output buffer (10.00 and later; unit not documented).
  - id: num_valid_tensor_dims
    type: s4
    repeat: expr
    repeat-expr: out_slots
    if: io_version >= 92
    doc: numValidTensorDims[TIDL_MAX_ALG_OUT_BUFS] (09.02 and later).
instances:
  in_slots:
    value: max_num_cores * max_alg_in_bufs
    doc: Entries of every in* array.
  out_slots:
    value: max_num_cores * max_alg_out_bufs
    doc: Entries of every out* array.
