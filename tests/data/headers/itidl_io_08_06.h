/* sTIDL_IOBufDesc_t as declared in J7-08.06 itidl_ti.h (facts/tidl.md §1.2(c)), written out for tests. */
#include <stdint.h>
#define TIDL_MAX_ALG_IN_BUFS  ((int32_t) 32)
#define TIDL_MAX_ALG_OUT_BUFS ((int32_t) 32)
#define TIDL_STRING_SIZE      ((int32_t) 512)
typedef float float32_tidl;

typedef struct
{
  int32_t numInputBuf;
  int32_t numOutputBuf;
  int32_t inDataFormat[TIDL_MAX_ALG_IN_BUFS];
  int32_t inResizeType[TIDL_MAX_ALG_IN_BUFS];
  int32_t resizeWidth[TIDL_MAX_ALG_IN_BUFS];
  int32_t resizeHeight[TIDL_MAX_ALG_IN_BUFS];
  int32_t inWidth[TIDL_MAX_ALG_IN_BUFS];
  int32_t inHeight[TIDL_MAX_ALG_IN_BUFS];
  int32_t inNumChannels[TIDL_MAX_ALG_IN_BUFS];
  int32_t inChannelPitch[TIDL_MAX_ALG_IN_BUFS];
  int32_t inNumBatches[TIDL_MAX_ALG_IN_BUFS];
  int32_t inPadL[TIDL_MAX_ALG_IN_BUFS];
  int32_t inPadT[TIDL_MAX_ALG_IN_BUFS];
  int32_t inPadR[TIDL_MAX_ALG_IN_BUFS];
  int32_t inPadB[TIDL_MAX_ALG_IN_BUFS];
  int32_t inPadCh[TIDL_MAX_ALG_IN_BUFS];
  int32_t rawDataInElementType[TIDL_MAX_ALG_IN_BUFS];
  int32_t inElementType[TIDL_MAX_ALG_IN_BUFS];
  int32_t inZeroPoint[TIDL_MAX_ALG_IN_BUFS];
  int32_t inLayout[TIDL_MAX_ALG_IN_BUFS];
  int32_t inDataId[TIDL_MAX_ALG_IN_BUFS];
  float32_tidl inTensorScale[TIDL_MAX_ALG_IN_BUFS];
  int8_t  inDataName[TIDL_MAX_ALG_IN_BUFS][TIDL_STRING_SIZE];
  int32_t outWidth[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outHeight[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outNumChannels[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outChannelPitch[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outNumBatches[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outPadL[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outPadT[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outPadR[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outPadB[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outPadCh[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outElementType[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outDataId[TIDL_MAX_ALG_OUT_BUFS];
  int8_t  outDataName[TIDL_MAX_ALG_OUT_BUFS][TIDL_STRING_SIZE];
  float32_tidl outTensorScale[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outZeroPoint[TIDL_MAX_ALG_OUT_BUFS];
  int32_t outLayout[TIDL_MAX_ALG_OUT_BUFS];
} sTIDL_IOBufDesc_t;
