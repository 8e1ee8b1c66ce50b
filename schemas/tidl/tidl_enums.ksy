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
  layer_type_tda2:
    0:
      id: data_layer
      doc: TIDL_DataLayer
    1:
      id: convolution_layer
      doc: TIDL_ConvolutionLayer
    2:
      id: pooling_layer
      doc: TIDL_PoolingLayer
    3:
      id: relu_layer
      doc: TIDL_ReLULayer
    4:
      id: prelu_layer
      doc: TIDL_PReLULayer
    5:
      id: eltwise_layer
      doc: TIDL_EltWiseLayer
    6:
      id: inner_product_layer
      doc: TIDL_InnerProductLayer
    7:
      id: softmax_layer
      doc: TIDL_SoftMaxLayer
    8:
      id: batch_norm_layer
      doc: TIDL_BatchNormLayer
    9:
      id: bias_layer
      doc: TIDL_BiasLayer
    10:
      id: scale_layer
      doc: TIDL_ScaleLayer
    11:
      id: deconv2d_layer
      doc: TIDL_Deconv2DLayer
    12:
      id: concat_layer
      doc: TIDL_ConcatLayer
    13:
      id: split_layer
      doc: TIDL_SplitLayer
    14:
      id: slice_layer
      doc: TIDL_SliceLayer
    15:
      id: crop_layer
      doc: TIDL_CropLayer
    16:
      id: flatten_layer
      doc: TIDL_FlattenLayer
    17:
      id: dropout_layer
      doc: TIDL_DropOutLayer
    18:
      id: argmax_layer
      doc: TIDL_ArgMaxLayer
    19:
      id: detection_output_layer
      doc: TIDL_DetectionOutputLayer
    255:
      id: unsupported_layer
      doc: TIDL_UnSuportedLayer
  layer_type_j7_08:
    0:
      id: data_layer
      doc: TIDL_DataLayer
    1:
      id: convolution_layer
      doc: TIDL_ConvolutionLayer
    2:
      id: pooling_layer
      doc: TIDL_PoolingLayer
    3:
      id: relu_layer
      doc: TIDL_ReLULayer
    4:
      id: prelu_layer
      doc: TIDL_PReLULayer
    5:
      id: eltwise_layer
      doc: TIDL_EltWiseLayer
    6:
      id: inner_product_layer
      doc: TIDL_InnerProductLayer
    7:
      id: softmax_layer
      doc: TIDL_SoftMaxLayer
    8:
      id: batch_norm_layer
      doc: TIDL_BatchNormLayer
    9:
      id: bias_layer
      doc: TIDL_BiasLayer
    10:
      id: scale_layer
      doc: TIDL_ScaleLayer
    11:
      id: deconv2d_layer
      doc: TIDL_Deconv2DLayer
    12:
      id: concat_layer
      doc: TIDL_ConcatLayer
    13:
      id: split_layer
      doc: TIDL_SplitLayer
    14:
      id: slice_layer
      doc: TIDL_SliceLayer
    15:
      id: crop_layer
      doc: TIDL_CropLayer
    16:
      id: flatten_layer
      doc: TIDL_FlattenLayer
    17:
      id: dropout_layer
      doc: TIDL_DropOutLayer
    18:
      id: argmax_layer
      doc: TIDL_ArgMaxLayer
    19:
      id: detection_output_layer
      doc: TIDL_DetectionOutputLayer
    20:
      id: shuffle_channel_layer
      doc: TIDL_ShuffleChannelLayer
    21:
      id: resize_layer
      doc: TIDL_ResizeLayer
    22:
      id: roi_pooling_layer
      doc: TIDL_RoiPoolingLayer
    23:
      id: od_post_processing_layer
      doc: TIDL_OdPostProcessingLayer
    24:
      id: depth_to_space_layer
      doc: TIDL_DepthToSpaceLayer
    25:
      id: sigmoid_layer
      doc: TIDL_SigmoidLayer
    26:
      id: pad_layer
      doc: TIDL_PadLayer
    27:
      id: color_conversion_layer
      doc: TIDL_ColorConversionLayer
    28:
      id: od_output_reformat_layer
      doc: TIDL_OdOutputReformatLayer
    29:
      id: data_convert_layer
      doc: TIDL_DataConvertLayer
    30:
      id: custom_layer
      doc: TIDL_CustomLayer
    31:
      id: batch_reshape_layer
      doc: TIDL_BatchReshapeLayer
    32:
      id: reduce_layer
      doc: TIDL_ReduceLayer
    33:
      id: scatter_elements_layer
      doc: TIDL_ScatterElementsLayer
    34:
      id: squeeze_layer
      doc: TIDL_SqueezeLayer
    35:
      id: tanh_layer
      doc: TIDL_TanhLayer
    36:
      id: hard_sigmoid_layer
      doc: TIDL_HardSigmoidLayer
    37:
      id: elu_layer
      doc: TIDL_ELULayer
    38:
      id: reshape_layer
      doc: TIDL_ReshapeLayer
    39:
      id: const_data_layer
      doc: TIDL_ConstDataLayer
    40:
      id: unsupported_layer
      doc: TIDL_UnsupportedLayer
  layer_type_j7_09:
    0:
      id: data_layer
      doc: TIDL_DataLayer
    1:
      id: convolution_layer
      doc: TIDL_ConvolutionLayer
    2:
      id: pooling_layer
      doc: TIDL_PoolingLayer
    3:
      id: relu_layer
      doc: TIDL_ReLULayer
    4:
      id: prelu_layer
      doc: TIDL_PReLULayer
    5:
      id: eltwise_layer
      doc: TIDL_EltWiseLayer
    6:
      id: inner_product_layer
      doc: TIDL_InnerProductLayer
    7:
      id: softmax_layer
      doc: TIDL_SoftMaxLayer
    8:
      id: batch_norm_layer
      doc: TIDL_BatchNormLayer
    9:
      id: bias_layer
      doc: TIDL_BiasLayer
    10:
      id: scale_layer
      doc: TIDL_ScaleLayer
    11:
      id: deconv2d_layer
      doc: TIDL_Deconv2DLayer
    12:
      id: concat_layer
      doc: TIDL_ConcatLayer
    13:
      id: split_layer
      doc: TIDL_SplitLayer
    14:
      id: slice_layer
      doc: TIDL_SliceLayer
    15:
      id: crop_layer
      doc: TIDL_CropLayer
    16:
      id: flatten_layer
      doc: TIDL_FlattenLayer
    17:
      id: dropout_layer
      doc: TIDL_DropOutLayer
    18:
      id: argmax_layer
      doc: TIDL_ArgMaxLayer
    19:
      id: detection_output_layer
      doc: TIDL_DetectionOutputLayer
    20:
      id: shuffle_channel_layer
      doc: TIDL_ShuffleChannelLayer
    21:
      id: resize_layer
      doc: TIDL_ResizeLayer
    22:
      id: roi_pooling_layer
      doc: TIDL_RoiPoolingLayer
    23:
      id: od_post_processing_layer
      doc: TIDL_OdPostProcessingLayer
    24:
      id: depth_to_space_layer
      doc: TIDL_DepthToSpaceLayer
    25:
      id: sigmoid_layer
      doc: TIDL_SigmoidLayer
    26:
      id: pad_layer
      doc: TIDL_PadLayer
    27:
      id: color_conversion_layer
      doc: TIDL_ColorConversionLayer
    28:
      id: od_output_reformat_layer
      doc: TIDL_OdOutputReformatLayer
    29:
      id: data_convert_layer
      doc: TIDL_DataConvertLayer
    30:
      id: custom_layer
      doc: TIDL_CustomLayer
    31:
      id: batch_reshape_layer
      doc: TIDL_BatchReshapeLayer
    32:
      id: reduce_layer
      doc: TIDL_ReduceLayer
    33:
      id: scatter_elements_layer
      doc: TIDL_ScatterElementsLayer
    34:
      id: squeeze_layer
      doc: TIDL_SqueezeLayer
    35:
      id: tanh_layer
      doc: TIDL_TanhLayer
    36:
      id: hard_sigmoid_layer
      doc: TIDL_HardSigmoidLayer
    37:
      id: elu_layer
      doc: TIDL_ELULayer
    38:
      id: reshape_layer
      doc: TIDL_ReshapeLayer
    39:
      id: const_data_layer
      doc: TIDL_ConstDataLayer
    40:
      id: gather_layer
      doc: TIDL_GatherLayer
    41:
      id: transpose_layer
      doc: TIDL_TransposeLayer
    42:
      id: layer_norm_layer
      doc: TIDL_LayerNormLayer
    43:
      id: unsupported_layer
      doc: TIDL_UnsupportedLayer
