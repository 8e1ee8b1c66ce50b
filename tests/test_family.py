"""The family protocol: a new family plugs into inspect, view and doctor without touching the CLI.

A toy family (a text file `TOY1 n` holding n int16 values 0..n-1 after its header) registers a
sniffer and a doctor check exactly as the real families do; the CLI then serves it.
"""

from __future__ import annotations

import ast
import re
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from binparse import family
from binparse.family import plugins, registry, sniffers
from binparse.cli import main

REPO = Path(__file__).resolve().parents[1]


class Toy:
    """An artifact of the toy family: `TOY1 <n>\\n` then n little-endian int16."""

    def __init__(self, path: str, data: bytes) -> None:
        head, _, rest = data.partition(b"\n")
        self.path, self.n, self.raw = path, int(head.split()[1]), rest

    def summary(self) -> dict[str, Any]:
        return {"family": "toy", "kind": "toy1", "count": self.n}

    def report(self) -> str:
        return f"toy file with {self.n} values"

    def tensor_array(self, name: str, buffer: Any = None, *, stored: bool = False,
                     dequantize: bool = False) -> tuple[Any, str]:
        q = np.frombuffer(self.raw, "<i2", count=self.n)
        return (q.astype(np.float32) / 4 if dequantize else q), f"toy tensor {name}"


def _sniff(path: Any, head: bytes) -> Any:
    if not head.startswith(b"TOY1 "):
        return None
    return lambda src: Toy(str(src), Path(src).read_bytes())


def _check(reports: list[family.FileReport], folder: Path) -> list[family.Finding]:
    return [family.Finding("problem", f"{r.name} has an odd count", [r.name])
            for r in reports if r.family == "toy" and r.obj.n % 2]


@pytest.fixture
def toy_family(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    plugins.load_all()  # every family registers its sniffers and checks in the lists before they are patched
    family.checks()
    monkeypatch.setattr(sniffers, "_SNIFFERS", [_sniff, *sniffers._SNIFFERS])
    monkeypatch.setattr(family, "_CHECKS", [*family._CHECKS, _check])
    (tmp_path / "a.toy").write_bytes(b"TOY1 3\n" + np.array([5, -6, 7], "<i2").tobytes())
    return tmp_path


def test_toy_family_served_by_inspect_view_and_doctor(toy_family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = toy_family / "a.toy"
    assert main(["inspect", str(f)]) == 0
    assert capsys.readouterr().out.strip() == "toy file with 3 values"
    assert main(["inspect", "--json", str(f)]) == 0
    assert json.loads(capsys.readouterr().out) == {"file": str(f), "family": "toy", "kind": "toy1", "count": 3}
    out = toy_family / "t.npy"
    assert main(["view", str(f), "--tensor", "x", "--dequantize", "--npy", str(out)]) == 0
    assert np.load(out).tolist() == [1.25, -1.5, 1.75]
    assert main(["doctor", "--json", str(toy_family)]) == 1  # the toy check found a problem
    doc = json.loads(capsys.readouterr().out.split("\n", 1)[1])
    assert {"level": "problem", "text": "a.toy has an odd count", "files": ["a.toy"]} in doc["findings"]


def test_view_tensor_refuses_a_source_without_named_tensors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = REPO / "fixtures" / "intel_dla" / "testnet_2025" / "output_transform_dump_TestNet_0.csv"
    assert main(["view", str(src), "--tensor", "x", "--npy", str(tmp_path / "o.npy")]) == 3
    err = capsys.readouterr().err
    assert "names no tensors that `view --tensor` can read" in err and str(src) in err
    assert not (tmp_path / "o.npy").exists()


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {("." * n.level) + (n.module or "") for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}


def test_imports_run_one_way() -> None:
    """The registry imports no family, and the runtime's sequences do not import the accessor."""
    assert not any("formats" in m for m in _imports(REPO / "binparse" / "family" / "registry.py"))
    assert ".accessor" not in _imports(REPO / "binparse" / "engine" / "runtime" / "sequences.py")
    assert "importlib" not in (REPO / "binparse" / "family" / "registry.py").read_text()


FAMILY_WORDS = re.compile(r"tidl|espdl|esp-dl|intel|dlhdl|fpga|kvec|cvec|am57x", re.IGNORECASE)


def test_commands_and_doctor_name_no_family() -> None:
    """The commands, the doctor and the drawing core know families only through the protocol."""
    core = [*sorted((REPO / "binparse" / "cli").glob("*.py")), 
            *sorted((REPO / "binparse" / "family" / "draw").glob("*.py")), REPO / "binparse" / "family" / "plugins.py"]
    named = {f"{p.relative_to(REPO)}:{n}": m.group(0) for p in core
             for n, line in enumerate(p.read_text().splitlines(), 1) for m in [FAMILY_WORDS.search(line)] if m}
    assert named == {}


def _module_graph() -> dict[str, set[str]]:
    """binparse's modules and the binparse modules each imports anywhere (top level, functions, TYPE_CHECKING)."""
    root = REPO / "binparse"
    mods = {".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__"): p for p in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rpartition(".")[0]
        edges: set[str] = set()
        for n in ast.walk(ast.parse(p.read_text())):
            if isinstance(n, ast.ImportFrom):
                base = pkg
                for _ in range(max(n.level - 1, 0)):
                    base = base.rpartition(".")[0]
                target = (f"{base}.{n.module}" if n.module else base) if n.level else (n.module or "")
                edges |= {f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target for a in n.names}
            elif isinstance(n, ast.Import):
                edges |= {a.name for a in n.names}
        graph[m] = {e for e in edges if e in mods and e != m}
    return graph


def test_no_import_circles() -> None:
    graph = _module_graph()
    assert graph["binparse.formats.tidl.report"] == {"binparse.core.render", "binparse.core.text", "binparse.formats.tidl.tensors",
                                                 "binparse.family.hints"}
    circles = []
    for start in graph:  # a path back to `start` through the modules it imports
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m == start:
                circles.append(start)
                break
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
    assert circles == []


def test_no_hand_written_module_over_400_lines() -> None:
    generated = REPO / "binparse" / "engine" / "accessors"
    long = {str(p.relative_to(REPO)): n for p in (REPO / "binparse").rglob("*.py")
            if generated not in p.parents and (n := len(p.read_text().splitlines())) > 400}
    assert long == {}
