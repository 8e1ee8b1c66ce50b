meta:
  id: tidl_net_j7
  title: TIDL sTIDL_Network_t, J7 TIDL 8.2, 08.06, 9.0/9.1, 09.02, 10.01 and 11.02 (the *_tidl_net.bin file)
  file-extension: bin
  endian: le
  imports:
    - tidl_enums
doc: |
  The network file the J7 TIDL import tool writes as `<subgraph>_tidl_net.bin`: the
  sTIDL_Network_t header, then only numLayers layers (not all TIDL_NUM_MAX_LAYERS slots), padded
  to 64 bytes; then (08.06 and later) a compiler block; then the layer parameters (weights,
  biases, scales), whose absolute file offsets the layers store. One declaration serves six
  generations through the param `gen` (and, from 10.01 on, the SoC's core count `cores`):
  82 = 8.2 (netVersion 0x20211201; layout inferred from real files and TI's netLog: 80-byte
  header, 4,532-byte layers with 16 in/out data params each, 92-byte data params without
  tensorZeroPoint);
  86 = 08.06 (netVersion 0x20230208, from the 08.06 header, LP64: 136-byte header, 1,792-byte layers);
  90 = 9.0/9.1 (netVersion 0x20230802; inferred from the real east-mobilenet and fcnn-cnn5 nets
  of j7-09.x with TI's netLog, layer_info and paramDebug: the 09.02 header (160 bytes), 1,800-byte
  layers = a 1,540-byte union, layerKernelType, 100-byte data params that have tensorType but
  still 4 dims and 3 pitches, padding before inDataPtr, no multiCoreMode / scratchMemRequired;
  numLayers x 1,800 + 160, 64-aligned, equals netBufInfo[0].size in both files);
  92 = 09.02 (netVersion 0x20240401, from the 09.02 header, LP64: 160-byte header, 1,824-byte layers);
  101 = 10.01 (netVersion 0x20241120; inferred from the real ow-tiny net of j7-10.01, a known
  one-convolution model: 09.02's 1,824-byte layers and conv params unchanged; the header grows to
  176 bytes with isGCInfoAvailable, padding before netBufInfo, originalGcBufInfoOffset and one
  netInitBackupDataOffset, names from TI's 10.x runtime and import code, positions from the file;
  the 11.02 header names the same bytes for one core, see 112: the word at 72 is
  netInitBackupDataOffset[0], the 4 bytes at 172 compiler padding);
  112 = 11.02 (netVersion 0x20251208, TIDL tools 11_02_04_00, Processor SDK 12.00), from TI's own
  itidl_ti.h through `binparse schema from-header` (schemas/tidl/from_header/, test_tidl_11.py
  proves this declaration equal to them): netInitBackupDataOffset[TIDL_MAX_NUM_CORES] makes the
  header depend on the SoC (layers at 176 for 1 and 2 cores, 184 for 4), and sTIDL_ActParams_t
  grew by alpha and the LUT params (20 -> 44 bytes), so a layer is 1,848 bytes; the inner-product
  params gained numBChannels, the eltwise, concat and detection-output params trailing fields;
  113 = 11.02.12 (netVersion 0x20260423, tools 11_02_12_00), from that header
  (TexasInstruments/Processor-SDK-TDA): 11.02's network and layer, the data params ending in
  dynDimMask (a byte, padded: 120 bytes), so the layer pointer moves to 1,824 and a layer is 1,856
  bytes; the union stays 1,544 bytes (its largest member, sTIDL_ScatterElementsParams_t, is unchanged;
  the new LSTM, GRU, RNN, RMSNorm, Tile and LogicalOp members are smaller).
  Layer types are numbered as in tidl_enums::layer_type_j7_08 (8.2, 08.06) or
  tidl_enums::layer_type_j7_09 (9.0 and later; the real 9.x / 10.01 files use only types 0-29,
  which both numberings share).
doc-ref: TI itidl_ti.h (PSDK-RTOS j721e 08_06, J7 09.02); tidl_import_common.cpp (08.06) TIDL_writeModel; real files in shared/real/tidl/j7-09.x and j7-10.01
params:
  - id: gen
    type: u1
    doc: Layout generation, 82 (8.2), 86 (08.06), 90 (9.0/9.1), 92 (09.02), 101 (10.01), 112 (11.02) or 113 (11.02.12).
  - id: cores
    type: u1
    doc: |
      TIDL_MAX_NUM_CORES the tools were built with (10.01 and 11.02): 1 (J721E, J721S2, AM62A),
      2 (J722S) or 4 (J784S4, J742S2). Earlier generations ignore it (1).
seq:
  - id: net_version
    type: u4
    -display: hex
    doc: netVersion. TIDL_NET_VERSION of the tools that wrote the file.
  - id: device_name
    type: s4
    doc: deviceName.
  - id: num_layers
    type: s4
    valid:
      min: 0
      max: 'gen >= 90 ? 1536 : 1024'
    doc: numLayers. Layers stored in this file (at most TIDL_NUM_MAX_LAYERS; 1536 from 09.02 on, assumed for 9.0 and 10.01).
  - id: weights_element_size
    type: s4
    doc: weightsElementSize. Bytes per weight.
  - id: slope_element_size
    type: s4
    doc: slopeElementSize.
  - id: bias_element_size
    type: s4
    doc: biasElementSize.
  - id: data_element_size
    type: s4
    doc: dataElementSize.
  - id: inter_element_size
    type: s4
    doc: interElementSize.
  - id: quantization_style
    type: s4
    doc: quantizationStyle (eTIDL_quantStyle).
  - id: calibration_option
    type: s4
    doc: calibrationOption.
  - id: calibration_params
    type: calib_params
    doc: calibrationParams.
  - id: data_flow_info
    type: s4
    doc: dataFlowInfo.
  - id: is_gc_info_available
    type: s4
    if: gen >= 100
    doc: |
      isGCInfoAvailable (10.x; inferred position: ow-tiny holds 1 here and has a GC block; TI's 10.x
      runtime reads the GC block at originalGcBufInfoOffset when this is non-zero).
  - id: graph_compiler_info_offset
    type: s4
    if: gen >= 90 and gen < 100
    doc: graphCompilerInfoOffset (09.02 header; in 9.0/9.1 files it equals netBufInfo[3].offset).
  - id: net_init_backup_data_offset
    type: s4
    repeat: expr
    repeat-expr: cores
    if: gen >= 100
    doc: |
      netInitBackupDataOffset[TIDL_MAX_NUM_CORES] (11.02 header; 10.01 read the same way, one core:
      0 in ow-tiny, 0 = no backup).
  - id: is_quant_stats_available
    type: s4
    doc: isQuantStatsAvailable.
  - id: pre_empt_worst_case_delay
    type: f4
    doc: preEmptWorstCaseDelay.
  - id: reserved
    type: s4
    doc: reserved.
  - id: model_group_id
    type: s4
    if: gen >= 86
    doc: modelGroupId (08.06 and later).
  - id: inference_mode
    type: s4
    enum: tidl_enums::inference_mode
    if: gen >= 90
    doc: inferenceMode (09.02 header; 9.0/9.1 and 10.01 at the same place relative to modelGroupId).
  - id: num_cores
    type: s4
    if: gen >= 90
    doc: numCores (09.02 header; 1 in the real 9.x and 10.01 files).
  - id: align_pad
    size: 4
    if: gen == 86 or (gen >= 100 and cores == 1)
    doc: Compiler padding before netBufInfo, whose pointer member aligns it to 8 bytes (LP64; none for 2 and 4 cores).
  - id: net_buf_info
    type: sys_mem_handle
    repeat: expr
    repeat-expr: 'gen >= 90 ? 4 : 3'
    if: gen >= 86
    doc: |
      netBufInfo[TIDL_NET_TOTAL_BUF] (08.06 and later): structure, params, compiler, (9.x+) GC
      block. In the real 9.x/10.01 files [0].size = the 64-aligned header + layers and [1]
      ends at the end of the file.
  - id: original_gc_buf_info_offset
    type: s4
    if: gen >= 100
    doc: originalGcBufInfoOffset (10.x import code; inferred position, equals netBufInfo[3].offset in ow-tiny).
  - id: end_pad
    size: 4
    if: gen >= 100
    doc: Compiler padding to the 8-byte alignment of the layers (11.02 header; 0 in ow-tiny).
  - id: layers
    type: layer(gen)
    size: 'gen >= 113 ? 1856 : gen >= 112 ? 1848 : gen >= 92 ? 1824 : gen == 90 ? 1800 : gen == 86 ? 1792 : 4532'
    repeat: expr
    repeat-expr: num_layers
    doc: TIDLLayers[numLayers]. Only the used layers are stored.
types:
  calib_params:
    doc: sTIDL_CalibParams_t (24 bytes).
    seq:
      - id: activation_range_method
        type: s4
      - id: weight_range_method
        type: s4
      - id: percentile_act_range_shrink
        type: f4
      - id: percentile_wt_range_shrink
        type: f4
      - id: bias_calibration_factor
        type: f4
      - id: bias_calibration_iterations
        type: s4
  sys_mem_handle:
    doc: sTIDL_sysMemHandle_t (16 bytes on LP64).
    seq:
      - id: base
        type: u8
        doc: base (a pointer at run time).
      - id: size
        type: s4
      - id: offset
        type: s4
  act_params:
    doc: sTIDL_ActParams_t (20 bytes; 44 in 11.02 with alpha and the LUT params).
    params:
      - id: gen
        type: u1
    seq:
      - id: slope
        type: s4
        doc: slope. File offset of the PReLU slopes.
      - id: slope_scale
        type: f4
      - id: clip_min
        type: f4
      - id: clip_max
        type: f4
      - id: act_type
        type: s4
        doc: actType (TIDL_NoAct 0, RelU 1, PRelU 2, RelU6 3, Clip 4, Sigmoid 5, Tanh 6, HardSigmoid 7, ELU 8, GELU 9).
      - id: alpha
        type: f4
        if: gen >= 112
        doc: alpha (11.02; the swish operator's scale).
      - id: lut_factor_b
        type: s4
        if: gen >= 112
        doc: lutParams.factorB (11.02, sTIDL_NonLinearActivation_LUT_t).
      - id: lut_factor_c
        type: s4
        if: gen >= 112
        doc: lutParams.factorC.
      - id: lut_offset
        type: s4
        if: gen >= 112
        doc: lutParams.lutoffset. File offset of the LUT table.
      - id: lut_buf_size
        type: s4
        if: gen >= 112
        doc: lutParams.lutBufSize.
      - id: non_linear_act_method
        type: s4
        if: gen >= 112
        doc: lutParams.nonLinearActMethod.
  data_params:
    doc: sTIDL_DataParams_t (8.2 92 bytes, 08.06 96, 9.0/9.1 100, 09.02 and 10.01 116).
    params:
      - id: gen
        type: u1
    seq:
      - id: data_id
        type: s4
        doc: dataId. Id of the data buffer (the netLog's buffer id).
      - id: element_type
        type: s4
        enum: tidl_enums::element_type
        doc: elementType.
      - id: num_dim
        type: s4
        doc: numDim.
      - id: data_q
        type: s4
      - id: min_value
        type: s4
      - id: max_value
        type: s4
      - id: min_tensor_value
        type: f4
      - id: max_tensor_value
        type: f4
      - id: tensor_scale
        type: f4
        doc: tensorScale.
      - id: tensor_zero_point
        type: s4
        if: gen >= 86
        doc: tensorZeroPoint (08.06 and later; absent in 8.2).
      - id: tensor_type
        type: s4
        if: gen >= 90
        doc: |
          tensorType, symmetric 0 / asymmetric 1 (09.02 header; in 9.0/9.1 inferred: padW/padH
          sit one int32 after tensorZeroPoint, e.g. 1, 1 on fcnn-cnn5's padded data convert).
      - id: pad_w
        type: s4
      - id: pad_h
        type: s4
      - id: batch_pad_w
        type: s4
      - id: batch_pad_h
        type: s4
      - id: num_batch_w
        type: s4
      - id: num_batch_h
        type: s4
      - id: round_bits
        type: s4
      - id: pitch
        type: s4
        repeat: expr
        repeat-expr: 'gen >= 92 ? 5 : 3'
        doc: |
          pitch[TIDL_PITCH_MAX]. ROI, (DIM1, DIM2,) channel, line pitches (9.0/9.1: three, e.g.
          281920, 56384, 320 for east-mobilenet's 1x5x176x320 concat).
      - id: dim_values
        type: s4
        repeat: expr
        repeat-expr: 'gen >= 92 ? 6 : 4'
        doc: |
          dimValues[TIDL_DIM_MAX]. N, C, H, W (09.02 and 10.01: N, DIM1, DIM2, C, H, W; 9.0/9.1 still
          N, C, H, W: the netLog's Out NCHW of every layer of both real 9.x nets).
      - id: dyn_dim_mask
        type: u1
        if: gen >= 113
        doc: dynDimMask (11.02.12). Bits of the dimValues that may change at run time.
      - id: dyn_dim_pad
        size: 3
        if: gen >= 113
        doc: Compiler padding to the struct's 4-byte alignment.
  layer:
    doc: sTIDL_Layer_t (8.2 4,532 bytes, 08.06 1,792, 9.0/9.1 1,800, 09.02 and 10.01 1,824, 11.02 1,848).
    params:
      - id: gen
        type: u1
    seq:
      - id: layer_params_raw
        size: 'gen >= 92 ? 1544 : 1540'
        doc: |
          (9.0/9.1: 1,540 bytes, inferred: actParams.actType = 1 of the ReLU convolutions lies at
          +1556.) layerParams, the sTIDL_LayerParams_t union as raw bytes (decoded by the instance layer_params).
      - id: act_params
        type: act_params(gen)
        doc: actParams.
      - id: layer_type
        type: s4
        doc: layerType (numbering per generation, see tidl_enums).
      - id: layer_kernel_type
        type: s4
        if: gen >= 90
        doc: layerKernelType (09.02 header; 9.0/9.1 inferred, 1 on every layer of the real files).
      - id: num_in_bufs
        type: s4
        doc: numInBufs (-1 on the network's input data layers).
      - id: num_out_bufs
        type: s4
        doc: numOutBufs (-1 on the network's output data layers).
      - id: in_data_params
        type: data_params(gen)
        repeat: expr
        repeat-expr: 16
        if: gen == 82
        doc: inData[16] as full data params (8.2).
      - id: out_data_params
        type: data_params(gen)
        repeat: expr
        repeat-expr: 16
        if: gen == 82
        doc: outData[16] (8.2).
      - id: in_data
        type: s4
        repeat: expr
        repeat-expr: 24
        if: gen >= 86
        doc: inData[TIDL_NUM_IN_BUFS]. Data ids of the inputs (08.06 and later).
      - id: out_data
        type: data_params(gen)
        if: gen >= 86
        doc: outData. The output's data params (08.06 and later).
      - id: ptr_pad
        size: 4
        if: gen == 86 or gen == 90 or gen >= 113
        doc: Compiler padding before the pointer (LP64).
      - id: in_data_ptr
        type: u8
        if: gen >= 86
        doc: inDataPtr (a pointer at run time).
      - id: core_id
        type: s4
      - id: layers_group_id
        type: s4
      - id: weights_element_size_in_bits
        type: s4
        doc: weightsElementSizeInBits.
      - id: stride_offset_method
        type: s4
      - id: multi_core_mode
        type: s4
        if: gen >= 92
        doc: multiCoreMode (09.02; absent in 9.0/9.1, whose layers end 24 bytes earlier).
      - id: scratch_mem_required
        type: s4
        if: gen >= 92
        doc: scratchMemRequired (09.02).
    instances:
      layer_params:
        pos: 0
        size: 'gen >= 92 ? 1544 : 1540'
        type:
          switch-on: layer_type
          cases:
            1: conv_params(gen)
            2: pooling_params(gen)
            5: eltwise_params(gen)
            6: inner_product_params(gen)
            7: softmax_params(gen)
            8: batch_norm_params
            11: conv_params(gen)
            12: concat_params
            15: crop_params(gen)
            18: arg_max_params
            19: detect_output_params
            29: data_convert_params(gen)
        doc: layerParams. The sTIDL_LayerParams_t union, decoded by layerType (other types keep the raw bytes).
  pooling_params:
    doc: |
      sTIDL_PoolingParams_t (08.06 44 bytes, 09.02 and 10.01 64; 8.2 assumed as 08.06; 9.0/9.1 60,
      inferred: the conv params' minPSAT = -1 lies 4 bytes before its 09.02 place in fcnn-cnn5,
      taken as 09.02 without its last field avgDims).
    params:
      - id: gen
        type: u1
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
      - id: pad_t
        type: s4
        if: gen >= 90
      - id: pad_b
        type: s4
        if: gen >= 90
      - id: pad_l
        type: s4
        if: gen >= 90
      - id: pad_r
        type: s4
        if: gen >= 90
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: use_ceil
        type: s4
      - id: avg_dims
        type: s4
        if: gen >= 92
  conv_params:
    doc: |
      sTIDL_ConvParams_t. weights, bias, weightScales, ... are absolute file offsets of the
      parameters. 8.2: only the prefix up to enableBias is known (inferred from real files).
      9.0/9.1 and 10.01: 09.02's order (derivedBias, derivedScales, derivedShifts present),
      inferred from the real files: numInChannels at +44, numOutChannels, kernel, pads and
      enableBias of fcnn-cnn5's four convolutions and ow-tiny's one match the netLog / the
      known model; minPSAT = maxPSAT = -1 right after the pooling params.
    params:
      - id: gen
        type: u1
    seq:
      - id: weights
        type: s4
        doc: weights. File offset of the weights.
      - id: bias
        type: s4
        doc: bias. File offset of the biases.
      - id: weight_scales
        type: s4
        if: gen >= 86
      - id: weight_zero_points
        type: s4
        if: gen >= 86
      - id: bias_scales
        type: s4
        if: gen >= 86
      - id: bias_zero_points
        type: s4
        if: gen >= 86
      - id: derived_bias
        type: s4
        if: gen >= 90
      - id: derived_scales
        type: s4
        if: gen >= 90
      - id: derived_shifts
        type: s4
        if: gen >= 90
      - id: per_channel_weight_scale_offset
        type: s4
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
      - id: pad_l
        type: s4
        if: gen >= 86
      - id: pad_r
        type: s4
        if: gen >= 86
      - id: pad_t
        type: s4
        if: gen >= 86
      - id: pad_b
        type: s4
        if: gen >= 86
      - id: weight_scale
        type: f4
      - id: bias_scale
        type: f4
      - id: weights_q
        type: s4
      - id: zero_weight_value
        type: s4
      - id: bias_b
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
        if: gen >= 86
      - id: enable_elt_wise
        type: s4
        if: gen >= 86
      - id: enable_ew_relu
        type: s4
        if: gen >= 86
      - id: kernel_type
        type: s4
        if: gen >= 86
      - id: enable_depth_to_space
        type: s4
        if: gen >= 86
      - id: upscale_factor
        type: s4
        if: gen >= 86
      - id: pool_params
        type: pooling_params(gen)
        if: gen >= 86
      - id: min_psat
        type: s4
        if: gen >= 86
      - id: max_psat
        type: s4
        if: gen >= 86
      - id: quantization_style
        type: s4
        if: gen >= 86
  eltwise_params:
    doc: sTIDL_EltWiseParams_t (08.06 128 bytes, 09.02 and 10.01 132; 8.2 with 16 inDataQ, inferred; 9.0/9.1 assumed as 09.02, no such layer in the real 9.x files).
    params:
      - id: gen
        type: u1
    seq:
      - id: bias
        type: s4
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
        repeat-expr: 'gen >= 86 ? 24 : 16'
      - id: out_data_q
        type: s4
      - id: mma_scale
        type: u1
      - id: mma_shift
        type: u1
      - id: align_pad
        size: 2
      - id: bias_term
        type: s4
      - id: is_broadcast
        type: s4
        if: gen >= 90
  inner_product_params:
    doc: sTIDL_InnerProductParams_t (08.06 56 bytes, 09.02 and 10.01 108; 9.0/9.1 assumed as 09.02, no such layer in the real 9.x files).
    params:
      - id: gen
        type: u1
    seq:
      - id: weights
        type: s4
        doc: weights. File offset of the weights.
      - id: bias
        type: s4
        doc: bias. File offset of the biases.
      - id: weight_scales
        type: s4
        if: gen >= 90
      - id: weight_zero_points
        type: s4
        if: gen >= 90
      - id: bias_scales
        type: s4
        if: gen >= 90
      - id: bias_zero_points
        type: s4
        if: gen >= 90
      - id: derived_bias
        type: s4
        if: gen >= 90
      - id: derived_scales
        type: s4
        if: gen >= 90
      - id: derived_shifts
        type: s4
        if: gen >= 90
      - id: activation_type
        type: s4
      - id: num_in_nodes
        type: s4
        if: gen < 90
      - id: num_out_nodes
        type: s4
        if: gen < 90
      - id: num_batches
        type: s4
        if: gen >= 90
      - id: num_in_rows
        type: s4
        if: gen >= 90
      - id: num_in_cols
        type: s4
        if: gen >= 90
      - id: num_out_cols
        type: s4
        if: gen >= 90
      - id: num_b_channels
        type: s4
        if: gen >= 112
        doc: numBChannels (11.02).
      - id: weights_q
        type: s4
      - id: weight_scale
        type: f4
      - id: bias_scale
        type: f4
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
      - id: bias_b
        type: s4
      - id: is_bias
        type: s4
        if: gen >= 90
      - id: input_a_transpose
        type: s4
        if: gen >= 90
      - id: input_b_transpose
        type: s4
        if: gen >= 90
      - id: const_idx
        type: s4
        if: gen >= 90
  softmax_params:
    doc: sTIDL_SoftMaxParams_t (axis, outTranspose from 09.02; 9.0/9.1 assumed as 09.02, no such layer in the real 9.x files).
    params:
      - id: gen
        type: u1
    seq:
      - id: num_channels
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
      - id: axis
        type: s4
        if: gen >= 90
      - id: out_transpose
        type: s4
        if: gen >= 90
  batch_norm_params:
    doc: sTIDL_BatchNormParams_t (08.06, 40 bytes).
    seq:
      - id: weights
        type: s4
        doc: weights. File offset of the scales.
      - id: bias
        type: s4
        doc: bias. File offset of the biases.
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
      - id: weight_scale
        type: f4
      - id: bias_scale
        type: f4
      - id: zero_weight_value
        type: s4
  concat_params:
    doc: sTIDL_ConcatParams_t.
    seq:
      - id: axis
        type: s4
      - id: out_data_q
        type: s4
  crop_params:
    doc: sTIDL_CropParams_t (multiCoreMode from 09.02; 9.0/9.1 assumed as 09.02, no such layer in the real 9.x files).
    params:
      - id: gen
        type: u1
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
      - id: multi_core_mode
        type: s4
        if: gen >= 90
  arg_max_params:
    doc: sTIDL_ArgMaxParams_t.
    seq:
      - id: num_channels
        type: s4
      - id: in_data_q
        type: s4
      - id: out_data_q
        type: s4
  data_convert_params:
    doc: sTIDL_dataConvertParams_t (outLayout from 09.02; 9.0/9.1 assumed as 09.02; the real 9.x files hold only type, 0 input / 1 output).
    params:
      - id: gen
        type: u1
    seq:
      - id: type
        type: s4
        doc: type (TIDL_DC_TYPE_INPUT 0, OUTPUT 1, INTERMEDIATE 2).
      - id: layout
        type: s4
        enum: tidl_enums::layout
      - id: out_layout
        type: s4
        enum: tidl_enums::layout
        if: gen >= 90
      - id: in_zero_point
        type: s4
      - id: out_zero_point
        type: s4
  detect_output_params:
    doc: sTIDL_DetectOutputParams_t (152 bytes).
    seq:
      - id: processing_type
        type: s4
      - id: prior_box
        type: s4
        doc: priorBox. File offset of the prior boxes.
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
      - id: top_k_all_classes
        type: s4
      - id: keep_top_k
        type: s4
      - id: share_location
        type: s4
      - id: variance_encoded
        type: s4
      - id: num_keypoints
        type: s4
      - id: keypoint_confidence
        type: s4
      - id: sub_code_type
        type: s4
      - id: camera_params
        type: f4
        repeat: expr
        repeat-expr: 4
        doc: subCodeParams.cameraParams (fX, fY, pX, pY).
      - id: num_heads
        type: s4
      - id: num_sub_heads
        type: s4
      - id: im_width
        type: s4
      - id: im_height
        type: s4
      - id: point3d_range
        type: f4
        repeat: expr
        repeat-expr: 6
        doc: point3dRange[3][2].
      - id: voxel_size
        type: f4
        repeat: expr
        repeat-expr: 3
      - id: max_points_per_voxel
        type: s4
      - id: score_converter
        type: s4
      - id: meta_arch_type
        type: s4
      - id: data_layout
        type: s4
