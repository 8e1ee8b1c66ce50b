"""`.espdl` model files and packs: the models inside and their FlatBuffer payloads, zero-copy."""

from __future__ import annotations

from dataclasses import dataclass

from ...accessors.espdl.espdl_container import EspdlContainer, ModelRecord
from ...errors import FormatError


@dataclass(frozen=True)
class EspdlModel:
    """One model of a file or pack."""

    name: str
    encrypted: bool
    record: ModelRecord
    file: str | None = None

    @property
    def payload(self) -> memoryview:
        """The FlatBuffer (espdl.fbs root `Model`) as a zero-copy memoryview of the file."""
        if self.encrypted:
            raise FormatError("model payload is encrypted (AES-128-CTR)", file=self.file, path=self.record.path,
                              expected="mode 0 (plain)", found="mode 1",
                              hint="decrypt it with the key on the device or with ESP-DL's tools first")
        return self.record.payload.data.cast("B")


class EspdlFile(EspdlContainer):
    """An .espdl file (EDL1/EDL2) or a pack of models (PDL1/PDL2/PDL3)."""

    __slots__ = ()

    @property
    def models(self) -> list[EspdlModel]:
        if self.model is not None:
            return [EspdlModel("", int(self.model.mode) == 1, self.model, self._file)]
        return [EspdlModel(e.name, int(e.model.mode) == 1, e.model, self._file) for e in self.entries or []]

    def model_named(self, name: str) -> EspdlModel:
        for m in self.models:
            if m.name == name:
                return m
        raise FormatError(f"no model named {name!r}", file=self._file, expected=[m.name for m in self.models])

    def summary(self) -> dict[str, object]:
        return {"family": "espdl", "kind": "model_file" if self.model is not None else "model_pack",
                "format": self.magic,
                "models": [{"name": m.name, "encrypted": m.encrypted, "size": int(m.record.size),
                            "payload_offset": m.record.field_info("payload")[0]} for m in self.models]}

    def report(self) -> str:
        lines = [f"ESP-DL {self.magic} {'model' if self.model is not None else 'pack'}"]
        for m in self.summary()["models"]:  # type: ignore[attr-defined]
            lines.append(f"  {m['name'] or '(model)'}: {m['size']:,} bytes of FlatBuffer at offset {m['payload_offset']}"
                         + (", encrypted" if m["encrypted"] else ""))
        return "\n".join(lines)
