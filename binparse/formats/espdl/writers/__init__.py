"""What binparse writes for ESP-DL: .espdl models (FlatBuffers builder), .info printouts, fixtures."""
