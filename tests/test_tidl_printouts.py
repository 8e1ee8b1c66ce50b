"""TI's printouts beside a J7 net (netLog, layer_info, paramDebug): the readers on the real files,
exact rows, and errors that name the file and the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from binparse.errors import FormatError
from binparse.formats.tidl.printouts import LayerInfoRow, NetLogRow, read_layer_info, read_netlog, read_param_debug

from .conftest import real

FCNN = "tidl/j7-09.x/fcnn-cnn5/_cnn_cnn.5_relu_Relu_output_0_tidl_net.bin"
DEEPLAB = "tidl/j7-08.2/deeplabv3-ade20k/201_tidl_net.bin"


def test_netlog_rows_of_a_9x_net() -> None:
    rows = read_netlog(real(FCNN + "_netLog.txt"))
    assert len(rows) == 10
    assert rows[0] == NetLogRow(0, "TIDL_DataLayer", "input", 0, -1, 1, (), 0, (0, 0, 0, 0), (1, 1, 32, 100), 0)
    assert rows[2] == NetLogRow(2, "TIDL_ConvolutionLayer", "/cnn/cnn.0/relu/Relu_output_0", 0, 1, 1, (1,), 2,
                                (1, 1, 32, 100), (1, 64, 32, 100), 1843200)
    assert rows[9] == NetLogRow(9, "TIDL_DataLayer", "/cnn/cnn.5/relu/Relu_output_0", 0, 1, -1, (8,), 0,
                                (1, 256, 8, 25), (0, 0, 0, 0), 0)
    assert [r.layer_type for r in rows].count("TIDL_ConvolutionLayer") == 4


def test_netlog_names_are_cut_to_their_last_50_characters() -> None:
    rows = read_netlog(real(DEEPLAB + "_netLog.txt"))
    info = read_layer_info(real(DEEPLAB + ".layer_info.txt"))
    assert len(rows) == len(info) == 82
    assert rows[0].out_name == "v/weights;MobilenetV2/Conv/Conv2D1/Mul/Bias/InCast" and len(rows[0].out_name) == 50
    assert info[0].name.endswith(rows[0].out_name) and rows[0].name_matches(info[0].name)
    assert not rows[0].name_matches("MobilenetV2/Conv/Conv2D1/Mul/Bias/InCast")  # a shorter name is another name
    assert rows[80].out_name == "ArgMax" and rows[80].name_matches("ArgMax")
    assert rows[64].out_id == 64 and info[64] == LayerInfoRow(64, 66, info[64].name)  # TI's two orders differ here


def test_layer_info_rows() -> None:
    info = read_layer_info(real(FCNN + ".layer_info.txt"))
    assert [(r.index, r.data_id) for r in info] == [(i, i) for i in range(9)] + [(9, 0)]
    assert info[7].name == "/cnn/cnn.5/relu/Relu_output_0_netFormat" and info[9].name == "input"


def test_param_debug_rows() -> None:
    rows = read_param_debug(real(FCNN + "_paramDebug.csv"))
    assert [r.layer_id for r in rows] == [2, 2, 4, 4, 6, 6, 7, 7]
    r = rows[0]
    assert (r.mean_difference, r.max_difference, r.mean_orig_float, r.scale) == (0.002684, 0.005295, 0.160222, 93.927742)
    assert (r.org_max, r.quantized_max, r.max_rel_difference) == (1.36275, 1.36275, 9.27238)
    assert r.hist.shape == (1000,) and r.hist[:6].tolist() == [1, 4, 0, 5, 1, 4]
    assert read_param_debug(real("tidl/j7-09.x/east-mobilenet/625_tidl_net.bin_paramDebug.csv")) == []  # header only


def test_bad_printouts_name_the_file_and_line(tmp_path: Path) -> None:
    text = real(FCNN + "_netLog.txt").read_text()
    cut = tmp_path / "a_netLog.txt"
    cut.write_text("\n".join(text.splitlines()[:8]))
    with pytest.raises(FormatError) as e:
        read_netlog(cut)
    assert e.value.file == str(cut) and e.value.expected == "10 (Num of Layer Detected)" and e.value.found == 4
    bad = tmp_path / "b_netLog.txt"
    bad.write_text(text.replace("   1843200 |", "   18432x0 |"))
    with pytest.raises(FormatError) as e:
        read_netlog(bad)
    assert e.value.path == "line 7" and e.value.found == "18432x0" and "MACS" in str(e.value)
    other = tmp_path / "c_netLog.txt"
    other.write_text('{"layers": []}')
    with pytest.raises(FormatError, match="not a TIDL netLog"):
        read_netlog(other)
    csv = tmp_path / "d_paramDebug.csv"
    csv.write_text("LayerId , meanDifference\n2,0.1,0.2\n")
    with pytest.raises(FormatError) as e:
        read_param_debug(csv)
    assert e.value.path == "line 2" and e.value.found == 3
    info = tmp_path / "e.layer_info.txt"
    info.write_text("0 0 input\nseven 1 x\n")
    with pytest.raises(FormatError) as e:
        read_layer_info(info)
    assert e.value.path == "line 2" and e.value.found == "seven"


def test_inspect_shows_a_printout_not_a_net(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from binparse.cli import main
    log = real(FCNN + "_netLog.txt")
    assert main(["inspect", "--json", str(log)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["family"], doc["kind"], doc["net"]) == ("tidl", "netLog printout", FCNN.rsplit("/", 1)[1])
    assert len(doc["rows"]) == 10
    assert doc["rows"][2] == {"index": 2, "layer_type": "TIDL_ConvolutionLayer", "out_name": "/cnn/cnn.0/relu/Relu_output_0",
                              "group": 0, "num_in": 1, "num_out": 1, "in_ids": [1], "out_id": 2,
                              "in_nchw": [1, 1, 32, 100], "out_nchw": [1, 64, 32, 100], "macs": 1843200,
                              "extra": {}}
    assert main(["inspect", str(real(FCNN + ".layer_info.txt"))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("TI layer_info printout of _cnn_cnn.5_relu_Relu_output_0_tidl_net.bin: 10 rows")
    assert lines[3].split() == ["1", "1", "input_netFormat"]
    assert main(["inspect", "--json", str(real(FCNN + "_paramDebug.csv"))]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["layer_id"] for r in rows] == [2, 2, 4, 4, 6, 6, 7, 7]
    fake = tmp_path / "m_tidl_net.bin_netLog.txt"  # named like a printout, but is not one
    fake.write_text("notes\n")
    assert main(["inspect", str(fake)]) == 3
    err = capsys.readouterr().err
    assert "not a TIDL netLog" in err and "Num of Layer Detected" in err
