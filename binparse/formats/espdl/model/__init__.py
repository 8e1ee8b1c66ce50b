"""The .espdl model file: container (EDL1/EDL2/PDL packs, encryption), FlatBuffers graph, tensors, weights, checks."""
