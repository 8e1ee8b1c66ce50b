meta:
  id: tidl_net_tda2
  title: TIDL sTIDL_Network_t of TDA2x/TDA3x TIDL 01.xx and the AM57x TIDL-API (tidl_net_*.bin)
  file-extension: bin
  endian: le
  imports:
    - tidl_enums
doc: |
  The whole fixed-size network struct with all TIDL_NUM_MAX_LAYERS (256) layer slots, of which
  the first numLayers are used, as the 32-bit EVE/C66x tools write it. The weights live in a
  separate tidl_param_*.bin. Two layouts through the param `api`:
  12 = TDA2 TIDL 01.01.03 / TIDL-API 1.2 and earlier (strideOffsetMethod in the network header,
  1,888-byte layers): 483,364 bytes;
  13 = AM57x TIDL-API 1.3 (strideOffsetMethod in each layer, 1,892-byte layers): 484,384 bytes.
doc-ref: TI itidl_ti.h (TDA2 01.01.03); rcn-ee/tidl-api tidl_api/src/util.cpp ReadNetworkBinary
params:
  - id: api
    type: u1
    doc: 12 (TDA2 01.01.03 / TIDL-API 1.2) or 13 (TIDL-API 1.3).
seq:
  - id: num_layers
    type: s4
    valid:
      min: 0
      max: 256
    doc: numLayers. Used layer slots.
  - id: weights_element_size
    type: s4
    doc: weightsElementSize. Bytes per weight in the param file.
  - id: slope_element_size
    type: s4
    doc: slopeElementSize.
  - id: bias_element_size
    type: s4
    doc: biasElementSize. Bytes per bias in the param file.
  - id: data_element_size
    type: s4
  - id: inter_element_size
    type: s4
  - id: quantization_style
    type: s4
    doc: quantizationStyle (fixed 0, dynamic 1, custom 10).
  - id: stride_offset_method
    type: s4
    if: api == 12
    doc: strideOffsetMethod (in the header up to TIDL-API 1.2).
  - id: reserved
    type: s4
  - id: layers
    type: layer(api)
    size: 'api == 12 ? 1888 : 1892'
    repeat: expr
    repeat-expr: 256
    doc: TIDLLayers[TIDL_NUM_MAX_LAYERS]. All 256 slots; the first numLayers are used.
types:
  s_buffer:
    doc: sBuffer_t on the 32-bit targets (16 bytes). Not filled in files.
    seq:
      - id: ptr
        type: u4
      - id: buf_size
        type: s4
      - id: reserved
        type: s4
        repeat: expr
        repeat-expr: 2
  data_params:
    doc: sTIDL_DataParams_t (52 bytes).
    seq:
      - id: data_id
        type: s4
      - id: element_type
        type: s4
        enum: tidl_enums::element_type
      - id: num_dim
        type: s4
      - id: data_q
        type: s4
      - id: min_value
        type: s4
      - id: max_value
        type: s4
      - id: pitch
        type: s4
        repeat: expr
        repeat-expr: 3
        doc: pitch[TIDL_PITCH_MAX]. ROI, channel, line pitches.
      - id: dim_values
        type: s4
        repeat: expr
        repeat-expr: 4
        doc: dimValues[TIDL_DIM_MAX]. N, C, H, W.
  layer:
    doc: sTIDL_Layer_t (1,888 bytes; 1,892 in TIDL-API 1.3).
    params:
      - id: api
        type: u1
    seq:
      - id: layer_params_raw
        size: 200
        doc: layerParams, the sTIDL_LayerParams_t union (200 bytes) as raw bytes.
      - id: layer_type
        type: s4
        enum: tidl_enums::layer_type_tda2
        doc: layerType (eTIDL_LayerType).
      - id: num_in_bufs
        type: s4
        doc: numInBufs (-1 on the network's input data layers).
      - id: num_out_bufs
        type: s4
        doc: numOutBufs (-1 on the network's output data layers).
      - id: in_data
        type: data_params
        repeat: expr
        repeat-expr: 16
        doc: inData[TIDL_NUM_IN_BUFS].
      - id: out_data
        type: data_params
        repeat: expr
        repeat-expr: 16
        doc: outData[TIDL_NUM_OUT_BUFS].
      - id: core_id
        type: s4
      - id: layers_group_id
        type: s4
      - id: weights_element_size_in_bits
        type: s4
      - id: stride_offset_method
        type: s4
        if: api >= 13
        doc: strideOffsetMethod (TIDL-API 1.3).
    instances:
      layer_params:
        pos: 0
        size: 200
        type:
          switch-on: layer_type
          cases:
            'tidl_enums::layer_type_tda2::convolution_layer': conv_params
            'tidl_enums::layer_type_tda2::pooling_layer': pooling_params
            'tidl_enums::layer_type_tda2::relu_layer': relu_params
            'tidl_enums::layer_type_tda2::prelu_layer': relu_params
            'tidl_enums::layer_type_tda2::eltwise_layer': eltwise_params
            'tidl_enums::layer_type_tda2::inner_product_layer': inner_product_params
            'tidl_enums::layer_type_tda2::softmax_layer': softmax_params
            'tidl_enums::layer_type_tda2::batch_norm_layer': batch_norm_params
            'tidl_enums::layer_type_tda2::bias_layer': bias_params
            'tidl_enums::layer_type_tda2::deconv2d_layer': conv_params
            'tidl_enums::layer_type_tda2::concat_layer': concat_params
            'tidl_enums::layer_type_tda2::crop_layer': crop_params
            'tidl_enums::layer_type_tda2::argmax_layer': arg_max_params
            'tidl_enums::layer_type_tda2::detection_output_layer': detect_output_params
        doc: layerParams decoded by layerType (other types keep the raw bytes).
  relu_params:
    doc: sTIDL_ReLUParams_t (40 bytes).
    seq:
      - id: slope
        type: s_buffer
      - id: num_channels
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: slope_q
        type: s4
      - id: zero_slope_value
        type: s4
      - id: relu_type
        type: s4
        doc: reluType (RelU 0, PRelU 1, RelU6 2).
  pooling_params:
    doc: sTIDL_PoolingParams_t (40 bytes).
    seq:
      - id: num_channels
        type: s4
      - id: pooling_type
        type: s4
        doc: poolingType (max 0, average 1).
      - id: kernel_w
        type: s4
      - id: kernel_h
        type: s4
      - id: stride_w
        type: s4
      - id: stride_h
        type: s4
      - id: pad_w
        type: s4
      - id: pad_h
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
  conv_params:
    doc: sTIDL_ConvParams_t (200 bytes).
    seq:
      - id: weights
        type: s_buffer
      - id: bias
        type: s_buffer
      - id: convolution_type
        type: s4
      - id: num_in_channels
        type: s4
      - id: num_out_channels
        type: s4
      - id: num_groups
        type: s4
      - id: kernel_w
        type: s4
      - id: kernel_h
        type: s4
      - id: stride_w
        type: s4
      - id: stride_h
        type: s4
      - id: dilation_w
        type: s4
      - id: dilation_h
        type: s4
      - id: pad_w
        type: s4
      - id: pad_h
        type: s4
      - id: weights_q
        type: s4
      - id: zero_weight_value
        type: s4
      - id: bias_q
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: inter_data_q
        type: s4
      - id: enable_bias
        type: s4
      - id: enable_pooling
        type: s4
      - id: enable_relu
        type: s4
      - id: kernel_type
        type: s4
      - id: pool_params
        type: pooling_params
      - id: relu_params
        type: relu_params
  eltwise_params:
    doc: sTIDL_EltWiseParams_t (144 bytes).
    seq:
      - id: bias
        type: s_buffer
      - id: num_channels
        type: s4
      - id: elt_wise_type
        type: s4
        doc: eltWiseType (product 0, sum 1, max 2).
      - id: num_in_data
        type: s4
      - id: bias_q
        type: s4
      - id: in_data_q
        type: s4
        repeat: expr
        repeat-expr: 16
      - id: out_data_q
        type: s4
      - id: enable_relu
        type: s4
      - id: relu_params
        type: relu_params
  inner_product_params:
    doc: sTIDL_InnerProductParams_t (112 bytes).
    seq:
      - id: weights
        type: s_buffer
      - id: bias
        type: s_buffer
      - id: activation_type
        type: s4
      - id: num_in_nodes
        type: s4
      - id: num_out_nodes
        type: s4
      - id: weights_q
        type: s4
      - id: zero_weight_value
        type: s4
      - id: bias_q
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: inter_data_q
        type: s4
      - id: enable_relu
        type: s4
      - id: relu_params
        type: relu_params
  softmax_params:
    doc: sTIDL_SoftMaxParams_t.
    seq:
      - id: num_channels
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
  batch_norm_params:
    doc: sTIDL_BatchNormParams_t (100 bytes).
    seq:
      - id: weights
        type: s_buffer
      - id: bias
        type: s_buffer
      - id: num_channels
        type: s4
      - id: bias_q
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: weights_q
        type: s4
      - id: zero_weight_value
        type: s4
      - id: enable_relu
        type: s4
      - id: relu_params
        type: relu_params
  bias_params:
    doc: sTIDL_BiasParams_t (32 bytes).
    seq:
      - id: bias
        type: s_buffer
      - id: num_channels
        type: s4
      - id: bias_q
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
  concat_params:
    doc: sTIDL_ConcatParams_t.
    seq:
      - id: axis
        type: s4
      - id: out_data_q
        type: s4
  crop_params:
    doc: sTIDL_CropParams_t.
    seq:
      - id: num_channels
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: offset_w
        type: s4
      - id: offset_h
        type: s4
  arg_max_params:
    doc: sTIDL_ArgMaxParams_t.
    seq:
      - id: num_channels
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
  detect_output_params:
    doc: sTIDL_DetectOutputParams_t (60 bytes).
    seq:
      - id: prior_box
        type: s_buffer
      - id: prior_box_size
        type: s4
      - id: num_classes
        type: s4
      - id: background_label_id
        type: s4
      - id: code_type
        type: s4
      - id: conf_threshold
        type: f4
      - id: nms_threshold
        type: f4
      - id: eta
        type: f4
      - id: top_k
        type: s4
      - id: keep_top_k
        type: s4
      - id: share_location
        type: s4
      - id: variance_encoded
        type: s4
