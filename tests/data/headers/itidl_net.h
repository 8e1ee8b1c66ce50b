/* sTIDL_Network_t and sTIDL_Layer_t of J7 08.06 (default) and 09.02 (TIDL_0902 defined), LP64,
   written out from facts/tidl.md §2.5 for the header-to-schema tests. */
#include <stdint.h>
#ifdef TIDL_0902
#define TIDL_NUM_MAX_LAYERS 1536
#define TIDL_DIM_MAX 6
#define TIDL_NET_TOTAL_BUF 4
#else
#define TIDL_NUM_MAX_LAYERS 1024
#define TIDL_DIM_MAX 4
#define TIDL_NET_TOTAL_BUF 3
#endif
#define TIDL_NUM_IN_BUFS 24
#define TIDL_NUM_OUT_BUFS 16
#define TIDL_STRING_SIZE 512
#define TIDL_PITCH_MAX (TIDL_DIM_MAX - 1)
typedef float float32_tidl;

typedef struct { void *base; int32_t size; int32_t offset; } sTIDL_sysMemHandle_t;
typedef sTIDL_sysMemHandle_t sTIDL_NetBuffer_t;

typedef struct {
  int32_t dataId; int32_t elementType; int32_t numDim; int32_t dataQ; int32_t minValue; int32_t maxValue;
  float32_tidl minTensorValue; float32_tidl maxTensorValue; float32_tidl tensorScale; int32_t tensorZeroPoint;
#ifdef TIDL_0902
  int32_t tensorType;
#endif
  int32_t padW; int32_t padH; int32_t batchPadW; int32_t batchPadH; int32_t numBatchW; int32_t numBatchH;
  int32_t roundBits; int32_t pitch[TIDL_PITCH_MAX]; int32_t dimValues[TIDL_DIM_MAX];
} sTIDL_DataParams_t;

typedef struct { int32_t numChannels; int32_t dataQ; } sTIDL_DataLayerParams_t;
typedef struct { int32_t numGroups; int32_t resvd; } sTIDL_ShuffleLayerParams_t;
typedef struct { int32_t blockSize; } sTIDL_DepthToSpaceParams_t;
typedef struct { int32_t padT, padB, padL, padR, padConstValue, padType, perChannelPadConstTensorOffset, perChannelPadConstTensorSize; } sTIDL_PadLayerParams_t;
typedef struct { int32_t layerType, inWidthOdNetwork, inHeightOdNetwork; } sTIDL_odOutputReformatLayerParams_t;
typedef struct { int32_t mode; float32_tidl resizeRatio[TIDL_DIM_MAX]; } sTIDL_ResizeLayerParams_t;
typedef struct { int32_t poolingType, imWidth, imHeight; } sTIDL_RoiPoolingLayerParams_t;
typedef struct { int32_t slicePoints[TIDL_NUM_OUT_BUFS + 1]; int32_t axis; int32_t stride; } sTIDL_SliceLayerParams_t;
typedef struct { int32_t slope; float32_tidl slopeScale; float32_tidl clipMin; float32_tidl clipMax; int32_t actType; } sTIDL_ActParams_t;
typedef struct { int32_t activationRangeMethod; int32_t weightRangeMethod; float32_tidl percentileActRangeShrink;
                 float32_tidl percentileWtRangeShrink; float32_tidl biasCalibrationFactor; int32_t biasCalibrationIterations; } sTIDL_CalibParams_t;
typedef struct { int32_t numChannels, inDataQ, outDataQ; } sTIDL_ArgMaxParams_t;
typedef struct { int32_t numChannels, poolingType, kernelW, kernelH, strideW, strideH, padW, padH,
#ifdef TIDL_0902
                 padT, padB, padL, padR,
#endif
                 inDataQ, outDataQ, useCeil;
#ifdef TIDL_0902
                 int32_t avgDims;
#endif
} sTIDL_PoolingParams_t;
typedef struct { int32_t customLayerType, padW, padH, memOverlapType, forceInPlace, doesLayerChangePadding,
                 doesLayerFillOutXPadding, rsvdPassThrough, rsvdPassThroughSize; } sTIDL_CustomParams_t;
typedef struct {
  int32_t weights; int32_t bias; int32_t weightScales; int32_t weightZeroPoints; int32_t biasScales; int32_t biasZeroPoints;
#ifdef TIDL_0902
  int32_t derivedBias; int32_t derivedScales; int32_t derivedShifts;
#endif
  int32_t perChannelWeightScaleOffset; int32_t convolutionType; int32_t numInChannels; int32_t numOutChannels;
  int32_t numGroups; int32_t kernelW; int32_t kernelH; int32_t strideW; int32_t strideH; int32_t dilationW;
  int32_t dilationH; int32_t padW; int32_t padH; int32_t padL; int32_t padR; int32_t padT; int32_t padB;
  float32_tidl weightScale; float32_tidl biasScale; int32_t weightsQ; int32_t zeroWeightValue; int32_t biasB;
  int32_t biasQ; int32_t inDataQ; int32_t outDataQ; int32_t interDataQ; int32_t enableBias; int32_t enablePooling;
  int32_t enableEltWise; int32_t enableEWRelU; int32_t kernelType; int32_t enableDepthToSpace; int32_t upscaleFactor;
  sTIDL_PoolingParams_t poolParams; int32_t minPSAT; int32_t maxPSAT; int32_t quantizationStyle;
} sTIDL_ConvParams_t;
typedef struct { float32_tidl fX, fY, pX, pY; } sTIDL_CameraIntrinsicsParams_t;
typedef union { sTIDL_CameraIntrinsicsParams_t cameraParams; } sTIDL_DetectionLayerSubCodeParams_t;
typedef struct {
  int32_t processingType; int32_t priorBox; int32_t priorBoxSize; int32_t numClasses; int32_t backgroundLabelId;
  int32_t codeType; float32_tidl confThreshold; float32_tidl nmsThreshold; float32_tidl eta; int32_t topK;
  int32_t topKAllClasses; int32_t keepTopK; int32_t shareLocation; int32_t varianceEncoded; int32_t numKeypoints;
  int32_t keypointConfidence; int32_t subCodeType; sTIDL_DetectionLayerSubCodeParams_t subCodeParams;
  int32_t numHeads; int32_t numSubHeads; int32_t imWidth; int32_t imHeight; float32_tidl point3dRange[3][2];
  float32_tidl voxelSize[3]; int32_t maxPointsPerVoxel; int32_t scoreConverter; int32_t metaArchType; int32_t dataLayout;
} sTIDL_DetectOutputParams_t;
typedef struct { int32_t axis; int32_t outDataQ; } sTIDL_ConcatParams_t;
typedef struct { int32_t weights, bias, numChannels, biasQ, inDataQ, outDataQ, weightsQ; float32_tidl weightScale;
                 float32_tidl biasScale; int32_t zeroWeightValue; } sTIDL_BatchNormParams_t;
typedef struct { int32_t bias, numChannels, biasQ, inDataQ, outDataQ; } sTIDL_BiasParams_t;
typedef struct {
#ifdef TIDL_0902
  int32_t weights, bias, weightScales, weightZeroPoints, biasScales, biasZeroPoints, derivedBias, derivedScales,
          derivedShifts, activationType, numBatches, numInRows, numInCols, numOutCols, weightsQ;
  float32_tidl weightScale; float32_tidl biasScale;
  int32_t zeroWeightValue, biasQ, inDataQ, outDataQ, interDataQ, biasB, isBias, inputATranspose, inputBTranspose, constIdx;
#else
  int32_t weights, bias, activationType, numInNodes, numOutNodes, weightsQ; float32_tidl weightScale;
  float32_tidl biasScale; int32_t zeroWeightValue, biasQ, inDataQ, outDataQ, interDataQ, biasB;
#endif
} sTIDL_InnerProductParams_t;
typedef struct { int32_t bias; int32_t numChannels; int32_t eltWiseType; int32_t numInData; int32_t biasQ;
                 int32_t inDataQ[TIDL_NUM_IN_BUFS]; int32_t outDataQ; uint8_t mmaScale; uint8_t mmaShift; int32_t biasTerm;
#ifdef TIDL_0902
                 int32_t isBroadcast;
#endif
} sTIDL_EltWiseParams_t;
typedef struct { int32_t numChannels, inDataQ, outDataQ;
#ifdef TIDL_0902
                 int32_t axis, outTranspose;
#endif
} sTIDL_SoftMaxParams_t;
typedef struct { int32_t numChannels, inDataQ, outDataQ, offsetW, offsetH;
#ifdef TIDL_0902
                 int32_t multiCoreMode;
#endif
} sTIDL_CropParams_t;
typedef struct { int32_t type, layout;
#ifdef TIDL_0902
                 int32_t outLayout;
#endif
                 int32_t inZeroPoint, outZeroPoint; } sTIDL_dataConvertParams_t;
typedef struct { int32_t axis, keepDims, ops; } sTIDL_ReduceParams_t;
typedef struct { int32_t axis; int8_t dataTensorName[TIDL_STRING_SIZE]; int8_t indicesTensorName[TIDL_STRING_SIZE];
                 int8_t updateTensorName[TIDL_STRING_SIZE];
#ifdef TIDL_0902
                 int32_t reduction;
#endif
} sTIDL_ScatterElementsParams_t;
typedef struct { int32_t offset; float32_tidl weightScale;
#ifdef TIDL_0902
                 int32_t isBroadcast;
#endif
} sTIDL_ConstDataParams_t;
#ifdef TIDL_0902
typedef struct { int32_t isDataConvertNeeded; int32_t perm[TIDL_DIM_MAX]; } sTIDL_TransposeParams_t;
typedef struct { int32_t axis; } sTIDL_GatherLayerParams_t;
typedef struct { int32_t axis; float32_tidl epsilon; } sTIDL_LayerNormParams_t;
#endif

typedef union {
  sTIDL_ConvParams_t convParams; sTIDL_EltWiseParams_t eltWiseParams; sTIDL_PoolingParams_t poolParams;
  sTIDL_InnerProductParams_t innerProductParams; sTIDL_DataLayerParams_t dataLayerParams;
  sTIDL_ArgMaxParams_t argMaxParams; sTIDL_SoftMaxParams_t softMaxParams; sTIDL_CropParams_t cropParams;
  sTIDL_ConcatParams_t concatParams; sTIDL_DetectOutputParams_t detectOutParams; sTIDL_BiasParams_t biasParams;
  sTIDL_BatchNormParams_t batchNormParams; sTIDL_ShuffleLayerParams_t shuffleLayerParams;
  sTIDL_SliceLayerParams_t sliceParams; sTIDL_ResizeLayerParams_t resizeParams;
  sTIDL_RoiPoolingLayerParams_t roiPoolingParams; sTIDL_DepthToSpaceParams_t depthToSpaceParams;
  sTIDL_PadLayerParams_t padLayerParams; sTIDL_odOutputReformatLayerParams_t odOutputReformatLayerParams;
  sTIDL_dataConvertParams_t dataConvertParams; sTIDL_CustomParams_t customParams; sTIDL_ReduceParams_t reduceParams;
  sTIDL_ScatterElementsParams_t scatterElementsParams; sTIDL_ConstDataParams_t constDataParams;
#ifdef TIDL_0902
  sTIDL_TransposeParams_t transposeParams; sTIDL_GatherLayerParams_t gatherParams; sTIDL_LayerNormParams_t layerNormParams;
#endif
} sTIDL_LayerParams_t;

typedef struct {
  sTIDL_LayerParams_t layerParams;
  sTIDL_ActParams_t actParams;
  int32_t layerType;
#ifdef TIDL_0902
  int32_t layerKernelType;
#endif
  int32_t numInBufs;
  int32_t numOutBufs;
  int32_t inData[TIDL_NUM_IN_BUFS];
  sTIDL_DataParams_t outData;
  sTIDL_DataParams_t *inDataPtr;
  int32_t coreID;
  int32_t layersGroupId;
  int32_t weightsElementSizeInBits;
  int32_t strideOffsetMethod;
#ifdef TIDL_0902
  int32_t multiCoreMode;
  int32_t scratchMemRequired;
#endif
} sTIDL_Layer_t;

typedef struct {
  int32_t netVersion; int32_t deviceName; int32_t numLayers; int32_t weightsElementSize; int32_t slopeElementSize;
  int32_t biasElementSize; int32_t dataElementSize; int32_t interElementSize; int32_t quantizationStyle;
  int32_t calibrationOption; sTIDL_CalibParams_t calibrationParams; int32_t dataFlowInfo;
#ifdef TIDL_0902
  int32_t graphCompilerInfoOffset;
#endif
  int32_t isQuantStatsAvailable; float32_tidl preEmptWorstCaseDelay; int32_t reserved; int32_t modelGroupId;
#ifdef TIDL_0902
  int32_t inferenceMode; int32_t numCores;
#endif
  sTIDL_NetBuffer_t netBufInfo[TIDL_NET_TOTAL_BUF];
  sTIDL_Layer_t TIDLLayers[TIDL_NUM_MAX_LAYERS];
} sTIDL_Network_t;
