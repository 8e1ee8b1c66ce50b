"""The ESP-DL family loaded (`plugin.FAMILY.load`): tensors in padded HWC buffers (old dl::Tensor), TensorBase, .espdl models (graph,
weights in their device blocking, test tensors)."""

from __future__ import annotations

from ...family import register_checks_in
from ...family.registry import Format, register, register_sniffer
from .model.container import EspdlFile

for _magic, _what in (("EDL1", "model, 12-byte header"), ("EDL2", "model, 16-byte header"),
                      ("PDL1", "pack of models"), ("PDL2", "pack of models, 16-byte aligned"),
                      ("PDL3", "pack of models with version and SHA-256")):
    register(Format(name=f"espdl.{_magic.lower()}", accessor=EspdlFile, family="espdl", kind=".espdl",
                    version=f"ESP-DL v3 {_magic}", magic=_magic.encode(), exact_size=False,
                    describe=_what, identified_by=f"magic {_magic}"))
# .info printouts, and .espdl names whose magic ESP-DL does not write (refused, never another family's)
register_sniffer("binparse.formats.espdl.sniff:sniff", names=("*.espdl", "*.info", "*.json"))
register_sniffer("binparse.formats.espdl.folder:sniff_folder", folders=True)  # a folder of models and esp-ppq's files

register_checks_in("binparse.formats.espdl.model.doctor")
register_checks_in("binparse.formats.espdl.printouts.info_check")  # an esp-ppq .info printout against its .espdl
register_checks_in("binparse.formats.espdl.printouts.record_check")  # esp-ppq's .json record against its .espdl
register_checks_in("binparse.formats.espdl.onnx.doctor")  # models with test values run in ONNX (binparse[onnx])

__all__: list[str] = []  # the family's API is `binparse.formats.espdl` (its names import from their modules)
