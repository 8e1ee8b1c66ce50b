"""Readers of the records TI's tools write beside the artifacts (facts/tidl.md 2.8).

- `param.yaml`: the run's record, written by edgeai-benchmark (the model zoo, Model Composer) or by
  edgeai-tidlrunner (SDK 11.x: its settings with a `common:` section naming `edgeai_tidlrunner`):
  `session.target_device` (the SoC), `session.input_details` / `output_details` (ONNX names, shapes),
  `session.input_optimization` (TI's optimizer put the mean and scale into the model: its input
  becomes uint8, renamed, see `names.py`), `session.runtime_options` (`tensor_bits`, ...),
  `tidl_tools_path` and a tools `version` where the benchmark wrote them.
- `onnxrtMetaData.txt` (the OSRT import, read back by TI's own `tidl_onnxRtImport_EP.cpp`): `key=value`
  lines, `numGraphNodes=`, then per subgraph `k:subGraphName=`, `k:numInputs=`, `k:numOutputs=`,
  `k:inputIdx=`, `k:inDataNames=` and `k:outDataNames=` (comma-separated).
- `allowedNode.txt`: the subgraph count, then per subgraph its node count and the ONNX node indices
  TIDL took, one number a line.
Each is read whole but bounded (records are small; a larger file is refused before it is read).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ....core.documents import load_yaml
from ....core.errors import FormatError
from ....core.text import MAX_DIGITS, integer, shown

MAX_RECORD = 4 << 20  # bytes: TI's records are a few KB; anything larger is not one
BENCHMARK, TIDLRUNNER = "edgeai-benchmark", "edgeai-tidlrunner"


def _text(path: str | os.PathLike[str]) -> str:
    p = Path(path)
    size = p.stat().st_size
    if size > MAX_RECORD:
        raise FormatError("too large for a TIDL record", file=str(p), expected=f"at most {MAX_RECORD:,} bytes",
                          found=f"{size:,} bytes")
    return p.read_text(encoding="utf-8", errors="replace")


@dataclass
class Subgraph:
    index: int
    name: str = ""
    num_inputs: int | None = None
    num_outputs: int | None = None
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    nodes: list[int] | None = None  # from allowedNode.txt


@dataclass
class Record:
    """One record file: its kind, what it says (`values`), and the subgraphs it names."""

    file: str
    kind: str
    values: dict[str, Any]
    subgraphs: list[Subgraph] = field(default_factory=list)
    writer: str = "TI's OSRT import"  # the tool that wrote it (a param.yaml: edgeai-benchmark or edgeai-tidlrunner)

    def summary(self) -> dict[str, Any]:
        return {"family": "tidl", "kind": self.kind, "version": self.writer, "values": self.values,
                "subgraphs": [vars(s) for s in self.subgraphs]}

    def report(self) -> str:
        from ....family.hints import doctor_of_folder
        by = f", written by {self.writer}" if self.kind.startswith("param.yaml") else ""
        lines = [f"TI {self.kind} ({shown(Path(self.file).name)}{by}): {doctor_of_folder(self.file)} checks it "
                 "against the io and net"]
        for k, v in self.values.items():
            if k in ("inputs", "outputs") and isinstance(v, list):  # param.yaml's input/output details
                v = ", ".join(f"{d.get('name')} {d.get('shape')} {d.get('type') or ''}".rstrip() for d in v) or "-"
            lines.append(f"  {shown(k)}: {shown(v)}")
        for s in self.subgraphs:
            part = [f"subgraph {s.index}" + (f" '{shown(s.name)}'" if s.name else "")]
            if s.inputs or s.outputs:
                part.append(f"inputs {', '.join(map(shown, s.inputs)) or '-'}; outputs {', '.join(map(shown, s.outputs)) or '-'}")
            if s.nodes is not None:
                part.append(f"{len(s.nodes)} ONNX node(s) offloaded")
            lines.append("  " + ": ".join(part))
        return "\n".join(lines)


def read_metadata(path: str | os.PathLike[str]) -> Record:
    values: dict[str, Any] = {}
    subs: dict[int, Subgraph] = {}
    for n, line in enumerate(_text(path).splitlines(), 1):
        if not line.strip():
            continue
        key, eq, value = line.strip().partition("=")
        if not eq:
            raise FormatError("not a key=value line of onnxrtMetaData.txt", file=os.fspath(path), path=f"line {n}",
                              found=line[:80])
        index, colon, name = key.partition(":")
        if not colon:
            values[key] = integer(value) if value.strip().lstrip("-").isdigit() and len(value) <= MAX_DIGITS else value
            continue
        if not index.isdigit() or len(index) > 5 or int(index) > 10_000:
            raise FormatError("subgraph index is not a small number", file=os.fspath(path), path=f"line {n}",
                              found=index[:20])
        s = subs.setdefault(int(index), Subgraph(int(index)))
        items = [x for x in value.split(",") if x]
        if name == "subGraphName":
            s.name = value
        elif name == "numInputs" and value.isdigit() and len(value) <= MAX_DIGITS:
            s.num_inputs = int(value)
        elif name == "numOutputs" and value.isdigit() and len(value) <= MAX_DIGITS:
            s.num_outputs = int(value)
        elif name == "inDataNames":
            s.inputs = items
        elif name == "outDataNames":
            s.outputs = items
    return Record(os.fspath(path), "onnxrtMetaData record", values, [subs[k] for k in sorted(subs)])


def read_allowed(path: str | os.PathLike[str]) -> Record:
    words = _text(path).split()
    if not words or not all(w.lstrip("-").isdigit() and len(w) <= MAX_DIGITS for w in words):
        raise FormatError("allowedNode.txt holds numbers only, one a line", file=os.fspath(path),
                          found=next((w for w in words if not w.lstrip("-").isdigit() or len(w) > MAX_DIGITS),
                                     "nothing")[:40])
    nums = [int(w) for w in words]
    count, at, subs = nums[0], 1, []
    if not 0 <= count <= len(nums):
        raise FormatError("subgraph count does not fit the file", file=os.fspath(path), path="line 1",
                          expected=f"0..{len(nums)}", found=count)
    for i in range(count):
        if at >= len(nums) or not 0 <= nums[at] <= len(nums) - at - 1:
            raise FormatError(f"subgraph {i}'s node count does not fit the file", file=os.fspath(path),
                              expected=f"a count of the numbers after it", found=nums[at] if at < len(nums) else "end")
        n = nums[at]
        subs.append(Subgraph(i, nodes=nums[at + 1:at + 1 + n]))
        at += 1 + n
    return Record(os.fspath(path), "allowedNode record", {"subgraphs": count,
                                                          "nodes offloaded": sum(len(s.nodes or []) for s in subs)}, subs)


def read_param_yaml(path: str | os.PathLike[str]) -> Record:
    doc = load_yaml(_text(path), file=path, what="param.yaml")  # aliases expanded within the budget only
    if not isinstance(doc, dict) or not isinstance(doc.get("session"), dict):
        raise FormatError("param.yaml has no session: section", file=os.fspath(path),
                          expected="edgeai-benchmark's record of a run (session: target_device, input_details, ...)")
    s = doc["session"]
    opts = s.get("runtime_options") if isinstance(s.get("runtime_options"), dict) else {}
    values = {k: v for k, v in {
        "target_device": s.get("target_device") or doc.get("target_device"),
        "tools version": doc.get("version") or s.get("version") or (opts.get("version") if opts else None),
        "tidl_tools_path": s.get("tidl_tools_path") or doc.get("tidl_tools_path")
        or (opts.get("tidl_tools_path") if opts else None),
        "tensor_bits": opts.get("tensor_bits") if opts else None,
        "model_path": s.get("model_path"), "artifacts_folder": s.get("artifacts_folder"),
        "session": s.get("session_name"), "task_type": doc.get("task_type"),
        "input_optimization": s.get("input_optimization") if isinstance(s.get("input_optimization"), bool) else None,
        }.items() if v is not None}
    # one value each: a list or mapping where the benchmark writes a scalar is kept as its text, never
    # taken for a version, a device or tensor details
    values = {k: v if isinstance(v, (str, int, float, bool)) else shown(v)[:200] for k, v in values.items()}

    def tensors(key: str) -> list[dict[str, Any]]:
        items = s.get(key) if isinstance(s.get(key), list) else []
        return [{"name": str(t.get("name")), "shape": t.get("shape") if isinstance(t.get("shape"), list) else None,
                 "type": t.get("type") if isinstance(t.get("type"), str) else None}
                for t in items if isinstance(t, dict)]
    values["inputs"], values["outputs"] = tensors("input_details"), tensors("output_details")
    return Record(os.fspath(path), "param.yaml record", values, writer=_writer(doc))


def _writer(doc: dict[str, Any]) -> str:
    """Which TI tool wrote a param.yaml: edgeai-tidlrunner writes its settings whole, a `common:` section
    naming its package (`_package_name: edgeai_tidlrunner.runner`, pipelines/common_base.py
    `_write_params`); edgeai-benchmark (and the model zoo and Model Composer built on it) has no such section."""
    common = doc.get("common")
    if isinstance(common, dict) and ("tidlrunner" in str(common.get("_package_name", ""))
                                     or common.get("_package_short_name") == "tidlrunner"):
        return TIDLRUNNER
    return BENCHMARK


READERS = {"param.yaml": read_param_yaml, "onnxrtMetaData.txt": read_metadata, "allowedNode.txt": read_allowed}


def sniff(path: Any, head: bytes) -> Any:
    if path is None:
        return None
    reader = READERS.get(Path(os.fspath(path)).name)
    return reader if reader is not None and b"\0" not in head[:64] else None


__all__ = ["BENCHMARK", "READERS", "TIDLRUNNER", "Record", "Subgraph", "read_allowed", "read_metadata", "read_param_yaml", "sniff"]
