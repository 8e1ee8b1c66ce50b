"""TI's printouts as artifacts of their own: `binparse inspect` of a netLog, layer_info or paramDebug.

TI's import tool writes `<net>_netLog.txt`, `<net>.layer_info.txt` and `<net>_paramDebug.csv`
beside a net. They are text, never a binary net; opened by name (and a text check), they show
their rows as binparse reads them, so a user can see what `doctor` compares with the net.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

import numpy as np

from ....core.text import is_text, shown
from .parse import PRINTOUTS
from ....core.render import columns


@dataclasses.dataclass
class Printout:
    """One printout: its kind ("netLog", "layer_info", "paramDebug"), the net it describes, its rows."""

    file: str
    kind: str
    net: str
    rows: list[Any]

    @classmethod
    def read(cls, path: str | os.PathLike[str]) -> Printout:
        name = Path(path).name
        for suffix, (kind, reader) in PRINTOUTS.items():
            if name.endswith(suffix):
                return cls(os.fspath(path), kind, name[: -len(suffix)], list(reader(path)))
        raise ValueError(f"not a printout name: {name}")

    def _plain_rows(self) -> list[dict[str, Any]]:
        def plain(v: Any) -> Any:
            return v.tolist() if isinstance(v, np.ndarray) else list(v) if isinstance(v, tuple) else v
        return [{k: dict(v) if k == "extra" else plain(v) for k, v in dataclasses.asdict(r).items()}
                for r in self.rows]

    def summary(self) -> dict[str, Any]:
        return {"family": "tidl", "kind": f"{self.kind} printout", "version": "TI import tool", "net": self.net,
                "rows": self._plain_rows()}

    def report(self) -> str:
        from ....family.hints import doctor_of_folder
        head = (f"TI {self.kind} printout of {shown(self.net)}: {len(self.rows)} rows ({doctor_of_folder(self.file)} "
                "compares it with the net)")
        if not self.rows:
            return head
        plain = self._plain_rows()
        # paramDebug's histogram: in --json; columns a later SDK adds: shown when a row has them
        keys = [k for k in plain[0] if k != "hist" and (k != "extra" or any(r["extra"] for r in plain))]
        return "\n".join([head, *columns(keys, [[_cell(r[k]) for k in keys] for r in plain])])


def _cell(v: Any) -> str:
    if isinstance(v, dict):
        return "; ".join(f"{k}={x}" for k, x in v.items()) or "-"
    if isinstance(v, list):
        return "x".join(map(str, v)) if v else "-"
    return f"{v:.6g}" if isinstance(v, float) else str(v)


def sniff(path: Any, head: bytes) -> Any:
    if path is None:
        return None
    name = os.fspath(path)  # the name first: every binparse.open asks
    if any(name.endswith(s) and len(Path(name).name) > len(s) for s in PRINTOUTS) and is_text(head):
        return Printout.read
    return None


__all__ = ["Printout", "sniff"]
