"""The network (`*_tidl_net.bin`): layouts per netVersion, the nearest-layout reader, weights, checks."""
