"""The records TI's tools leave in an artifacts folder: param.yaml, onnxrtMetaData.txt, allowedNode.txt."""
