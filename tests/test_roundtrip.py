"""Writing back on real files: Kaitai's test suite and the gallery's samples (tests/roundtrip.py).

The default run takes a sample that covers every kind of outcome; `BINPARSE_ROUNDTRIP_ALL=1` runs
every file (docs/ksy.md gives the numbers of that run).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from binparse.engine import kaitai_ref

from . import roundtrip as rt
from .conftest import need

pytestmark = pytest.mark.skipif(not rt.SUITE.is_dir() or not rt.SAMPLES.is_dir(),
                                reason="../shared/conformance is absent")

# (case, pure outcome, what `why` starts with): each kind of outcome, on the files that show it
SAMPLE = {
    "suite/repeat_until_s4": ("identical", ""),
    "suite/term_strz": ("identical", ""),
    "suite/process_coerce_usertype1": ("identical", ""),
    "suite/zlib_with_header_78": ("identical", ""),
    "suite/index_to_param_until": ("identical", ""),
    "suite/fixed_struct": ("identical over the fields", "148 bytes after the root's fields"),
    "suite/expr_io_eof": ("identical over the fields", "136 bytes after the root's fields"),
    "suite/expr_io_pos_bits": ("identical over the fields", "9 bytes after the root's fields"),
    "suite/bits_byte_aligned": ("differs", "from byte 2; written where no value says how: the unused bits of a byte "
                                          "after bit-sized integers are written as zeros"),
    "suite/str_pad_term": ("differs", "from byte 28; written where no value says how: str_pad_term.str_term: the "
                                      "bytes after a value's terminator, up to its size, are written as Kaitai"),
    "suite/buffered_struct": ("differs", "from byte 12; written where no value says how: buffered_struct.block1: the "
                                         "bytes of a record with a size after its last field are written as zeros"),
    "suite/position_in_seq": ("refused", "position_in_seq.header: is an instance read at a position, which an "
                                         "expression needs"),
    "gallery/image/png/libpng-pngtest.png": ("differs", "from byte 8548; written where no value says how: "
                                                        "png.chunks[17].body.text: zlib data is compressed again"),
    "gallery/media/wav/small.wav": ("differs", "from byte 8; written where no value says how: wav.chunk.data_slot: "
                                               "the bytes of a record with a size after its last field"),
    "gallery/executable/java_class/LongType.class": ("identical", ""),
    "gallery/hardware/edid/edid-1.1.bin": ("identical over the fields", "74 bytes after the root's fields"),
}


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> list[rt.Outcome]:
    mp = pytest.MonkeyPatch()
    mp.setenv("BINPARSE_CACHE", str(tmp_path_factory.mktemp("ksy-cache")))
    try:
        cases = rt.every_case()
        return [rt.run(c) for c in (cases if rt.whole_run() else rt.sample(cases, tuple(SAMPLE)))]
    finally:
        mp.undo()


def test_the_sample_is_what_it_names(outcomes: list[rt.Outcome]) -> None:
    assert {o.case.name for o in outcomes} >= set(SAMPLE)


def test_every_file_read_comes_back_byte_for_byte_over_its_original(outcomes: list[rt.Outcome]) -> None:
    assert {o.case.name: o.edit for o in outcomes if o.read and o.edit != "identical"} == {}


def test_values_alone_build_the_file_or_say_why_not(outcomes: list[rt.Outcome]) -> None:
    got = {o.case.name: (o.pure, o.why) for o in outcomes if o.case.name in SAMPLE}
    for name, (pure, why) in SAMPLE.items():
        assert got[name][0] == pure and got[name][1].startswith(why), (name, got[name])
    assert [o.case.name for o in outcomes if "UNEXPLAINED" in o.why] == []
    refused = [o for o in outcomes if o.pure == "refused"]
    assert all("is an instance read at a position" in o.why for o in refused)


def test_the_whole_run(outcomes: list[rt.Outcome]) -> None:
    if not rt.whole_run():
        pytest.skip("the whole run: BINPARSE_ROUNDTRIP_ALL=1")
    suite = rt.tally([o for o in outcomes if o.case.name.startswith("suite/")])
    gallery = rt.tally([o for o in outcomes if o.case.name.startswith("gallery/")])
    print("suite", suite, "gallery", gallery)
    for o in outcomes:  # each file that values alone do not build byte for byte, and why (-s shows them)
        if o.read and o.pure not in ("identical", "identical over the fields"):
            print(f"{o.case.name}: {o.pure}: {o.why.splitlines()[0]}")
    assert suite["read"] == suite["edit identical"] and gallery["read"] == gallery["edit identical"]
    assert suite["pure identical"] + suite["pure identical over the fields"] >= 240


def test_values_alone_are_written_as_kaitai_writes_them(outcomes: list[rt.Outcome], tmp_path: Path) -> None:
    """Kaitai 0.11's own serialization (the Python `ksc --read-write` makes) writes what binparse's
    writer writes from the same values, byte for byte, on the suite's files both can write (240 of them
    in the whole run; Kaitai's side cannot compile or write some 34, binparse refuses 6)."""
    need("kaitai", kaitai_ref.available())
    suite = [o for o in outcomes if o.case.name.startswith("suite/") and o.read and o.pure != "refused"]
    formats = rt.SUITE / "formats"
    kaitai_ref.compile_schemas(sorted({o.case.schema for o in suite}), tmp_path, check=False, read_write=True,
                               import_path=[formats, formats / "ks_path"])
    compared, differ = 0, []
    for o in suite:
        theirs = rt.kaitai_write(o.case, tmp_path, len(o.built))
        if theirs is None:
            continue
        compared += 1
        if theirs != o.built:
            differ.append(o.case.name)
    assert differ == [] and compared >= (240 if rt.whole_run() else 9), (compared, differ)
