"""FPGA AI Suite architecture and IP: .arch files (file, text, descriptor, rules, doctor), and what dla_create_ip
and dla_compiler write for an IP: the IP header, dla_dma_param.svh, Quartus MIF ROMs, the IP folder."""
