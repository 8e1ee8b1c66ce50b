"""TI's printouts beside a J7 net (netLog, layer_info, paramDebug): the readers on the real files,
exact rows, and errors that name the file and the line."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from binparse.core.errors import FormatError
from binparse.formats.tidl.printouts.parse import LayerInfoRow, NetLogRow, read_layer_info, read_netlog, read_param_debug

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
    quote = tmp_path / "q_paramDebug.csv"  # a quote never closed: the csv module reads on to the end
    quote.write_text("LayerId , meanDifference\n" + '1,"0.1,0.2\n' + ("2," + "0.1," * 20 + "\n") * 2000)
    with pytest.raises(FormatError) as e:
        read_param_debug(quote)
    assert e.value.path == "line 2" and e.value.found == "field larger than field limit (131072) (read on to line 1601)"
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
    assert main(["inspect", str(fake)]) == 2  # a file that could not be read: exit 2 (docs/contracts.md)
    err = capsys.readouterr().err
    assert "not a TIDL netLog" in err and "Num of Layer Detected" in err


OD = "tidl/j7-10.00/od-8220"


def test_netlog_of_10_00_prints_six_dims() -> None:
    rows = read_netlog(real(OD + "/tempDir/subgraph_0_tidl_net.bin_netLog.txt"))
    assert len(rows) == 122
    assert rows[0] == NetLogRow(0, "TIDL_DataLayer", "input", 0, -1, 1, (), 0, (0,) * 6, (1, 1, 1, 3, 640, 640), 0)
    assert rows[2] == NetLogRow(2, "TIDL_ConvolutionLayer", "1", 0, 1, 1, (1,), 2, (1, 1, 1, 3, 640, 640),
                                (1, 1, 1, 12, 320, 320), 33177600)
    assert rows[118] == NetLogRow(118, "TIDL_OdOutputReformatLayer", "dets", 0, 1, 1, (117,), 118,
                                  (1, 1, 1, 1, 1, 1405), (1, 1, 1, 1, 200, 5), 0)
    assert rows[121] == NetLogRow(121, "TIDL_DataLayer", "labels", 0, 1, -1, (119,), 0, (1, 1, 1, 1, 1, 200),
                                  (0,) * 6, 0)
    info = read_layer_info(real(OD + "/tempDir/subgraph_0_tidl_net.bin.layer_info.txt"))
    assert len(info) == 122 and info[:2] == [LayerInfoRow(0, 0, "input"), LayerInfoRow(1, 1, "input_netFormat")]
    params = read_param_debug(real(OD + "/tempDir/subgraph_0_tidl_net.bin_paramDebug.csv"))
    assert len(params) == 168 and (params[0].layer_id, params[0].scale) == (2, 9979.720703)


def test_netlog_columns_are_found_by_the_header(tmp_path: Path) -> None:
    """A column a later SDK adds (here one between MACS and the dims) is kept, not misread."""
    head = ("Num of Layer Detected :   2 \n"
            "  Num|TIDL Layer Name  |Out Data Name |Group |#Ins  |#Outs |Inbuf Ids       |Outbuf Id |"
            "In NCHW          |Out NCHW             |Core Id |MACS  |\n")
    rows = ("    0|TIDL_DataLayer   |in            |     0|    -1|     1|  x   x   x   x |  0       |"
            "  0 0 0 0 0 0     |  1 1 1 3 8 8        |  0     |  0   |\n"
            "    1|TIDL_DataLayer   |out|x         |     0|     1|    -1|  0   x   x   x |  0       |"
            "  1 1 1 3 8 8     |  0 0 0 0 0 0        |  1     |  0   |\n")
    p = tmp_path / "n_tidl_net.bin_netLog.txt"
    p.write_text(head + rows)
    got = read_netlog(p)
    assert got[0] == NetLogRow(0, "TIDL_DataLayer", "in", 0, -1, 1, (), 0, (0,) * 6, (1, 1, 1, 3, 8, 8), 0,
                               (("Core Id", "0"),))
    assert got[1].out_name == "out|x" and got[1].in_ids == (0,) and got[1].extra == (("Core Id", "1"),)
    p.write_text(head + rows.replace("1 1 1 3 8 8        ", "1 3 8 8 8           ", 1).replace(
        "  0 0 0 0 0 0     |  1 3 8 8 8", "  0 0 0 0 0       |  1 3 8 8 8", 1))
    with pytest.raises(FormatError) as e:
        read_netlog(p)
    assert (e.value.message, e.value.path, e.value.found) == ("wrong number of values in In NCHW", "line 3", 5)


def test_doctor_reads_ti_folder_layout() -> None:
    from binparse.cli.doctor import doctor
    doc = doctor(real(OD))
    assert doc["status"] == "ok"
    t = "tempDir/subgraph_0_tidl_net.bin"
    assert [(f["level"], f["text"]) for f in doc["findings"]] == [
        ("note", "tempDir/ holds files that belong with this folder's (3 file(s)): checked together with them"),
        ("note", f"{t}_netLog.txt, {t}.layer_info.txt, {t}_paramDebug.csv not compared with subgraph_0_tidl_net.bin: "
                 "it is not in the folder"),
        ("ok", f"{t}.layer_info.txt and {t}_netLog.txt agree: 122 layers, dataIds and names"),
        ("ok", f"{t}_paramDebug.csv lists 84 layer(s) 2-8, 11-16, 18-19, 21-22, 25-30, 32-33, 35-36, 39-41, 49-53, "
               "55-56, 59-62, 64-65, 68-71, 73-81, 83, 85-88, 90-98, 100, 102-105, 107-115 (TIDL_ConvolutionLayer) "
               "of the netLog"),
        ("ok", f"subgraph_0_tidl_io_1.bin agrees with {t}_netLog.txt: 1 input(s) and 2 output(s) found by dataId "
               "with the same dims and name"),
        ("ok", f"made by TIDL 10.0-11.1: subgraph_0_tidl_io_1.bin (94,616 bytes) says 10.0-11.1 (the strongest), "
               f"{t}_netLog.txt (6 dims a tensor) says 9.1-11.2")]


def test_printout_check_matches_companion_names_to_the_folder_artifacts() -> None:
    """The check itself, given reports named as the core names companion files ("tempDir/<file>")."""
    import binparse
    from binparse.family import FileReport
    from binparse.formats.tidl.printouts.checks import check_printouts
    from binparse.formats.tidl.printouts.files import Printout

    io = binparse.open(real(OD + "/subgraph_0_tidl_io_1.bin"))
    log = Printout.read(real(OD + "/tempDir/subgraph_0_tidl_net.bin_netLog.txt"))
    reports = [FileReport("subgraph_0_tidl_io_1.bin", "tidl", "io_1.bin", format="tidl.io.j7_10.c1", obj=io),
               FileReport("tempDir/subgraph_0_tidl_net.bin_netLog.txt", "tidl", obj=log)]
    texts = [(f.level, f.text) for f in check_printouts(reports, real(OD))]
    assert texts == [
        ("note", "tempDir/subgraph_0_tidl_net.bin_netLog.txt not compared with subgraph_0_tidl_net.bin: it is not "
                 "in the folder"),
        ("ok", "subgraph_0_tidl_io_1.bin agrees with tempDir/subgraph_0_tidl_net.bin_netLog.txt: 1 input(s) and "
               "2 output(s) found by dataId with the same dims and name")]
    # an io whose output dims differ from what the netLog's layer writes: said with the six dims both carry
    rows = list(log.rows)
    rows[118] = dataclasses.replace(rows[118], out_nchw=(1, 1, 2, 1, 200, 5))
    reports[1] = FileReport(reports[1].name, "tidl", obj=Printout(log.file, log.kind, log.net, rows))
    problems = [f.text for f in check_printouts(reports, real(OD)) if f.level == "problem"]
    assert problems == ["subgraph_0_tidl_io_1.bin: output 'dets': io says N,D1,D2,C,H,W 1x1x1x1x200x5, the netLog's "
                        "layer 118 (TIDL_OdOutputReformatLayer) writes 1x1x2x1x200x5"]


def test_param_debug_columns_are_found_by_the_header(tmp_path: Path) -> None:
    """A named column a later SDK adds after Scale is kept; the histogram starts at "Hist"."""
    p = tmp_path / "n_tidl_net.bin_paramDebug.csv"
    p.write_text("LayerId , meanDifference, maxDifference, meanOrigFloat, meanRelDifference, orgmax, quantizedMax,"
                 "orgAtmaxDiff, quantizedAtMaxDiff,maxRelDifference, Scale , ZeroPoint, , , Hist \n"
                 "2,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,93.5, -3, , ,1,4,0,5,\n")
    (row,) = read_param_debug(p)
    assert (row.layer_id, row.scale, row.extra, row.hist.tolist()) == (2, 93.5, (("ZeroPoint", "-3"),), [1, 4, 0, 5])
