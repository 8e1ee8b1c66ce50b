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
    "PRelu": "map_math:prelu", "Relu": "map_math:unary", "Sqrt": "map_math:unary",
    "LeakyRelu": "map_math:unary", "Softmax": "map_math:unary", "ReduceMean": "map_math:reduce",
    # activations: the model's lookup table when it carries one (`lut` attribute), else the function
    "Sigmoid": "map_lut:activation", "Tanh": "map_lut:activation", "Swish": "map_lut:activation",
    "HardSigmoid": "map_lut:activation", "HardSwish": "map_lut:activation", "Gelu": "map_lut:activation",
    "Clip": "map_lut:activation", "LUT": "map_lut:activation",
    # esp-ppq's own: a change of exponent (and of int8/int16)
    "RequantizeLinear": "map_math:requantize", "QuantizeLinear": "map_math:requantize",
    # data movement and pooling
    "Concat": "map_shape:concat", "Split": "map_shape:split", "Reshape": "map_shape:with_shape",
    "Flatten": "map_shape:plain", "Transpose": "map_shape:plain", "Squeeze": "map_shape:with_shape",
    "Unsqueeze": "map_shape:with_shape", "Slice": "map_shape:with_shape",
    "Resize": "map_shape:resize", "MaxPool": "map_shape:pool", "AveragePool": "map_shape:pool",
    "GlobalAveragePool": "map_shape:pool", "InsertZeros": "map_shape:insert_zeros",
    # streaming models: the frames kept between calls as a graph input and output (ONNX has no state)
    "StreamingCache": "map_shape:streaming_cache",
}

__all__ = ["OPS"]
