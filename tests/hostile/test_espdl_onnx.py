"""Hostile ESP-DL models for `binparse export --check`: a Resize whose scales claim a huge output is
refused before onnxruntime allocates it, within the memory bound, with a one-line error."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from .harness import bound, run_cli, within

pytest.importorskip("onnxruntime")


def _huge_resize(tmp_path: Path) -> Path:
    from binparse.formats.espdl.writers.fixtures import espdl_file
    x = np.arange(72).reshape(1, 4, 6, 3) % 100
    graph = {"name": "g", "inputs": [{"name": "x", "dims": [1, 4, 6, 3], "dtype": "int8", "exponents": [-4]}],
             "outputs": [{"name": "y", "dims": [1, 8, 12, 3], "dtype": "int8", "exponents": [-4]}],
             "nodes": [{"name": "r", "op_type": "Resize", "inputs": ["x", "", "sc"], "outputs": ["y"],
                        "attributes": {"mode": "nearest", "quant_type": "S8"}}],
             "initializers": [{"name": "sc", "dims": [4], "dtype": "float32", "values": [1.0, 1.0, 30000.0, 30000.0]}],
             "test_inputs": [{"name": "x", "dims": [1, 4, 6, 3], "dtype": "int8", "exponents": [-4],
                              "values": x.reshape(-1).tolist()}],
             "test_outputs": [{"name": "y", "dims": [1, 8, 12, 3], "dtype": "int8", "exponents": [-4]}]}
    path = tmp_path / "huge_resize.espdl"
    path.write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    return path


def test_resize_claiming_a_huge_output_is_refused_within_bound(tmp_path: Path) -> None:
    path = _huge_resize(tmp_path)
    r = run_cli("export", path, "--check", timeout=120)
    assert r.returncode == 2, r.stderr  # the model could not be run: nothing verified
    assert "the export's tensor 'r:Resize' would hold [1, 3, 120000, 180000] float32 elements" in r.stderr
    assert within(r, path.stat().st_size), (r.peak_rss, bound(path.stat().st_size))
