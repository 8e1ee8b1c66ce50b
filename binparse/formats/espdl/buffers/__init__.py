"""ESP-DL tensors in device buffers: the old dl::Tensor padded HWC layout, TensorBase, their drawings."""
