"""The FPGA AI Suite compiler's tables: transform reports, layer placement, compile folders, build records."""
