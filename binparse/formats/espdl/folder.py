"""`binparse inspect FOLDER` of an ESP-DL model folder: what is there and what made it, as a summary.

A folder holding .espdl models (and what esp-ppq writes beside one: the `.info` printout, the `.json`
quantization record) is read file by file, grouped by name (MODEL.espdl, MODEL.info, MODEL.json);
`binparse doctor FOLDER` checks that they agree. Registered as a folder sniffer: it looks no further
than the names, and imports the readers when the folder is opened.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...core.errors import BinparseError
from ...core.text import shown

KINDS = {".espdl": "model", ".info": "printout", ".json": "record"}


def _names(path: Path) -> list[str]:
    try:
        with os.scandir(path) as it:
            return sorted(e.name for e in it if e.is_file() and not e.name.startswith("."))
    except OSError:
        return []


def sniff_folder(path: Any, head: bytes) -> Any:
    """binparse.open() of a folder holding .espdl models (names only)."""
    if head or path is None or not Path(path).is_dir():
        return None
    return EspdlFolder if any(n.endswith(".espdl") for n in _names(Path(path))) else None


def _model(path: Path, key: bytes | None) -> dict[str, Any]:
    from ...family.opening import open as open_file
    from .model.report import ops_text, parameters, target_of
    f = open_file(path)
    if not hasattr(f, "with_key"):
        raise BinparseError("not an .espdl model", file=str(path))
    f.with_key(key)
    doc: dict[str, Any] = {"format": str(f.magic), "models": []}
    for m in f.models:
        one: dict[str, Any] = {"name": m.name, "encrypted": m.encrypted}
        if m.twin is not None:
            one["same_record_as"] = m.twin.name
        elif not (m.encrypted and m.key is None):
            try:
                g = m.graph
                one.update(graph=g.name, nodes=len(g.nodes), ops=ops_text(g), parameters=parameters(g),
                           target=target_of(g), int32_in_int64=len(g.narrow))
            except BinparseError as exc:
                one["error"] = exc.message
        doc["models"].append(one)
    return doc


def _made_by(kind: str, doc: dict[str, Any]) -> str:
    if kind == "model":
        fmt = doc.get("format")
        if not isinstance(fmt, str):  # a file that did not read as a model says so in its error
            return "unknown (not read as a model)"
        return ("esp-dl's pack_espdl_models.py (a pack of esp-ppq models)" if fmt.startswith("PDL")
                else f"esp-ppq ({'EDL1: older' if fmt == 'EDL1' else 'EDL2: esp-dl v3'} generation)")
    if kind == "printout":
        return f"esp-ppq ({'newer' if doc.get('metadata') is not None else 'older'} printout form)"
    return "esp-ppq (quantization settings)"


class EspdlFolder:
    """An ESP-DL model folder (the `Artifact` protocol: summary(), report())."""

    def __init__(self, source: str) -> None:
        self.path = Path(source)
        self.key: bytes | None = None
        self._files: dict[str, dict[str, Any]] | None = None  # stem -> kind -> what it is (read when asked)
        self.other: list[str] = []

    def with_options(self, options: Any) -> EspdlFolder:
        """The command line's `--key HEX`: the key of the folder's encrypted models."""
        if getattr(options, "key", None):
            from .model.crypto import parse_key
            self.key = parse_key(options.key)
        return self

    @property
    def files(self) -> dict[str, dict[str, Any]]:
        if self._files is None:
            self._files, self.other = {}, []
            for name in _names(self.path):
                kind = KINDS.get(Path(name).suffix)
                doc = self._read(kind, self.path / name) if kind else None
                if doc is None:
                    self.other.append(name)
                    continue
                doc["made_by"] = _made_by(kind or "", doc)
                self._files.setdefault(Path(name).stem, {})[kind or ""] = {"file": name, **doc}
        return self._files

    def _read(self, kind: str | None, path: Path) -> dict[str, Any] | None:
        try:
            if kind == "model":
                return _model(path, self.key)
            if kind == "printout":
                from .printouts.info import InfoPrintout
                p = InfoPrintout.read(str(path))
                return {"graph": p.graph, "nodes": len(p.nodes), "metadata": p.metadata}
            from .plugin import record_head
            with open(path, "rb") as fh:
                if not record_head(fh.read(512)):
                    return None
            from .printouts.record import QuantRecord
            s = QuantRecord.read(path).summary()
            return {k: s[k] for k in ("ops", "variables", "bit_widths", "platforms", "power_of_2")}
        except BinparseError as exc:
            return {"error": exc.message}

    @property
    def unverified(self) -> str | None:
        """What was read only in part or as meant (exit code 2 of `inspect`): models that did not decode,
        encrypted ones without their key, int32 values in int64 vectors, printouts or records not read."""
        why = []
        for kinds in self.files.values():
            for d in kinds.values():
                if "error" in d:
                    why.append(f"{d['file']}: could not be read")
                for m in d.get("models", []):
                    label = d["file"] + (f"/{m['name']}" if m["name"] else "")
                    if "error" in m:
                        why.append(f"{label}: cannot decode")
                    elif m.get("int32_in_int64"):
                        why.append(f"{label}: {m['int32_in_int64']} int64 vectors read as meant")
                    elif "nodes" not in m and "same_record_as" not in m:
                        why.append(f"{label}: encrypted, no key given")
        return "; ".join(why) or None

    def summary(self) -> dict[str, Any]:
        models = [{"name": stem, **kinds} for stem, kinds in sorted(self.files.items())]
        return {"family": "espdl", "kind": "model_folder", "folder": str(self.path), "models": models,
                "other_files": self.other}

    def report(self) -> str:
        counts = {k: sum(k in kinds for kinds in self.files.values()) for k in ("model", "printout", "record")}
        lines = [f"ESP-DL model folder {shown(self.path)}: {counts['model']} model files, {counts['printout']} .info "
                 f"printouts, {counts['record']} .json quantization records"]
        for stem, kinds in sorted(self.files.items()):
            lines.append(f"{shown(stem)}:")
            for kind in ("model", "printout", "record"):
                d = kinds.get(kind)
                if d is not None:
                    lines.append(f"  {shown(d['file'])}: {_line(kind, d)}; made by {d['made_by']}")
        if self.other:
            lines.append(f"other files: {len(self.other)} ({', '.join(map(shown, self.other[:6]))}{', ...' if len(self.other) > 6 else ''})")
        from ...family.hints import command
        first = next((d["file"] for kinds in self.files.values() for d in kinds.values()), None)
        lines.append(f"({command('doctor', self.path)} checks that they agree"
                     + (f"; {command('inspect', self.path / first)} shows one)" if first else ")"))
        return "\n".join(lines)


def _line(kind: str, d: dict[str, Any]) -> str:
    if "error" in d:
        return f"could not be read: {shown(d['error'])}"
    if kind == "printout":
        return f"printout of graph {d['graph']!r}, {d['nodes']} nodes"
    if kind == "record":
        return (f"quantization record, {d['ops']} ops, {d['variables']} variables, {d['power_of_2']} power-of-2 "
                "scales")
    parts = []
    for m in d["models"]:
        label = f"{shown(m['name'])}: " if m["name"] else ""
        if "same_record_as" in m:
            parts.append(f"{label}the same record as {m['same_record_as']!r}")
        elif "error" in m:
            parts.append(f"{label}cannot decode: {shown(m['error'])}")
        elif "nodes" not in m:
            parts.append(f"{label}encrypted (pass --key to read it)")
        else:
            parts.append(f"{label}graph {m['graph']!r}, {m['nodes']} nodes ({shown(m['ops']) or 'none'}), "
                         f"{m['parameters']:,} parameters, target {m['target']}"
                         + (f", {m['int32_in_int64']} int64 vectors holding int32 values" if m["int32_in_int64"] else ""))
    return f"{d['format']} " + ("model, " if len(d["models"]) == 1 else f"pack of {len(d['models'])}: ") + "; ".join(parts)


__all__ = ["EspdlFolder", "sniff_folder"]
