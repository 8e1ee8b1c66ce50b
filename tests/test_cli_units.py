"""Units named wherever sizes appear (issue 39): a size in a report says whether it counts elements or bytes,
so that it reads against `view`'s errors (which speak bytes) without guessing."""

from __future__ import annotations

import pytest

from binparse.cli import main

from .conftest import FIXTURES, real


def _out(argv: list[str], capsys: pytest.CaptureFixture[str]) -> list[str]:
    main(argv)
    return capsys.readouterr().out.splitlines()


def _row(lines: list[str], first: str) -> list[str]:
    return next(line.split("  ") for line in lines if line.strip().startswith(first))


def test_io_table_names_elements_and_bytes(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _out(["inspect", str(FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin")], capsys)
    assert "inputs: 2 (pitches in elements)" in lines and "outputs: 3 (pitches in elements)" in lines
    head = next(line for line in lines if line.strip().startswith("#  name        dtype"))
    assert head.split()[-4:] == ["buf", "elements", "buf", "bytes"]
    cells = [c.strip() for c in _row(lines, "2  detections") if c.strip()]  # float32: 4 bytes an element
    assert cells[-2:] == ["1,400 (computed)", "5,600"]


def test_a_stored_buffer_size_is_elements_of_its_type(capsys: pytest.CaptureFixture[str]) -> None:
    """TI's outBufSize (10.x) counts elements: the real 10.00 dets output, float32 W5 x H200 with a padding
    channel, stores 2,000, which is 8,000 bytes."""
    lines = _out(["inspect", str(real("tidl/j7-10.00/od-8220/subgraph_0_tidl_io_1.bin"))], capsys)
    cells = [c.strip() for c in _row(lines, "0  dets") if c.strip()]
    assert cells[-2:] == ["2,000 (file)", "8,000"]
    cells = [c.strip() for c in _row(lines, "0  input") if c.strip()]
    assert cells[-2:] == ["1,638,400 (file)", "6,553,600"]


def test_am57x_param_table_says_byte_offsets_and_element_counts(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _out(["inspect", str(real("tidl/am57x/tidl_param_jdetNet_ssd.bin"))], capsys)
    assert lines[1].split() == ["tensor", "layer", "type", "byte", "offset", "dtype", "elements"]
    assert lines[4].split() == ["2.weights", "TIDL_ConvolutionLayer", "9", "uint8", "2400"]  # 1 + 3 + 2·3 bytes before


def test_info_printout_counts_elements(capsys: pytest.CaptureFixture[str]) -> None:
    lines = _out(["inspect", str(real("espdl/edl1-house-price/house_price.info"))], capsys)
    assert lines[lines.index("tensors:") + 1].split() == ["role", "name", "dtype", "dims", "exponents", "layout",
                                                          "elements"]
    assert _row(lines, "initializer  network.0.bias")[-1].strip() == "128"
