"""`binparse inspect FOLDER` of a TIDL artifacts folder: what is there and what made it, in one summary.

Three layouts TI's tools leave: an OSRT `artifacts/` folder (`*_tidl_net.bin`, `*_tidl_io_1.bin`,
`onnxrtMetaData.txt`, `allowedNode.txt`, TI's printouts in `tempDir/`), a model-zoo / edgeai-benchmark
folder (`param.yaml` with the artifacts folder it names) and a TIDL-RT folder (`tidl_net.bin`,
`tidl_io_buff1.bin`). Each file is opened as `binparse.open` would (nothing beyond its header is
read for a net); one that cannot be read is listed with why.
"""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

from ....core.errors import BinparseError
from ....core.text import shown
from ..plugin import IO_NAMES

ARTIFACTS = ("*_tidl_net.bin", "tidl_net*.bin", *IO_NAMES)
RECORDS = ("param.yaml", "onnxrtMetaData.txt", "allowedNode.txt")
PRINTOUTS = ("*_netLog.txt", "*.layer_info.txt", "*_paramDebug.csv")
MAX_LISTED = 200  # files listed per folder; the count says the rest


def _matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def folder_kind(path: Path) -> str | None:
    names = {p.name for p in path.iterdir() if p.is_file()}
    if "param.yaml" in names:
        return "model-zoo folder"
    if names & {"onnxrtMetaData.txt", "allowedNode.txt"} or (path / "tempDir").is_dir():
        return "OSRT artifacts folder"
    if any(fnmatch.fnmatchcase(n, "tidl_io_buff*.bin") or n == "tidl_net.bin" for n in names):
        return "TIDL-RT folder"
    if any(_matches(n, ARTIFACTS) for n in names):
        return "TIDL artifacts folder"
    return None


def _entry(path: Path, rel: str) -> dict[str, Any]:
    from ....family import opening
    from ....family.registry import format_of
    from ....engine.runtime import Accessor
    try:
        obj: Any = opening.open(path)
    except BinparseError as exc:
        return {"file": rel, "what": "unreadable", "error": exc.message}
    acc: Any = obj  # the family's classes: fields by name
    if isinstance(obj, Accessor):
        fmt = format_of(obj)
        made = getattr(obj, "version", None) or fmt.version
        doc: dict[str, Any] = {"file": rel, "what": f"{fmt.kind}", "format": fmt.name, "made by": f"TIDL {made}"}
        if fmt.kind == "net.bin":
            doc["net_version"] = getattr(obj, "net_version_hex", None)
            doc["layers"] = int(acc.num_layers)
            if getattr(acc, "soc_cores", None):
                doc["soc_cores"] = acc.soc_cores
        if hasattr(acc, "inputs"):
            doc["inputs"] = [t.name for t in acc.inputs]
            doc["outputs"] = [t.name for t in acc.outputs]
    else:
        s = obj.summary()
        doc = {"file": rel, "what": s.get("kind", "?"), "made by": s.get("version", "")}
        if "subgraphs" in s:
            doc["subgraphs"] = len(s["subgraphs"])
        if s.get("values", {}).get("target_device"):
            doc["target_device"] = s["values"]["target_device"]
    if getattr(obj, "unverified", None):
        doc["unverified"] = obj.unverified
    return doc


class ArtifactsFolder:
    """A TIDL artifacts folder, listed."""

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.kind = folder_kind(self.path) or "TIDL artifacts folder"

    def _files(self) -> list[dict[str, Any]]:
        out = []
        where = [self.path, self.path / "tempDir"]
        named = artifacts_folder(self.path)
        if named is not None:  # a model-zoo folder: the artifacts its param.yaml names
            where += [named, named / "tempDir"]
        for sub in where:
            if not sub.is_dir():
                continue
            rel = "" if sub == self.path else f"{sub.relative_to(self.path).as_posix()}/"
            files = sorted(p for p in sub.iterdir() if p.is_file())
            for p in files[:MAX_LISTED]:
                if _matches(p.name, ARTIFACTS + RECORDS):
                    out.append(_entry(p, rel + p.name))
                elif _matches(p.name, PRINTOUTS):
                    out.append({"file": rel + p.name, "what": "printout", "made by": "TI import tool"})
        return out

    def summary(self) -> dict[str, Any]:
        files = self._files()
        named = artifacts_folder(self.path)
        subs = sorted(p.name for p in self.path.iterdir() if p.is_dir() and p.name != "tempDir"
                      and (named is None or p != named))
        made = sorted({f["made by"] for f in files if f.get("made by") and f["what"] in ("net.bin", "io_1.bin",
                                                                                          "combined net", "combined io")})
        return {"family": "tidl", "kind": self.kind, "made_by": made, "files": files, "subfolders": subs,
                "unverified": "; ".join(f"{f['file']}: {f['unverified']}" for f in files if "unverified" in f) or None}

    def report(self) -> str:
        d = self.summary()
        lines = [f"{shown(self.path)}: {d['kind']}" + (f", made by {', '.join(d['made_by'])}" if d["made_by"] else "")]
        for f in d["files"]:
            extra = []
            if "net_version" in f:
                extra.append(f"netVersion {f['net_version']}, {f['layers']} layers"
                             + (f", {f['soc_cores']}-core SoC" if f.get("soc_cores") else ""))
            if "inputs" in f:
                extra.append(f"in {', '.join(map(shown, f['inputs'])) or '-'}; out {', '.join(map(shown, f['outputs'])) or '-'}")
            if "target_device" in f:
                extra.append(f"target_device {shown(f['target_device'])}")
            if "subgraphs" in f and f["what"] != "param.yaml record":
                extra.append(f"{f['subgraphs']} subgraph(s)")
            if "error" in f:
                extra.append(f"not read: {shown(f['error'])}")
            if "unverified" in f:
                extra.append("NOT VERIFIED")
            made = f" ({f['made by']})" if f.get("made by") and f["what"] not in ("printout",) else ""
            lines.append(f"  {shown(f['file'])}: {f['what']}{made}" + (f": {'; '.join(extra)}" if extra else ""))
        if d["subfolders"]:
            lines.append(f"  subfolders: {', '.join(map(shown, d['subfolders']))} (inspect or doctor each)")
        from ....family.hints import command
        first = next((f["file"] for f in d["files"]), None)
        lines.append(f"{command('doctor', self.path)} checks them against each other"
                     + (f"; {command('inspect', self.path / first)} shows one" if first else ""))
        return "\n".join(lines)


def artifacts_folder(path: Path) -> Path | None:
    """The artifacts folder a param.yaml names, when it is a folder inside this one."""
    if not (path / "param.yaml").is_file():
        return None
    try:
        from .read import read_param_yaml
        sub = read_param_yaml(path / "param.yaml").values.get("artifacts_folder")
    except BinparseError:
        return None
    where = (path / str(sub)) if sub else None
    if where is None or not where.is_dir() or not where.resolve().is_relative_to(path.resolve()):
        return None
    return where


def sniff_folder(path: Any, head: bytes) -> Any:
    if head or path is None or not Path(path).is_dir():
        return None
    return ArtifactsFolder if folder_kind(Path(path)) else None


__all__ = ["ArtifactsFolder", "artifacts_folder", "folder_kind", "sniff_folder"]
