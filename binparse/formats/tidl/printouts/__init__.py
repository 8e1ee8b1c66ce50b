"""TI's printouts of a net (netLog, layer_info, paramDebug): parsers, files, doctor checks."""
