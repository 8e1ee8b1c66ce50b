"""`binparse explore`: one self-contained HTML page, driven in a real headless chromium on a file of
Kaitai's gallery: choosing a field highlights exactly the bytes `inspect --offsets` gives it, choosing a
byte selects the innermost field that covers it; names from the file stay text; a big file's bytes are
capped and the page says so."""

from __future__ import annotations

import html
import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from binparse.cli import main

from .test_dump import GALLERY, gallery

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BINPARSE_CACHE", str(tmp_path_factory.getbasetemp() / "ksy-cache"))


def dom(browser: str, page: Path, fragment: str, profile: Path) -> str:
    """The page's DOM once it has loaded with `#fragment` in its address (its script makes that choice)."""
    r = subprocess.run([browser, *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom",
                        page.as_uri() + "#" + fragment], capture_output=True, text=True, timeout=120)
    assert "<body" in r.stdout, r.stderr[-2000:]
    return r.stdout


def choices(text: str) -> list[dict[str, Any]]:
    """What the page chose, choice after choice: the field's path, its range, the highlighted hex cells."""
    body = re.search(r"<body([^>]*)>", text)
    assert body is not None
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', body.group(1)))
    log: list[dict[str, Any]] = json.loads(html.unescape(attrs["data-log"]))
    last = log[-1]  # the page as the last choice left it
    assert [int(o) for o in re.findall(r'<span class="b hl" data-o="(\d+)"', text)] == last["cells"]
    assert html.unescape(attrs["data-selected"]) == last["selected"]
    return log


def offsets(sample: Path, ksy: Path, path: str, capsys: pytest.CaptureFixture[str]) -> Any:
    assert main(["inspect", str(sample), "--schema", str(ksy), "--import-path", str(GALLERY), "--path", path,
                 "--offsets", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_choosing_a_field_or_a_byte_in_chromium(browser: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    ksy, sample = gallery("image/png/atch-zlib.png")
    page = tmp_path / "png.html"
    assert main(["explore", str(sample), "--schema", str(ksy), "--import-path", str(GALLERY), "-o", str(page)]) == 0
    # the root and the 63 rows of `inspect`s table
    assert capsys.readouterr().out == f"{page}: the explorer page of {sample}: 64 fields, 243 of 243 bytes\n"
    text = page.read_text()
    # self-contained: no address to load anything from, a policy that forbids it anyway
    assert not re.search(r"(src|href)=|https?:|//", text.replace("http-equiv", "")) and "default-src 'none'" in text
    fields = ("chunks[2].body.file_name", "chunks[0].body.entries[0].g", "ihdr", "chunks[1]")
    log = choices(dom(browser, page, "&".join([*(f"click={f}" for f in fields), "byte=100", "byte=18"]),
                      tmp_path / "profile"))
    for field, got in zip(fields, log):
        node = offsets(sample, ksy, field, capsys)
        assert (got["selected"], got["range"]) == (field, f"{node['start']} {node['end']}")
        assert got["cells"] == list(range(node["start"], node["end"]))  # exactly its bytes, on the page shown
    # a byte: the innermost field that covers it (byte 100 is in the file name "message.txt" at 96..108)
    assert log[4] == {"choice": "byte=100", "selected": "chunks[2].body.file_name", "range": "96 108",
                      "cells": list(range(96, 108))}
    assert log[5] == {"choice": "byte=18", "selected": "ihdr.width", "range": "16 20", "cells": [16, 17, 18, 19]}
    # a field in bytes a process made (a xar's zlib table of contents): the file bytes they were made from
    ksy, sample = gallery("archive/xar/sha1-dir.xar")
    assert main(["explore", str(sample), "--schema", str(ksy), "-o", str(page)]) == 0
    capsys.readouterr()
    toc = offsets(sample, ksy, "toc", capsys)
    assert (toc["start"], toc["end"], toc["fields"]["xml_string"]["stream"]) == (28, 306, "toc")
    log = choices(dom(browser, page, "click=toc.xml_string", tmp_path / "profile"))
    assert (log[0]["selected"], log[0]["range"], log[0]["cells"]) == ("toc.xml_string", "28 306", list(range(28, 306)))


def test_names_from_the_file_stay_text_and_big_files_are_capped(browser: str, tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """A file named like markup and text in it that closes a script are shown as text; with --max-bytes
    the page holds that many bytes, says so, and a field beyond still selects (its cells shown empty)."""
    ksy = tmp_path / "names.ksy"
    ksy.write_text("meta: {id: names}\nseq:\n  - {id: label, type: strz, encoding: ASCII}\n"
                   "  - {id: rest, size-eos: true}\n")
    sample = tmp_path / "<b>x.bin"
    label = b"</script><img src=x onerror=alert(1)>"
    sample.write_bytes(label + b"\0" + bytes(range(256)) * 8)
    page = tmp_path / "names.html"
    assert main(["explore", str(sample), "--schema", str(ksy), "-o", str(page), "--max-bytes", "1000"]) == 0
    out, err = capsys.readouterr()
    assert err == f"binparse: note: the page holds the first 1,000 of the file's {len(label) + 1 + 2048:,} bytes " \
                  "(--max-bytes): the hex view stops there\n"
    text = page.read_text()
    assert "<b>x.bin" not in text and "&lt;b&gt;x.bin" in text and "<img" not in text
    got = dom(browser, page, "click=rest&click=label", tmp_path / "profile")
    log = choices(got)
    assert (log[0]["selected"], log[0]["range"]) == ("rest", f"{len(label) + 1} {len(label) + 1 + 2048}")
    assert log[1] == {"choice": "click=label", "selected": "label", "range": f"0 {len(label) + 1}",
                      "cells": list(range(len(label) + 1))}
    assert "<img" not in got.split("<script")[0]  # the label is text in the tree, not an element
    assert "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in got
    assert "the page holds the first 1,000 of the file" in got
