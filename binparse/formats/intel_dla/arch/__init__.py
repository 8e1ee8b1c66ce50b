"""FPGA AI Suite architecture and IP: .arch files, their doctor checks, the IP header dla_create_ip writes."""
