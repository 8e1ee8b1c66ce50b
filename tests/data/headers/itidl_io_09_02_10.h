/* sTIDL_IOBufDesc_t of J7 09.02 (TIDL_IO_BUF_SIZES undefined) and 10.00-11.x (TIDL_IO_BUF_SIZES
   defined), with TIDL_MAX_NUM_CORES by SoC as in the 09.02 itidl_ti.h (facts/tidl.md §1.2(d), (e)). */
#include <stdint.h>
#if defined (SOC_J784S4)
#define TIDL_MAX_NUM_CORES (4)
#elif defined (SOC_J722S)
#define TIDL_MAX_NUM_CORES (2)
#else
#define TIDL_MAX_NUM_CORES (1)
#endif
#define TIDL_MAX_ALG_IN_BUFS  ((int32_t) 32)
#define TIDL_MAX_ALG_OUT_BUFS ((int32_t) 128)
#define TIDL_STRING_SIZE      ((int32_t) 512)
#define IN_N  (TIDL_MAX_NUM_CORES * TIDL_MAX_ALG_IN_BUFS)
#define OUT_N (TIDL_MAX_NUM_CORES * TIDL_MAX_ALG_OUT_BUFS)
typedef float float32_tidl;

typedef struct
{
  int32_t numInputBuf;
  int32_t numOutputBuf;
  int32_t numCores;
  int32_t numVirtualCores;
  int32_t numSuperBatches;
  int32_t inferenceMode;
  int32_t inDataFormat[IN_N];
  int32_t inResizeType[IN_N];
  int32_t resizeWidth[IN_N];
  int32_t resizeHeight[IN_N];
  int32_t inWidth[IN_N];
  int32_t inHeight[IN_N];
  int32_t inNumChannels[IN_N];
  int32_t inDIM2[IN_N];
  int32_t inDIM1[IN_N];
  int32_t inChannelPitch[IN_N];
  int32_t inNumBatches[IN_N];
  int32_t inPadL[IN_N];
  int32_t inPadT[IN_N];
  int32_t inPadR[IN_N];
  int32_t inPadB[IN_N];
  int32_t inPadCh[IN_N];
  int32_t rawDataInElementType[IN_N];
  int32_t inElementType[IN_N];
  int32_t inZeroPoint[IN_N];
  int32_t inLayout[IN_N];
  int32_t inDataId[IN_N];
  float32_tidl inTensorScale[IN_N];
  int8_t  inDataName[IN_N][TIDL_STRING_SIZE];
#ifdef TIDL_IO_BUF_SIZES
  int32_t inBufSize[IN_N];
#endif
  int32_t outWidth[OUT_N];
  int32_t outHeight[OUT_N];
  int32_t outDIM2[OUT_N];
  int32_t outDIM1[OUT_N];
  int32_t outNumChannels[OUT_N];
  int32_t outChannelPitch[OUT_N];
  int32_t outNumBatches[OUT_N];
  int32_t outPadL[OUT_N];
  int32_t outPadT[OUT_N];
  int32_t outPadR[OUT_N];
  int32_t outPadB[OUT_N];
  int32_t outPadCh[OUT_N];
  int32_t outElementType[OUT_N];
  int32_t outDataId[OUT_N];
  int8_t  outDataName[OUT_N][TIDL_STRING_SIZE];
  float32_tidl outTensorScale[OUT_N];
  int32_t outZeroPoint[OUT_N];
  int32_t outLayout[OUT_N];
#ifdef TIDL_IO_BUF_SIZES
  int32_t outBufSize[OUT_N];
#endif
  int32_t numValidTensorDims[OUT_N];
} sTIDL_IOBufDesc_t;
