"""The toy family loaded: a sniffer for .toy files and a doctor check."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from binparse.family import FileReport, Finding, register_check
from binparse.family.registry import register_sniffer


class ToyFile:
    """A .toy file: an Artifact and a TensorSource of one int16 tensor (dequantized: q / 4)."""

    def __init__(self, path: str) -> None:
        data = Path(path).read_bytes()
        self.path = path
        self.rows, self.cols = int.from_bytes(data[4:6], "little"), int.from_bytes(data[6:8], "little")
        self.values = np.frombuffer(data, "<i2", count=self.rows * self.cols, offset=8).reshape(self.rows, self.cols)

    def summary(self) -> dict[str, Any]:
        return {"family": "toy", "kind": "toy file", "rows": self.rows, "cols": self.cols}

    def report(self) -> str:
        return f"toy file {self.rows}x{self.cols}"

    def tensor_array(self, name: str | None, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[Any, str]:
        return (self.values / 4 if dequantize else self.values), "toy tensor"


def sniff(path: Any, head: bytes) -> Any:
    return (lambda source: ToyFile(str(source))) if head.startswith(b"TOY1") else None


@register_check
def odd_rows(reports: list[FileReport], folder: Path) -> list[Finding]:
    return [Finding("problem", f"{r.name} has an odd number of rows", [r.name])
            for r in reports if r.family == "toy" and r.obj.rows % 2]


register_sniffer(sniff)
