"""`binparse doctor` never says "no problems" about what it could not read: unreadable artifacts
are named with the reason, text files named like artifacts are left alone, one bad file does not
stop the report, unverified layouts are named, and TI's printouts are compared with the files."""

from __future__ import annotations

import json
import shutil
import struct
import warnings
from pathlib import Path

import pytest

from binparse import family
from binparse.cli import main
from binparse.cli.doctor import doctor
from binparse.core.errors import BinparseWarning
from binparse.formats.tidl.net.versions import net_version_like
from binparse.family.lookalike import looks_like_artifact

from .conftest import FIXTURES, real

DEEPLAB = "tidl/j7-08.2/deeplabv3-ade20k"


def deeplab_folder(tmp_path: Path, *, net_version: int | None = None, printouts: bool = False,
                   wipe_layers: bool = False) -> Path:
    src = real(DEEPLAB)
    shutil.copy(src / "201_tidl_io_1.bin", tmp_path / "m_tidl_io_1.bin")
    net = bytearray((src / "201_tidl_net.bin").read_bytes())
    if net_version is not None:
        struct.pack_into("<I", net, 0, net_version)
    if wipe_layers:  # the 82 layers of 4,532 bytes after the 80-byte 8.2 header
        net[80:80 + 82 * 4532] = b"\xff" * (82 * 4532)
    (tmp_path / "m_tidl_net.bin").write_bytes(bytes(net))
    if printouts:
        shutil.copy(src / "201_tidl_net.bin_netLog.txt", tmp_path / "m_tidl_net.bin_netLog.txt")
        shutil.copy(src / "201_tidl_net.bin.layer_info.txt", tmp_path / "m_tidl_net.bin.layer_info.txt")
    return tmp_path


def test_a_net_no_layout_reads_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = deeplab_folder(tmp_path, net_version=0x20991231, wipe_layers=True)
    doc = doctor(folder)
    assert doc["status"] == "not verified" and doc["not_verified"] == ["m_tidl_net.bin"]  # unread: nothing proven
    files = {f["file"]: f for f in doc["files"]}
    assert files["m_tidl_net.bin"]["version"] == "unreadable"
    assert files["m_tidl_net.bin"]["error"].startswith(
        "no known layout reads this TIDL network (netVersion 0x20991231, a version binparse does not know)")
    assert "tried 8.2 layout (netVersion 0x20211201): layer 0 has type -1" in files["m_tidl_net.bin"]["error"]
    assert files["m_tidl_io_1.bin"]["format"] == "tidl.io.j7_08"  # the other file is still reported
    assert [f for f in doc["findings"] if f["level"] == "problem"] == []
    unread = [f for f in doc["findings"] if f["files"] == ["m_tidl_net.bin"]]
    assert len(unread) == 1 and unread[0]["level"] == "note"
    assert unread[0]["text"].startswith("not verified: m_tidl_net.bin looks like a tidl net.bin (named like "
                                        "*_tidl_net.bin) but could not be read: no known layout reads this TIDL network")
    assert main(["doctor", str(folder)]) == 2  # as `inspect` of it: could not be read (docs/contracts.md)
    assert main(["inspect", str(folder / "m_tidl_net.bin")]) == 2
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (f"binparse doctor {folder}: NOT VERIFIED: 1 file (m_tidl_net.bin: read only in "
                                   "part, with a layout no vendor file confirms, or not read); no problems in the other 1")
    assert "  m_tidl_net.bin: tidl net.bin unreadable (named like *_tidl_net.bin)" in out
    assert main(["doctor", "--json", str(folder)]) == 2
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(doc))  # the JSON carries the same


def test_a_net_read_with_the_nearest_layout_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = deeplab_folder(tmp_path, net_version=0x20991231)  # a netVersion no SDK has written (yet)
    with pytest.warns(BinparseWarning):
        doc = doctor(folder)
    # nothing is proven wrong and nothing confirmed: "not verified", neither a problem nor a plain "no problems"
    assert doc["status"] == "not verified" and doc["not_verified"] == ["m_tidl_net.bin"]
    assert [f for f in doc["findings"] if f["level"] == "problem"] == []
    (note,) = [f for f in doc["findings"] if f["text"].startswith("not verified:")]
    assert note["level"] == "note" and note["files"] == ["m_tidl_net.bin"]
    assert note["text"].startswith(
        "not verified: m_tidl_net.bin was read only in part or with a layout no vendor file confirms: netVersion "
        "0x20991231 (a version binparse does not know) has no verified layout: read with the 8.2 layout")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the report says it (NOT VERIFIED): the command does not warn besides
        assert main(["doctor", str(folder)]) == 2  # the contract: something not verified, no problem proven
    out = capsys.readouterr().out
    assert out.startswith(f"binparse doctor {folder}: NOT VERIFIED: 1 file (m_tidl_net.bin: read only in part, with "
                          "a layout no vendor file confirms, or not read); no problems in the other 1\n")


def test_artifacts_recognised_by_their_first_bytes(tmp_path: Path) -> None:
    net = real(DEEPLAB + "/201_tidl_net.bin").read_bytes()
    (tmp_path / "weights.bin").write_bytes(struct.pack("<I", 0x20991231) + net[4:4096])
    (tmp_path / "model.espdl").write_bytes(b"EDL9" + bytes(60))
    (tmp_path / "blob.bin").write_bytes(struct.pack("<I", 0x12345678) + bytes(60))  # no artifact: just unknown
    doc = doctor(tmp_path)
    why = {f["file"]: (f["family"], f["kind"], f["evidence"]) for f in doc["files"]}
    assert why == {"weights.bin": ("tidl", "net.bin", "first word 0x20991231 is a netVersion-like date"),
                   "model.espdl": ("espdl", ".espdl", "named like *.espdl")}
    assert doc["unknown_files"] == ["blob.bin"] and doc["status"] == "not verified"
    assert doc["not_verified"] == ["model.espdl", "weights.bin"]
    assert sorted(f["files"][0] for f in doc["findings"] if "could not be read" in f["text"]) == ["model.espdl", "weights.bin"]
    assert [net_version_like(v) for v in (0x20230802, 0x20241120, 0x20991231, 0x20231301, 0x2023080A, 0x19990101)] == [
        True, True, True, False, False, False]


def test_text_named_like_an_artifact_is_not_one(tmp_path: Path) -> None:
    (tmp_path / "x_tidl_net.bin").write_text('{"netVersion": "0x20230802", "layers": []}')
    (tmp_path / "y_tidl_io_1.bin").write_text("2023 notes about the io file\n")
    (tmp_path / "z.espdl").write_text("placeholder, model not exported yet\n")
    doc = doctor(tmp_path)
    assert doc["status"] == "nothing checked" and doc["files"] == [] and doc["findings"] == []
    assert doc["unknown_files"] == ["x_tidl_net.bin", "y_tidl_io_1.bin", "z.espdl"]
    assert looks_like_artifact(tmp_path / "x_tidl_net.bin") is None


def test_a_net_that_opens_but_cannot_be_read(tmp_path: Path) -> None:
    net = real(DEEPLAB + "/201_tidl_net.bin").read_bytes()
    (tmp_path / "cut_tidl_net.bin").write_bytes(net[:3000])  # the netVersion is known, the layers are cut off
    doc = doctor(tmp_path)
    (f,) = doc["files"]
    assert f["file"] == "cut_tidl_net.bin" and f["version"] == "unreadable" and f["error"]
    assert doc["status"] == "not verified" and doc["not_verified"] == ["cut_tidl_net.bin"]


def test_a_failing_check_does_not_hide_the_others(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = deeplab_folder(tmp_path)

    def broken(reports: list[family.FileReport], folder: Path) -> list[family.Finding]:
        raise KeyError("boom")
    monkeypatch.setattr(family, "_CHECKS", [broken, *family.checks()])
    doc = doctor(folder)
    assert doc["status"] == "not verified" and doc["not_verified"] == ["test_doctor_truth check"]  # a bug proves nothing
    assert doc["findings"][0] == {"level": "note", "files": [], "text": "not verified: binparse failed in the "
                                  "tests.test_doctor_truth check (KeyError: 'boom'); please report it"}
    assert any(f["text"].startswith("m_tidl_io_1.bin and m_tidl_net.bin agree") for f in doc["findings"])


def test_printouts_that_disagree_with_the_net(tmp_path: Path) -> None:
    folder = deeplab_folder(tmp_path, printouts=True)
    assert doctor(folder)["status"] == "ok"
    log = folder / "m_tidl_net.bin_netLog.txt"
    text = log.read_text()
    row = next(line for line in text.splitlines() if line.startswith("   80|"))  # the ArgMax layer
    log.write_text(text.replace(row, row.replace("       1        1      512      512 |    262144",
                                                     "       1        2      512      512 |    262144")))
    info = folder / "m_tidl_net.bin.layer_info.txt"
    info.write_text(info.read_text().replace("\n80 80 ArgMax", "\n80 79 ArgMax"))
    doc = doctor(folder)
    assert [f["text"] for f in doc["findings"] if f["level"] == "problem"] == [
        "m_tidl_net.bin_netLog.txt: layer 80: Out NCHW 1x2x512x512 in the netLog, 1x1x512x512 in the net's layer 80",
        "m_tidl_net.bin.layer_info.txt: layer 80: dataId 79 in layer_info, 80 in the net",
        "m_tidl_net.bin.layer_info.txt: dataId 79 is written by layers 79 and 80 in layer_info",
        "m_tidl_io_1.bin: output 'ArgMax': io says N,C,H,W 1x1x512x512, the netLog's layer 80 (TIDL_ArgMaxLayer) "
        "writes 1x2x512x512"]
    lines = log.read_text().splitlines()
    log.write_text("\n".join(line.replace("Num of Layer Detected :  82", "Num of Layer Detected :  81")
                             for line in lines if not line.startswith("   81|")))
    texts = [f["text"] for f in doctor(folder)["findings"]]
    assert "m_tidl_net.bin_netLog.txt: 81 layers in the netLog, 82 in the net" in texts
    assert "m_tidl_net.bin.layer_info.txt: 82 layers in layer_info, 81 in the netLog" in texts
    log.write_text("Num of Layer Detected :  3\n")  # a printout that cannot be read is named too
    texts = [f["text"] for f in doctor(folder)["findings"] if f["files"] == ["m_tidl_net.bin_netLog.txt"]]
    assert texts[0].startswith("not verified: m_tidl_net.bin_netLog.txt looks like a tidl printout (named like *_netLog.txt) but "
                               "could not be read: netLog has another number of rows than it declares")


def test_a_folder_of_folders_is_not_called_healthy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "good").mkdir()
    (tmp_path / "bad").mkdir()
    good = deeplab_folder(tmp_path / "good")
    bad = deeplab_folder(tmp_path / "bad", net_version=0x20991231, wipe_layers=True)
    (tmp_path / "notes.txt").write_text("model notes\n")
    assert doctor(tmp_path)["status"] == "nothing checked"
    assert main(["doctor", str(tmp_path)]) == 2  # nothing verified: never 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"binparse doctor {tmp_path}: NOTHING CHECKED: no artifact binparse knows is in this folder"
    assert f"  subfolders, not checked (`binparse doctor -r {tmp_path}` checks each): bad, good" in out
    assert main(["doctor", "-r", str(tmp_path)]) == 2
    heads = [line for line in capsys.readouterr().out.splitlines() if line.startswith("binparse doctor")]
    assert heads == [f"binparse doctor {bad}: NOT VERIFIED: 1 file (m_tidl_net.bin: read only in part, with a layout "
                     "no vendor file confirms, or not read); no problems in the other 1",
                     f"binparse doctor {good}: no problems found"]
    assert main(["doctor", "-r", "--json", str(good)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "ok" and [d["path"] for d in doc["folders"]] == [str(good)]


def test_an_unreadable_file_is_named_once_with_its_line_and_column(tmp_path: Path) -> None:
    """The doctor's line starts with the file's name; the error after it gives the place inside
    the file (line, column), not the file's path again."""
    (tmp_path / "bad.arch").write_text("arch_name: \"x\"\npe_array {\n  num_lanes: [\n}\n")
    doc = doctor(tmp_path)
    assert [f["text"] for f in doc["findings"]] == [
        "not verified: bad.arch looks like an intel_dla arch (named like *.arch) but could not be read: line 4, column 1: not an "
        "FPGA AI Suite architecture description (protobuf text format); found expected a value, found '}'. An .arch "
        "file is `name: value` lines and `group { ... }` blocks (IP Reference Manual, Architecture Description File "
        "Format)"]


def test_a_check_that_passes_over_a_file_leaves_it_not_verified(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The core's guarantee (issue 37): a check that reads every file of a kind (`reads=`) and says
    nothing of one (an `except ...: continue`) leaves that file "not verified", never "ok"."""
    shutil.copy(FIXTURES / "espdl" / "models" / "conv_c.espdl", tmp_path / "a.espdl")
    shutil.copy(FIXTURES / "espdl" / "models" / "edl1_gemm.espdl", tmp_path / "b.espdl")
    family.checks()  # the families' check modules imported: their `reads` declared
    real_checks = list(family._CHECKS)

    def drops_b(reports: list[family.FileReport], folder: Path) -> list[family.Finding]:
        return [family.Finding("ok", f"{r.name}: read", [r.name]) for r in reports if r.name == "a.espdl"]
    monkeypatch.setattr(family, "_CHECKS", [])
    monkeypatch.setattr(family, "_READS", {})
    family.register_check(reads=(("espdl", ".espdl"),))(drops_b)
    doc = doctor(tmp_path)
    assert doc["status"] == "not verified" and doc["not_verified"] == ["b.espdl"]
    assert doc["findings"] == [
        {"level": "ok", "text": "a.espdl: read", "files": ["a.espdl"]},
        {"level": "note", "files": ["b.espdl"], "text": "not verified: b.espdl (espdl .espdl): no check read it "
                                                         "(tests.test_doctor_truth passed over it); please report it"}]
    assert real_checks  # the families' own checks, back after the test (monkeypatch)


def test_no_family_check_passes_over_a_bundled_fixture() -> None:
    """Every artifact of every bundled fixture folder is named by a check that reads its kind."""
    from binparse.cli.doctor import doctor_tree
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        doc = doctor_tree(FIXTURES)
    passed = [f["text"] for d in doc["folders"] for f in d["findings"] if "no check read it" in f["text"]]
    assert passed == []
    assert len(doc["folders"]) >= 30 and family.read_by_checks()[("espdl", ".espdl")] == \
        "binparse.formats.espdl.model.doctor"
