"""Hostile ESP-DL models for `binparse export --check` and `doctor`: a Resize whose scales claim a huge
output is refused before onnxruntime allocates it (scales onnx infers: asked of the budget first;
scales computed as the model runs: onnxruntime's arena is capped at the budget), within the memory
bound, with a one-line error, exit 2 (never a problem)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from .harness import bound, run_cli, within

pytest.importorskip("onnxruntime")


def _huge_resize(tmp_path: Path, runtime: bool = False) -> Path:
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
    if runtime:  # the scales an Add computes when the model runs: onnx's shape inference cannot size the output
        graph["nodes"].insert(0, {"name": "s", "op_type": "Add", "inputs": ["sa", "sb"], "outputs": ["sc"],
                                  "attributes": {}})
        graph["initializers"] = [{"name": n, "dims": [4], "dtype": "float32", "values": [0.5, 0.5, 15000.0, 15000.0]}
                                 for n in ("sa", "sb")]
    path = tmp_path / ("runtime_resize.espdl" if runtime else "huge_resize.espdl")
    path.write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    return path


def test_resize_claiming_a_huge_output_is_refused_within_bound(tmp_path: Path) -> None:
    path = _huge_resize(tmp_path)
    r = run_cli("export", path, "--check", timeout=120)
    assert r.returncode == 2, r.stderr  # the model could not be run: nothing verified
    assert f"{path}: running the export in onnxruntime: its largest tensor 'r:Resize' (259,200,000,000 bytes) with " \
           "its input needs 518,400,000,000 bytes" in r.stderr and "over the budget of " in r.stderr
    assert within(r, path.stat().st_size), (r.peak_rss, bound(path.stat().st_size))


def test_a_resize_whose_scales_are_computed_as_it_runs_stops_at_the_budget(tmp_path: Path) -> None:
    path = _huge_resize(tmp_path, runtime=True)
    for args in (("export", path, "--check"), ("doctor", tmp_path)):
        r = run_cli(*args, timeout=120)
        assert r.returncode == 2, (args, r.stdout, r.stderr)  # not run: nothing verified, nothing proven
        said = r.stderr if args[0] == "export" else r.stdout
        assert "running the export in onnxruntime needs more than the " in said and "[problem]" not in said, said
        assert all(line.startswith("binparse: ") for line in r.stderr.splitlines()), r.stderr  # onnxruntime silent
        assert within(r, path.stat().st_size), (args, r.peak_rss, bound(path.stat().st_size))


def test_a_streaming_window_of_two_billion_frames_is_asked_of_the_budget(tmp_path: Path) -> None:
    """Issue 37 (a MemoryError on a streaming window): a StreamingCache whose window_size claims 2^31
    frames makes its first call's kept frames that large; asked of the budget first: exit 2, in bound."""
    from binparse.formats.espdl.writers.fixtures import espdl_file
    x = (np.arange(6).reshape(1, 2, 3) % 100).reshape(-1).tolist()
    graph = {"name": "g", "inputs": [{"name": "x", "dims": [1, 2, 3], "dtype": "int8", "exponents": [-4]}],
             "outputs": [{"name": "y", "dims": [1, 4, 3], "dtype": "int8", "exponents": [-4]}],
             "nodes": [{"name": "s", "op_type": "StreamingCache", "inputs": ["x"], "outputs": ["y"],
                        "attributes": {"window_size": 2**31, "frame_axis": 1}}],
             "test_inputs": [{"name": "x", "dims": [1, 2, 3], "dtype": "int8", "exponents": [-4], "values": x}],
             "test_outputs": [{"name": "y", "dims": [1, 4, 3], "dtype": "int8", "exponents": [-4]}]}
    path = tmp_path / "window.espdl"
    path.write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    for args in (("export", path, "--check"), ("doctor", tmp_path)):
        r = run_cli(*args, timeout=120)
        said = r.stderr if args[0] == "export" else r.stdout
        assert r.returncode == 2 and "binparse failed" not in said, (args, r.returncode, said[-800:])
        assert "the kept frames of y:cache ([1, 2147483647, 3] float32: the StreamingCache's window_size) needs " \
               "25,769,803,764 bytes" in said, said[-800:]
        assert within(r, path.stat().st_size), (args, r.peak_rss)


def _shared_relu(path: Path, entries: int) -> Path:
    """An EDL2 model whose `entries` graph nodes are one Relu table (the same dict: one table, pointed at
    `entries` times): 4 bytes an entry."""
    from binparse.formats.espdl.writers.fixtures import espdl_file
    relu = {"name": "r", "op_type": "Relu", "inputs": ["x"], "outputs": ["y"], "attributes": {"quant_type": "S8"}}
    graph = {"name": "g", "inputs": [{"name": "x", "dims": [1, 4], "dtype": "int8", "exponents": [-7]}],
             "outputs": [{"name": "y", "dims": [1, 4], "dtype": "int8", "exponents": [-7]}], "nodes": [relu] * entries}
    path.write_bytes(espdl_file({"format": "EDL2", "graph": graph}))
    return path


def test_a_node_table_thousands_of_entries_share_is_exported_in_linear_time(tmp_path: Path) -> None:
    """Issue 44 item 8 (`export` of a model whose subgraphs share nodes: over 60 s). Each entry is exported
    as the node it is (6 ONNX nodes a Relu); the names they are given are found in linear time (they were
    searched from `#2` each time: quadratic, 314 s for 8,000 entries) and the ONNX graph is asked of the
    budget as it grows: 4,000 entries (16 KB) export in seconds, 130,000 (521 KB) are refused at once."""
    small = _shared_relu(tmp_path / "shared.espdl", 4000)
    assert small.stat().st_size == 16_848
    r = run_cli("export", small, "-o", tmp_path / "shared.onnx", timeout=60)
    assert r.returncode == 0 and r.seconds < 10, (r.returncode, r.seconds, r.stderr[-500:])
    assert r.stdout.startswith(f"{tmp_path / 'shared.onnx'}: ONNX opset 21, 24005 nodes, 1 input(s), 1 output(s)")
    assert within(r, small.stat().st_size), r.peak_rss
    big = _shared_relu(tmp_path / "many.espdl", 130_000)
    r = run_cli("export", big, "-o", tmp_path / "many.onnx", timeout=60)
    assert r.returncode == 2 and r.seconds < 10 and not (tmp_path / "many.onnx").exists(), (r.returncode, r.seconds)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert "the ONNX graph of the export (130,000 nodes, 520,000 names and attributes) needs 665,600,000 bytes" in r.stderr
    assert within(r, big.stat().st_size), r.peak_rss
