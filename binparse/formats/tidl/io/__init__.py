"""The io descriptor (`*_tidl_io_1.bin`): its formats, the size solver, buffer layouts."""
