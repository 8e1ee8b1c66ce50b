"""FPGA AI Suite buffers and layouts: the folding of tensors into IP buffers, input/output configurations,
layouts from an .arch, streamed inputs (lightweight layout transform), drawings."""
