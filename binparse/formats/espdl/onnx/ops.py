"""Which ESP-DL ops the ONNX export reproduces, and the function that maps each (declarations only).

Each entry is `op_type -> "module:function"` in this package; the function is called as
`fn(builder, node)` (`builder.py`) and adds the ONNX nodes that compute what the chip computes,
ending in the chip's quantization of every output (`Builder.bind`). An op not listed here is refused
by name (`convert.unsupported`), never exported approximately.
"""

from __future__ import annotations

OPS: dict[str, str] = {
    # weights: Conv (1-D, 2-D, grouped, depthwise), Gemm, MatMul, with their fused activation
    "Conv": "map_linear:conv", "Gemm": "map_linear:gemm", "MatMul": "map_linear:matmul",
    # element-wise arithmetic, computed exactly then quantized to the output's exponent
    "Add": "map_math:binary", "Sub": "map_math:binary", "Mul": "map_math:binary", "Div": "map_math:binary",
    "PRelu": "map_lut:activation", "Relu": "map_lut:activation", "Sqrt": "map_lut:activation",
    "LeakyRelu": "map_lut:activation", "Softmax": "map_math:unary", "ReduceMean": "map_float:reduce",
    # activations: the model's lookup table when it carries one (`lut` attribute, 8 bits), else the function
    "Sigmoid": "map_lut:activation", "Tanh": "map_lut:activation", "Swish": "map_lut:activation",
    "HardSigmoid": "map_lut:activation", "HardSwish": "map_lut:activation", "Gelu": "map_lut:activation",
    "Clip": "map_lut:activation", "LUT": "map_lut:activation", "Elu": "map_lut:activation",
    "Exp": "map_lut:activation", "Log": "map_lut:activation",
    # computed in float by esp-dl on the real values, then quantized (map_float.py)
    "Neg": "map_float:same", "Abs": "map_float:same", "Erf": "map_float:same", "Softplus": "map_float:same",
    "Pow": "map_float:same", "Mod": "map_float:same", "Max": "map_float:same", "Min": "map_float:same",
    "Equal": "map_float:same", "Greater": "map_float:same", "GreaterOrEqual": "map_float:same",
    "Less": "map_float:same", "LessOrEqual": "map_float:same", "And": "map_float:same", "Or": "map_float:same",
    "Xor": "map_float:same", "Not": "map_float:same", "LogSoftmax": "map_float:same",
    "LayerNormalization": "map_float:same", "LpNormalization": "map_float:same",
    "RMSNormalization": "map_float:rms_norm",
    "ReduceMax": "map_float:reduce", "ReduceMin": "map_float:reduce", "ReduceSum": "map_float:reduce",
    "ReduceProd": "map_float:reduce", "ReduceL1": "map_float:reduce", "ReduceL2": "map_float:reduce",
    "ReduceSumSquare": "map_float:reduce", "ReduceLogSum": "map_float:reduce",
    "ReduceLogSumExp": "map_float:reduce",
    # recurrent layers: unrolled, quantized inside each step as esp-ppq's quantized forward does
    "LSTM": "map_rnn:lstm", "GRU": "map_rnn:gru",
    # esp-ppq's own: a change of exponent (and of int8/int16), or to float
    "RequantizeLinear": "map_math:requantize", "QuantizeLinear": "map_math:requantize",
    "DequantizeLinear": "map_float:dequantize",
    # data movement and pooling
    "Concat": "map_shape:concat", "Split": "map_shape:split", "Reshape": "map_shape:with_shape",
    "Flatten": "map_shape:plain", "Transpose": "map_shape:plain", "Squeeze": "map_shape:with_shape",
    "Unsqueeze": "map_shape:with_shape", "Slice": "map_shape:with_shape",
    "Resize": "map_shape:resize", "MaxPool": "map_shape:pool", "AveragePool": "map_shape:pool",
    "GlobalAveragePool": "map_shape:pool", "InsertZeros": "map_shape:insert_zeros",
    "Pad": "map_float:moved", "Gather": "map_float:gather", "Identity": "map_float:moved",
    "ReverseSequence": "map_float:moved", "ScatterND": "map_float:moved",
    "DepthToSpace": "map_float:channels_first", "SpaceToDepth": "map_float:channels_first",
    # streaming models: the frames kept between calls as a graph input and output (ONNX has no state)
    "StreamingCache": "map_shape:streaming_cache",
}

__all__ = ["OPS"]
