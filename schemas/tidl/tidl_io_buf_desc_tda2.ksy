meta:
  id: tidl_io_buf_desc_tda2
  title: TIDL sTIDL_IOBufDesc_t, TDA2/TDA3 TIDL 01.xx
  file-extension: bin
  endian: le
  imports:
    - tidl_enums
doc: |
  The layer-group input/output descriptor of TDA2x/TDA3x TIDL 01.xx (sTIDL_IOBufDesc.h of Dec 2018),
  8 + 36 * (TIDL_MAX_ALG_IN_BUFS + TIDL_MAX_ALG_OUT_BUFS) bytes (params): 1,160 with the 16 and 16 of
  TDA2 TIDL 01.01.03. No names, scales or
  pitches: the channel pitch of a padded tensor is (padT + H + padB) * (padL + W + padR).
  Computed from the header; no real file has been seen.
doc-ref: TI sTIDL_IOBufDesc.h (TDA2 TIDL 01.01.03)
params:
  - id: max_alg_in_bufs
    type: u2
    doc: TIDL_MAX_ALG_IN_BUFS the descriptor was built with (16 in TDA2 TIDL 01.01.03).
  - id: max_alg_out_bufs
    type: u2
    doc: TIDL_MAX_ALG_OUT_BUFS the descriptor was built with (16 in TDA2 TIDL 01.01.03).
seq:
  - id: num_input_buf
    type: s4
    valid:
      min: 0
      max: max_alg_in_bufs
    doc: numInputBuf. Number of input tensors.
  - id: num_output_buf
    type: s4
    valid:
      min: 0
      max: max_alg_out_bufs
    doc: numOutputBuf. Number of output tensors.
  - id: in_width
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inWidth[TIDL_MAX_ALG_IN_BUFS]. Width W of the tensor, in elements.
  - id: in_height
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inHeight[TIDL_MAX_ALG_IN_BUFS]. Height H, in lines.
  - id: in_num_channels
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inNumChannels[TIDL_MAX_ALG_IN_BUFS]. Channels C.
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
  - id: in_element_type
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    enum: tidl_enums::element_type
    doc: inElementType[TIDL_MAX_ALG_IN_BUFS]. Element type (eTIDL_ElementType 0..5).
  - id: in_data_id
    type: s4
    repeat: expr
    repeat-expr: max_alg_in_bufs
    doc: inDataId[TIDL_MAX_ALG_IN_BUFS]. Id of the network data buffer.
  - id: out_width
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outWidth[TIDL_MAX_ALG_OUT_BUFS]. Width W of the tensor, in elements.
  - id: out_height
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outHeight[TIDL_MAX_ALG_OUT_BUFS]. Height H, in lines.
  - id: out_num_channels
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outNumChannels[TIDL_MAX_ALG_OUT_BUFS]. Channels C.
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
  - id: out_element_type
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    enum: tidl_enums::element_type
    doc: outElementType[TIDL_MAX_ALG_OUT_BUFS]. Element type (eTIDL_ElementType 0..5).
  - id: out_data_id
    type: s4
    repeat: expr
    repeat-expr: max_alg_out_bufs
    doc: outDataId[TIDL_MAX_ALG_OUT_BUFS]. Id of the network data buffer.
