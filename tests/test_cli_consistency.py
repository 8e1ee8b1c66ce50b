"""One way to show each thing: versions in hex as the schema says, float32 values as their shortest
text, one meaning of each JSON key, and errors in the terms of who asked (Python or the command line)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import binparse
from binparse.cli import main
from binparse.core.errors import SchemaError
from binparse.core.render import json_text, shortest
from binparse.engine.dump.fields import value_text

from .conftest import FIXTURES, real

NET = FIXTURES / "tidl" / "net_10_01" / "914_tidl_net.bin"


def test_a_field_the_schema_marks_hex_is_hex_in_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--fields", str(NET)]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()[2:]}
    assert rows["net_version"] == ["net_version", "0", "u4", "0x20241120"]
    assert rows["num_layers"] == ["num_layers", "8", "i4", "3"]  # not marked: decimal
    assert main(["inspect", "--fields", "--json", str(NET)]) == 0
    fields = json.loads(capsys.readouterr().out)["fields"]
    assert fields["net_version"] == "0x20241120" and fields["num_layers"] == 3
    assert main(["inspect", "--json", str(NET)]) == 0
    assert json.loads(capsys.readouterr().out)["net_version"] == "0x20241120"  # the summary says it alike


def test_display_hex_is_a_checked_schema_key(tmp_path: Path) -> None:
    ksy = tmp_path / "x.ksy"
    ksy.write_text("meta: {id: x, endian: le}\nseq:\n  - id: magic\n    type: u4\n    -display: octal\n")
    with pytest.raises(SchemaError, match="-display takes only 'hex'"):
        binparse.load_schema(ksy)
    ksy.write_text("meta: {id: x, endian: le}\nseq:\n  - id: magic\n    type: u4\n    -display: hex\n")
    assert binparse.load_schema(ksy).root.seq[0].display == "hex"


def test_float32_values_print_as_their_shortest_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert shortest(float(np.float32(0.01))) == 0.01 and repr(shortest(float(np.float32(0.01)))) == "0.01"
    assert shortest(0.1) == 0.1 and shortest(1 / 3) == 1 / 3  # not float32 values: unchanged
    assert value_text(np.array([0.01, 0.5, 0.01], np.float32)) == "[0.01, 0.5, 0.01]"
    assert json_text({"s": float(np.float32(35.142269134521484))}) == '{\n "s": 35.14227\n}'
    io = real("tidl/j7-edgeai-benchmark/fastdepth/artifacts/424_tidl_io_1.bin")
    if not io.exists():
        pytest.skip("real vendor files not present")
    assert binparse.open(io).outputs[0].scale == 35.142269134521484  # the float32 the file holds
    assert main(["inspect", "--json", str(io)]) == 0
    assert json.loads(capsys.readouterr().out)["outputs"][0]["scale"] == 35.14227
    assert main(["inspect", "--fields", str(io)]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[2:]}
    assert rows["out_tensor_scale"].endswith("[35.14227, 0.0 ×31]")
    assert main(["inspect", str(io)]) == 0  # the report's column too (not 35.1423, another float32)
    assert capsys.readouterr().out.splitlines()[7].split()[7] == "35.14227"
    assert np.float32(35.14227) == np.float32(35.142269134521484)  # reads back as the same float32


def test_json_keys_mean_one_thing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["inspect", "--json", str(NET)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert main(["inspect", "--fields", "--json", str(NET)]) == 0
    fields = json.loads(capsys.readouterr().out)
    for doc in (summary, fields):
        assert (doc["format"], doc["version"], doc["size"]) == ("tidl.net.j7_10_01", "10.01", 5888)
        assert doc["format_version"] == "J7 TIDL 10.01 (layout inferred: a real file of a known model)"
    io = FIXTURES / "tidl" / "io_08x" / "900_tidl_io_1.bin"
    assert main(["inspect", "--json", str(io)]) == 0
    inspected = json.loads(capsys.readouterr().out)
    main(["doctor", "--json", str(io.parent)])
    doctored = json.loads(capsys.readouterr().out)["files"][0]
    for key, value in (("format", "tidl.io.j7_08"), ("format_version", "J7 TIDL 08.x (08_00 … 08_06)"),
                       ("version", "08.x")):  # the doctor's keys mean what inspect's mean
        assert inspected[key] == doctored[key] == value
    model = FIXTURES / "espdl" / "models" / "conv_c.espdl"
    assert main(["inspect", "--json", str(model)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["format"], doc["format_version"]) == ("espdl.edl2", "ESP-DL v3 EDL2")


def test_errors_name_python_arguments_in_python_and_options_on_the_command_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(binparse.FormatError) as exc:
        binparse.open(bytes(100))
    assert str(exc.value).endswith("Pass format=NAME if you know what it is (`binparse schemas` lists them)"
                                   "; a device buffer has no format of its own: its descriptor or a layout flag reads it (`binparse view --help`)")
    bad = tmp_path / "x.bin"
    bad.write_bytes(bytes(100))
    assert main(["inspect", str(bad)]) != 0
    assert capsys.readouterr().err.endswith("Pass --format NAME if you know what it is (`binparse schemas` lists "
                                            "them); a device buffer has no format of its own: its descriptor or a layout flag reads it (`binparse view --help`)\n")


def test_a_warning_the_output_says_is_not_printed_again(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import warnings
    data = bytearray(real("tidl/j7-10.01/ow-tiny/ow_tiny_net.bin").read_bytes())
    data[:4] = (0x20260101).to_bytes(4, "little")  # a netVersion binparse has no layout for: read with the nearest
    (tmp_path / "new_tidl_net.bin").write_bytes(bytes(data))
    said = "netVersion 0x20260101 (a version binparse does not know) has no verified layout"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the doctor's NOT VERIFIED line says it: no warning besides
        assert main(["doctor", str(tmp_path)]) == 2
    assert capsys.readouterr().out.count(said) == 1
    with pytest.warns(binparse.BinparseWarning, match=said.replace("(", r"\(").replace(")", r"\)")):  # view's output does not say it: the warning does
        assert main(["view", str(tmp_path / "new_tidl_net.bin"), "--tensor", "1.bias", "--npy",
                     str(tmp_path / "b.npy")]) == 0
    assert np.load(tmp_path / "b.npy").shape == (8,)


def test_a_warning_raised_twice_in_a_run_is_printed_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`inspect FOLDER` opens an io of a size no release writes twice (the folder's summary, then its report):
    the solver's warning is printed once (issue 39)."""
    import shutil
    import warnings
    shutil.copy(FIXTURES / "tidl" / "io_09_01_am68a" / "912_tidl_io_1.bin", tmp_path / "912_tidl_io_1.bin")
    shutil.copy(real("tidl/j7-edgeai-benchmark/fastdepth/artifacts/allowedNode.txt"), tmp_path / "allowedNode.txt")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert main(["inspect", str(tmp_path)]) == 2  # read with a layout no vendor file confirms
    said = [str(w.message) for w in caught]
    assert len(said) == 1 and said[0].startswith(f"{tmp_path / '912_tidl_io_1.bin'}: 37,912 bytes is no io size "
                                                 "binparse has seen: read as the 09.02 layout with IN 32, OUT 32, 1 core")
