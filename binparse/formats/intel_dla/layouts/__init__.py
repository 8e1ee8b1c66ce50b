"""FPGA AI Suite buffers and layouts: the folding of tensors into IP buffers, input/output configurations."""
